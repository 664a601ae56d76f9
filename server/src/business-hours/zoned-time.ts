// Wall-clock arithmetic in IANA time zones, with Intl alone: the clock an instant shows in a
// zone, and the instant a local time names. The one place that decides what a local time
// means when a DST change skips or repeats it; business hours and the reports both use it.
//
// A "wall" value is a local date and time written as if it were a UTC epoch in ms
// (Date.UTC(year, month - 1, day, hour, minute)), so that local calendar arithmetic is
// plain integer arithmetic.
import { InputError } from '../errors.ts';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

// A memo of a pure function (one immutable formatter per zone, the same for every app), not
// app state: building an Intl.DateTimeFormat costs far more than the conversion it serves.
// Bounded by the number of zones that exist: only names Intl accepted get here.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

// "M/D/YYYY, HH:MM:SS", what the en-US formatter writes: parsing it is several times cheaper than formatToParts.
const FORMATTED = /^(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)$/;

/** The wall clock `instant` shows in `zone`, as a wall value (the instant's milliseconds kept). */
export function wallTime(zone: string, instant: number): number {
  const format = formatter(zone);
  const match = FORMATTED.exec(format.format(instant));
  const fields = match
    ? match.slice(1).map(Number)
    : // Not the usual shape (a year before 1 or another ICU): the same fields, the slow way.
      ['month', 'day', 'year', 'hour', 'minute', 'second'].map((type) =>
        Number(format.formatToParts(instant).find((part) => part.type === type)?.value ?? 0),
      );
  const [month, day, year, hour, minute, second] = fields as [number, number, number, number, number, number];
  // Date.UTC reads years 0..99 as 1900..1999; setUTCFullYear does not.
  const wall = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  wall.setUTCFullYear(year);
  return wall.getTime() + (((instant % 1000) + 1000) % 1000);
}

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich). */
export function offsetAt(zone: string, instant: number): number {
  return wallTime(zone, instant) - instant;
}

/** The local calendar day (days since 1970-01-01) that `instant` falls on in `zone`. */
export function localDay(zone: string, instant: number): number {
  return Math.floor(wallTime(zone, instant) / DAY_MS);
}

/**
 * The instant of a local time: the first instant at which the clock in `zone` reads `wall` or
 * later. So a time repeated when the clocks go back is its first occurrence, and a time skipped
 * when they go forward is the end of the gap (02:30 on a night that jumps from 02:00 to 03:00
 * is the instant the clock shows 03:00).
 */
export function instantOf(zone: string, wall: number): number {
  // Every offset in force within a day either side; one of them gives the instant.
  const offsets = [...new Set([offsetAt(zone, wall - DAY_MS), offsetAt(zone, wall), offsetAt(zone, wall + DAY_MS)])];
  let best: number | null = null;
  for (const offset of offsets) {
    const candidate = wall - offset;
    if (wallTime(zone, candidate) === wall && (best === null || candidate < best)) best = candidate;
  }
  if (best !== null) return best;
  // Skipped: the clock jumps over `wall` between these two instants. Find the jump, to the ms.
  let low = wall - Math.max(...offsets); // the clock still reads before `wall`
  let high = wall - Math.min(...offsets); // the clock already reads after it
  while (high - low > 1) {
    const middle = low + Math.floor((high - low) / 2);
    if (wallTime(zone, middle) >= wall) high = middle;
    else low = middle;
  }
  return high;
}

/** The first instant of the local calendar day that contains `instant` (usually local 00:00). */
export function startOfLocalDay(zone: string, instant: number): number {
  return instantOf(zone, localDay(zone, instant) * DAY_MS);
}

/**
 * An IANA time zone name in its canonical spelling when only the case differs ("utc" → "UTC"),
 * or null when it is not one. Offsets such as "+01:00" are refused: Intl accepts them but they
 * are not zone names, and PostgreSQL reads a bare offset with the POSIX (inverted) sign.
 */
export function canonicalTimeZone(name: string): string | null {
  if (!/^[A-Za-z]/.test(name)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (/^[+-]/.test(resolved)) return null;
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

/** The time zone of a request field, canonical, or a 400 naming the field. */
export function requireTimeZone(name: string, field = 'timezone'): string {
  const zone = canonicalTimeZone(name);
  if (zone === null) throw InputError.field(field, `unknown time zone "${name}"; use an IANA name such as Europe/Paris`);
  return zone;
}
