// The audit entries of the agents domain (agents.audit.ts): each change writes one, in its own
// transaction, naming who did it from where and what changed, with passwords and keys masked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PASSWORD } from '../../test/auth.ts';
import { createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { asSession, auditEntries, auditEntry, CHROME_LINUX, signIn } from '../../test/sessions.ts';

describe('audit entries of agents', () => {
  let t: TestApp;
  let teamId: number;
  let n = 0;
  before(async () => {
    t = await buildTestApp();
    teamId = (await createTeam(t, { name: 'Audited team' })).id;
  });
  after(() => t.close());

  const email = () => `audited-${++n}-${Date.now()}@example.com`;
  const create = async (payload: Record<string, unknown> = {}) =>
    dataOf<{ id: number; email: string }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/agents',
        payload: { first_name: 'Ada', last_name: 'Lovelace', email: email(), roles: ['Agent'], ...payload },
      }),
    );

  it('agent.created: by the caller (an API key here), with the fields set and the password masked', async () => {
    const agent = await create({ teams: [teamId], password: PASSWORD });
    const entry = await auditEntry(t, 'agent.created', agent.id);
    assert.equal(entry.actor_type, 'api_key');
    assert.equal(entry.actor_id, t.admin.id);
    assert.equal(entry.resource_type, 'agent');
    assert.equal(entry.resource_name, 'Ada Lovelace');
    assert.equal(entry.ip, '127.0.0.1');
    assert.ok(entry.request_id);
    assert.deepEqual(entry.changes, {
      first_name: [null, 'Ada'],
      last_name: [null, 'Lovelace'],
      email: [null, agent.email],
      enabled: [null, true],
      roles: [null, ['Agent']],
      teams: [null, ['Audited team']],
      password: [null, '[redacted]'],
    });
    assert.ok(!JSON.stringify(entry).includes(PASSWORD));
  });

  it('a refused creation writes nothing', async () => {
    const before = (await auditEntries(t, 'agent.created')).length;
    assertError(
      await t.call({ method: 'POST', url: '/api/v1/agents', payload: { first_name: 'X', email: email(), roles: ['Nope'] } }),
      400,
      'InputException',
    );
    assert.equal((await auditEntries(t, 'agent.created')).length, before);
  });

  it('agent.updated: what changed (roles, teams, enabled, email, names), a new password masked; availability alone writes nothing', async () => {
    const agent = await create();
    const newEmail = email();
    dataOf(
      await t.call({
        method: 'PUT',
        url: `/api/v1/agents/${agent.id}`,
        payload: {
          first_name: 'Grace',
          email: newEmail,
          roles: ['Agent', 'Admin'],
          teams: [teamId],
          enabled: false,
          password: 'another-password-1',
        },
      }),
    );
    const entry = await auditEntry(t, 'agent.updated', agent.id);
    assert.equal(entry.resource_name, 'Grace Lovelace');
    assert.deepEqual(entry.changes, {
      first_name: ['Ada', 'Grace'],
      email: [agent.email, newEmail],
      enabled: [true, false],
      roles: [['Agent'], ['Admin', 'Agent']],
      teams: [[], ['Audited team']],
      password: ['[redacted]', '[redacted]'],
    });
    assert.ok(!JSON.stringify(entry).includes('another-password-1'));
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${agent.id}`, payload: { availability_status: 'busy' } }));
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${agent.id}`, payload: { first_name: 'Grace' } }));
    assert.equal((await auditEntries(t, 'agent.updated', agent.id)).length, 1, 'nothing recorded changed');
  });

  it('agent.deleted names the agent it deleted', async () => {
    const agent = await create();
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/agents/${agent.id}` }));
    const entry = await auditEntry(t, 'agent.deleted', agent.id);
    assert.equal(entry.resource_name, 'Ada Lovelace');
    assert.deepEqual(entry.changes['email'], [agent.email, null]);
    assertError(await t.call({ method: 'DELETE', url: `/api/v1/agents/${agent.id}` }), 404, 'NotFoundException');
    assert.equal((await auditEntries(t, 'agent.deleted', agent.id)).length, 1);
  });

  it('agent.api_key_created and agent.api_key_revoked, by an admin and by the agent itself; the key is never in an entry', async () => {
    const agent = await create();
    const pair = dataOf<{ api_key: string; api_secret: string }>(
      await t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/api-key` }),
    );
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/agents/${agent.id}/api-key` }));
    const created = await auditEntry(t, 'agent.api_key_created', agent.id);
    const revoked = await auditEntry(t, 'agent.api_key_revoked', agent.id);
    for (const entry of [created, revoked]) {
      assert.equal(entry.actor_id, t.admin.id);
      assert.deepEqual(entry.changes, {});
      assert.ok(!JSON.stringify(entry).includes(pair.api_key) && !JSON.stringify(entry).includes(pair.api_secret));
    }
    const self: Caller = await t.makeAgent();
    dataOf(await t.call({ method: 'POST', url: '/api/v1/agents/me/api-key', as: self }));
    const own = (await auditEntries(t, 'agent.api_key_created', self.id)).at(-1);
    assert.equal(own?.actor_id, self.id);
    assert.equal(own?.actor_type, 'api_key');
    const selfAfter = await t.makeAgent();
    dataOf(await t.call({ method: 'DELETE', url: '/api/v1/agents/me/api-key', as: selfAfter }));
    assert.equal((await auditEntry(t, 'agent.api_key_revoked', selfAfter.id)).actor_id, selfAfter.id);
  });

  it('PUT /agents/me: auth.password_changed for a new password (masked), agent.updated for the profile', async () => {
    const agent = await t.makeAgent({ password: PASSWORD, email: email() });
    const session = await signIn(t.app, agent.email, PASSWORD);
    const res = await asSession(t.app, session, {
      method: 'PUT',
      url: '/api/v1/agents/me',
      payload: { first_name: 'Renamed', current_password: PASSWORD, new_password: 'the-next-password' },
    });
    dataOf(res);
    const changed = await auditEntry(t, 'auth.password_changed', agent.id);
    assert.equal(changed.actor_type, 'agent');
    assert.equal(changed.actor_id, agent.id);
    assert.equal(changed.user_agent, CHROME_LINUX);
    assert.deepEqual(changed.changes, { password: ['[redacted]', '[redacted]'] });
    const updated = await auditEntry(t, 'agent.updated', agent.id);
    assert.deepEqual(updated.changes, { first_name: [updated.changes['first_name']?.[0], 'Renamed'] });
    assert.ok(!JSON.stringify([changed, updated]).includes('the-next-password'));
    // A wrong current password changes nothing and writes nothing.
    const refused = await asSession(t.app, session, {
      method: 'PUT',
      url: '/api/v1/agents/me',
      payload: { current_password: 'not-it-at-all', new_password: 'yet-another-password' },
    });
    assertError(refused, 400, 'InputException');
    assert.equal((await auditEntries(t, 'auth.password_changed', agent.id)).length, 1);
  });

  it('the agents made by the system (the first admin, the CLI, the test helper) are created by the system actor', async () => {
    const entry = await auditEntry(t, 'agent.created', t.admin.id);
    assert.equal(entry.actor_type, 'system');
    assert.equal(entry.actor_id, null);
    assert.equal(entry.actor_name, 'System');
  });
});
