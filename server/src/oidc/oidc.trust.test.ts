// Who a single sign-on provider may sign in (oidc.trust.ts), against real OpenID providers on
// loopback, one of them hostile: run by an agent holding `oidc:manage`, its accounts claim other
// agents' verified emails. Such a provider signs in only agents whose permissions its configurer
// holds; each agent is bound to the provider account it first signed in with.
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

describe('single sign-on: who a provider may sign in', () => {
  let sso: SignInFixture;
  let hostile: TestIdp;
  /** Holds oidc:manage and two conversation permissions, nothing else. */
  let mallory: Caller;
  /** A subset of Mallory's permissions. */
  let peer: Caller;
  before(async () => {
    sso = await startSignInFixture();
    hostile = await startOidcProvider();
    mallory = await agentWith(sso.t, ['oidc:manage', 'conversations:read', 'messages:read'], { first_name: 'Mallory' });
    peer = await agentWith(sso.t, ['messages:read'], { first_name: 'Peer' });
    // The hostile provider vouches for any email its runner likes.
    hostile.addAccount('fake-admin', { email: sso.t.admin.email, email_verified: true });
    hostile.addAccount('fake-ann', { email: sso.ann.email, email_verified: true });
    hostile.addAccount('peer', { email: peer.email, email_verified: true });
  });
  after(async () => {
    await sso.close();
    await hostile.close();
  });

  /** The browser's side of a sign-in through the hostile provider. */
  const evilDriver = () => signInDriver(sso.t, hostile);
  const meOf = async (res: { cookies: Array<{ name: string; value: string }> }) => {
    const session = res.cookies.find((c) => c.name === 'parley_session');
    assert.ok(session, 'a session cookie');
    return dataOf<{ id: number }>(
      await sso.t.call({ method: 'GET', url: '/api/v1/agents/me', as: null, headers: { cookie: `parley_session=${session.value}` } }),
    ).id;
  };

  it('a provider registered by an oidc:manage holder never signs in the Admin, nor an agent with a permission it lacks', async () => {
    const { t, driver } = sso;
    const evil = await createSsoProvider(t, hostile, {}, mallory);
    assert.equal(evil.configured_by?.id, mallory.id);
    assert.equal(evil.configured_by?.name, 'Mallory Test');
    assert.equal(evil.configured_by?.enabled, true);

    const sessions = await driver.sessionCount();
    const refused = await driver.assertRefused(
      await evilDriver().signIn(evil, 'fake-admin'),
      403,
      'PermissionException',
      sessions,
      'admin',
    );
    assert.match(refused, /cannot sign in this agent/);
    // Ann (the Agent role) holds permissions Mallory lacks too.
    await driver.assertRefused(await evilDriver().signIn(evil, 'fake-ann'), 403, 'PermissionException', sessions, 'ann');
    // The browser sees the refusal page, and no session either.
    const { location, cookie } = await driver.start(evil);
    const page = await driver.finish(evil, await hostile.signIn(location.href, 'fake-admin'), cookie, { accept: 'text/html' });
    assert.equal(page.statusCode, 403);
    assert.match(page.headers['content-type'] ?? '', /text\/html/);
    assert.match(page.body, /Sign-in failed/);
    assert.equal(cookieOf(page, 'parley_session'), undefined);
    assert.equal(await driver.sessionCount(), sessions);
    // Nothing was bound either.
    assert.deepEqual(await identities(evil.id), []);
  });

  it('it still signs in an agent whose permissions its configurer holds', async () => {
    const { t, driver } = sso;
    const evil = await createSsoProvider(t, hostile, {}, mallory);
    const res = await evilDriver().signIn(evil, 'peer');
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(await meOf(res), peer.id);
  });

  it('an Admin-configured provider signs in the Admin', async () => {
    const { t, idp, provider, driver } = sso;
    assert.equal(provider.configured_by?.id, t.admin.id);
    idp.addAccount('admin', { email: t.admin.email, email_verified: true });
    const res = await driver.signIn(provider, 'admin');
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(await meOf(res), t.admin.id);
  });

  it('an oidc:manage holder changing an Admin provider’s issuer becomes its configurer; renaming it does not', async () => {
    const { t, idp, driver } = sso;
    idp.addAccount('admin', { email: t.admin.email, email_verified: true });
    const adminProvider = await createSsoProvider(t, idp);
    const url = `/api/v1/oidc/${adminProvider.id}`;
    // A rename by Mallory keeps the Admin's trust: the Admin still signs in through it.
    const renamed = dataOf<SsoProvider>(
      await t.call({
        method: 'PUT',
        url,
        as: mallory,
        payload: { ...providerBody(adminProvider), client_secret: undefined, name: `${adminProvider.name} (renamed)` },
      }),
    );
    assert.equal(renamed.configured_by?.id, t.admin.id);
    const res = await driver.signIn(adminProvider, 'admin');
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(await meOf(res), t.admin.id);

    // Pointing it at her own provider makes it hers: the Admin is refused there.
    const client = await hostile.registerClient([adminProvider.redirect_uri]);
    const moved = dataOf<SsoProvider>(
      await t.call({
        method: 'PUT',
        url,
        as: mallory,
        payload: {
          ...providerBody(adminProvider),
          provider_url: hostile.issuer,
          client_id: client.clientId,
          client_secret: client.clientSecret,
        },
      }),
    );
    assert.equal(moved.configured_by?.id, mallory.id);
    const sessions = await driver.sessionCount();
    const { location, cookie } = await driver.start(moved);
    const refused = await driver.finish(moved, await hostile.signIn(location.href, 'fake-admin'), cookie);
    await driver.assertRefused(refused, 403, 'PermissionException', sessions, 'moved');

    // Sending only the client secret again makes the sender the configurer too.
    const resaved = dataOf<SsoProvider>(
      await t.call({
        method: 'PUT',
        url,
        as: mallory,
        payload: { ...providerBody(adminProvider), provider_url: hostile.issuer, client_id: client.clientId },
      }),
    );
    assert.equal(resaved.configured_by?.id, mallory.id, 'the mask keeps the configurer');
    const reclaimed = dataOf<SsoProvider>(
      await t.call({
        method: 'PUT',
        url,
        payload: {
          ...providerBody(adminProvider),
          provider_url: hostile.issuer,
          client_id: client.clientId,
          client_secret: client.clientSecret,
        },
      }),
    );
    assert.equal(reclaimed.configured_by?.id, t.admin.id);
  });

  it('a disabled configurer’s provider signs nobody in, until someone enters its secret again', async () => {
    const { t, driver } = sso;
    const configurer = await agentWith(t, ['oidc:manage', 'messages:read'], { first_name: 'Leaver' });
    const provider = await createSsoProvider(t, hostile, {}, configurer);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${configurer.id}`, payload: { enabled: false } }));
    const list = dataOf<SsoProvider[]>(await t.call({ method: 'GET', url: '/api/v1/oidc' }));
    assert.equal(list.find((p) => p.id === provider.id)?.configured_by?.enabled, false);
    const sessions = await driver.sessionCount();
    const message = await driver.assertRefused(
      await evilDriver().signIn(provider, 'peer'),
      403,
      'PermissionException',
      sessions,
      'disabled',
    );
    assert.match(message, /signs nobody in/);
    // Mallory enters the secret again: she vouches for it now, and Peer signs in.
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/oidc/${provider.id}`, as: mallory, payload: providerBody(provider) }));
    const res = await evilDriver().signIn(provider, 'peer');
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(await meOf(res), peer.id);
  });

  it('provisioning is fenced too: a role raised beyond the configurer’s permissions creates nobody', async () => {
    const { t, driver } = sso;
    const role = dataOf<{ id: number; name: string }>(
      await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name: `Readers ${process.pid}`, permissions: ['messages:read'] } }),
    );
    const provider = await createSsoProvider(t, hostile, { auto_provision: true, provision_role_id: role.id }, mallory);
    hostile.addAccount('new-1', { email: `new-1-${process.pid}@example.com`, email_verified: true });
    hostile.addAccount('new-2', { email: `new-2-${process.pid}@example.com`, email_verified: true });
    const first = await evilDriver().signIn(provider, 'new-1');
    assert.equal(first.statusCode, 302, first.body);
    // The Admin gives the role a permission Mallory lacks: her provider provisions no more with it.
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/roles/${role.id}`, payload: { permissions: ['messages:read', 'users:manage'] } }));
    const sessions = await driver.sessionCount();
    await driver.assertRefused(await evilDriver().signIn(provider, 'new-2'), 403, 'PermissionException', sessions, 'provisioning');
    const created = await t.deps.db
      .selectFrom('users')
      .where('email', '=', `new-2-${process.pid}@example.com`)
      .select('id')
      .executeTakeFirst();
    assert.equal(created, undefined, 'no agent was created');
  });

  it('binds each agent to the provider account it first signed in with', async () => {
    const { t, idp, provider, ann, driver } = sso;
    const bob = await t.makeAgent({ roles: ['Agent'], first_name: 'Bob' });
    idp.addAccount('bob', { email: bob.email, email_verified: true });
    const first = await driver.signIn(provider, 'bob');
    assert.equal(first.statusCode, 302, first.body);
    assert.ok((await identities(provider.id)).some((i) => i.user_id === bob.id && i.subject === 'bob'));

    const sessions = await driver.sessionCount();
    // Another account of the provider now claims Bob's email.
    idp.addAccount('bob-again', { email: bob.email, email_verified: true });
    const other = await driver.assertRefused(
      await driver.signIn(provider, 'bob-again'),
      403,
      'PermissionException',
      sessions,
      'another sub',
    );
    assert.match(other, /with another account/);
    // Bob's account claims Ann's email: it signs in Bob only.
    const annBound = await driver.signIn(provider, 'ann');
    assert.equal(annBound.statusCode, 302, annBound.body);
    const sessionsNow = await driver.sessionCount();
    idp.addAccount('bob', { email: ann.email, email_verified: true });
    const taken = await driver.assertRefused(await driver.signIn(provider, 'bob'), 403, 'PermissionException', sessionsNow, 'taken sub');
    assert.match(taken, /with another account|another agent/);
    idp.addAccount('bob', { email: bob.email, email_verified: true });

    // A new client id (another namespace of accounts) forgets the bindings.
    const client = await idp.registerClient([provider.redirect_uri]);
    const moved = dataOf<SsoProvider>(
      await t.call({
        method: 'PUT',
        url: `/api/v1/oidc/${provider.id}`,
        payload: { ...providerBody(provider), client_id: client.clientId, client_secret: client.clientSecret },
      }),
    );
    assert.deepEqual(await identities(provider.id), []);
    const res = await driver.signIn(moved, 'bob-again');
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(await meOf(res), bob.id);
  });

  const identities = (providerId: number) =>
    sso.t.deps.db
      .selectFrom('oidc_identities')
      .where('provider_id', '=', providerId)
      .select(['user_id', 'subject'])
      .orderBy('user_id')
      .execute();
});
