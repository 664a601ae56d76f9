// How the reports write their figures: durations from seconds, shares, dates of the report's zone.
import { t } from '../../i18n/t';

/** "45 s", "12 min", "3 h 20 min", "2 d 5 h"; "—" when there is no figure. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  const s = Math.round(seconds);
  if (s < 60) return t('reports.unit.seconds', { n: s });
  const minutes = Math.round(s / 60);
  if (minutes < 60) return t('reports.unit.minutes', { n: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) {
    const rest = minutes % 60;
    return rest ? t('reports.unit.hoursMinutes', { h: hours, m: rest }) : t('reports.unit.hours', { n: hours });
  }
  const days = Math.floor(hours / 24);
  const restHours = hours % 24;
  return restHours ? t('reports.unit.daysHours', { d: days, h: restHours }) : t('reports.unit.days', { n: days });
}

export function count(n: number): string {
  return n.toLocaleString();
}

/** part / whole as "83 %" (one decimal under 10 %); "—" without a whole. */
export function percent(part: number, whole: number): string {
  if (whole <= 0) return '—';
  const value = (part / whole) * 100;
  return `${value < 10 && value > 0 ? value.toFixed(1) : Math.round(value)} %`;
}

/** Today's date (YYYY-MM-DD) in a time zone (the browser's when the zone is unknown). */
export function todayIn(timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  } catch {
    return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  }
}

/** A YYYY-MM-DD date moved by whole days (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const moved = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days));
  return moved.toISOString().slice(0, 10);
}

export function firstOfMonth(date: string, monthsBack = 0): string {
  const [y, m] = date.split('-').map(Number);
  const moved = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1 - monthsBack, 1));
  return moved.toISOString().slice(0, 10);
}

/** A report date (YYYY-MM-DD) written for people: "3 Mar" (with the year when told). */
export function shortDate(date: string, withYear = false): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  });
}
