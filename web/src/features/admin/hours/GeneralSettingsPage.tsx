// The installation's general settings: the default business hours (for teams without their own)
// and the time zone the reports count days in.
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Card, ErrorBanner, Page } from '../../../ui/Page';
import { QueryState } from '../../../ui/QueryState';
import { AdminBack, useAdminMutation } from '../crud';
import { OptionalSelect, TimezoneInput, useBusinessHoursList } from '../fields';

function Form({ initial }: { initial: { business_hours_id: number | null; timezone: string } }) {
  const hours = useBusinessHoursList();
  const [hoursId, setHoursId] = useState(initial.business_hours_id);
  const [timezone, setTimezone] = useState(initial.timezone);
  useEffect(() => {
    setHoursId(initial.business_hours_id);
    setTimezone(initial.timezone);
  }, [initial]);
  const save = useAdminMutation(
    () => unwrap(api.PUT('/api/v1/settings/general', { body: { business_hours_id: hoursId, timezone: timezone.trim() || null } })),
    { invalidate: [keys.admin.settings, keys.reports.all], done: t('admin.general.saved') },
  );
  const errors = formErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="form-stack" onSubmit={submit} noValidate>
      <ErrorBanner message={errors.banner(['business_hours_id', 'timezone'])} />
      <Field label={t('admin.general.defaultHours')} hint={t('admin.general.defaultHoursHint')} error={errors.field('business_hours_id')}>
        <OptionalSelect value={hoursId} onChange={setHoursId} options={hours.data ?? []} />
      </Field>
      <Field label={t('admin.general.timezone')} hint={t('admin.general.timezoneHint')} error={errors.field('timezone')}>
        <TimezoneInput optional value={timezone} onChange={(e) => setTimezone(e.target.value)} />
      </Field>
      <div>
        <Button type="submit" variant="primary" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}

export function GeneralSettingsPage() {
  const settings = useQuery({ queryKey: keys.admin.settings, queryFn: () => unwrap(api.GET('/api/v1/settings/general')) });
  return (
    <Page title={t('admin.general.title')} description={t('admin.general.hint')} back={<AdminBack />} width="narrow">
      <Card>
        <QueryState query={settings}>{(data) => <Form initial={data} />}</QueryState>
      </Card>
    </Page>
  );
}
