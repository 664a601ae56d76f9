// The service report's range and filters, kept in the URL: two dates (the report's zone) with
// quick ranges, and a team, inbox, agent and tag.
import { teamLabel } from '../../ui/glyph';
import { useAgents, useInboxes, useTags, useTeams } from '../../api/reference';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/Field';
import { Input } from '../../ui/Input';
import { Select } from '../../ui/Select';
import { addDays, firstOfMonth } from './format';
import type { ServiceParams } from './queries';

const ALL = '__all';
const PRESETS = ['7', '30', '90', '365', 'month', 'lastMonth'] as const;
type Preset = (typeof PRESETS)[number];

export function presetRange(preset: Preset, today: string): { from: string; to: string } {
  switch (preset) {
    case 'month':
      return { from: firstOfMonth(today), to: today };
    case 'lastMonth':
      return { from: firstOfMonth(today, 1), to: addDays(firstOfMonth(today), -1) };
    default:
      return { from: addDays(today, -(Number(preset) - 1)), to: today };
  }
}

export function ServiceFilters({
  params,
  range,
  today,
  onChange,
}: {
  params: ServiceParams;
  /** The range the report answered for (the defaults when the URL names none). */
  range: { from: string; to: string } | null;
  today: string;
  onChange: (changes: Partial<Record<keyof ServiceParams, string | null>>) => void;
}) {
  const teams = useTeams();
  const inboxes = useInboxes();
  const agents = useAgents();
  const tags = useTags();
  const from = params.from ?? range?.from ?? '';
  const to = params.to ?? range?.to ?? '';
  const preset = PRESETS.find((p) => {
    const r = presetRange(p, today);
    return r.from === from && r.to === to;
  });
  const choice = (
    name: 'team_id' | 'inbox_id' | 'agent_id' | 'tag',
    label: string,
    options: ReadonlyArray<{ value: string; label: string }>,
  ) => (
    <Field label={label}>
      <Select
        size="sm"
        value={params[name] === undefined ? ALL : String(params[name])}
        onValueChange={(value) => onChange({ [name]: value === ALL ? null : value })}
        options={[{ value: ALL, label: t('reports.filter.all') }, ...options]}
      />
    </Field>
  );
  const filtered =
    params.team_id !== undefined || params.inbox_id !== undefined || params.agent_id !== undefined || params.tag !== undefined;

  return (
    <fieldset className="report-filters plain-fieldset">
      <legend className="visually-hidden">{t('reports.filters')}</legend>
      <Field label={t('reports.range')}>
        <Select
          size="sm"
          value={preset ?? 'custom'}
          onValueChange={(value) => {
            const match = PRESETS.find((p) => p === value);
            if (match) onChange(presetRange(match, today));
          }}
          options={[
            ...PRESETS.map((p) => ({ value: p, label: t(`reports.preset.${p}`) })),
            ...(preset ? [] : [{ value: 'custom', label: t('reports.preset.custom') }]),
          ]}
        />
      </Field>
      <Field label={t('reports.from')}>
        <Input
          type="date"
          className="report-filters__date"
          value={from}
          max={to || undefined}
          onChange={(e) => e.target.value && onChange({ from: e.target.value })}
        />
      </Field>
      <Field label={t('reports.to')}>
        <Input
          type="date"
          className="report-filters__date"
          value={to}
          min={from || undefined}
          onChange={(e) => e.target.value && onChange({ to: e.target.value })}
        />
      </Field>
      {choice(
        'team_id',
        t('reports.filter.team'),
        (teams.data ?? []).map((team) => ({ value: String(team.id), label: teamLabel(team) })),
      )}
      {choice(
        'inbox_id',
        t('reports.filter.inbox'),
        (inboxes.data ?? []).map((inbox) => ({ value: String(inbox.id), label: inbox.name })),
      )}
      {choice(
        'agent_id',
        t('reports.filter.agent'),
        (agents.data ?? []).map((agent) => ({ value: String(agent.id), label: `${agent.first_name} ${agent.last_name}`.trim() })),
      )}
      {choice(
        'tag',
        t('reports.filter.tag'),
        (tags.data ?? []).map((tag) => ({ value: tag.name, label: tag.name })),
      )}
      {filtered ? (
        <Button
          size="sm"
          variant="ghost"
          className="report-filters__reset"
          onClick={() => onChange({ team_id: null, inbox_id: null, agent_id: null, tag: null })}
        >
          {t('reports.filter.clear')}
        </Button>
      ) : null}
    </fieldset>
  );
}
