// What team changes write to the audit log: an entry per create, update and delete, and member
// changes as the team's update with the members before and after; none for a refused request or
// a change that changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAudited, assertNotAudited, auditEntries } from '../../test/audit.ts';
import { buildTestApp, type TestApp, dataOf as ok } from '../../test/helpers.ts';

describe('team changes in the audit log', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  async function member(): Promise<{ id: number; name: string }> {
    const agent = await t.makeAgent();
    const row = await t.deps.db
      .selectFrom('users')
      .where('id', '=', agent.id)
      .select(['first_name', 'last_name'])
      .executeTakeFirstOrThrow();
    return { id: agent.id, name: `${row.first_name} ${row.last_name}`.trim() };
  }

  it('create, update and delete each write an entry with what changed, members included', async () => {
    const first = await member();
    const created = await t.call({
      method: 'POST',
      url: '/api/v1/teams',
      payload: { name: 'Escalations', emoji: '🔥', members: [first.id] },
    });
    const team = ok<{ id: number }>(created);
    await assertAudited(t, created, {
      action: 'team.created',
      resource: { type: 'team', id: team.id, name: 'Escalations' },
      changes: {
        name: [null, 'Escalations'],
        emoji: [null, '🔥'],
        conversation_assignment_type: [null, 'manual'],
        timezone: [null, 'UTC'],
        max_auto_assigned_conversations: [null, 0],
        members: [null, [first]],
      },
    });

    const updated = await t.call({
      method: 'PUT',
      url: `/api/v1/teams/${team.id}`,
      payload: { name: 'Tier 2', conversation_assignment_type: 'round_robin', emoji: '🔥' },
    });
    ok(updated);
    await assertAudited(t, updated, {
      action: 'team.updated',
      resource: { type: 'team', id: team.id, name: 'Tier 2' },
      changes: { name: ['Escalations', 'Tier 2'], conversation_assignment_type: ['manual', 'round_robin'] },
    });

    const unchanged = await t.call({ method: 'PUT', url: `/api/v1/teams/${team.id}`, payload: { emoji: '🔥' } });
    ok(unchanged);
    await assertNotAudited(t, unchanged, 'update that changes nothing');

    const deleted = await t.call({ method: 'DELETE', url: `/api/v1/teams/${team.id}` });
    ok(deleted);
    await assertAudited(t, deleted, {
      action: 'team.deleted',
      resource: { type: 'team', id: team.id, name: 'Tier 2' },
      changesInclude: { name: ['Tier 2', null], members: [[first], null] },
    });
    assert.deepEqual(
      (await auditEntries(t, { resource_type: 'team', resource_id: team.id })).map((e) => e.action),
      ['team.created', 'team.updated', 'team.deleted'],
    );
  });

  it('adding, setting and removing members are updates of the team naming the members before and after', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    const team = ok<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: 'Members' } }));
    const resource = { type: 'team', id: team.id, name: 'Members' };
    const byId = (list: Array<{ id: number }>) => [...list].sort((x, y) => x.id - y.id);

    const added = await t.call({ method: 'POST', url: `/api/v1/teams/${team.id}/members`, payload: { user_id: a.id } });
    ok(added);
    await assertAudited(t, added, { action: 'team.updated', resource, changes: { members: [[], [a]] } });

    const again = await t.call({ method: 'POST', url: `/api/v1/teams/${team.id}/members`, payload: { user_id: a.id } });
    ok(again);
    await assertNotAudited(t, again, 'adding a member twice');

    const set = await t.call({ method: 'PUT', url: `/api/v1/teams/${team.id}/members`, payload: { user_ids: [b.id, c.id, a.id] } });
    ok(set);
    await assertAudited(t, set, { action: 'team.updated', resource, changes: { members: [[a], byId([a, b, c])] } });

    const removed = await t.call({ method: 'DELETE', url: `/api/v1/teams/${team.id}/members/${b.id}` });
    ok(removed);
    await assertAudited(t, removed, { action: 'team.updated', resource, changes: { members: [byId([a, b, c]), byId([a, c])] } });
  });

  it('refused requests write nothing', async () => {
    const agent = await t.makeAgent();
    const team = ok<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: 'Taken' } }));
    const before = (await auditEntries(t)).length;
    const refusals: Array<[number, Parameters<TestApp['call']>[0]]> = [
      [409, { method: 'POST', url: '/api/v1/teams', payload: { name: ' taken ' } }],
      [403, { method: 'POST', url: '/api/v1/teams', payload: { name: 'Nope' }, as: agent }],
      [400, { method: 'POST', url: '/api/v1/teams', payload: { name: 'Bad', members: [999999] } }],
      [404, { method: 'PUT', url: '/api/v1/teams/999999', payload: { name: 'Ghost' } }],
      [404, { method: 'DELETE', url: '/api/v1/teams/999999' }],
      [400, { method: 'POST', url: `/api/v1/teams/${team.id}/members`, payload: { user_id: 999999 } }],
      [404, { method: 'DELETE', url: `/api/v1/teams/${team.id}/members/${agent.id}` }],
    ];
    for (const [status, request] of refusals) {
      const res = await t.call(request);
      assert.equal(res.statusCode, status, `${request.method} ${request.url}`);
      await assertNotAudited(t, res, `${request.method} ${request.url}`);
    }
    assert.equal((await auditEntries(t)).length, before, 'no entry at all');
  });
});
