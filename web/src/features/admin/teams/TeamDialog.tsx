// A team's settings and members: how conversations are given out (round robin or by hand, with a
// cap), the business hours and SLA policy its conversations follow, and who is in it.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useAgents } from '../../../api/reference';
import { t } from '../../../i18n/t';
import { CheckboxGroup } from '../../../ui/CheckboxGroup';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Select } from '../../../ui/Select';
import { Loading } from '../../../ui/Spinner';
import { FormDialog, useAdminMutation } from '../crud';
import { numberOrNull, OptionalSelect, TimezoneInput, useBusinessHoursList, useSlaPolicies } from '../fields';
import { useOnOpen } from '../../../ui/useOnOpen';

export type Team = Schemas['Team'];
type Assignment = Team['conversation_assignment_type'];

interface TeamForm {
  name: string;
  emoji: string;
  conversation_assignment_type: Assignment;
  timezone: string;
  business_hours_id: number | null;
  sla_policy_id: number | null;
  max_auto: string;
  members: string[];
}

const FIELDS = [
  'name',
  'emoji',
  'conversation_assignment_type',
  'timezone',
  'business_hours_id',
  'sla_policy_id',
  'max_auto_assigned_conversations',
  'members',
  'user_ids',
];

function initial(team: Team | null, members: readonly number[]): TeamForm {
  return {
    name: team?.name ?? '',
    emoji: team?.emoji ?? '',
    conversation_assignment_type: team?.conversation_assignment_type ?? 'manual',
    timezone: team?.timezone ?? '',
    business_hours_id: team?.business_hours_id ?? null,
    sla_policy_id: team?.sla_policy_id ?? null,
    max_auto: String(team?.max_auto_assigned_conversations ?? 0),
    members: members.map(String),
  };
}

export function TeamDialog({ team, open, onClose }: { team: Team | null; open: boolean; onClose: () => void }) {
  const agents = useAgents();
  const hours = useBusinessHoursList();
  const policies = useSlaPolicies();
  const members = useQuery({
    queryKey: keys.admin.teamMembers(team?.id ?? 0),
    queryFn: () => unwrap(api.GET('/api/v1/teams/{id}/members', { params: { path: { id: team?.id ?? 0 } } })),
    enabled: open && team !== null,
  });
  const [form, setForm] = useState<TeamForm>(() => initial(team, []));
  const save = useAdminMutation(
    async (value: TeamForm) => {
      const body = {
        name: value.name.trim(),
        emoji: value.emoji.trim(),
        conversation_assignment_type: value.conversation_assignment_type,
        ...(value.timezone.trim() ? { timezone: value.timezone.trim() } : {}),
        business_hours_id: value.business_hours_id,
        sla_policy_id: value.sla_policy_id,
        max_auto_assigned_conversations: numberOrNull(value.max_auto) ?? 0,
      };
      const userIds = value.members.map(Number);
      if (!team) return unwrap(api.POST('/api/v1/teams', { body: { ...body, members: userIds } }));
      const saved = await unwrap(api.PUT('/api/v1/teams/{id}', { params: { path: { id: team.id } }, body }));
      await unwrap(api.PUT('/api/v1/teams/{id}/members', { params: { path: { id: team.id } }, body: { user_ids: userIds } }));
      return saved;
    },
    // Members change who sees which conversations: the agent's own record (its teams) too.
    { invalidate: [['teams'], keys.me, ['agents']], done: (saved) => t('admin.teams.saved', { name: saved.name }) },
  );
  const ready = team === null || members.isSuccess;
  useOnOpen(open && ready, team, () => {
    setForm(initial(team, members.data?.map((m) => m.id) ?? []));
    save.reset();
  });
  const errors = formErrors(save.error);
  const set = <K extends keyof TeamForm>(name: K, value: TeamForm[K]) => setForm((current) => ({ ...current, [name]: value }));
  const agentOptions = (agents.data ?? [])
    .filter((agent) => agent.enabled || form.members.includes(String(agent.id)))
    .map((agent) => ({ value: String(agent.id), label: `${agent.first_name} ${agent.last_name}`.trim() || (agent.email ?? '') }));

  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={team ? t('admin.teams.edit') : t('admin.teams.new')}
      onSubmit={() => save.mutate(form, { onSuccess: onClose })}
      pending={save.isPending}
      banner={errors.banner(FIELDS)}
      size="lg"
    >
      {!ready ? (
        <Loading />
      ) : (
        <>
          <div className="form-grid">
            <Field label={t('admin.field.name')} error={errors.field('name')}>
              <Input value={form.name} onChange={(e) => set('name', e.target.value)} maxLength={140} autoComplete="off" />
            </Field>
            <Field label={t('admin.teams.emoji')} hint={t('admin.teams.emojiHint')} error={errors.field('emoji')}>
              <Input value={form.emoji} onChange={(e) => set('emoji', e.target.value)} maxLength={50} autoComplete="off" />
            </Field>
            <Field
              label={t('admin.teams.assignment')}
              hint={t(`admin.teams.assignment.${form.conversation_assignment_type}.hint`)}
              error={errors.field('conversation_assignment_type')}
            >
              <Select
                value={form.conversation_assignment_type}
                onValueChange={(value) => set('conversation_assignment_type', value === 'round_robin' ? 'round_robin' : 'manual')}
                options={(['manual', 'round_robin'] as const).map((value) => ({ value, label: t(`admin.teams.assignment.${value}`) }))}
              />
            </Field>
            <Field
              label={t('admin.teams.maxAuto')}
              hint={t('admin.teams.maxAutoHint')}
              error={errors.field('max_auto_assigned_conversations')}
            >
              <Input type="number" min={0} inputMode="numeric" value={form.max_auto} onChange={(e) => set('max_auto', e.target.value)} />
            </Field>
            <Field label={t('admin.field.timezone')} hint={t('admin.teams.timezoneHint')} error={errors.field('timezone')}>
              <TimezoneInput optional value={form.timezone} onChange={(e) => set('timezone', e.target.value)} />
            </Field>
            <Field label={t('admin.hours.one')} error={errors.field('business_hours_id')}>
              <OptionalSelect
                value={form.business_hours_id}
                onChange={(value) => set('business_hours_id', value)}
                options={hours.data ?? []}
                noneLabel={t('admin.teams.defaultHours')}
              />
            </Field>
            <Field label={t('admin.sla.one')} hint={t('admin.teams.slaHint')} error={errors.field('sla_policy_id')}>
              <OptionalSelect value={form.sla_policy_id} onChange={(value) => set('sla_policy_id', value)} options={policies.data ?? []} />
            </Field>
          </div>
          <CheckboxGroup
            legend={t('admin.teams.members')}
            options={agentOptions}
            value={form.members}
            onChange={(value) => set('members', value)}
            error={errors.field('members') ?? errors.field('user_ids')}
          />
        </>
      )}
    </FormDialog>
  );
}
