// What business hours changes write to the audit log: an entry per create, update and delete with
// what changed (the weekly hours and the holidays as whole values); none for a refused request or
// an update that changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAudited, assertNotAudited, auditEntries } from '../../test/audit.ts';
import { buildTestApp, type TestApp, dataOf as ok } from '../../test/helpers.ts';

type Hours = { id: number; hours: Record<string, unknown>; holidays: unknown[] };

describe('business hours changes in the audit log', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('create, update and delete each write an entry with what changed', async () => {
    const monday = [{ open: '09:00', close: '17:00' }];
    const created = await t.call({
      method: 'POST',
      url: '/api/v1/business-hours',
      payload: { name: 'Office', timezone: 'europe/berlin', hours: { monday } },
    });
    const hours = ok<Hours>(created);
    const resource = { type: 'business_hours', id: hours.id, name: 'Office' };
    await assertAudited(t, created, {
      action: 'business_hours.created',
      resource,
      changes: {
        name: [null, 'Office'],
        description: [null, ''],
        timezone: [null, 'Europe/Berlin'],
        always_open: [null, false],
        hours: [null, hours.hours],
        holidays: [null, []],
      },
    });
    assert.deepEqual((hours.hours as { monday: unknown }).monday, monday);

    const holidays = [{ date: '2026-12-25', name: 'Christmas', yearly: true }];
    const updated = await t.call({
      method: 'PUT',
      url: `/api/v1/business-hours/${hours.id}`,
      payload: { holidays, timezone: 'Europe/Berlin' },
    });
    const after = ok<Hours>(updated);
    await assertAudited(t, updated, { action: 'business_hours.updated', resource, changes: { holidays: [[], after.holidays] } });

    const same = await t.call({ method: 'PUT', url: `/api/v1/business-hours/${hours.id}`, payload: { name: 'Office', hours: { monday } } });
    ok(same);
    await assertNotAudited(t, same, 'update that changes nothing');

    const deleted = await t.call({ method: 'DELETE', url: `/api/v1/business-hours/${hours.id}` });
    ok(deleted);
    await assertAudited(t, deleted, {
      action: 'business_hours.deleted',
      resource,
      changesInclude: { name: ['Office', null], timezone: ['Europe/Berlin', null], holidays: [after.holidays, null] },
    });
    assert.deepEqual(
      (await auditEntries(t, { resource_type: 'business_hours', resource_id: hours.id })).map((e) => e.action),
      ['business_hours.created', 'business_hours.updated', 'business_hours.deleted'],
    );
  });

  it('refused requests write nothing', async () => {
    const agent = await t.makeAgent();
    const used = ok<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/business-hours', payload: { name: 'Default', timezone: 'UTC' } }),
    );
    ok(await t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { business_hours_id: used.id } }));
    const before = (await auditEntries(t)).length;
    const refusals: Array<[number, Parameters<TestApp['call']>[0]]> = [
      [409, { method: 'POST', url: '/api/v1/business-hours', payload: { name: 'DEFAULT', timezone: 'UTC' } }],
      [403, { method: 'POST', url: '/api/v1/business-hours', payload: { name: 'Agent made', timezone: 'UTC' }, as: agent }],
      [400, { method: 'POST', url: '/api/v1/business-hours', payload: { name: 'Nowhere', timezone: 'Mars/Olympus' } }],
      [404, { method: 'PUT', url: '/api/v1/business-hours/999999', payload: { name: 'Ghost' } }],
      [422, { method: 'DELETE', url: `/api/v1/business-hours/${used.id}` }],
      [404, { method: 'DELETE', url: '/api/v1/business-hours/999999' }],
    ];
    for (const [status, request] of refusals) {
      const res = await t.call(request);
      assert.equal(res.statusCode, status, `${request.method} ${request.url}: ${res.body}`);
      await assertNotAudited(t, res, `${request.method} ${request.url}`);
    }
    assert.equal((await auditEntries(t)).length, before, 'no entry at all');
  });
});
