// SLA policies: targets for the first response, each next response and resolution (minutes, in
// business hours or calendar time), with a warning before a deadline.
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Switch } from '../../../ui/Switch';
import { duration } from '../../reports/format';
import { FormDialog, useAdminMutation } from '../crud';
import { AdminListPage } from '../AdminListPage';
import { numberOrNull, useSlaPolicies } from '../fields';
import { useOnOpen } from '../../../ui/useOnOpen';

type Policy = Schemas['SlaPolicy'];
const TARGETS = ['first_response_minutes', 'next_response_minutes', 'resolution_minutes', 'warning_minutes'] as const;
type Target = (typeof TARGETS)[number];

interface PolicyForm {
  name: string;
  description: string;
  business_hours_only: boolean;
  targets: Record<Target, string>;
}

function initial(policy: Policy | null): PolicyForm {
  const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));
  return {
    name: policy?.name ?? '',
    description: policy?.description ?? '',
    business_hours_only: policy?.business_hours_only ?? true,
    targets: {
      first_response_minutes: text(policy ? policy.first_response_minutes : 60),
      next_response_minutes: text(policy?.next_response_minutes),
      resolution_minutes: text(policy ? policy.resolution_minutes : 480),
      warning_minutes: text(policy?.warning_minutes),
    },
  };
}

const minutes = (value: number | null) => (value === null ? null : duration(value * 60));

function PolicyDialog({ policy, open, onClose }: { policy: Policy | null; open: boolean; onClose: () => void }) {
  const [form, setForm] = useState<PolicyForm>(() => initial(policy));
  const save = useAdminMutation(
    (value: PolicyForm) => {
      const body = {
        name: value.name.trim(),
        description: value.description.trim(),
        business_hours_only: value.business_hours_only,
        first_response_minutes: numberOrNull(value.targets.first_response_minutes),
        next_response_minutes: numberOrNull(value.targets.next_response_minutes),
        resolution_minutes: numberOrNull(value.targets.resolution_minutes),
        warning_minutes: numberOrNull(value.targets.warning_minutes),
      };
      return policy
        ? unwrap(api.PUT('/api/v1/sla/{id}', { params: { path: { id: policy.id } }, body }))
        : unwrap(api.POST('/api/v1/sla', { body }));
    },
    { invalidate: [keys.admin.sla], done: (saved) => t('admin.sla.saved', { name: saved.name }) },
  );
  useOnOpen(open, policy, () => {
    setForm(initial(policy));
    save.reset();
  });
  const errors = formErrors(save.error);
  const setTarget = (target: Target, value: string) =>
    setForm((current) => ({ ...current, targets: { ...current.targets, [target]: value } }));
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={policy ? t('admin.sla.edit') : t('admin.sla.new')}
      onSubmit={() => save.mutate(form, { onSuccess: onClose })}
      pending={save.isPending}
      banner={errors.banner(['name', 'description', 'business_hours_only', ...TARGETS])}
    >
      <Field label={t('admin.field.name')} error={errors.field('name')}>
        <Input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} maxLength={140} autoComplete="off" />
      </Field>
      <Field label={t('admin.field.description')} error={errors.field('description')}>
        <Input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} autoComplete="off" />
      </Field>
      <div className="form-grid">
        {TARGETS.map((target) => {
          const value = numberOrNull(form.targets[target]);
          return (
            <Field
              key={target}
              label={t(`admin.sla.${target}`)}
              hint={
                value !== null && Number.isFinite(value) && value > 0
                  ? (minutes(value) ?? undefined)
                  : t(target === 'warning_minutes' ? 'admin.sla.noWarning' : 'admin.sla.noTarget')
              }
              error={errors.field(target)}
            >
              <Input
                type="number"
                min={target === 'warning_minutes' ? 0 : 1}
                inputMode="numeric"
                value={form.targets[target]}
                onChange={(e) => setTarget(target, e.target.value)}
              />
            </Field>
          );
        })}
      </div>
      <Switch
        checked={form.business_hours_only}
        onCheckedChange={(v) => setForm({ ...form, business_hours_only: v })}
        label={t('admin.sla.businessHoursOnly')}
        hint={t('admin.sla.businessHoursOnlyHint')}
      />
    </FormDialog>
  );
}

export function SlaPage() {
  const policies = useSlaPolicies();
  const cell = (value: number | null) => (value === null ? <span className="cell-muted">—</span> : minutes(value));
  return (
    <AdminListPage
      query={policies}
      title={t('admin.sla.title')}
      description={t('admin.sla.hint')}
      newLabel={t('admin.sla.new')}
      empty={t('admin.sla.empty')}
      remove={(policy) => unwrap(api.DELETE('/api/v1/sla/{id}', { params: { path: { id: policy.id } } }))}
      invalidate={[keys.admin.sla]}
      dialog={({ open, record, onClose }) => <PolicyDialog open={open} policy={record} onClose={onClose} />}
      columns={[
        {
          key: 'name',
          header: t('admin.field.name'),
          render: (policy) => (
            <span>
              <span className="row-name">{policy.name}</span>{' '}
              <Badge>{policy.business_hours_only ? t('admin.sla.businessHours') : t('admin.sla.calendar')}</Badge>
              {policy.description ? <span className="row-sub">{policy.description}</span> : null}
            </span>
          ),
        },
        { key: 'first', header: t('admin.sla.first_response_minutes'), numeric: true, render: (p) => cell(p.first_response_minutes) },
        {
          key: 'next',
          header: t('admin.sla.next_response_minutes'),
          numeric: true,
          optional: true,
          render: (p) => cell(p.next_response_minutes),
        },
        { key: 'resolution', header: t('admin.sla.resolution_minutes'), numeric: true, render: (p) => cell(p.resolution_minutes) },
      ]}
    />
  );
}
