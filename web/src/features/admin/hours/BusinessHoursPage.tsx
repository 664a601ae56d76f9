// Business hours: weekly opening times with holidays, in a time zone. Teams, live chats and the
// general settings point at them; SLA clocks and the away message follow them.
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Switch } from '../../../ui/Switch';
import { FormDialog, useAdminMutation } from '../crud';
import { AdminListPage } from '../AdminListPage';
import { TimezoneInput, useBusinessHoursList } from '../fields';
import { type Holiday, HolidaysEditor, type Interval, type Week, WeekEditor, weekSummary } from './HoursEditor';
import './hours.css';
import { useOnOpen } from '../../../ui/useOnOpen';

type Hours = Schemas['BusinessHours'];
const NINE_TO_FIVE = [{ open: '09:00', close: '17:00' }];
const DEFAULT_WEEK: Week = {
  monday: NINE_TO_FIVE,
  tuesday: NINE_TO_FIVE,
  wednesday: NINE_TO_FIVE,
  thursday: NINE_TO_FIVE,
  friday: NINE_TO_FIVE,
  saturday: [],
  sunday: [],
};

const clean = (intervals: readonly Interval[]) => intervals.map((i) => ({ open: i.open.trim(), close: i.close.trim() }));

interface HoursForm {
  name: string;
  description: string;
  timezone: string;
  always_open: boolean;
  week: Week;
  holidays: Holiday[];
}

function initial(hours: Hours | null): HoursForm {
  return {
    name: hours?.name ?? '',
    description: hours?.description ?? '',
    timezone: hours?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    always_open: hours?.always_open ?? false,
    week: hours ? { ...hours.hours } : DEFAULT_WEEK,
    holidays: hours ? hours.holidays.map((h) => ({ ...h })) : [],
  };
}

function HoursDialog({ hours, open, onClose }: { hours: Hours | null; open: boolean; onClose: () => void }) {
  const [form, setForm] = useState<HoursForm>(() => initial(hours));
  const save = useAdminMutation(
    (value: HoursForm) => {
      const body = {
        name: value.name.trim(),
        description: value.description.trim(),
        timezone: value.timezone.trim(),
        always_open: value.always_open,
        hours: {
          monday: clean(value.week.monday),
          tuesday: clean(value.week.tuesday),
          wednesday: clean(value.week.wednesday),
          thursday: clean(value.week.thursday),
          friday: clean(value.week.friday),
          saturday: clean(value.week.saturday),
          sunday: clean(value.week.sunday),
        },
        holidays: value.holidays.map((h) => ({ date: h.date, name: h.name.trim(), yearly: h.yearly })),
      };
      return hours
        ? unwrap(api.PUT('/api/v1/business-hours/{id}', { params: { path: { id: hours.id } }, body }))
        : unwrap(api.POST('/api/v1/business-hours', { body }));
    },
    { invalidate: [keys.admin.businessHours], done: (saved) => t('admin.hours.saved', { name: saved.name }) },
  );
  useOnOpen(open, hours, () => {
    setForm(initial(hours));
    save.reset();
  });
  const errors = formErrors(save.error);
  const set = <K extends keyof HoursForm>(name: K, value: HoursForm[K]) => setForm((current) => ({ ...current, [name]: value }));
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={hours ? t('admin.hours.edit') : t('admin.hours.new')}
      onSubmit={() => save.mutate(form, { onSuccess: onClose })}
      pending={save.isPending}
      banner={errors.banner(['name', 'description', 'timezone', 'always_open', 'hours', 'holidays'])}
      size="lg"
    >
      <div className="form-grid">
        <Field label={t('admin.field.name')} error={errors.field('name')}>
          <Input value={form.name} onChange={(e) => set('name', e.target.value)} maxLength={140} autoComplete="off" />
        </Field>
        <Field label={t('admin.field.timezone')} error={errors.field('timezone')}>
          <TimezoneInput value={form.timezone} onChange={(e) => set('timezone', e.target.value)} />
        </Field>
        <div className="form-grid__full">
          <Field label={t('admin.field.description')} error={errors.field('description')}>
            <Input value={form.description} onChange={(e) => set('description', e.target.value)} autoComplete="off" />
          </Field>
        </div>
      </div>
      <Switch
        checked={form.always_open}
        onCheckedChange={(v) => set('always_open', v)}
        label={t('admin.hours.alwaysOpen')}
        hint={t('admin.hours.alwaysOpenHint')}
      />
      {form.always_open ? null : (
        <>
          <WeekEditor week={form.week} onChange={(week) => set('week', week)} errors={errors} />
          <p className="cell-muted">{t('admin.hours.timeHint')}</p>
          <HolidaysEditor holidays={form.holidays} onChange={(holidays) => set('holidays', holidays)} errors={errors} />
        </>
      )}
    </FormDialog>
  );
}

export function BusinessHoursPage() {
  const list = useBusinessHoursList();
  return (
    <AdminListPage
      query={list}
      title={t('admin.hours.title')}
      description={t('admin.hours.hint')}
      newLabel={t('admin.hours.new')}
      empty={t('admin.hours.empty')}
      emptyHint={t('admin.hours.emptyHint')}
      remove={(hours) => unwrap(api.DELETE('/api/v1/business-hours/{id}', { params: { path: { id: hours.id } } }))}
      invalidate={[keys.admin.businessHours]}
      dialog={({ open, record, onClose }) => <HoursDialog open={open} hours={record} onClose={onClose} />}
      columns={[
        {
          key: 'name',
          header: t('admin.field.name'),
          render: (hours) => (
            <span>
              <span className="row-name">{hours.name}</span>
              <span className="row-sub">{hours.always_open ? t('admin.hours.alwaysOpen') : weekSummary(hours.hours)}</span>
            </span>
          ),
        },
        { key: 'zone', header: t('admin.field.timezone'), optional: true, render: (hours) => hours.timezone },
        {
          key: 'holidays',
          header: t('admin.hours.holidays'),
          optional: true,
          render: (hours) =>
            hours.holidays.length ? (
              <Badge>{t('admin.hours.holidayCount', { n: hours.holidays.length })}</Badge>
            ) : (
              <span className="cell-muted">—</span>
            ),
        },
      ]}
    />
  );
}
