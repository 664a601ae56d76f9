import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalTimeZone, instantOf, localDay, startOfLocalDay, wallTime } from './zoned-time.ts';

const wall = (local: string) => Date.parse(`${local}Z`);
const iso = (instant: number) => new Date(instant).toISOString();

describe('instantOf: the first instant the clock reads a local time', () => {
  // [zone, local time, instant, what the clock reads then]
  const cases: Array<[string, string, string, string]> = [
    ['Europe/Berlin', '2026-01-15T09:00:00', '2026-01-15T08:00:00.000Z', '2026-01-15T09:00:00'],
    ['Europe/Berlin', '2026-03-29T02:30:00', '2026-03-29T01:00:00.000Z', '2026-03-29T03:00:00'],
    ['Europe/Berlin', '2026-10-25T02:30:00', '2026-10-25T00:30:00.000Z', '2026-10-25T02:30:00'],
    ['America/New_York', '2026-03-08T02:30:00', '2026-03-08T07:00:00.000Z', '2026-03-08T03:00:00'],
    ['America/New_York', '2026-11-01T01:30:00', '2026-11-01T05:30:00.000Z', '2026-11-01T01:30:00'],
    ['Australia/Sydney', '2026-10-04T02:30:00', '2026-10-03T16:00:00.000Z', '2026-10-04T03:00:00'],
    ['Australia/Lord_Howe', '2026-10-04T02:15:00', '2026-10-03T15:30:00.000Z', '2026-10-04T02:30:00'],
    ['America/Santiago', '2026-09-06T00:00:00', '2026-09-06T04:00:00.000Z', '2026-09-06T01:00:00'],
    ['America/Santiago', '2026-04-04T23:30:00', '2026-04-05T02:30:00.000Z', '2026-04-04T23:30:00'],
    ['Asia/Kolkata', '2026-06-01T00:00:00', '2026-05-31T18:30:00.000Z', '2026-06-01T00:00:00'],
  ];
  for (const [zone, local, instant, reads] of cases) {
    it(`${zone} ${local}`, () => {
      const found = instantOf(zone, wall(local));
      assert.equal(iso(found), instant);
      assert.equal(iso(wallTime(zone, found)), `${reads}.000Z`);
    });
  }
});

describe('startOfLocalDay and localDay', () => {
  it('is local midnight, or the end of a change that skipped it', () => {
    assert.equal(iso(startOfLocalDay('Europe/Berlin', Date.parse('2026-07-01T12:00:00Z'))), '2026-06-30T22:00:00.000Z');
    assert.equal(iso(startOfLocalDay('America/Santiago', Date.parse('2026-09-06T12:00:00Z'))), '2026-09-06T04:00:00.000Z');
    assert.equal(
      localDay('Pacific/Kiritimati', Date.parse('2026-01-01T10:00:00Z')) -
        localDay('Pacific/Pago_Pago', Date.parse('2026-01-01T10:00:00Z')),
      2,
    );
  });
});

describe('canonicalTimeZone', () => {
  const cases: Array<[string, string | null]> = [
    ['Europe/Paris', 'Europe/Paris'],
    ['europe/paris', 'Europe/Paris'],
    ['utc', 'UTC'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Mars/Olympus', null],
    ['', null],
    ['+01:00', null],
    ['-05:30', null],
    ['Europe/Paris\nUTC', null],
  ];
  for (const [name, expected] of cases) it(JSON.stringify(name), () => assert.equal(canonicalTimeZone(name), expected));
});
