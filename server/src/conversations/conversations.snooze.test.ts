// snoozed_until parsing: a table of what is accepted (and the time it means) and what is refused (and why).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../errors.ts';
import { parseSnoozedUntil } from './conversations.snooze.ts';

const now = new Date('2026-01-15T10:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('parseSnoozedUntil', () => {
  const accepted: Array<[string, number]> = [
    ['2h', 2 * HOUR],
    ['1h30m', 90 * MINUTE],
    ['90m', 90 * MINUTE],
    ['2H', 2 * HOUR],
    [' 30m ', 30 * MINUTE],
    ['1d', DAY],
    ['1w2d', 9 * DAY],
    ['1w1d1h1m', 8 * DAY + HOUR + MINUTE],
    ['366d', 366 * DAY],
    ['52w', 52 * 7 * DAY],
    ['2026-01-15T13:00:00Z', 3 * HOUR],
    ['2026-01-15T13:00:00.250Z', 3 * HOUR + 250],
    ['2026-01-15t13:00:00z', 3 * HOUR],
    ['2026-01-15 13:00:00Z', 3 * HOUR],
    ['2026-01-15T13:00Z', 3 * HOUR],
    ['2026-01-15T16:30:00+05:30', 1 * HOUR],
    ['2026-01-15T05:00:00-08:00', 3 * HOUR],
    ['2026-02-28T10:00:00Z', 44 * DAY],
    ['2027-01-15T10:00:00Z', 365 * DAY],
  ];
  for (const [input, ahead] of accepted) {
    it(`accepts ${JSON.stringify(input)}`, () => {
      assert.equal(parseSnoozedUntil(input, now).getTime() - now.getTime(), ahead);
    });
  }

  const refused: Array<[string, RegExp]> = [
    ['', /RFC 3339 time or a duration/],
    ['   ', /RFC 3339 time or a duration/],
    ['tomorrow', /RFC 3339 time or a duration/],
    ['2', /RFC 3339 time or a duration/],
    ['h', /RFC 3339 time or a duration/],
    ['-2h', /RFC 3339 time or a duration/],
    ['1.5h', /RFC 3339 time or a duration/],
    ['1h 30m', /RFC 3339 time or a duration/],
    ['30m1h', /RFC 3339 time or a duration/],
    ['2h\u0000', /RFC 3339 time or a duration/],
    ['\u0000', /RFC 3339 time or a duration/],
    ['2026-01-15T13:00:00\u0000Z', /RFC 3339 time or a duration/],
    ['99999999999999999999h', /RFC 3339 time or a duration/],
    ['1e9m', /RFC 3339 time or a duration/],
    ['2026-01-15', /RFC 3339 time or a duration/],
    ['2026-01-15T13:00:00', /RFC 3339 time or a duration/],
    ['2026-02-30T10:00:00Z', /RFC 3339 time or a duration/],
    ['2026-13-01T10:00:00Z', /RFC 3339 time or a duration/],
    ['2026-01-15T24:00:00Z', /RFC 3339 time or a duration/],
    ['2026-01-15T13:60:00Z', /RFC 3339 time or a duration/],
    ['2026-01-15T13:00:00+25:00', /RFC 3339 time or a duration/],
    ['+275760-09-13T00:00:00Z', /RFC 3339 time or a duration/],
    ['0m', /in the future/],
    ['2026-01-15T10:00:00Z', /in the future/],
    ['2026-01-15T09:59:59Z', /in the future/],
    ['2020-01-01T00:00:00Z', /in the future/],
    ['367d', /at most one year ahead/],
    ['53w', /at most one year ahead/],
    ['9999w', /at most one year ahead/],
    ['999999m', /at most one year ahead/],
    ['2028-01-01T00:00:00Z', /at most one year ahead/],
  ];
  for (const [input, reason] of refused) {
    it(`refuses ${JSON.stringify(input)} (${reason.source})`, () => {
      assert.throws(
        () => parseSnoozedUntil(input, now),
        (error: unknown) =>
          error instanceof InputError &&
          error.statusCode === 400 &&
          reason.test(error.message) &&
          error.message.startsWith('snoozed_until: '),
      );
    });
  }
});
