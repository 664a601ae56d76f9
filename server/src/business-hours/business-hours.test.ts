// Business hours through the API: the record, partial updates, deletion while in use (by a team,
// by the general settings), teams referencing them, and who may do what. The refusals of bad
// bodies are in business-hours.input.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, type BusinessHours, createBusinessHours, createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { isOpen } from './business-hours.calendar.ts';
import { findSchedule } from './business-hours.service.ts';

const RECORD_KEYS = ['always_open', 'created_at', 'description', 'holidays', 'hours', 'id', 'name', 'timezone', 'updated_at'];
const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

describe('business hours', () => {
  let t: TestApp;
  let agent: Caller;
  let manager: Caller;
  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent();
    manager = await agentWith(t, ['business_hours:manage']);
  });
  after(() => t.close());

  const url = (id?: number | string) => (id === undefined ? '/api/v1/business-hours' : `/api/v1/business-hours/${id}`);
  const get = (id: number | string, as?: Caller | null) => t.call({ method: 'GET', url: url(id), ...(as !== undefined ? { as } : {}) });
  const put = (id: number | string, payload: unknown, as?: Caller | null) =>
    t.call({ method: 'PUT', url: url(id), payload: payload as object, ...(as !== undefined ? { as } : {}) });
  const remove = (id: number | string, as?: Caller | null) =>
    t.call({ method: 'DELETE', url: url(id), ...(as !== undefined ? { as } : {}) });

  describe('POST /business-hours', () => {
    it('answers the record: all seven days, intervals sorted, holidays by date, names trimmed, the zone spelled canonically', async () => {
      const created = dataOf<BusinessHours>(
        await t.call({
          method: 'POST',
          url: url(),
          payload: {
            name: '  Support EMEA ',
            description: 'Office hours',
            timezone: 'europe/berlin',
            hours: {
              monday: [
                { open: '13:00', close: '17:00' },
                { open: '09:00', close: '12:00' },
              ],
              friday: [{ open: '22:00', close: '24:00' }],
              saturday: [
                { open: '00:00', close: '02:00' },
                { open: '02:00', close: '04:00' },
              ],
            },
            holidays: [
              { date: '2026-12-26', name: ' Boxing Day ', yearly: true },
              { date: '2026-01-01', name: 'New Year' },
            ],
          },
        }),
      );
      assert.deepEqual(Object.keys(created).sort(), RECORD_KEYS);
      assert.equal(created.name, 'Support EMEA');
      assert.equal(created.description, 'Office hours');
      assert.equal(created.timezone, 'Europe/Berlin');
      assert.equal(created.always_open, false);
      assert.match(String(created.created_at), ISO);
      assert.deepEqual(Object.keys(created.hours), WEEK);
      assert.deepEqual(created.hours.monday, [
        { open: '09:00', close: '12:00' },
        { open: '13:00', close: '17:00' },
      ]);
      assert.deepEqual(created.hours.friday, [{ open: '22:00', close: '24:00' }]);
      assert.deepEqual(created.hours.saturday.length, 2, 'touching intervals are not overlapping');
      assert.deepEqual(created.hours.sunday, []);
      assert.deepEqual(created.holidays, [
        { date: '2026-01-01', name: 'New Year', yearly: false },
        { date: '2026-12-26', name: 'Boxing Day', yearly: true },
      ]);
      assert.deepEqual(dataOf(await get(created.id)), created, 'read back the same');
    });

    it('has defaults: no description, not always open, closed every day, no holidays', async () => {
      const created = dataOf<BusinessHours>(await t.call({ method: 'POST', url: url(), payload: { name: 'Bare', timezone: 'UTC' } }));
      assert.equal(created.description, '');
      assert.equal(created.always_open, false);
      assert.deepEqual(Object.values(created.hours), [[], [], [], [], [], [], []]);
      assert.deepEqual(created.holidays, []);
      const always = dataOf<BusinessHours>(
        await t.call({ method: 'POST', url: url(), payload: { name: 'Round the clock', timezone: 'UTC', always_open: true } }),
      );
      assert.equal(always.always_open, true);
    });

    it('answers 409 for a name taken, case-insensitively', async () => {
      await createBusinessHours(t, { name: 'Taken' });
      for (const name of ['Taken', ' TAKEN ', 'taken']) {
        assertError(await t.call({ method: 'POST', url: url(), payload: { name, timezone: 'UTC' } }), 409, 'ConflictException', name);
      }
    });

    it('needs business_hours:manage (which is enough), and credentials', async () => {
      const payload = { name: 'Forbidden', timezone: 'UTC' };
      assertError(await t.call({ method: 'POST', url: url(), payload, as: agent }), 403, 'PermissionException');
      assertError(await t.call({ method: 'POST', url: url(), payload, as: null }), 401, 'UnauthorizedException');
      const listed = dataOf<BusinessHours[]>(await t.call({ method: 'GET', url: url() }));
      assert.ok(!listed.some((hours) => hours.name === 'Forbidden'));
      dataOf(await t.call({ method: 'POST', url: url(), payload: { name: 'By a manager', timezone: 'UTC' }, as: manager }));
    });
  });

  describe('GET /business-hours and /business-hours/{id}', () => {
    it('lists them by name for any agent, and reads one', async () => {
      const b = await createBusinessHours(t, { name: 'List B' });
      const a = await createBusinessHours(t, { name: 'List A' });
      const listed = dataOf<BusinessHours[]>(await t.call({ method: 'GET', url: url(), as: agent }));
      const names = listed.map((hours) => hours.name);
      assert.deepEqual(
        names.filter((name) => name.startsWith('List ')),
        ['List A', 'List B'],
      );
      assert.deepEqual(
        names,
        [...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
      );
      for (const hours of listed) assert.deepEqual(Object.keys(hours).sort(), RECORD_KEYS);
      assert.deepEqual(dataOf(await get(a.id, agent)), a);
      assert.equal(dataOf<BusinessHours>(await get(b.id, agent)).name, 'List B');
    });

    it('answers 404 for an unknown or malformed id, 401 without credentials', async () => {
      for (const id of [999999, 'abc', '0', '-1', '1.5', '99999999999']) assertError(await get(id), 404, 'NotFoundException', String(id));
      assertError(await t.call({ method: 'GET', url: url(), as: null }), 401, 'UnauthorizedException');
      assertError(await get(1, null), 401, 'UnauthorizedException');
    });
  });

  describe('PUT /business-hours/{id}', () => {
    it('changes only what it is given; hours and holidays are replaced whole', async () => {
      const created = await createBusinessHours(t, { holidays: [{ date: '2026-05-01', yearly: true }] });
      const renamed = dataOf<BusinessHours>(await put(created.id, { name: 'Renamed hours', description: 'Changed' }));
      assert.equal(renamed.name, 'Renamed hours');
      assert.equal(renamed.description, 'Changed');
      assert.deepEqual(renamed.hours, created.hours);
      assert.deepEqual(renamed.holidays, created.holidays);
      assert.equal(renamed.timezone, 'Europe/Berlin');
      assert.ok(new Date(String(renamed.updated_at)) >= new Date(String(created.updated_at)));

      const rehoured = dataOf<BusinessHours>(
        await put(created.id, { hours: { sunday: [{ open: '10:00', close: '12:00' }] }, holidays: [] }),
      );
      assert.deepEqual(rehoured.hours.monday, [], 'a day left out of new hours is closed');
      assert.deepEqual(rehoured.hours.sunday, [{ open: '10:00', close: '12:00' }]);
      assert.deepEqual(rehoured.holidays, []);

      const zoned = dataOf<BusinessHours>(await put(created.id, { timezone: 'america/new_york', always_open: true }));
      assert.equal(zoned.timezone, 'America/New_York');
      assert.equal(zoned.always_open, true);
      assert.equal(zoned.name, 'Renamed hours');
      assert.deepEqual(dataOf(await get(created.id)), zoned);
      assert.equal(
        dataOf<BusinessHours>(await put(created.id, { name: 'RENAMED HOURS' })).name,
        'RENAMED HOURS',
        'its own name in another case',
      );
    });

    it('refuses a name another one has (409), bad values (400), and changes nothing', async () => {
      const first = await createBusinessHours(t, { name: 'First hours' });
      const second = await createBusinessHours(t, { name: 'Second hours' });
      assertError(await put(second.id, { name: 'first HOURS' }), 409, 'ConflictException');
      assertError(await put(second.id, { timezone: 'Nowhere/Land' }), 400, 'InputException');
      assertError(await put(second.id, { hours: { monday: [{ open: '10:00', close: '09:00' }] } }), 400, 'InputException');
      assertError(await put(second.id, { name: 'Third', always_open: 'yes' }), 400, 'InputException');
      assert.deepEqual(dataOf(await get(second.id)), second);
      assert.equal(dataOf<BusinessHours>(await get(first.id)).name, 'First hours');
    });

    it('answers 404 for an unknown id, 403 without business_hours:manage, 401 without credentials', async () => {
      const hours = await createBusinessHours(t);
      assertError(await put(999999, { name: 'Ghost' }), 404, 'NotFoundException');
      assertError(await put('abc', { name: 'Ghost' }), 404, 'NotFoundException');
      assertError(await put(hours.id, { name: 'Mine' }, agent), 403, 'PermissionException');
      assertError(await put(hours.id, { name: 'Mine' }, null), 401, 'UnauthorizedException');
      assert.deepEqual(dataOf(await get(hours.id)), hours);
      assert.equal(dataOf<BusinessHours>(await put(hours.id, { name: 'Managed' }, manager)).name, 'Managed');
    });
  });

  describe('DELETE /business-hours/{id}', () => {
    it('deletes hours nobody uses', async () => {
      const hours = await createBusinessHours(t);
      assert.equal(dataOf(await remove(hours.id)), true);
      assertError(await get(hours.id), 404, 'NotFoundException');
      assertError(await remove(hours.id), 404, 'NotFoundException', 'twice');
    });

    it('answers 422 naming the teams that use them, until they stop', async () => {
      const hours = await createBusinessHours(t);
      const team = await createTeam(t, { name: 'Night shift', business_hours_id: hours.id });
      const refused = assertError(await remove(hours.id), 422, 'DataException');
      assert.match(refused.message, /in use/);
      assert.match(refused.message, /Night shift/);
      dataOf(await get(hours.id));
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/teams/${team.id}`, payload: { business_hours_id: null } }));
      assert.equal(dataOf(await remove(hours.id)), true);
    });

    it('answers 422 while they are the default of the general settings', async () => {
      const hours = await createBusinessHours(t);
      const settings = (payload: object) => t.call({ method: 'PUT', url: '/api/v1/settings/general', payload });
      dataOf(await settings({ business_hours_id: hours.id }));
      const refused = assertError(await remove(hours.id), 422, 'DataException');
      assert.match(refused.message, /general settings/);
      dataOf(await settings({ business_hours_id: null }));
      assert.equal(dataOf(await remove(hours.id)), true);
    });

    it('answers 404 for an unknown id, 403 without business_hours:manage, 401 without credentials', async () => {
      const hours = await createBusinessHours(t);
      assertError(await remove(999999), 404, 'NotFoundException');
      assertError(await remove('x1'), 404, 'NotFoundException');
      assertError(await remove(hours.id, agent), 403, 'PermissionException');
      assertError(await remove(hours.id, null), 401, 'UnauthorizedException');
      dataOf(await get(hours.id));
      assert.equal(dataOf(await remove(hours.id, manager)), true);
    });
  });

  describe('teams reference business hours', () => {
    it('a team takes existing hours, refuses unknown ones with 400 naming the field, and can drop them', async () => {
      const hours = await createBusinessHours(t);
      const team = await createTeam(t, { business_hours_id: hours.id });
      assert.equal(team.business_hours_id, hours.id);
      for (const id of [999999, 2147483647]) {
        const refused = assertError(
          await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: `Lost ${id}`, business_hours_id: id } }),
          400,
          'InputException',
        );
        assert.match(refused.message, /business_hours_id/);
        assertError(
          await t.call({ method: 'PUT', url: `/api/v1/teams/${team.id}`, payload: { business_hours_id: id } }),
          400,
          'InputException',
        );
      }
      const teams = dataOf<Array<{ name: string; business_hours_id: number | null }>>(
        await t.call({ method: 'GET', url: '/api/v1/teams' }),
      );
      assert.ok(!teams.some((listed) => listed.name.startsWith('Lost ')));
      assert.equal(teams.find((listed) => listed.name === team.name)?.business_hours_id, hours.id, 'unchanged by the refused PUT');
      const dropped = dataOf<{ business_hours_id: number | null }>(
        await t.call({ method: 'PUT', url: `/api/v1/teams/${team.id}`, payload: { business_hours_id: null } }),
      );
      assert.equal(dropped.business_hours_id, null);
    });
  });

  describe('the stored record is a schedule the calendar reads', () => {
    it('open on a Monday morning in Berlin, closed on a holiday and at night', async () => {
      const hours = await createBusinessHours(t, { holidays: [{ date: '2026-01-20', name: 'Closed Tuesday' }] });
      const schedule = await findSchedule(t.deps.db, hours.id);
      assert.ok(schedule);
      assert.equal(isOpen(schedule, new Date('2026-01-19T08:30:00Z')), true, 'Monday 09:30 CET');
      assert.equal(isOpen(schedule, new Date('2026-01-19T16:30:00Z')), false, 'Monday 17:30 CET');
      assert.equal(isOpen(schedule, new Date('2026-01-20T08:30:00Z')), false, 'the holiday');
      assert.equal(await findSchedule(t.deps.db, 999999), null);
    });
  });
});
