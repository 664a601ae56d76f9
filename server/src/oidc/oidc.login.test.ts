// Signing in with a single sign-on provider, against a real OpenID provider on loopback
// (server/test/oidc-provider.ts): the whole flow, and each refusal without a session.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createContact } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import {
  createSsoProvider,
  type SsoProvider,
  silentServer,
  startOidcProvider,
  type TestIdp,
  unreachableUrl,
} from '../../test/oidc-provider.ts';
import { openState, sealState, STATE_COOKIE } from './oidc.flow.ts';

type Answer = LightMyRequestResponse & { json: () => unknown };

describe('single sign-on: signing in', () => {
  let t: TestApp;
  let idp: TestIdp;
  let provider: SsoProvider;
  let ann: Caller;

  before(async () => {
    // Many sign-ins from one address: the per-address limit is tested on its own below.
    t = await buildTestApp({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '100000' } });
    idp = await startOidcProvider();
    ann = await t.makeAgent({ roles: ['Agent'], first_name: 'Ann' });
    // The provider's address in another case: emails are compared case-insensitively.
    idp.addAccount('ann', { email: ann.email.toUpperCase(), email_verified: true, given_name: 'Ann' });
    provider = await createSsoProvider(t, idp);
  });
  after(async () => {
    await t.close();
    await idp.close();
  });

  const cookieOf = (res: Answer, name: string) => res.cookies.find((c) => c.name === name);

  async function start(p: { id: number }, next?: string): Promise<{ location: URL; cookie: string; res: Answer }> {
    const query = next === undefined ? '' : `?next=${encodeURIComponent(next)}`;
    const res = await t.call({ method: 'GET', url: `/api/v1/oidc/${p.id}/login${query}`, as: null });
    assert.equal(res.statusCode, 302, res.body);
    const cookie = cookieOf(res, STATE_COOKIE);
    assert.ok(cookie, 'the state cookie is set');
    return { location: new URL(String(res.headers.location)), cookie: cookie.value, res };
  }

  function finish(p: { id: number }, callback: URL, cookie?: string, headers: Record<string, string> = {}) {
    return t.call({
      method: 'GET',
      url: `/api/v1/oidc/${p.id}/finish${callback.search}`,
      as: null,
      headers: { ...(cookie === undefined ? {} : { cookie: `${STATE_COOKIE}=${cookie}` }), ...headers },
    });
  }

  /** Signs `account` in at the provider from a fresh login; answers the finish response. */
  async function signIn(p: { id: number }, account: string, next?: string): Promise<Answer> {
    const { location, cookie } = await start(p, next);
    return finish(p, await idp.signIn(location.href, account), cookie);
  }

  const sessionCount = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A refusal: this status and type, no session opened, the state cookie cleared. */
  async function assertRefused(res: Answer, status: number, type: string, sessionsBefore: number, label = ''): Promise<string> {
    const body = assertError(res, status, type, label);
    assert.equal(cookieOf(res, 'parley_session'), undefined, `${label}: no session cookie`);
    assert.equal(cookieOf(res, 'csrf_token'), undefined, `${label}: no CSRF cookie`);
    const cleared = cookieOf(res, STATE_COOKIE);
    assert.ok(cleared && cleared.value === '' && cleared.maxAge === 0, `${label}: the state cookie is cleared`);
    assert.equal(await sessionCount(), sessionsBefore, `${label}: no session row`);
    return body.message;
  }

  it('signs an agent in end to end: the session and CSRF work, last_login_at is set, the state cookie is cleared', async () => {
    const res = await signIn(provider, 'ann', '/inbox/3?tab=mine');
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(res.headers.location, 'http://localhost:9000/inbox/3?tab=mine');
    const cleared = cookieOf(res, STATE_COOKIE);
    assert.ok(cleared && cleared.value === '' && cleared.maxAge === 0);
    const session = cookieOf(res, 'parley_session');
    const csrf = cookieOf(res, 'csrf_token');
    assert.ok(session && csrf);
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');
    assert.equal(csrf.httpOnly, undefined);
    const cookie = `parley_session=${session.value}; csrf_token=${csrf.value}`;
    const me = dataOf<{ id: number; email: string; last_login_at: string | null }>(
      await t.call({ method: 'GET', url: '/api/v1/agents/me', as: null, headers: { cookie } }),
    );
    assert.equal(me.id, ann.id);
    assert.ok(me.last_login_at);
    const availability = { status: 'away' };
    const write = { method: 'PUT' as const, url: '/api/v1/agents/me/availability', as: null, payload: availability };
    assertError(await t.call({ ...write, headers: { cookie } }), 403, 'PermissionException');
    dataOf(await t.call({ ...write, headers: { cookie, 'x-csrf-token': csrf.value } }));
  });

  it('asks for the code flow with openid email profile, state, nonce and PKCE S256; the state cookie is sealed', async () => {
    const { location, res } = await start(provider, '/reports');
    assert.equal(location.origin, idp.issuer);
    const params = location.searchParams;
    assert.equal(params.get('response_type'), 'code');
    assert.equal(params.get('client_id'), provider.client_id);
    assert.equal(params.get('redirect_uri'), provider.redirect_uri);
    assert.deepEqual(params.get('scope')?.split(' ').sort(), ['email', 'openid', 'profile']);
    assert.equal(params.get('code_challenge_method'), 'S256');
    assert.match(params.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok((params.get('state') ?? '').length >= 32);
    assert.ok((params.get('nonce') ?? '').length >= 32);
    const cookie = cookieOf(res, STATE_COOKIE)!;
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(cookie.path, '/api/v1/oidc');
    assert.equal(cookie.maxAge, 600);
    assert.equal(cookie.secure, undefined, 'BASE_URL is http here');
    // Encrypted: neither the state, the nonce nor `next` can be read from it.
    for (const clear of [params.get('state')!, params.get('nonce')!, 'reports'])
      assert.equal(decodeURIComponent(cookie.value).includes(clear), false);
  });

  it('lands on / without next; takes the email from the ID token when the provider puts it there', async () => {
    const res = await signIn(provider, 'ann');
    assert.equal(res.headers.location, 'http://localhost:9000/');
    // Keycloak and Google put email and email_verified in the ID token: no userinfo call is needed.
    const inToken = await startOidcProvider({ conformIdTokenClaims: false });
    try {
      inToken.addAccount('ann', { email: ann.email, email_verified: true });
      const other = await createSsoProvider(t, inToken);
      const { location, cookie } = await start(other, '/x');
      const done = await finish(other, await inToken.signIn(location.href, 'ann'), cookie);
      assert.equal(done.statusCode, 302, done.body);
      assert.equal(done.headers.location, 'http://localhost:9000/x');
    } finally {
      await inToken.close();
    }
  });

  it('refuses a next that leaves the site (400) and sets no cookie', async () => {
    for (const next of [
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'evil.example',
      'javascript:alert(1)',
      '/\tevil',
      '/a\u0085b',
      ' /x',
    ]) {
      const res = await t.call({ method: 'GET', url: `/api/v1/oidc/${provider.id}/login?next=${encodeURIComponent(next)}`, as: null });
      const body = assertError(res, 400, 'InputException', JSON.stringify(next));
      assert.match(body.message, /next/);
      assert.equal(cookieOf(res, STATE_COOKIE), undefined);
    }
    assertError(await t.call({ method: 'GET', url: `/api/v1/oidc/${provider.id}/login?next=%00`, as: null }), 400, 'InputException');
    assertError(
      await t.call({ method: 'GET', url: `/api/v1/oidc/${provider.id}/login?next=/${'a'.repeat(3000)}`, as: null }),
      400,
      'InputException',
    );
    assertError(await t.call({ method: 'GET', url: `/api/v1/oidc/${provider.id}/login?redirect=/x`, as: null }), 400, 'InputException');
  });

  it('refuses a tampered state (403), and a missing, altered or expired state cookie (400), without a session', async () => {
    const sessions = await sessionCount();
    const { location, cookie } = await start(provider);
    const callback = await idp.signIn(location.href, 'ann');

    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    assert.match(
      await assertRefused(await finish(provider, tampered, cookie), 403, 'PermissionException', sessions, 'tampered state'),
      /state/,
    );
    const noState = new URL(callback);
    noState.searchParams.delete('state');
    await assertRefused(await finish(provider, noState, cookie), 403, 'PermissionException', sessions, 'no state');

    assert.match(await assertRefused(await finish(provider, callback), 400, 'InputException', sessions, 'no cookie'), /start again/);
    const altered = `${cookie.slice(0, -2)}${cookie.endsWith('A') ? 'B' : 'A'}${cookie.slice(-1)}`;
    await assertRefused(await finish(provider, callback, altered), 400, 'InputException', sessions, 'altered cookie');
    await assertRefused(await finish(provider, callback, 'not-a-sealed-state'), 400, 'InputException', sessions, 'garbage cookie');
    const expired = sealState(t.deps, {
      purpose: 'oidc-login',
      provider_id: provider.id,
      state: callback.searchParams.get('state')!,
      nonce: location.searchParams.get('nonce')!,
      code_verifier: 'v'.repeat(43),
      next: '/',
      expires_at: Date.now() - 1000,
    });
    await assertRefused(await finish(provider, callback, expired), 400, 'InputException', sessions, 'expired cookie');
  });

  it('refuses the state cookie of a sign-in started with another provider (400)', async () => {
    const sessions = await sessionCount();
    const other = await createSsoProvider(t, idp);
    const { location, cookie } = await start(provider);
    const callback = await idp.signIn(location.href, 'ann');
    const message = await assertRefused(await finish(other, callback, cookie), 400, 'InputException', sessions);
    assert.match(message, /another single sign-on provider/);
  });

  it('refuses an ID token issued for another nonce (401): asked of the provider, or changed in the sealed state', async () => {
    const sessions = await sessionCount();
    const { location, cookie } = await start(provider);
    const forged = new URL(location);
    forged.searchParams.set('nonce', 'a-nonce-this-browser-never-sent-0123456789');
    const message = await assertRefused(
      await finish(provider, await idp.signIn(forged.href, 'ann'), cookie),
      401,
      'UnauthorizedException',
      sessions,
    );
    assert.match(message, /verification \(claim nonce\)/);

    // The state cookie's own nonce changed (sealed with the key, as only the server can): the code exchange
    // itself succeeds (same verifier), the ID token's nonce no longer matches.
    const second = await start(provider);
    const callback = await idp.signIn(second.location.href, 'ann');
    const saved = openState(t.deps, decodeURIComponent(second.cookie));
    const resealed = sealState(t.deps, { ...saved, nonce: 'another-nonce-0123456789abcdefghijklmnopqrstu' });
    const tampered = await assertRefused(await finish(provider, callback, resealed), 401, 'UnauthorizedException', sessions);
    assert.match(tampered, /claim nonce/);
  });

  it('refuses a code sent with another PKCE challenge, and a code used twice (401)', async () => {
    const sessions = await sessionCount();
    const { location, cookie } = await start(provider);
    const otherChallenge = new URL(location);
    otherChallenge.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    const message = await assertRefused(
      await finish(provider, await idp.signIn(otherChallenge.href, 'ann'), cookie),
      401,
      'UnauthorizedException',
      sessions,
    );
    assert.match(message, /invalid_grant/);

    const good = await start(provider);
    const callback = await idp.signIn(good.location.href, 'ann');
    assert.equal((await finish(provider, callback, good.cookie)).statusCode, 302);
    // A replay of the whole answer (the cookie kept by an attacker): the provider refuses the used code.
    const replayed = await sessionCount();
    await assertRefused(await finish(provider, callback, good.cookie), 401, 'UnauthorizedException', replayed, 'replay');
  });

  it('refuses when the provider reports an error (?error=access_denied): 401', async () => {
    const sessions = await sessionCount();
    const { location, cookie } = await start(provider);
    const callback = await idp.signIn(location.href, 'ann', { deny: true });
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    const message = await assertRefused(await finish(provider, callback, cookie), 401, 'UnauthorizedException', sessions);
    assert.match(message, /access_denied/);
  });

  it('refuses an unverified email, no email, an unknown agent, a contact, a disabled agent (401)', async () => {
    const unverified = await t.makeAgent({ roles: ['Agent'] });
    idp.addAccount('unverified', { email: unverified.email, email_verified: false });
    idp.addAccount('no-email', { email: '', email_verified: true });
    idp.addAccount('stranger', { email: `stranger-${process.pid}@example.com`, email_verified: true });
    const contact = await createContact(t);
    idp.addAccount('contact', { email: String(contact.email), email_verified: true });
    const disabled = await t.makeAgent({ roles: ['Agent'] });
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${disabled.id}`, payload: { enabled: false } }));
    idp.addAccount('disabled', { email: disabled.email, email_verified: true });

    const agents = async () => (await t.deps.db.selectFrom('users').where('type', '=', 'agent').select('id').execute()).length;
    const agentsBefore = await agents();
    const sessions = await sessionCount();
    const expectations: Array<[string, RegExp]> = [
      ['unverified', /not verified/],
      ['no-email', /no usable email/],
      ['stranger', /No agent has the email/],
      ['contact', /No agent has the email/],
      ['disabled', /disabled/],
    ];
    for (const [account, reason] of expectations) {
      const message = await assertRefused(await signIn(provider, account), 401, 'UnauthorizedException', sessions, account);
      assert.match(message, reason, account);
    }
    assert.equal(await agents(), agentsBefore, 'no agent was created');
  });

  it('refuses a disabled or deleted provider (404), at login and when the browser comes back', async () => {
    const sessions = await sessionCount();
    const doomed = await createSsoProvider(t, idp);
    const { location, cookie } = await start(doomed);
    const callback = await idp.signIn(location.href, 'ann');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/oidc/${doomed.id}`, payload: { ...bodyOf(doomed), enabled: false } }));
    await assertRefused(await finish(doomed, callback, cookie), 404, 'NotFoundException', sessions, 'disabled at finish');
    assertError(await t.call({ method: 'GET', url: `/api/v1/oidc/${doomed.id}/login`, as: null }), 404, 'NotFoundException');

    const deleted = await createSsoProvider(t, idp);
    const again = await start(deleted);
    const back = await idp.signIn(again.location.href, 'ann');
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/oidc/${deleted.id}` }));
    await assertRefused(await finish(deleted, back, again.cookie), 404, 'NotFoundException', sessions, 'deleted at finish');
    assertError(await t.call({ method: 'GET', url: `/api/v1/oidc/${deleted.id}/login`, as: null }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'GET', url: '/api/v1/oidc/999999/login', as: null }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'GET', url: '/api/v1/oidc/nope/finish', as: null }), 404, 'NotFoundException');
  });

  it('auto-provisioning creates the agent with the provider’s role and signs it in; off, the same person is refused', async () => {
    const roles = dataOf<Array<{ id: number; name: string }>>(await t.call({ method: 'GET', url: '/api/v1/roles' }));
    const custom = dataOf<{ id: number; name: string }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/roles',
        payload: { name: `SSO newcomers ${process.pid}`, permissions: ['messages:read'] },
      }),
    );
    assert.ok(roles.length > 0);
    const email = `newcomer-${process.pid}@example.com`;
    idp.addAccount('newcomer', { email, email_verified: true, given_name: 'Nora', family_name: 'Newcomer' });
    const sessions = await sessionCount();
    await assertRefused(await signIn(provider, 'newcomer'), 401, 'UnauthorizedException', sessions, 'provisioning off');

    const provisioning = await createSsoProvider(t, idp, { auto_provision: true, provision_role_id: custom.id });
    const res = await signIn(provisioning, 'newcomer', '/welcome');
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(res.headers.location, 'http://localhost:9000/welcome');
    const session = cookieOf(res, 'parley_session')!;
    const me = dataOf<{ email: string; first_name: string; last_name: string; roles: string[]; permissions: string[]; enabled: boolean }>(
      await t.call({ method: 'GET', url: '/api/v1/agents/me', as: null, headers: { cookie: `parley_session=${session.value}` } }),
    );
    assert.equal(me.email, email);
    assert.equal(me.first_name, 'Nora');
    assert.equal(me.last_name, 'Newcomer');
    assert.deepEqual(me.roles, [custom.name]);
    assert.deepEqual(me.permissions, ['messages:read']);
    // The second time, the agent exists: signed in, not created again.
    const second = await signIn(provisioning, 'newcomer');
    assert.equal(second.statusCode, 302, second.body);
    const count = await t.deps.db.selectFrom('users').where('email', '=', email).select('id').execute();
    assert.equal(count.length, 1);
  });

  it('a changed provider is used at once: a wrong client secret now fails the token exchange (502: our settings, not the person)', async () => {
    const changing = await createSsoProvider(t, idp);
    assert.equal((await signIn(changing, 'ann')).statusCode, 302);
    dataOf(
      await t.call({
        method: 'PUT',
        url: `/api/v1/oidc/${changing.id}`,
        payload: { ...bodyOf(changing), client_secret: 'not-the-secret' },
      }),
    );
    const sessions = await sessionCount();
    const message = await assertRefused(await signIn(changing, 'ann'), 502, 'NetworkException', sessions);
    assert.match(message, /invalid_client/);
    assert.match(message, /client id, secret/);
  });

  it('any instance finishes a sign-in another started: the state travels in the cookie', async () => {
    const second = await t.secondInstance();
    try {
      const { location, cookie } = await start(provider, '/elsewhere');
      const callback = await idp.signIn(location.href, 'ann');
      const res = await second.app.inject({
        method: 'GET',
        url: `/api/v1/oidc/${provider.id}/finish${callback.search}`,
        headers: { cookie: `${STATE_COOKIE}=${cookie}` },
      });
      assert.equal(res.statusCode, 302, res.body);
      assert.equal(res.headers.location, 'http://localhost:9000/elsewhere');
    } finally {
      await second.close();
    }
  });

  it('a browser gets a page for a refusal, with the reason escaped; other clients get the envelope', async () => {
    const { location, cookie } = await start(provider);
    const callback = await idp.signIn(location.href, 'ann', { deny: true });
    const page = await finish(provider, callback, cookie, { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' });
    assert.equal(page.statusCode, 401);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.body, /Sign-in failed/);
    assert.match(page.body, /access_denied/);
    assert.match(page.body, /href="http:\/\/localhost:9000\/"/);
    assert.equal(cookieOf(page, 'parley_session'), undefined);
    // A provider's error text is shown escaped, never as markup.
    const crafted = new URL(callback);
    crafted.searchParams.set('error_description', '<script>alert(1)</script>');
    const second = await start(provider);
    crafted.searchParams.set('state', (await idp.signIn(second.location.href, 'ann', { deny: true })).searchParams.get('state')!);
    const escaped = await finish(provider, crafted, second.cookie, { accept: 'text/html' });
    assert.equal(escaped.statusCode, 401);
    assert.equal(escaped.body.includes('<script>'), false);
    assert.match(escaped.body, /&#60;script&#62;/);
    // The login route too: an off-site next, as a page.
    const login = await t.call({
      method: 'GET',
      url: `/api/v1/oidc/${provider.id}/login?next=//evil.example`,
      as: null,
      headers: { accept: 'text/html' },
    });
    assert.equal(login.statusCode, 400);
    assert.match(String(login.headers['content-type']), /^text\/html/);
  });
});

function bodyOf(p: SsoProvider & { clientSecret: string }) {
  return { name: p.name, provider: p.provider, provider_url: p.provider_url, client_id: p.client_id, client_secret: p.clientSecret };
}

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
