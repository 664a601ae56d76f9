// Working time: is a schedule open at an instant, when do N working minutes after an instant
// run out, how much working time lies between two instants. Pure functions of a schedule (or
// null, meaning calendar time) and instants; the SLA deadlines are computed with them.
//
// Intervals are local wall-clock times in the schedule's zone, turned into instants day by day
// (zoned-time.ts decides DST gaps and repeats), so a working day that loses or gains an hour
// to a DST change loses or gains that real hour. Holidays close their whole local day.
import { DAY_MS, instantOf, localDay, MINUTE_MS, offsetAt } from './zoned-time.ts';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** `open` "HH:MM" (00:00..23:59), `close` "HH:MM" after it (up to "24:00"), local time. */
export interface OpenInterval {
  open: string;
  close: string;
}

/** A closed local day: `date` "YYYY-MM-DD"; `yearly` repeats it on that month and day every year. */
export interface Holiday {
  date: string;
  yearly: boolean;
}

export interface Schedule {
  timezone: string;
  always_open: boolean;
  /** A weekday missing, or with no interval, is closed. */
  hours: Partial<Record<Weekday, readonly OpenInterval[]>>;
  holidays: readonly Holiday[];
}

/**
 * How far ahead the functions look: about ten years of local days. A deadline further away than
 * that is no deadline (null): it bounds the work for a schedule that is almost never open.
 */
export const SEARCH_DAYS = 3660;

interface Compiled {
  zone: string;
  /** Per weekday (0 = Monday), [open, close) in minutes of the local day, in order. */
  week: ReadonlyArray<ReadonlyArray<readonly [number, number]>>;
  /** One-off holidays, as local day numbers. */
  dates: ReadonlySet<number>;
  /** Yearly holidays, as month * 100 + day. */
  yearly: ReadonlySet<number>;
  /** Whether any weekday has an interval at all. */
  opens: boolean;
}

/** "HH:MM" → minutes of the day; "24:00" → 1440. */
export function minutesOfDay(time: string): number {
  const match = /^(\d\d):(\d\d)$/.exec(time);
  const minutes = match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
  if (!(minutes >= 0 && minutes <= 1440) || Number(match?.[2]) > 59) throw new RangeError(`not a time of day: ${time}`);
  return minutes;
}

/** "YYYY-MM-DD" → its day number (days since 1970-01-01). */
export function dayNumber(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(2000, month - 1, day));
  at.setUTCFullYear(year);
  return at.getTime() / DAY_MS;
}

function compile(schedule: Schedule): Compiled {
  const week = WEEKDAYS.map((weekday) =>
    (schedule.hours[weekday] ?? [])
      .map((interval) => [minutesOfDay(interval.open), minutesOfDay(interval.close)] as const)
      .filter(([open, close]) => close > open)
      .sort((a, b) => a[0] - b[0]),
  );
  const dates = new Set<number>();
  const yearly = new Set<number>();
  for (const holiday of schedule.holidays) {
    if (holiday.yearly) yearly.add(Number(holiday.date.slice(5, 7)) * 100 + Number(holiday.date.slice(8, 10)));
    else dates.add(dayNumber(holiday.date));
  }
  return { zone: schedule.timezone, week, dates, yearly, opens: week.some((intervals) => intervals.length > 0) };
}

function intervalsOn(c: Compiled, day: number): ReadonlyArray<readonly [number, number]> {
  if (c.dates.has(day)) return [];
  const date = new Date(day * DAY_MS);
  if (c.yearly.has((date.getUTCMonth() + 1) * 100 + date.getUTCDate())) return [];
  // Day 0 (1970-01-01) was a Thursday.
  return c.week[(((day + 3) % 7) + 7) % 7]!;
}

/**
 * The open spans, as [start, end) instants in order, that end after `from` and start before
 * `until`; the first is cut at `from`. Walks local days from the one containing `from`, at most
 * SEARCH_DAYS of them. On a day that starts at 00:00 and ends with the offset it started with
 * (all but the two DST days of a year) a local time is the wall value minus that offset: one
 * Intl call per day.
 */
function* openSpans(c: Compiled, from: number, until: number): Generator<readonly [number, number]> {
  const { zone } = c;
  let day = localDay(zone, from);
  let start = instantOf(zone, day * DAY_MS);
  let offset = offsetAt(zone, start);
  for (let walked = 0; walked < SEARCH_DAYS && start < until; walked++, day++) {
    const guess = (day + 1) * DAY_MS - offset;
    // Uniform: the day starts at its 00:00 (not at a change that skipped it) and has one offset throughout.
    const uniform = start === day * DAY_MS - offset && offsetAt(zone, guess) === offset;
    const at = (minute: number) =>
      uniform ? day * DAY_MS + minute * MINUTE_MS - offset : instantOf(zone, day * DAY_MS + minute * MINUTE_MS);
    for (const [open, close] of intervalsOn(c, day)) {
      const end = at(close);
      if (end <= from) continue;
      const begin = Math.max(at(open), from);
      if (begin >= until) return;
      if (end > begin) yield [begin, end];
    }
    start = uniform ? guess : instantOf(zone, (day + 1) * DAY_MS);
    if (!uniform) offset = offsetAt(zone, start);
  }
}

function instant(at: Date, name: string): number {
  const time = at.getTime();
  if (Number.isNaN(time)) throw new RangeError(`${name} is not a valid date`);
  return time;
}

/** Whether the schedule is open at `at`. No schedule (calendar time) and `always_open` are always open. */
export function isOpen(schedule: Schedule | null, at: Date): boolean {
  const t = instant(at, 'at');
  if (schedule === null || schedule.always_open) return true;
  // Only the spans of the local day of `t` can hold it: stop at the next instant.
  for (const [begin] of openSpans(compile(schedule), t, t + 1)) return begin === t;
  return false;
}

/**
 * The instant at which `minutes` of working time after `from` have passed: the deadline of a
 * target. Time before an opening counts from the opening; a deadline that falls exactly on a
 * closing is that closing. `minutes` may be fractional (counted to the ms); 0 is `from` itself.
 * Null when the schedule never opens, or not within SEARCH_DAYS.
 */
export function addWorkingMinutes(schedule: Schedule | null, from: Date, minutes: number): Date | null {
  const t = instant(from, 'from');
  if (!Number.isFinite(minutes) || minutes < 0) throw new RangeError(`minutes must be a finite number of at least 0, got ${minutes}`);
  let remaining = Math.round(minutes * MINUTE_MS);
  // More working time than the horizon holds in real time can never be reached within it.
  if (remaining > SEARCH_DAYS * DAY_MS) return null;
  if (schedule === null || schedule.always_open || remaining === 0) return new Date(t + remaining);
  const c = compile(schedule);
  if (!c.opens) return null;
  for (const [begin, end] of openSpans(c, t, Number.POSITIVE_INFINITY)) {
    if (remaining <= end - begin) return new Date(begin + remaining);
    remaining -= end - begin;
  }
  return null;
}

/**
 * The working time, in minutes (fractional, exact to the ms), between `from` and `to`: what is
 * left of a deadline, or the time a conversation spent in business hours. 0 when `to` is not
 * after `from`. A scheduled span longer than SEARCH_DAYS is refused (RangeError).
 */
export function workingMinutesBetween(schedule: Schedule | null, from: Date, to: Date): number {
  const a = instant(from, 'from');
  const b = instant(to, 'to');
  if (b <= a) return 0;
  if (schedule === null || schedule.always_open) return (b - a) / MINUTE_MS;
  if (b - a > (SEARCH_DAYS - 2) * DAY_MS) throw new RangeError('the span is longer than the search horizon');
  const c = compile(schedule);
  if (!c.opens) return 0;
  let total = 0;
  for (const [begin, end] of openSpans(c, a, b)) total += Math.min(end, b) - begin;
  return total / MINUTE_MS;
}

/** The first instant at or after `from` when the schedule is open (`from` itself when open), or null within SEARCH_DAYS. */
export function nextOpening(schedule: Schedule | null, from: Date): Date | null {
  const t = instant(from, 'from');
  if (schedule === null || schedule.always_open) return new Date(t);
  const c = compile(schedule);
  if (!c.opens) return null;
  for (const [begin] of openSpans(c, t, Number.POSITIVE_INFINITY)) return new Date(begin);
  return null;
}
