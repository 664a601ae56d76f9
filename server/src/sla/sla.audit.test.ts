// What SLA policy changes write to the audit log: an entry per create, update and delete with
// what changed; none for a refused request or an update that changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAudited, assertNotAudited, auditEntries } from '../../test/audit.ts';
import { buildTestApp, type TestApp, dataOf as ok } from '../../test/helpers.ts';

describe('SLA policy changes in the audit log', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('create, update and delete each write an entry with what changed', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/api/v1/sla',
      payload: { name: 'Gold', first_response_minutes: 60, warning_minutes: 10 },
    });
    const policy = ok<{ id: number }>(created);
    const resource = { type: 'sla', id: policy.id, name: 'Gold' };
    await assertAudited(t, created, {
      action: 'sla.created',
      resource,
      changes: {
        name: [null, 'Gold'],
        description: [null, ''],
        first_response_minutes: [null, 60],
        warning_minutes: [null, 10],
        business_hours_only: [null, false],
      },
    });

    const updated = await t.call({
      method: 'PUT',
      url: `/api/v1/sla/${policy.id}`,
      payload: { resolution_minutes: 480, warning_minutes: 0, name: 'Gold' },
    });
    ok(updated);
    await assertAudited(t, updated, {
      action: 'sla.updated',
      resource,
      changes: { resolution_minutes: [null, 480], warning_minutes: [10, null] },
    });

    const same = await t.call({ method: 'PUT', url: `/api/v1/sla/${policy.id}`, payload: { first_response_minutes: 60 } });
    ok(same);
    await assertNotAudited(t, same, 'update that changes nothing');

    const deleted = await t.call({ method: 'DELETE', url: `/api/v1/sla/${policy.id}` });
    ok(deleted);
    await assertAudited(t, deleted, {
      action: 'sla.deleted',
      resource,
      changesInclude: { name: ['Gold', null], first_response_minutes: [60, null], resolution_minutes: [480, null] },
    });
    assert.deepEqual(
      (await auditEntries(t, { resource_type: 'sla', resource_id: policy.id })).map((e) => e.action),
      ['sla.created', 'sla.updated', 'sla.deleted'],
    );
  });

  it('refused requests write nothing', async () => {
    const agent = await t.makeAgent();
    const used = ok<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/sla', payload: { name: 'In use' } }));
    ok(await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: 'Covered', sla_policy_id: used.id } }));
    const before = (await auditEntries(t)).length;
    const refusals: Array<[number, Parameters<TestApp['call']>[0]]> = [
      [409, { method: 'POST', url: '/api/v1/sla', payload: { name: 'IN USE' } }],
      [403, { method: 'POST', url: '/api/v1/sla', payload: { name: 'Agent made' }, as: agent }],
      [400, { method: 'POST', url: '/api/v1/sla', payload: { name: '   ' } }],
      [404, { method: 'PUT', url: '/api/v1/sla/999999', payload: { name: 'Ghost' } }],
      [422, { method: 'DELETE', url: `/api/v1/sla/${used.id}` }],
      [404, { method: 'DELETE', url: '/api/v1/sla/999999' }],
    ];
    for (const [status, request] of refusals) {
      const res = await t.call(request);
      assert.equal(res.statusCode, status, `${request.method} ${request.url}: ${res.body}`);
      await assertNotAudited(t, res, `${request.method} ${request.url}`);
    }
    assert.equal((await auditEntries(t)).length, before, 'no entry at all');
  });
});
