// The week's opening intervals (any number a day; "24:00" closes at midnight, a night shift is
// written as two intervals) and the holidays (one-off or yearly).
import { X } from 'lucide-react';
import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import type { FormErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';

export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Day = (typeof DAYS)[number];
export interface Interval {
  open: string;
  close: string;
}
export type Week = Record<Day, Interval[]>;
export interface Holiday {
  date: string;
  name: string;
  yearly: boolean;
}

export function WeekEditor({ week, onChange, errors }: { week: Week; onChange: (week: Week) => void; errors: FormErrors }) {
  const setDay = (day: Day, intervals: Interval[]) => onChange({ ...week, [day]: intervals });
  const copyMonday = () =>
    onChange({ ...week, tuesday: [...week.monday], wednesday: [...week.monday], thursday: [...week.monday], friday: [...week.monday] });
  return (
    <fieldset className="week plain-fieldset">
      <legend className="form-section-title">{t('admin.hours.week')}</legend>
      {DAYS.map((day) => {
        const intervals = week[day];
        const error = errors.field(`hours.${day}`);
        return (
          <div key={day} className="week__day">
            <span className="week__name">{t(`admin.hours.day.${day}`)}</span>
            <div className="week__intervals">
              {intervals.length === 0 ? <span className="cell-muted">{t('admin.hours.closed')}</span> : null}
              {intervals.map((interval, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: intervals have no identity but their place
                <span key={index} className="week__interval">
                  <Input
                    className="time-input"
                    value={interval.open}
                    inputMode="numeric"
                    maxLength={5}
                    placeholder="09:00"
                    aria-label={t('admin.hours.opens', { day: t(`admin.hours.day.${day}`), n: index + 1 })}
                    onChange={(e) =>
                      setDay(
                        day,
                        intervals.map((item, i) => (i === index ? { ...item, open: e.target.value } : item)),
                      )
                    }
                  />
                  <span aria-hidden>–</span>
                  <Input
                    className="time-input"
                    value={interval.close}
                    inputMode="numeric"
                    maxLength={5}
                    placeholder="17:00"
                    aria-label={t('admin.hours.closes', { day: t(`admin.hours.day.${day}`), n: index + 1 })}
                    onChange={(e) =>
                      setDay(
                        day,
                        intervals.map((item, i) => (i === index ? { ...item, close: e.target.value } : item)),
                      )
                    }
                  />
                  <Button
                    size="sm"
                    variant="ghost"
                    icon
                    aria-label={t('admin.hours.removeInterval', { day: t(`admin.hours.day.${day}`), n: index + 1 })}
                    onClick={() =>
                      setDay(
                        day,
                        intervals.filter((_, i) => i !== index),
                      )
                    }
                  >
                    <X size={16} aria-hidden />
                  </Button>
                </span>
              ))}
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  const last = intervals[intervals.length - 1];
                  setDay(day, [
                    ...intervals,
                    last ? { open: last.close === '24:00' ? '00:00' : last.close, close: '24:00' } : { open: '09:00', close: '17:00' },
                  ]);
                }}
                aria-label={t('admin.hours.addInterval', { day: t(`admin.hours.day.${day}`) })}
              >
                + {t('admin.hours.add')}
              </Button>
            </div>
            {error ? (
              <p className="ui-field__error week__error" role="alert">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <div>
        <Button size="sm" onClick={copyMonday}>
          {t('admin.hours.copyMonday')}
        </Button>
      </div>
    </fieldset>
  );
}

export function HolidaysEditor({
  holidays,
  onChange,
  errors,
}: {
  holidays: Holiday[];
  onChange: (holidays: Holiday[]) => void;
  errors: FormErrors;
}) {
  const set = (index: number, changes: Partial<Holiday>) => onChange(holidays.map((h, i) => (i === index ? { ...h, ...changes } : h)));
  return (
    <fieldset className="holidays plain-fieldset">
      <legend className="form-section-title">{t('admin.hours.holidays')}</legend>
      {holidays.length === 0 ? <p className="cell-muted">{t('admin.hours.noHolidays')}</p> : null}
      {holidays.map((holiday, index) => {
        const error = errors.field(`holidays.${index}`);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a holiday being typed has no identity yet
          <div key={index} className="holiday">
            <Input
              type="date"
              value={holiday.date}
              onChange={(e) => set(index, { date: e.target.value })}
              aria-label={t('admin.hours.holidayDate', { n: index + 1 })}
            />
            <Input
              value={holiday.name}
              onChange={(e) => set(index, { name: e.target.value })}
              placeholder={t('admin.hours.holidayName')}
              aria-label={t('admin.hours.holidayNameN', { n: index + 1 })}
            />
            <label className="check-row">
              <input
                type="checkbox"
                className="ui-checkbox"
                checked={holiday.yearly}
                onChange={(e) => set(index, { yearly: e.target.checked })}
              />
              {t('admin.hours.yearly')}
            </label>
            <Button
              size="sm"
              variant="ghost"
              icon
              aria-label={t('admin.hours.removeHoliday', { n: index + 1 })}
              onClick={() => onChange(holidays.filter((_, i) => i !== index))}
            >
              <X size={16} aria-hidden />
            </Button>
            {error ? (
              <p className="ui-field__error holiday__error" role="alert">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <div>
        <Button size="sm" onClick={() => onChange([...holidays, { date: '', name: '', yearly: false }])}>
          + {t('admin.hours.addHoliday')}
        </Button>
      </div>
    </fieldset>
  );
}

/** "Mon–Fri 09:00–17:00; Sat 10:00–14:00": the week in one line, days with the same hours joined. */
export function weekSummary(week: Week): string {
  const text = (day: Day) => week[day].map((i) => `${i.open}–${i.close}`).join(', ');
  const runs: Array<{ first: Day; last: Day; hours: string }> = [];
  for (const day of DAYS) {
    const run = runs[runs.length - 1];
    if (run && run.hours === text(day)) run.last = day;
    else runs.push({ first: day, last: day, hours: text(day) });
  }
  const parts = runs
    .filter((run) => run.hours)
    .map((run) => {
      const days =
        run.first === run.last
          ? t(`admin.hours.short.${run.first}`)
          : `${t(`admin.hours.short.${run.first}`)}–${t(`admin.hours.short.${run.last}`)}`;
      return `${days} ${run.hours}`;
    });
  return parts.join('; ') || t('admin.hours.closedAlways');
}
