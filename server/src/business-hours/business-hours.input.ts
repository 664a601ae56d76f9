// The rules of a business-hours body that a schema cannot say: intervals in order and apart,
// closing after opening, holiday dates real and each once. Every refusal names its field.
import { InputError } from '../errors.ts';
import { dayNumber, type Holiday, minutesOfDay, type OpenInterval, WEEKDAYS, type Weekday } from './business-hours.calendar.ts';

export type WeeklyHours = Record<Weekday, OpenInterval[]>;
export type HolidayEntry = Holiday & { name: string };

/** All seven weekdays, each day's intervals sorted by opening; a missing day is closed. */
export function cleanHours(hours: Partial<Record<Weekday, readonly OpenInterval[]>>): WeeklyHours {
  const clean = {} as WeeklyHours;
  for (const weekday of WEEKDAYS) {
    // The schema has checked the shapes: open 00:00..23:59, close 00:01..24:00.
    const intervals = (hours[weekday] ?? []).map((interval, index) => {
      const open = minutesOfDay(interval.open);
      const close = minutesOfDay(interval.close);
      if (close <= open) throw InputError.field(`hours.${weekday}.${index}.close`, `must be after open (${interval.open})`);
      return { open, close, interval: { open: interval.open, close: interval.close } };
    });
    intervals.sort((a, b) => a.open - b.open);
    for (let i = 1; i < intervals.length; i++) {
      const [before, after] = [intervals[i - 1]!.interval, intervals[i]!.interval];
      if (intervals[i]!.open < intervals[i - 1]!.close) {
        throw InputError.field(
          `hours.${weekday}`,
          `intervals ${before.open}-${before.close} and ${after.open}-${after.close} overlap; an interval past midnight is written as two`,
        );
      }
    }
    clean[weekday] = intervals.map((entry) => entry.interval);
  }
  return clean;
}

/** Holidays sorted by date, names trimmed; a date (or a yearly month and day) may be given once. */
export function cleanHolidays(holidays: ReadonlyArray<{ date: string; name?: string; yearly?: boolean }>): HolidayEntry[] {
  const seen = new Map<string, number>();
  const clean = holidays.map((holiday, index) => {
    const year = Number(holiday.date.slice(0, 4));
    if (year < 1970 || year > 9999) throw InputError.field(`holidays.${index}.date`, 'year must be between 1970 and 9999');
    return { date: holiday.date, name: (holiday.name ?? '').trim(), yearly: holiday.yearly ?? false, index };
  });
  // Yearly ones first: a one-off date on a yearly holiday's month and day repeats it.
  for (const holiday of [...clean].sort((a, b) => Number(b.yearly) - Number(a.yearly) || a.index - b.index)) {
    const monthDay = holiday.date.slice(5);
    const earlier = (holiday.yearly ? undefined : seen.get(holiday.date)) ?? seen.get(monthDay);
    if (earlier !== undefined) {
      throw InputError.field(`holidays.${holiday.index}.date`, `${holiday.date} is already a holiday (holidays.${earlier})`);
    }
    seen.set(holiday.yearly ? monthDay : holiday.date, holiday.index);
  }
  return clean.sort((a, b) => dayNumber(a.date) - dayNumber(b.date)).map(({ date, name, yearly }) => ({ date, name, yearly }));
}
