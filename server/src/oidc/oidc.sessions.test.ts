// A session opened through a single sign-on provider lasts only while the provider's configurer
// holds every permission of its agent (oidc.trust.ts, auth.service.ts verifySession): Mallory
// (oidc:manage) signs in as Peer through her own hostile provider; once Peer gains a permission
// Mallory lacks, her session of Peer is over. Peer's password session and the sessions of an
// Admin-configured provider are not.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, dataOf } from '../../test/helpers.ts';
import { agentWith } from '../../test/factories.ts';
import {
  cookieOf,
  createSsoProvider,
  providerBody,
  type SignInFixture,
  signInDriver,
  type SsoProvider,
  startOidcProvider,
  startSignInFixture,
  type TestIdp,
} from '../../test/oidc-provider.ts';

describe('single sign-on: a session lasts while its provider may sign its agent in', () => {
  let sso: SignInFixture;
  let hostile: TestIdp;
  let mallory: Caller;
  let evil: SsoProvider;
  before(async () => {
    sso = await startSignInFixture();
    hostile = await startOidcProvider();
    mallory = await agentWith(sso.t, ['oidc:manage', 'conversations:read', 'messages:read'], { first_name: 'Mallory' });
    evil = await createSsoProvider(sso.t, hostile, {}, mallory);
  });
  after(async () => {
    await sso.close();
    await hostile.close();
  });

  /** A new agent holding messages:read (its own role, named), signed in through `provider` as `account`. */
  async function peerSignedIn(provider: SsoProvider, idp: TestIdp, account: string) {
    const { t } = sso;
    const roleName = `Peer role ${account}`;
    const role = dataOf<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name: roleName, permissions: ['messages:read'] } }),
    );
    const password = 'peer-password-123';
    const peer = await t.makeAgent({ roles: [roleName], first_name: 'Peer', password });
    idp.addAccount(account, { email: peer.email, email_verified: true });
    const res = await signInDriver(t, idp).signIn(provider, account);
    assert.equal(res.statusCode, 302, res.body);
    const sso_ = cookieOf(res, 'parley_session');
    assert.ok(sso_, 'a session cookie');
    const login = await t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email: peer.email, password }, as: null });
    assert.equal(login.statusCode, 200, login.body);
    const byPassword = cookieOf(login, 'parley_session');
    assert.ok(byPassword, 'a password session cookie');
    return { peer, roleId: role.id, ssoCookie: sso_.value, passwordCookie: byPassword.value };
  }
  const statusWith = async (cookie: string, url = '/api/v1/agents/me') =>
    (await sso.t.call({ method: 'GET', url, as: null, headers: { cookie: `parley_session=${cookie}` } })).statusCode;

  it('ends the hostile provider’s session when the agent is given a role beyond the configurer', async () => {
    const { t } = sso;
    const { peer, ssoCookie, passwordCookie } = await peerSignedIn(evil, hostile, 'peer-assigned');
    assert.equal(await statusWith(ssoCookie), 200);
    assert.equal(await statusWith(ssoCookie, '/api/v1/roles'), 403, 'Peer cannot read roles yet');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${peer.id}`, payload: { roles: ['Admin'] } }));
    assert.equal(await statusWith(ssoCookie, '/api/v1/roles'), 401);
    assert.equal(await statusWith(ssoCookie), 401);
    const row = await t.deps.db
      .selectFrom('sessions')
      .where('user_id', '=', peer.id)
      .where('oidc_provider_id', '=', evil.id)
      .select('id')
      .execute();
    assert.deepEqual(row, [], 'the session is ended');
    // Peer's own password session now holds the Admin role.
    assert.equal(await statusWith(passwordCookie, '/api/v1/roles'), 200);
  });

  it('ends it when the agent’s role is widened beyond the configurer', async () => {
    const { t } = sso;
    const { roleId, ssoCookie, passwordCookie } = await peerSignedIn(evil, hostile, 'peer-widened');
    assert.equal(await statusWith(ssoCookie), 200);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/roles/${roleId}`, payload: { permissions: ['messages:read', 'roles:manage'] } }));
    assert.equal(await statusWith(ssoCookie, '/api/v1/roles'), 401);
    assert.equal(await statusWith(passwordCookie, '/api/v1/roles'), 200);
  });

  it('keeps it while the role changes within the configurer’s permissions', async () => {
    const { t } = sso;
    const { roleId, ssoCookie } = await peerSignedIn(evil, hostile, 'peer-within');
    dataOf(
      await t.call({ method: 'PUT', url: `/api/v1/roles/${roleId}`, payload: { permissions: ['messages:read', 'conversations:read'] } }),
    );
    assert.equal(await statusWith(ssoCookie), 200);
  });

  it('ends it when the configurer loses the permission, is disabled, or stops being the configurer', async () => {
    const { t } = sso;
    const configurer = await agentWith(t, ['oidc:manage', 'messages:read', 'conversations:read'], { first_name: 'Carol' });
    const provider = await createSsoProvider(t, hostile, {}, configurer);
    // Carol loses messages:read (her roles change).
    const lost = await peerSignedIn(provider, hostile, 'peer-carol-1');
    assert.equal(await statusWith(lost.ssoCookie), 200);
    const narrower = dataOf<{ name: string }>(
      await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name: `Carol narrower`, permissions: ['oidc:manage'] } }),
    );
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${configurer.id}`, payload: { roles: [narrower.name] } }));
    assert.equal(await statusWith(lost.ssoCookie), 401);
    assert.equal(await statusWith(lost.passwordCookie), 200);

    // Another provider of Mallory's: another agent takes it over (sends its secret): Mallory's sessions go.
    const taken = await createSsoProvider(t, hostile, {}, mallory);
    const other = await peerSignedIn(taken, hostile, 'peer-taken');
    assert.equal(await statusWith(other.ssoCookie), 200);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/oidc/${taken.id}`, as: configurer, payload: providerBody(taken) }));
    assert.equal(await statusWith(other.ssoCookie), 401, 'Carol no longer holds messages:read');

    // Mallory is disabled.
    const disabled = await peerSignedIn(evil, hostile, 'peer-disabled');
    assert.equal(await statusWith(disabled.ssoCookie), 200);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${mallory.id}`, payload: { enabled: false } }));
    assert.equal(await statusWith(disabled.ssoCookie), 401);
    assert.equal(await statusWith(disabled.passwordCookie), 200);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${mallory.id}`, payload: { enabled: true } }));
  });

  it('deleting the provider ends its sessions', async () => {
    const { t } = sso;
    const provider = await createSsoProvider(t, hostile, {}, mallory);
    const { ssoCookie, passwordCookie } = await peerSignedIn(provider, hostile, 'peer-deleted');
    assert.equal(await statusWith(ssoCookie), 200);
    const res = await t.call({ method: 'DELETE', url: `/api/v1/oidc/${provider.id}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await statusWith(ssoCookie), 401);
    assert.equal(await statusWith(passwordCookie), 200);
  });

  it('an Admin-configured provider’s session survives the agent gaining the Admin role', async () => {
    const { t, idp, provider } = sso;
    const { peer, ssoCookie } = await peerSignedIn(provider, idp, 'peer-admin-provider');
    const stored = await t.deps.db.selectFrom('sessions').where('user_id', '=', peer.id).select('oidc_provider_id').execute();
    assert.deepEqual(stored.map((s) => s.oidc_provider_id).sort(), [provider.id, null].sort());
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${peer.id}`, payload: { roles: ['Admin'] } }));
    assert.equal(await statusWith(ssoCookie, '/api/v1/roles'), 200);
  });
});
