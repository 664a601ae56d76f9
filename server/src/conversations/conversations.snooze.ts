// `snoozed_until` (docs/api.md, Input rules): an RFC 3339 time or a duration from now, in the
// future and at most a year ahead. Pure: the caller gives the time it means by "now".
import { InputError } from '../errors.ts';

const DURATION = /^(?:(\d{1,4})w)?(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?$/i;
/** RFC 3339 (seconds optional, `T` or a space); hours 00-23 only: 24:00 would roll over to the next day. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const MAX_SNOOZE_MS = 366 * 24 * 3600 * 1000;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The time an RFC 3339 string names, or null; impossible dates (February 30) are null, not rolled over. */
function parseTime(text: string): Date | null {
  const match = RFC3339.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : new Date(parsed);
}

/** `30m`, `2h`, `1d`, `1w`, `1h30m` after `now`, or null. */
function parseDuration(text: string, now: Date): Date | null {
  const match = text === '' ? null : DURATION.exec(text);
  if (!match) return null;
  const [w, d, h, m] = match.slice(1).map((part) => Number(part ?? 0));
  const minutes = (((w ?? 0) * 7 + (d ?? 0)) * 24 + (h ?? 0)) * 60 + (m ?? 0);
  return new Date(now.getTime() + minutes * 60_000);
}

/** `snoozed_until`: an RFC 3339 time or a duration (`30m`, `2h`, `1d`, `1w`, `1h30m`), in the future, at most a year ahead. */
export function parseSnoozedUntil(value: string, now: Date): Date {
  const text = value.trim();
  const at = parseDuration(text, now) ?? parseTime(text);
  if (!at) throw InputError.field('snoozed_until', 'must be an RFC 3339 time or a duration such as 30m, 2h, 1d, 1w');
  if (at.getTime() <= now.getTime()) throw InputError.field('snoozed_until', 'must be in the future');
  if (at.getTime() - now.getTime() > MAX_SNOOZE_MS) throw InputError.field('snoozed_until', 'must be at most one year ahead');
  return at;
}
