import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAudited, assertNotAudited } from '../../test/audit.ts';
import { agentWith, createBusinessHours } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';

type Settings = { business_hours_id: number | null; timezone: string };
const URL = '/api/v1/settings/general';

describe('general settings', () => {
  let t: TestApp;
  let agent: Caller;
  let manager: Caller;
  before(async () => {
    t = await buildTestApp({ env: { TIMEZONE: 'Europe/Paris' } });
    agent = await t.makeAgent();
    manager = await agentWith(t, ['general_settings:manage']);
  });
  after(() => t.close());

  const read = async (as?: Caller) => dataOf<Settings>(await t.call({ method: 'GET', url: URL, ...(as ? { as } : {}) }));
  const put = (payload: unknown, as?: Caller | null) =>
    t.call({ method: 'PUT', url: URL, payload: payload as object, ...(as !== undefined ? { as } : {}) });

  it('starts with no default business hours and the time zone of TIMEZONE', async () => {
    const settings = await read();
    assert.deepEqual(settings, { business_hours_id: null, timezone: 'Europe/Paris' });
  });

  it('PUT is partial: each field keeps its value unless given', async () => {
    const hours = await createBusinessHours(t);
    assert.deepEqual(dataOf(await put({ business_hours_id: hours.id })), { business_hours_id: hours.id, timezone: 'Europe/Paris' });
    assert.deepEqual(dataOf(await put({ timezone: 'asia/tokyo' })), { business_hours_id: hours.id, timezone: 'Asia/Tokyo' });
    assert.deepEqual(dataOf(await put({})), { business_hours_id: hours.id, timezone: 'Asia/Tokyo' }, 'an empty body changes nothing');
    assert.deepEqual(await read(), { business_hours_id: hours.id, timezone: 'Asia/Tokyo' });
    // null: no default hours; a null time zone follows TIMEZONE again.
    assert.deepEqual(dataOf(await put({ business_hours_id: null, timezone: null })), { business_hours_id: null, timezone: 'Europe/Paris' });
    assert.deepEqual(await read(), { business_hours_id: null, timezone: 'Europe/Paris' });
  });

  it('refuses unknown business hours, time zones and fields with 400 naming the field, and changes nothing', async () => {
    const hours = await createBusinessHours(t);
    dataOf(await put({ business_hours_id: hours.id, timezone: 'America/Chicago' }));
    const cases: Array<[unknown, RegExp]> = [
      [{ business_hours_id: 999999 }, /business_hours_id/],
      [{ business_hours_id: 2147483648 }, /business_hours_id/],
      [{ business_hours_id: 0 }, /business_hours_id/],
      [{ business_hours_id: '1' }, /business_hours_id/],
      [{ business_hours_id: 1.5 }, /business_hours_id/],
      [{ timezone: 'Mars/Olympus' }, /timezone/],
      [{ timezone: '+02:00' }, /timezone/],
      [{ timezone: '' }, /timezone/],
      [{ timezone: 'x'.repeat(65) }, /timezone/],
      [{ timezone: 7 }, /timezone/],
      [{ timezone: 'Asia/Tokyo', business_hours_id: 999999 }, /business_hours_id/],
      [{ site_name: 'Parley' }, /site_name/],
      [[], /body/],
    ];
    for (const [payload, field] of cases) {
      const refused = assertError(await put(payload), 400, 'InputException', JSON.stringify(payload));
      assert.match(refused.message, field, JSON.stringify(payload));
    }
    const raw = (payload: string) => t.call({ method: 'PUT', url: URL, payload, headers: { 'content-type': 'application/json' } });
    assertError(await raw('{"timezone":"UTC\\u0000"}'), 400, 'InputException', 'NUL');
    assertError(await raw('{"timezone":'), 400, 'InputException', 'malformed');
    assert.deepEqual(await read(), { business_hours_id: hours.id, timezone: 'America/Chicago' });
  });

  it('needs general_settings:manage to read or change, and credentials', async () => {
    const before = await read();
    assertError(await t.call({ method: 'GET', url: URL, as: agent }), 403, 'PermissionException');
    assertError(await put({ timezone: 'UTC' }, agent), 403, 'PermissionException');
    assertError(await t.call({ method: 'GET', url: URL, as: null }), 401, 'UnauthorizedException');
    assertError(await put({ timezone: 'UTC' }, null), 401, 'UnauthorizedException');
    assert.deepEqual(await read(), before);
    assert.deepEqual(await read(manager), before, 'the permission alone is enough');
    assert.equal(dataOf<Settings>(await put({ timezone: 'UTC' }, manager)).timezone, 'UTC');
  });

  it('a save writes an audit entry with the stored values before and after; an unchanged or refused one writes none', async () => {
    const hours = await createBusinessHours(t);
    dataOf(await put({ business_hours_id: null, timezone: null }));
    const resource = { type: 'settings', id: 'general', name: 'General settings' };
    const first = await put({ business_hours_id: hours.id, timezone: 'America/New_York' });
    dataOf(first);
    await assertAudited(t, first, {
      action: 'settings.updated',
      resource,
      changes: { business_hours_id: [null, hours.id], timezone: [null, 'America/New_York'] },
    });
    const same = await put({ timezone: 'america/new_york' });
    dataOf(same);
    await assertNotAudited(t, same, 'save that changes nothing');
    const back = await put({ business_hours_id: null, timezone: null });
    dataOf(back);
    await assertAudited(t, back, {
      action: 'settings.updated',
      resource,
      changes: { business_hours_id: [hours.id, null], timezone: ['America/New_York', null] },
    });
    const refused = await put({ business_hours_id: 999999 });
    assert.equal(refused.statusCode, 400);
    await assertNotAudited(t, refused, 'unknown business hours');
  });

  it('without TIMEZONE the default is UTC', async () => {
    const plain = await buildTestApp();
    try {
      assert.deepEqual(dataOf(await plain.call({ method: 'GET', url: URL })), { business_hours_id: null, timezone: 'UTC' });
    } finally {
      await plain.close();
    }
  });
});
