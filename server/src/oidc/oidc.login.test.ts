// Signing in with a single sign-on provider, against a real OpenID provider on loopback
// (server/test/oidc-provider.ts): the whole flow, provisioning, and what any instance can do.
// The refusals are in oidc.refusals.test.ts, the provider's failures in oidc.upstream.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, dataOf } from '../../test/helpers.ts';
import {
  cookieOf,
  createSsoProvider,
  providerBody,
  type SignInFixture,
  startOidcProvider,
  startSignInFixture,
} from '../../test/oidc-provider.ts';
import { STATE_COOKIE } from './oidc.flow.ts';

describe('single sign-on: signing in', () => {
  let sso: SignInFixture;
  before(async () => {
    sso = await startSignInFixture();
  });
  after(() => sso.close());

  it('signs an agent in end to end: the session and CSRF work, last_login_at is set, the state cookie is cleared', async () => {
    const { t, provider, ann, driver } = sso;
    const res = await driver.signIn(provider, 'ann', '/inbox/3?tab=mine');
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
    const { idp, provider, driver } = sso;
    const { location, res } = await driver.start(provider, '/reports');
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
    const { t, provider, ann, driver } = sso;
    const res = await driver.signIn(provider, 'ann');
    assert.equal(res.headers.location, 'http://localhost:9000/');
    // Keycloak and Google put email and email_verified in the ID token: no userinfo call is needed.
    const inToken = await startOidcProvider({ conformIdTokenClaims: false });
    try {
      inToken.addAccount('ann', { email: ann.email, email_verified: true });
      const other = await createSsoProvider(t, inToken);
      const { location, cookie } = await driver.start(other, '/x');
      const done = await driver.finish(other, await inToken.signIn(location.href, 'ann'), cookie);
      assert.equal(done.statusCode, 302, done.body);
      assert.equal(done.headers.location, 'http://localhost:9000/x');
    } finally {
      await inToken.close();
    }
  });

  it('auto-provisioning creates the agent with the provider’s role and signs it in; off, the same person is refused', async () => {
    const { t, idp, provider, driver } = sso;
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
    const sessions = await driver.sessionCount();
    await driver.assertRefused(await driver.signIn(provider, 'newcomer'), 401, 'UnauthorizedException', sessions, 'provisioning off');

    const provisioning = await createSsoProvider(t, idp, { auto_provision: true, provision_role_id: custom.id });
    const res = await driver.signIn(provisioning, 'newcomer', '/welcome');
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
    const second = await driver.signIn(provisioning, 'newcomer');
    assert.equal(second.statusCode, 302, second.body);
    const count = await t.deps.db.selectFrom('users').where('email', '=', email).select('id').execute();
    assert.equal(count.length, 1);
  });

  it('a changed provider is used at once: a wrong client secret now fails the token exchange (502: our settings, not the person)', async () => {
    const { t, idp, driver } = sso;
    const changing = await createSsoProvider(t, idp);
    assert.equal((await driver.signIn(changing, 'ann')).statusCode, 302);
    dataOf(
      await t.call({
        method: 'PUT',
        url: `/api/v1/oidc/${changing.id}`,
        payload: { ...providerBody(changing), client_secret: 'not-the-secret' },
      }),
    );
    const sessions = await driver.sessionCount();
    const message = await driver.assertRefused(await driver.signIn(changing, 'ann'), 502, 'NetworkException', sessions);
    assert.match(message, /invalid_client/);
    assert.match(message, /client id, secret/);
  });

  it('any instance finishes a sign-in another started: the state travels in the cookie', async () => {
    const { t, idp, provider, driver } = sso;
    const second = await t.secondInstance();
    try {
      const { location, cookie } = await driver.start(provider, '/elsewhere');
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
});
