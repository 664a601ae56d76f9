// An agent: names, email, roles, teams, a password (optional: single sign-on agents need none),
// enabled; for an existing agent, its API key too.
import { useState } from 'react';
import { type Agent, api, unwrap } from '../../../api/client';
import { useTeams } from '../../../api/reference';
import { t } from '../../../i18n/t';
import { CheckboxGroup } from '../../../ui/CheckboxGroup';
import { Field } from '../../../ui/Field';
import { formErrors } from '../../../ui/formErrors';
import { Input } from '../../../ui/Input';
import { Switch } from '../../../ui/Switch';
import { FormDialog, useAdminMutation } from '../crud';
import { useRoles } from '../fields';
import { ApiKeySection } from './ApiKeySection';
import { useSystemMailStatus } from '../../auth/passwords';
import { useOnOpen } from '../../../ui/useOnOpen';
import { teamEmoji } from '../../../ui/glyph';

interface AgentForm {
  first_name: string;
  last_name: string;
  email: string;
  roles: string[];
  teams: string[];
  password: string;
  enabled: boolean;
}

function initial(agent: Agent | null): AgentForm {
  return {
    first_name: agent?.first_name ?? '',
    last_name: agent?.last_name ?? '',
    email: agent?.email ?? '',
    roles: agent ? [...agent.roles] : ['Agent'],
    teams: agent ? agent.teams.map((team) => String(team.id)) : [],
    password: '',
    enabled: agent?.enabled ?? true,
  };
}

export function AgentDialog({ agent, open, onClose, self }: { agent: Agent | null; open: boolean; onClose: () => void; self: boolean }) {
  const roles = useRoles();
  const teams = useTeams();
  const [form, setForm] = useState<AgentForm>(() => initial(agent));
  const mail = useSystemMailStatus();
  // Created without a password (and enabled), the agent is mailed an invitation when the server can mail.
  const invites = agent === null && form.password === '' && form.enabled && mail.data?.configured === true;
  const save = useAdminMutation(
    (value: AgentForm) => {
      const body = {
        first_name: value.first_name.trim(),
        last_name: value.last_name.trim(),
        email: value.email.trim(),
        roles: value.roles,
        teams: value.teams.map(Number),
        enabled: value.enabled,
        ...(value.password ? { password: value.password } : {}),
      };
      return agent
        ? unwrap(api.PUT('/api/v1/agents/{id}', { params: { path: { id: agent.id } }, body }))
        : unwrap(api.POST('/api/v1/agents', { body }));
    },
    {
      invalidate: [['agents'], ['teams'], ...(self ? [['me']] : [])],
      done: (saved) =>
        invites
          ? t('admin.agents.invitationSent', { email: saved.email ?? '' })
          : t('admin.agents.saved', { name: `${saved.first_name} ${saved.last_name}`.trim() }),
    },
  );
  useOnOpen(open, agent, () => {
    setForm(initial(agent));
    save.reset();
  });
  const errors = formErrors(save.error);
  const set = <K extends keyof AgentForm>(name: K, value: AgentForm[K]) => setForm((current) => ({ ...current, [name]: value }));

  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => (next ? null : onClose())}
      title={agent ? t('admin.agents.edit') : t('admin.agents.new')}
      onSubmit={() => save.mutate(form, { onSuccess: onClose })}
      pending={save.isPending}
      banner={errors.banner(['first_name', 'last_name', 'email', 'roles', 'teams', 'password', 'enabled'])}
      size="lg"
    >
      <div className="form-grid">
        <Field label={t('contacts.field.firstName')} error={errors.field('first_name')}>
          <Input value={form.first_name} onChange={(e) => set('first_name', e.target.value)} autoComplete="off" />
        </Field>
        <Field label={t('contacts.field.lastName')} error={errors.field('last_name')}>
          <Input value={form.last_name} onChange={(e) => set('last_name', e.target.value)} autoComplete="off" />
        </Field>
        <Field label={t('admin.field.email')} error={errors.field('email')}>
          <Input type="email" value={form.email} onChange={(e) => set('email', e.target.value)} autoComplete="off" />
        </Field>
        <Field
          label={agent ? t('admin.agents.newPassword') : t('admin.agents.password')}
          hint={t('admin.agents.passwordHint')}
          error={errors.field('password')}
        >
          <Input type="password" value={form.password} onChange={(e) => set('password', e.target.value)} autoComplete="new-password" />
        </Field>
      </div>
      {invites ? (
        <output className="notice">
          {form.email.trim() ? t('admin.agents.invitationHint', { email: form.email.trim() }) : t('admin.agents.invitationHintNoEmail')}
        </output>
      ) : null}
      <Switch
        checked={form.enabled}
        onCheckedChange={(value) => set('enabled', value)}
        label={t('admin.agents.enabled')}
        hint={t('admin.agents.enabledHint')}
        disabled={self}
      />
      <CheckboxGroup
        legend={t('admin.agents.roles')}
        options={(roles.data ?? []).map((role) => ({ value: role.name, label: role.name }))}
        value={form.roles}
        onChange={(value) => set('roles', value)}
        error={errors.field('roles')}
      />
      <CheckboxGroup
        legend={t('admin.agents.teams')}
        options={(teams.data ?? []).map((team) => ({ value: String(team.id), label: `${teamEmoji(team)} ${team.name}`.trim() }))}
        value={form.teams}
        onChange={(value) => set('teams', value)}
        error={errors.field('teams')}
      />
      {agent ? <ApiKeySection agent={agent} /> : null}
    </FormDialog>
  );
}
