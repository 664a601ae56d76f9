// What role changes write to the audit log: an entry per create, update and delete, with the
// permissions diff; none for a refused request or an update that changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAudited, assertNotAudited, auditEntries } from '../../test/audit.ts';
import { authCalls } from '../../test/auth.ts';
import { buildTestApp, type TestApp, dataOf as ok } from '../../test/helpers.ts';

describe('role changes in the audit log', () => {
  let t: TestApp;
  const { login, asSession } = authCalls(() => t);
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('create, update and delete each write an entry with what changed', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/api/v1/roles',
      payload: { name: 'Auditors', description: 'Reads', permissions: ['tags:manage', 'ai:manage'] },
    });
    const role = ok<{ id: number }>(created);
    await assertAudited(t, created, {
      action: 'role.created',
      resource: { type: 'role', id: role.id, name: 'Auditors' },
      changes: {
        name: [null, 'Auditors'],
        description: [null, 'Reads'],
        permissions: [null, ['ai:manage', 'tags:manage']],
        require_2fa: [null, false],
      },
    });

    const updated = await t.call({
      method: 'PUT',
      url: `/api/v1/roles/${role.id}`,
      payload: { name: 'Checkers', permissions: ['tags:manage'], require_2fa: true },
    });
    ok(updated);
    await assertAudited(t, updated, {
      action: 'role.updated',
      resource: { type: 'role', id: role.id, name: 'Checkers' },
      changes: { name: ['Auditors', 'Checkers'], permissions: [['ai:manage', 'tags:manage'], ['tags:manage']], require_2fa: [false, true] },
    });

    const unchanged = await t.call({ method: 'PUT', url: `/api/v1/roles/${role.id}`, payload: { description: 'Reads' } });
    ok(unchanged);
    await assertNotAudited(t, unchanged, 'update that changes nothing');

    const deleted = await t.call({ method: 'DELETE', url: `/api/v1/roles/${role.id}` });
    ok(deleted);
    await assertAudited(t, deleted, {
      action: 'role.deleted',
      resource: { type: 'role', id: role.id, name: 'Checkers' },
      changes: { name: ['Checkers', null], description: ['Reads', null], permissions: [['tags:manage'], null], require_2fa: [true, null] },
    });
    assert.deepEqual(
      (await auditEntries(t, { resource_type: 'role', resource_id: role.id })).map((e) => e.action),
      ['role.created', 'role.updated', 'role.deleted'],
    );
  });

  it('a change made in a browser names the agent, not an API key', async () => {
    const session = await login(t.admin.email, 'admin-password-123');
    const res = await t.call({
      method: 'POST',
      url: '/api/v1/roles',
      payload: { name: 'Clicked', permissions: ['sla:manage'] },
      ...asSession(session),
    });
    const role = ok<{ id: number }>(res);
    const entry = await assertAudited(t, res, {
      action: 'role.created',
      actor: { caller: t.admin, via: 'session' },
      resource: { type: 'role', id: role.id, name: 'Clicked' },
    });
    assert.equal(entry.actor_name, `${session.agent['first_name']} ${session.agent['last_name']}`.trim());
  });

  it('refused requests write nothing', async () => {
    const agent = await t.makeAgent();
    const before = (await auditEntries(t)).length;
    const builtin = ok<Array<{ id: number; name: string }>>(await t.call({ method: 'GET', url: '/api/v1/roles' })).find(
      (r) => r.name === 'Agent',
    )!;
    const refusals: Array<[number, Parameters<TestApp['call']>[0]]> = [
      [409, { method: 'POST', url: '/api/v1/roles', payload: { name: ' agent ', permissions: ['tags:manage'] } }],
      [403, { method: 'POST', url: '/api/v1/roles', payload: { name: 'Nope', permissions: ['tags:manage'] }, as: agent }],
      [400, { method: 'POST', url: '/api/v1/roles', payload: { name: 'Bad', permissions: ['nope:manage'] } }],
      [404, { method: 'DELETE', url: '/api/v1/roles/999999' }],
      [422, { method: 'DELETE', url: `/api/v1/roles/${builtin.id}` }],
      [422, { method: 'PUT', url: `/api/v1/roles/${builtin.id}`, payload: { name: 'Renamed' } }],
    ];
    for (const [status, request] of refusals) {
      const res = await t.call(request);
      assert.equal(res.statusCode, status, `${request.method} ${request.url}`);
      await assertNotAudited(t, res, `${request.method} ${request.url}`);
    }
    assert.equal((await auditEntries(t)).length, before, 'no entry at all');
  });
});
