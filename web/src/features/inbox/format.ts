import { t } from '../../i18n/t';

/** A short relative duration: "5 min", "3 h", "2 d". */
export function shortDuration(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  if (minutes < 1) return t('time.justNow');
  if (minutes < 60) return t('time.minutes', { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return t('time.hours', { n: hours });
  return t('time.days', { n: Math.round(hours / 24) });
}

export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const ms = now - new Date(iso).getTime();
  return ms < 60_000 ? t('time.justNow') : t('time.ago', { when: shortDuration(ms) });
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** An RFC 3339 time inside a text, as the server writes one in an activity line ("… snoozed the conversation until 2026-12-01T09:00:00.000Z"). */
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g;

/** The text with each RFC 3339 time in it written as `dateTime` does: the reader's locale and time zone. */
export function withLocalTimes(text: string): string {
  return text.replace(ISO_TIME, (iso) => {
    const when = new Date(iso);
    return Number.isNaN(when.getTime()) ? iso : dateTime(iso);
  });
}

export function contactName(contact: { first_name: string; last_name: string; email?: string | null } | null | undefined): string {
  if (!contact) return t('common.unknown');
  return `${contact.first_name} ${contact.last_name}`.trim() || contact.email || t('common.unknown');
}
