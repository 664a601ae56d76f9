// Single sign-on is exempt from two-factor sign-in (docs/api.md, "Two-factor sign-in"): the
// provider owns the second factor. An agent whose role requires two factors, without them, signs
// in through a provider to a session that is not held; the same agent's password session is.
// Its sign-in is audited with the method `oidc`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dataOf } from '../../test/helpers.ts';
import { cookieOf, type SignInFixture, startSignInFixture } from '../../test/oidc-provider.ts';
import { auditEntries, passwordLogin, TWO_FACTOR_PASSWORD } from '../../test/two-factor.ts';

describe('two-factor sign-in and single sign-on', () => {
  let sso: SignInFixture;
  before(async () => {
    sso = await startSignInFixture();
  });
  after(() => sso.close());

  it('does not hold a single sign-on session; holds the password one', async () => {
    const { t, idp, provider, driver } = sso;
    dataOf(
      await t.call({
        method: 'POST',
        url: '/api/v1/roles',
        payload: { name: 'Strict SSO', permissions: ['conversations:read'], require_2fa: true },
      }),
    );
    const una = await t.makeAgent({ roles: ['Strict SSO'], first_name: 'Una', password: TWO_FACTOR_PASSWORD });
    idp.addAccount('una', { email: una.email, email_verified: true });
    const res = await driver.signIn(provider, 'una');
    assert.equal(res.statusCode, 302, res.body);
    const cookie = cookieOf(res, 'parley_session');
    assert.ok(cookie, 'a session cookie');
    const headers = { cookie: `parley_session=${cookie.value}` };
    const me = dataOf<{ mfa_setup_required: boolean }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: null, headers }));
    assert.equal(me.mfa_setup_required, false);
    assert.equal((await t.call({ method: 'GET', url: '/api/v1/agents/compact', as: null, headers })).statusCode, 200);
    const login = (await auditEntries(t, 'auth.login')).filter((e) => e.actor_id === una.id);
    assert.deepEqual(
      login.map((e) => e.changes),
      [{ method: [null, 'oidc'] }],
    );

    const byPassword = await passwordLogin(t, una.email);
    assert.equal(dataOf<{ mfa_setup_required: boolean }>(byPassword).mfa_setup_required, true);
    const held = cookieOf(byPassword, 'parley_session');
    assert.ok(held);
    const refused = await t.call({
      method: 'GET',
      url: '/api/v1/agents/compact',
      as: null,
      headers: { cookie: `parley_session=${held.value}` },
    });
    assert.equal(refused.statusCode, 403);
  });
});
