// Every refusal of a business-hours body: 400 InputException, a message naming the field, and
// nothing stored. Wrong shapes are the schema's; the rules between values are business-hours.input.ts's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBusinessHours } from '../../test/factories.ts';
import { assertError, buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { MAX_HOLIDAYS, MAX_INTERVALS_PER_DAY } from './business-hours.schema.ts';

const nine = { open: '09:00', close: '17:00' };

describe('business hours: bad input', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const post = (payload: unknown) => t.call({ method: 'POST', url: '/api/v1/business-hours', payload: payload as object });
  const count = async () => dataOf<unknown[]>(await t.call({ method: 'GET', url: '/api/v1/business-hours' })).length;

  // [what, body (a valid name and zone added unless the body sets them), the field the message names]
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['no name', { name: undefined }, /name/],
    ['a blank name', { name: '   ' }, /name/],
    ['an empty name', { name: '' }, /name/],
    ['a name of 141 characters', { name: 'x'.repeat(141) }, /name/],
    ['a huge name', { name: 'x'.repeat(100_000) }, /name/],
    ['a number as name', { name: 42 }, /name/],
    ['no time zone', { timezone: undefined }, /timezone/],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, /timezone/],
    ['an offset for a time zone', { timezone: '+01:00' }, /timezone/],
    ['an empty time zone', { timezone: '' }, /timezone/],
    ['a time zone of 65 characters', { timezone: `Europe/${'x'.repeat(58)}` }, /timezone/],
    ['a description of 1001 characters', { description: 'd'.repeat(1001) }, /description/],
    ['always_open as a string', { always_open: 'true' }, /always_open/],
    ['an unknown field', { open_on_sundays: true }, /open_on_sundays/],
    ['hours as a list', { hours: [nine] }, /hours/],
    ['a capitalised weekday', { hours: { Monday: [nine] } }, /hours\.Monday/],
    ['an unknown weekday', { hours: { funday: [nine] } }, /hours\.funday/],
    ['a day as one object, not a list', { hours: { monday: nine } }, /hours\.monday/],
    ['an interval without close', { hours: { monday: [{ open: '09:00' }] } }, /hours\.monday\.0\.close/],
    ['an interval with an extra field', { hours: { monday: [{ ...nine, note: 'x' }] } }, /hours\.monday\.0\.note/],
    ['a time without a leading zero', { hours: { monday: [{ open: '9:00', close: '17:00' }] } }, /hours\.monday\.0\.open/],
    ['opening at 24:00', { hours: { monday: [{ open: '24:00', close: '24:00' }] } }, /hours\.monday\.0\.open/],
    ['closing at 24:01', { hours: { monday: [{ open: '09:00', close: '24:01' }] } }, /hours\.monday\.0\.close/],
    ['minute 60', { hours: { monday: [{ open: '09:60', close: '17:00' }] } }, /hours\.monday\.0\.open/],
    ['hour 25', { hours: { tuesday: [{ open: '08:00', close: '25:00' }] } }, /hours\.tuesday\.0\.close/],
    ['seconds', { hours: { monday: [{ open: '09:00:00', close: '17:00' }] } }, /hours\.monday\.0\.open/],
    ['a number as time', { hours: { monday: [{ open: 900, close: '17:00' }] } }, /hours\.monday\.0\.open/],
    ['an empty time', { hours: { monday: [{ open: '', close: '17:00' }] } }, /hours\.monday\.0\.open/],
    ['close equal to open', { hours: { monday: [{ open: '09:00', close: '09:00' }] } }, /hours\.monday\.0\.close/],
    ['close before open (past midnight, not split)', { hours: { friday: [{ open: '22:00', close: '02:00' }] } }, /hours\.friday\.0\.close/],
    [
      'overlapping intervals',
      {
        hours: {
          monday: [
            { open: '09:00', close: '12:00' },
            { open: '11:00', close: '13:00' },
          ],
        },
      },
      /hours\.monday.*overlap/,
    ],
    [
      'one interval inside another, given out of order',
      {
        hours: {
          wednesday: [
            { open: '10:00', close: '11:00' },
            { open: '08:00', close: '18:00' },
          ],
        },
      },
      /hours\.wednesday.*overlap/,
    ],
    ['the same interval twice', { hours: { monday: [nine, nine] } }, /hours\.monday.*overlap/],
    [
      `${MAX_INTERVALS_PER_DAY + 1} intervals in a day`,
      { hours: { monday: Array(MAX_INTERVALS_PER_DAY + 1).fill(nine) } },
      /hours\.monday/,
    ],
    ['holidays as an object', { holidays: { date: '2026-12-25' } }, /holidays/],
    ['a holiday without a date', { holidays: [{ name: 'Someday' }] }, /holidays\.0\.date/],
    ['30 February', { holidays: [{ date: '2026-02-30' }] }, /holidays\.0\.date/],
    ['month 13', { holidays: [{ date: '2026-13-01' }] }, /holidays\.0\.date/],
    ['a two-digit year', { holidays: [{ date: '26-12-25' }] }, /holidays\.0\.date/],
    ['a date and time', { holidays: [{ date: '2026-12-25T00:00:00Z' }] }, /holidays\.0\.date/],
    ['29 February in a common year', { holidays: [{ date: '2027-02-29' }] }, /holidays\.0\.date/],
    ['a year before 1970', { holidays: [{ date: '1969-12-25' }] }, /holidays\.0\.date/],
    ['yearly as a string', { holidays: [{ date: '2026-12-25', yearly: 'yes' }] }, /holidays\.0\.yearly/],
    ['a holiday name of 141 characters', { holidays: [{ date: '2026-12-25', name: 'n'.repeat(141) }] }, /holidays\.0\.name/],
    ['an extra holiday field', { holidays: [{ date: '2026-12-25', country: 'DE' }] }, /holidays\.0\.country/],
    ['the same date twice', { holidays: [{ date: '2026-12-25' }, { date: '2026-12-25', name: 'Again' }] }, /holidays\.1\.date.*already/],
    [
      'two yearly holidays on the same day of different years',
      {
        holidays: [
          { date: '2020-12-25', yearly: true },
          { date: '2026-12-25', yearly: true },
        ],
      },
      /holidays\.1\.date.*already/,
    ],
    [
      'a one-off date on a yearly holiday',
      { holidays: [{ date: '2026-12-25' }, { date: '2020-12-25', yearly: true }] },
      /holidays\.0\.date.*already.*holidays\.1/,
    ],
    [
      `${MAX_HOLIDAYS + 1} holidays`,
      { holidays: Array.from({ length: MAX_HOLIDAYS + 1 }, (_, i) => ({ date: dateAfter(i) })) },
      /holidays/,
    ],
  ];

  it('refuses each bad body with 400 naming the field, and stores nothing', async () => {
    const before = await count();
    for (const [what, body, field] of cases) {
      const payload: Record<string, unknown> = { name: 'Refused', timezone: 'Europe/Berlin', ...body };
      for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
      const refused = assertError(await post(payload), 400, 'InputException', what);
      assert.match(refused.message, field, `${what}: ${refused.message}`);
    }
    assert.equal(await count(), before);
  });

  it('refuses a body that is not an object, malformed JSON, no body, and a NUL character', async () => {
    const raw = (payload: string) =>
      t.call({ method: 'POST', url: '/api/v1/business-hours', payload, headers: { 'content-type': 'application/json' } });
    assertError(await raw('[]'), 400, 'InputException', 'a list');
    assertError(await raw('"hours"'), 400, 'InputException', 'a string');
    assertError(await raw('{"name": '), 400, 'InputException', 'malformed');
    assertError(await t.call({ method: 'POST', url: '/api/v1/business-hours' }), 400, 'InputException', 'no body');
    assertError(await raw('{"name":"Nul\\u0000","timezone":"UTC"}'), 400, 'InputException', 'NUL in the name');
    assertError(
      await raw('{"name":"Nul holiday","timezone":"UTC","holidays":[{"date":"2026-12-25","name":"\\u0000"}]}'),
      400,
      'InputException',
      'NUL in a holiday name',
    );
    assert.ok(
      !dataOf<Array<{ name: string }>>(await t.call({ method: 'GET', url: '/api/v1/business-hours' })).some((h) =>
        h.name.startsWith('Nul'),
      ),
    );
  });

  it('the same rules hold for PUT, which changes nothing when refusing', async () => {
    const hours = await createBusinessHours(t);
    // Every case but a missing name or zone, which PUT may leave out.
    for (const [what, body, field] of cases.filter(([, body]) => !Object.values(body).includes(undefined))) {
      const refused = assertError(
        await t.call({ method: 'PUT', url: `/api/v1/business-hours/${hours.id}`, payload: body }),
        400,
        'InputException',
        what,
      );
      assert.match(refused.message, field, what);
    }
    assert.deepEqual(dataOf(await t.call({ method: 'GET', url: `/api/v1/business-hours/${hours.id}` })), hours);
  });

  it('accepts the edges: 00:00-24:00, touching intervals, 29 February of a leap year, the most intervals and holidays', async () => {
    const created = await createBusinessHours(t, {
      hours: {
        monday: [{ open: '00:00', close: '24:00' }],
        tuesday: Array.from({ length: MAX_INTERVALS_PER_DAY }, (_, i) => ({ open: time(i * 30), close: time(i * 30 + 30) })),
      },
      holidays: [{ date: '2028-02-29', yearly: true }, ...Array.from({ length: MAX_HOLIDAYS - 1 }, (_, i) => ({ date: dateAfter(i) }))],
    });
    assert.equal(created.hours.tuesday.length, MAX_INTERVALS_PER_DAY);
    assert.equal(created.hours.tuesday.at(-1)?.close, '24:00');
    assert.equal(created.holidays.length, MAX_HOLIDAYS);
  });
});

/** A one-off date `days` after 1 March 2030 (clear of the leap day used above). */
function dateAfter(days: number): string {
  return new Date(Date.UTC(2030, 2, 1) + days * 86_400_000).toISOString().slice(0, 10);
}

function time(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
