// Single sign-on when the provider is down or slow, and the per-address limit of the sign-in routes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { type SsoProvider, silentServer, unreachableUrl } from '../../test/oidc-provider.ts';

describe('single sign-on: the provider down, slow, or called too often', () => {
  let t: TestApp;
  let silent: Awaited<ReturnType<typeof silentServer>>;

  before(async () => {
    t = await buildTestApp({ env: { OIDC_TIMEOUT_SECONDS: '1', LOGIN_RATE_LIMIT_PER_MINUTE: '4' } });
    silent = await silentServer();
  });
  after(async () => {
    await t.close();
    await silent.close();
  });

  const create = async (name: string, providerUrl: string) =>
    dataOf<SsoProvider>(
      await t.call({
        method: 'POST',
        url: '/api/v1/oidc',
        payload: { name, provider_url: providerUrl, client_id: 'parley', client_secret: 'secret-value' },
      }),
    );

  it('a provider that is down is a 502, one that does not answer in time a 504; no cookie is set', async () => {
    const down = await create('Down', await unreachableUrl());
    const refused = await t.call({ method: 'GET', url: `/api/v1/oidc/${down.id}/login`, as: null });
    assert.match(assertError(refused, 502, 'NetworkException').message, /could not be reached/);
    assert.equal(refused.cookies.length, 0);

    const slow = await create('Slow', silent.url);
    const startedAt = Date.now();
    const timedOut = await t.call({ method: 'GET', url: `/api/v1/oidc/${slow.id}/login`, as: null });
    assert.match(assertError(timedOut, 504, 'NetworkException').message, /within 1 s/);
    assert.ok(Date.now() - startedAt < 5000, 'the timeout applies');
  });

  it('limits sign-ins per client address (LOGIN_RATE_LIMIT_PER_MINUTE): 429 with Retry-After', async () => {
    const down = await create('Limited', await unreachableUrl());
    let limited: Awaited<ReturnType<TestApp['call']>> | undefined;
    for (let i = 0; i < 6 && !limited; i += 1) {
      const res = await t.call({ method: 'GET', url: `/api/v1/oidc/${down.id}/finish`, as: null });
      if (res.statusCode === 429) limited = res;
    }
    assert.ok(limited, 'the limit was reached');
    assertError(limited, 429, 'RateLimitException');
    assert.ok(Number(limited.headers['retry-after']) > 0);
  });
});
