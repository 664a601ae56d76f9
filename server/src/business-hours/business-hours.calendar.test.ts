// Table tests of the working-time arithmetic: DST changes in both hemispheres (and at
// midnight), intervals across midnight, holidays, long spans, and the search bound.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addWorkingMinutes,
  type Holiday,
  isOpen,
  nextOpening,
  type OpenInterval,
  type Schedule,
  workingMinutesBetween,
} from './business-hours.calendar.ts';

const at = (iso: string) => new Date(iso);
const iso = (date: Date | null) => date?.toISOString() ?? null;

function schedule(timezone: string, hours: Schedule['hours'], holidays: Holiday[] = [], always_open = false): Schedule {
  return { timezone, hours, holidays, always_open };
}
function weekdays(...intervals: OpenInterval[]): Schedule['hours'] {
  return { monday: intervals, tuesday: intervals, wednesday: intervals, thursday: intervals, friday: intervals };
}
const nineToFive: OpenInterval = { open: '09:00', close: '17:00' };
const allDay: OpenInterval = { open: '00:00', close: '24:00' };

const berlin = schedule('Europe/Berlin', weekdays(nineToFive));
const newYork = schedule('America/New_York', weekdays(nineToFive));

describe('isOpen', () => {
  // Written out of order on purpose: the calendar sorts them.
  const split = schedule('Europe/Berlin', {
    monday: [
      { open: '13:00', close: '17:00' },
      { open: '09:00', close: '12:00' },
    ],
  });
  const cases: Array<[string, Schedule | null, string, boolean]> = [
    ['at the opening', berlin, '2026-01-15T08:00:00Z', true],
    ['a moment before the opening', berlin, '2026-01-15T07:59:59.999Z', false],
    ['the last moment before closing', berlin, '2026-01-15T15:59:59.999Z', true],
    ['at the closing (closed: intervals end before close)', berlin, '2026-01-15T16:00:00Z', false],
    ['on a Saturday', berlin, '2026-01-17T10:00:00Z', false],
    ['09:00 in summer time (07:00 UTC)', berlin, '2026-07-15T07:00:00Z', true],
    ['08:30 in summer time', berlin, '2026-07-15T06:30:00Z', false],
    ['in the lunch gap between two intervals', split, '2026-01-19T11:30:00Z', false],
    ['at the second interval of the day', split, '2026-01-19T12:00:00Z', true],
    ['in the first interval, given out of order', split, '2026-01-19T09:00:00Z', true],
    ['no schedule: calendar time', null, '2026-01-17T03:00:00Z', true],
    ['always open, whatever the hours', schedule('Europe/Berlin', {}, [], true), '2026-01-17T03:00:00Z', true],
    ['a schedule without any open time', schedule('Europe/Berlin', {}), '2026-01-15T10:00:00Z', false],
  ];
  for (const [name, s, time, expected] of cases) {
    it(name, () => assert.equal(isOpen(s, at(time)), expected));
  }

  it('refuses an invalid date', () => {
    assert.throws(() => isOpen(berlin, new Date(Number.NaN)), RangeError);
  });
});

describe('addWorkingMinutes', () => {
  const cases: Array<[string, Schedule | null, string, number, string | null]> = [
    ['within the day', berlin, '2026-01-15T08:00:00Z', 60, '2026-01-15T09:00:00.000Z'],
    ['from Friday afternoon over the weekend', berlin, '2026-01-16T15:30:00Z', 60, '2026-01-19T08:30:00.000Z'],
    ['from a Saturday: counting starts at Monday opening', berlin, '2026-01-17T12:00:00Z', 30, '2026-01-19T08:30:00.000Z'],
    ['from before the opening', berlin, '2026-01-15T06:00:00Z', 30, '2026-01-15T08:30:00.000Z'],
    ['a whole day ends at the closing, not the next opening', berlin, '2026-01-15T08:00:00Z', 480, '2026-01-15T16:00:00.000Z'],
    ['three weeks of working days', berlin, '2026-01-19T08:00:00Z', 7200, '2026-02-06T16:00:00.000Z'],
    ['three weeks and a minute', berlin, '2026-01-19T08:00:00Z', 7201, '2026-02-09T08:01:00.000Z'],
    ['fractional minutes, to the ms', berlin, '2026-01-15T08:00:00Z', 1.5, '2026-01-15T08:01:30.000Z'],
    ['0 minutes: the start itself, even when closed', berlin, '2026-01-17T12:00:00Z', 0, '2026-01-17T12:00:00.000Z'],
    ['Berlin: a weekend with the spring change keeps local 10:00', berlin, '2026-03-27T15:00:00Z', 120, '2026-03-30T08:00:00.000Z'],
    ['Berlin: a weekend with the autumn change', berlin, '2026-10-23T14:00:00Z', 120, '2026-10-26T09:00:00.000Z'],
    ['New York: spring forward over the weekend', newYork, '2026-03-06T21:00:00Z', 120, '2026-03-09T14:00:00.000Z'],
    ['New York: fall back over the weekend', newYork, '2026-10-30T20:00:00Z', 120, '2026-11-02T15:00:00.000Z'],
    ['no schedule: calendar time', null, '2026-01-17T12:00:00Z', 90, '2026-01-17T13:30:00.000Z'],
    ['always open: calendar time', schedule('Europe/Berlin', {}, [], true), '2026-01-17T12:00:00Z', 90, '2026-01-17T13:30:00.000Z'],
    ['a schedule without any open time: no deadline', schedule('Europe/Berlin', {}), '2026-01-15T08:00:00Z', 1, null],
  ];
  for (const [name, s, from, minutes, expected] of cases) {
    it(name, () => assert.equal(iso(addWorkingMinutes(s, at(from), minutes)), expected));
  }

  it('refuses negative, NaN and infinite minutes, and an invalid date', () => {
    for (const minutes of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => addWorkingMinutes(berlin, at('2026-01-15T08:00:00Z'), minutes), RangeError, String(minutes));
    }
    assert.throws(() => addWorkingMinutes(null, new Date('nope'), 1), RangeError);
  });
});

describe('DST: a local day lasts 23 or 25 hours, and intervals across the change count real time', () => {
  const sundays = (zone: string, interval: OpenInterval = allDay) => schedule(zone, { sunday: [interval] });
  // [name, schedule, from, to, working minutes between]
  const cases: Array<[string, Schedule, string, string, number]> = [
    ['Berlin, an ordinary Sunday', sundays('Europe/Berlin'), '2026-01-17T12:00:00Z', '2026-01-19T12:00:00Z', 1440],
    ['Berlin, spring forward (29 March)', sundays('Europe/Berlin'), '2026-03-28T12:00:00Z', '2026-03-30T12:00:00Z', 1380],
    ['Berlin, fall back (25 October)', sundays('Europe/Berlin'), '2026-10-24T12:00:00Z', '2026-10-26T12:00:00Z', 1500],
    ['New York, spring forward (8 March)', sundays('America/New_York'), '2026-03-07T12:00:00Z', '2026-03-09T12:00:00Z', 1380],
    ['New York, fall back (1 November)', sundays('America/New_York'), '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z', 1500],
    ['Sydney, summer time ends (5 April)', sundays('Australia/Sydney'), '2026-04-03T12:00:00Z', '2026-04-05T20:00:00Z', 1500],
    ['Sydney, summer time starts (4 October)', sundays('Australia/Sydney'), '2026-10-02T12:00:00Z', '2026-10-04T20:00:00Z', 1380],
    ['Lord Howe, a half-hour change back', sundays('Australia/Lord_Howe'), '2026-04-03T12:00:00Z', '2026-04-05T20:00:00Z', 1470],
    ['Lord Howe, a half-hour change forward', sundays('Australia/Lord_Howe'), '2026-10-02T12:00:00Z', '2026-10-04T20:00:00Z', 1410],
    ['Santiago, midnight skipped (6 September)', sundays('America/Santiago'), '2026-09-05T12:00:00Z', '2026-09-07T12:00:00Z', 1380],
    [
      'Santiago, Saturday night repeats 23:00-24:00 (4 April)',
      schedule('America/Santiago', { saturday: [allDay] }),
      '2026-04-03T12:00:00Z',
      '2026-04-06T12:00:00Z',
      1500,
    ],
    [
      'Berlin 01:00-04:00 on spring-forward night: 2 real hours',
      sundays('Europe/Berlin', { open: '01:00', close: '04:00' }),
      '2026-03-28T12:00:00Z',
      '2026-03-30T12:00:00Z',
      120,
    ],
    [
      'Berlin 01:00-04:00 on fall-back night: 4 real hours',
      sundays('Europe/Berlin', { open: '01:00', close: '04:00' }),
      '2026-10-24T12:00:00Z',
      '2026-10-26T12:00:00Z',
      240,
    ],
    [
      'Berlin 02:15-02:45, all inside the skipped hour: nothing',
      sundays('Europe/Berlin', { open: '02:15', close: '02:45' }),
      '2026-03-28T12:00:00Z',
      '2026-03-30T12:00:00Z',
      0,
    ],
    [
      'Berlin 02:30-05:00, opening skipped: opens at 03:00',
      sundays('Europe/Berlin', { open: '02:30', close: '05:00' }),
      '2026-03-28T12:00:00Z',
      '2026-03-30T12:00:00Z',
      120,
    ],
    [
      'Berlin 02:00-02:30 on fall-back night: the first 02:00-02:30',
      sundays('Europe/Berlin', { open: '02:00', close: '02:30' }),
      '2026-10-24T12:00:00Z',
      '2026-10-26T12:00:00Z',
      30,
    ],
    [
      'New York 01:00-02:00 on fall-back night: the repeated hour counts',
      sundays('America/New_York', { open: '01:00', close: '02:00' }),
      '2026-10-31T12:00:00Z',
      '2026-11-02T12:00:00Z',
      120,
    ],
  ];
  for (const [name, s, from, to, minutes] of cases) {
    it(name, () => assert.equal(workingMinutesBetween(s, at(from), at(to)), minutes));
  }

  it('isOpen on change nights: a skipped interval is never open; a repeated wall time is open only the first time', () => {
    const skipped = sundays('Europe/Berlin', { open: '02:15', close: '02:45' });
    assert.equal(isOpen(skipped, at('2026-03-29T01:00:00Z')), false);
    const repeated = sundays('Europe/Berlin', { open: '02:00', close: '02:30' });
    assert.equal(isOpen(repeated, at('2026-10-25T00:15:00Z')), true, '02:15 summer time');
    assert.equal(isOpen(repeated, at('2026-10-25T01:15:00Z')), false, '02:15 winter time, after the interval closed');
    const ny = sundays('America/New_York', { open: '01:00', close: '02:00' });
    assert.equal(isOpen(ny, at('2026-11-01T06:30:00Z')), true, '01:30 EST, the second 01:30');
  });

  it('addWorkingMinutes across a 23-hour day ends at the real end of the day', () => {
    const s = sundays('Europe/Berlin');
    assert.equal(iso(addWorkingMinutes(s, at('2026-03-28T12:00:00Z'), 1380)), '2026-03-29T22:00:00.000Z');
    assert.equal(iso(addWorkingMinutes(s, at('2026-03-28T12:00:00Z'), 1381)), '2026-04-04T22:01:00.000Z');
    assert.equal(
      iso(nextOpening(sundays('Europe/Berlin', { open: '02:30', close: '05:00' }), at('2026-03-28T12:00:00Z'))),
      '2026-03-29T01:00:00.000Z',
    );
  });
});

describe('an interval across midnight, written as two', () => {
  const night = schedule('Europe/Berlin', { friday: [{ open: '22:00', close: '24:00' }], saturday: [{ open: '00:00', close: '06:00' }] });
  it('is open on both sides of midnight and closed at its end', () => {
    assert.equal(isOpen(night, at('2026-01-16T22:59:00Z')), true, 'Friday 23:59');
    assert.equal(isOpen(night, at('2026-01-16T23:00:00Z')), true, 'Saturday 00:00');
    assert.equal(isOpen(night, at('2026-01-17T04:59:00Z')), true, 'Saturday 05:59');
    assert.equal(isOpen(night, at('2026-01-17T05:00:00Z')), false, 'Saturday 06:00');
    assert.equal(isOpen(night, at('2026-01-16T20:59:00Z')), false, 'Friday 21:59');
  });
  it('counts through midnight', () => {
    assert.equal(iso(addWorkingMinutes(night, at('2026-01-16T21:00:00Z'), 180)), '2026-01-17T00:00:00.000Z');
    assert.equal(workingMinutesBetween(night, at('2026-01-16T20:00:00Z'), at('2026-01-17T06:00:00Z')), 480);
  });
});

describe('holidays', () => {
  const withSaturday = (holidays: Holiday[]) =>
    schedule('Europe/Berlin', { ...weekdays(nineToFive), saturday: [{ open: '10:00', close: '14:00' }] }, holidays);

  it('a holiday on a weekend day the schedule opens closes it', () => {
    const plain = withSaturday([]);
    const holiday = withSaturday([{ date: '2026-01-17', yearly: false }]);
    assert.equal(isOpen(plain, at('2026-01-17T10:00:00Z')), true);
    assert.equal(isOpen(holiday, at('2026-01-17T10:00:00Z')), false);
    assert.equal(iso(addWorkingMinutes(plain, at('2026-01-16T15:00:00Z'), 120)), '2026-01-17T10:00:00.000Z');
    assert.equal(iso(addWorkingMinutes(holiday, at('2026-01-16T15:00:00Z'), 120)), '2026-01-19T09:00:00.000Z');
  });

  it('a holiday on a closed day changes nothing', () => {
    const sunday = withSaturday([{ date: '2026-01-18', yearly: false }]);
    assert.equal(iso(addWorkingMinutes(sunday, at('2026-01-16T15:00:00Z'), 120)), '2026-01-17T10:00:00.000Z');
  });

  it('yearly holidays repeat every year; one-off ones do not', () => {
    const s = schedule('Europe/Berlin', weekdays(nineToFive), [
      { date: '2020-12-25', yearly: true },
      { date: '2026-12-24', yearly: false },
      { date: '2024-02-29', yearly: true },
    ]);
    assert.equal(isOpen(s, at('2026-12-25T10:00:00Z')), false, 'Christmas 2026 (a Friday)');
    assert.equal(isOpen(s, at('2030-12-25T10:00:00Z')), false, 'Christmas 2030 (a Wednesday)');
    assert.equal(isOpen(s, at('2026-12-24T10:00:00Z')), false, 'the one-off 24 December 2026');
    assert.equal(isOpen(s, at('2027-12-24T10:00:00Z')), true, '24 December 2027: the one-off does not repeat');
    assert.equal(isOpen(s, at('2028-02-29T10:00:00Z')), false, '29 February, in a leap year');
    assert.equal(isOpen(s, at('2028-02-28T10:00:00Z')), true);
    assert.equal(isOpen(s, at('2027-03-01T10:00:00Z')), true, 'not moved to 1 March in other years');
    // Wednesday 16:00 + 2 h: an hour on Wednesday, Thursday and Friday are holidays, then Monday.
    assert.equal(iso(addWorkingMinutes(s, at('2026-12-23T15:00:00Z'), 120)), '2026-12-28T09:00:00.000Z');
  });
});

describe('the search bound', () => {
  const oneMinuteAWeek = schedule('Europe/Berlin', { wednesday: [{ open: '12:00', close: '12:01' }] });

  it('a schedule open one minute a week still finds deadlines within about ten years', () => {
    assert.equal(iso(addWorkingMinutes(oneMinuteAWeek, at('2026-01-15T00:00:00Z'), 1)), '2026-01-21T11:01:00.000Z');
    // The 500th open minute is 499 weeks after the first, in summer time.
    assert.equal(iso(addWorkingMinutes(oneMinuteAWeek, at('2026-01-15T00:00:00Z'), 500)), '2035-08-15T10:01:00.000Z');
  });

  it('and answers null past them, also for huge values', () => {
    assert.equal(addWorkingMinutes(oneMinuteAWeek, at('2026-01-15T00:00:00Z'), 600), null);
    for (const s of [oneMinuteAWeek, berlin, null, schedule('UTC', {}, [], true)]) {
      assert.equal(addWorkingMinutes(s, at('2026-01-15T00:00:00Z'), Number.MAX_SAFE_INTEGER), null);
    }
  });

  it('a schedule with no open time: no deadline, no opening, no working time', () => {
    const never = schedule('Europe/Berlin', { monday: [] }, [{ date: '2026-01-19', yearly: false }]);
    assert.equal(addWorkingMinutes(never, at('2026-01-15T00:00:00Z'), 1), null);
    assert.equal(nextOpening(never, at('2026-01-15T00:00:00Z')), null);
    assert.equal(workingMinutesBetween(never, at('2026-01-15T00:00:00Z'), at('2026-02-15T00:00:00Z')), 0);
  });

  it('workingMinutesBetween refuses a scheduled span longer than the horizon, not a calendar one', () => {
    assert.throws(() => workingMinutesBetween(berlin, at('2026-01-01T00:00:00Z'), at('2046-01-01T00:00:00Z')), RangeError);
    assert.equal(workingMinutesBetween(null, at('2026-01-01T00:00:00Z'), at('2026-01-02T00:00:00Z')), 1440);
    assert.equal(workingMinutesBetween(berlin, at('2026-01-02T00:00:00Z'), at('2026-01-01T00:00:00Z')), 0, 'to before from');
  });
});

describe('nextOpening', () => {
  it('is the start itself when open, else the next opening', () => {
    assert.equal(iso(nextOpening(berlin, at('2026-01-15T10:00:00Z'))), '2026-01-15T10:00:00.000Z');
    assert.equal(iso(nextOpening(berlin, at('2026-01-17T10:00:00Z'))), '2026-01-19T08:00:00.000Z');
    assert.equal(iso(nextOpening(null, at('2026-01-17T10:00:00Z'))), '2026-01-17T10:00:00.000Z');
  });
});

describe('addWorkingMinutes and workingMinutesBetween agree', () => {
  const schedules: Array<[string, Schedule]> = [
    [
      'Berlin office with Saturday mornings and a holiday',
      schedule('Europe/Berlin', { ...weekdays(nineToFive), saturday: [{ open: '10:00', close: '14:00' }] }, [
        { date: '2026-03-30', yearly: false },
      ]),
    ],
    ['New York, split days', schedule('America/New_York', weekdays({ open: '08:00', close: '12:00' }, { open: '12:30', close: '18:15' }))],
    [
      'Sydney, nights across midnight',
      schedule('Australia/Sydney', { saturday: [{ open: '20:00', close: '24:00' }], sunday: [{ open: '00:00', close: '04:00' }] }),
    ],
    ['Santiago, every day', schedule('America/Santiago', { ...weekdays(allDay), saturday: [allDay], sunday: [allDay] })],
  ];
  const starts = [
    '2026-03-06T21:00:00Z',
    '2026-03-27T23:30:00Z',
    '2026-04-03T10:00:00Z',
    '2026-09-05T20:00:00Z',
    '2026-10-23T08:00:00Z',
    '2026-10-30T16:45:00Z',
  ];
  const amounts = [1, 59, 60, 61, 479, 480, 481, 1000, 5000, 12345.5];
  for (const [name, s] of schedules) {
    it(name, () => {
      for (const start of starts) {
        for (const minutes of amounts) {
          const deadline = addWorkingMinutes(s, at(start), minutes);
          assert.ok(deadline, `${start} + ${minutes}`);
          assert.equal(workingMinutesBetween(s, at(start), deadline), minutes, `${start} + ${minutes} → ${deadline.toISOString()}`);
          // The deadline is the first such instant: just before it, less time has passed.
          assert.ok(workingMinutesBetween(s, at(start), new Date(deadline.getTime() - 1)) < minutes);
        }
      }
    });
  }
});
