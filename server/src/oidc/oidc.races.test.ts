// Single sign-on under concurrent changes. Binding an agent to its provider account (oidc.trust.ts bindIdentity) when two first sign-ins
// come at once: the row lock cannot hold a binding not yet there, so the insert must give way to
// the concurrent one and the bindings be judged again, never a unique-violation error. Races
// really happen against PostgreSQL (DATABASE_URL); the embedded database runs one transaction at a time.
// Provisioning creates the agent with the provider's role as it was checked: a rename or a new
// permission between the check and the creating transaction is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PermissionError } from '../errors.ts';
import { type TestApp, dataOf } from '../../test/helpers.ts';
import { agentWith } from '../../test/factories.ts';
import { createSsoProvider, type SsoProvider, startSignInFixture, type SignInFixture } from '../../test/oidc-provider.ts';
import * as q from './oidc.queries.ts';
import { bindIdentity } from './oidc.trust.ts';

describe('single sign-on: concurrent first sign-ins bind once', () => {
  let sso: SignInFixture;
  let t: TestApp;
  let provider: SsoProvider;
  before(async () => {
    sso = await startSignInFixture();
    t = sso.t;
    provider = await createSsoProvider(t, sso.idp);
  });
  after(() => sso.close());

  const bindingsOf = (userId: number) =>
    t.deps.db
      .selectFrom('oidc_identities')
      .where('provider_id', '=', provider.id)
      .where('user_id', '=', userId)
      .select('subject')
      .execute();

  it('a binding that exists already is reported, not an error', async () => {
    const agent = await t.makeAgent({ roles: ['Agent'] });
    const now = t.deps.clock.now();
    assert.equal(await q.insertIdentity(t.deps.db, provider.id, agent.id, 'query-path', now), true);
    assert.equal(await q.insertIdentity(t.deps.db, provider.id, agent.id, 'query-path', now), false);
    assert.equal(await q.insertIdentity(t.deps.db, provider.id, agent.id, 'another-sub', now), false);
    assert.deepEqual(await bindingsOf(agent.id), [{ subject: 'query-path' }]);
  });

  it('two first sign-ins of one account both succeed; of two accounts, the second is refused clearly', async () => {
    for (let round = 0; round < 5; round += 1) {
      const agent = await t.makeAgent({ roles: ['Agent'] });
      const same = await Promise.allSettled([
        bindIdentity(t.deps, provider.id, agent.id, `same-${agent.id}`),
        bindIdentity(t.deps, provider.id, agent.id, `same-${agent.id}`),
      ]);
      assert.deepEqual(
        same.map((r) => r.status),
        ['fulfilled', 'fulfilled'],
        JSON.stringify(same.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))),
      );
      assert.deepEqual(await bindingsOf(agent.id), [{ subject: `same-${agent.id}` }]);

      const other = await t.makeAgent({ roles: ['Agent'] });
      const two = await Promise.allSettled([
        bindIdentity(t.deps, provider.id, other.id, `a-${other.id}`),
        bindIdentity(t.deps, provider.id, other.id, `b-${other.id}`),
      ]);
      const refused = two.filter((r) => r.status === 'rejected');
      assert.equal(refused.length, 1, JSON.stringify(two.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))));
      const reason = (refused[0] as PromiseRejectedResult).reason;
      assert.ok(reason instanceof PermissionError, String(reason));
      assert.match(reason.message, /another account/);
      assert.equal((await bindingsOf(other.id)).length, 1);
    }
  });

  it('provisioning refuses a role renamed or widened after it was checked', async () => {
    const mallory = await agentWith(t, ['oidc:manage', 'messages:read'], { first_name: 'Mallory' });
    for (const change of ['widened', 'renamed'] as const) {
      const name = `Provisioned ${change}`;
      const role = dataOf<{ id: number }>(
        await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name, permissions: ['messages:read'] } }),
      );
      const provider = await createSsoProvider(t, sso.idp, { auto_provision: true, provision_role_id: role.id }, mallory);
      const email = `provisioned-${change}@example.com`;
      sso.idp.addAccount(`new-${change}`, { email, email_verified: true });
      // The change lands between the check and the creating transaction (the first of the callback).
      const db = t.deps.db;
      let changed = false;
      const transaction = db.transaction.bind(db);
      Object.defineProperty(db, 'transaction', {
        configurable: true,
        value: () => {
          Reflect.deleteProperty(db, 'transaction');
          return {
            execute: async <T>(work: Parameters<ReturnType<typeof transaction>['execute']>[0]): Promise<T> => {
              const update = db.updateTable('roles').where('id', '=', role.id);
              await (change === 'widened'
                ? update.set({ permissions: ['messages:read', 'users:manage'] })
                : update.set({ name: `${name} (moved)` })
              ).execute();
              if (change === 'renamed')
                await db
                  .insertInto('roles')
                  .values({ name, description: '', permissions: ['messages:read', 'users:manage'] })
                  .execute();
              changed = true;
              return transaction().execute(work) as Promise<T>;
            },
          };
        },
      });
      try {
        const res = await sso.driver.signIn(provider, `new-${change}`);
        assert.ok(changed, 'the change landed in the window');
        assert.equal(res.statusCode, 401, res.body);
        assert.match(res.body, /has just changed/);
      } finally {
        Reflect.deleteProperty(db, 'transaction');
      }
      const created = await db.selectFrom('users').where('email', '=', email).select('id').executeTakeFirst();
      assert.equal(created, undefined, `no agent was created (${change})`);
    }
  });
});
