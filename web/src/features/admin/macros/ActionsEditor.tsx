// A macro's actions, one row each (at most one per type): what it sets, assigns, applies or tags.
// The API checks every value again when the macro is saved and when it is applied.
import { teamLabel } from '../../../ui/glyph';
import { X } from 'lucide-react';
import { useAgents, usePriorities, useStatuses, useTags, useTeams } from '../../../api/reference';
import type { Schemas } from '../../../api/client';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Select } from '../../../ui/Select';
import { useSlaPolicies } from '../fields';

export type MacroActions = Schemas['MacroActions'];
export const ACTION_TYPES = [
  'set_status',
  'set_priority',
  'assign_team',
  'assign_user',
  'apply_sla',
  'set_tags',
  'add_tags',
  'remove_tags',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
type TagAction = 'set_tags' | 'add_tags' | 'remove_tags';
const TAG_ACTIONS: readonly ActionType[] = ['set_tags', 'add_tags', 'remove_tags'];

function TagPicker({ value, onChange, label }: { value: string[]; onChange: (value: string[]) => void; label: string }) {
  const tags = useTags();
  const left = (tags.data ?? []).filter((tag) => !value.some((v) => v.toLowerCase() === tag.name.toLowerCase()));
  return (
    <div className="tag-picker">
      {value.map((name) => (
        <span key={name} className="tag-picker__chip">
          <Badge tone="accent">{name}</Badge>
          <Button
            size="sm"
            variant="ghost"
            icon
            aria-label={t('admin.macros.removeTag', { name })}
            onClick={() => onChange(value.filter((v) => v !== name))}
          >
            <X size={16} aria-hidden />
          </Button>
        </span>
      ))}
      {left.length > 0 ? (
        <Select
          size="sm"
          aria-label={label}
          value=""
          placeholder={t('admin.macros.addTag')}
          options={left.map((tag) => ({ value: tag.name, label: tag.name }))}
          onValueChange={(name) => onChange([...value, name])}
        />
      ) : null}
    </div>
  );
}

/** The editor's form of the actions: ids as strings, '' while a row has no value yet. */
export type ActionDraft = { [K in ActionType]?: K extends TagAction ? string[] : string };

const ID_ACTIONS = ['assign_team', 'assign_user', 'apply_sla'] as const;

export function draftOf(actions: MacroActions): ActionDraft {
  const draft: ActionDraft = {};
  if (actions.set_status !== undefined) draft.set_status = actions.set_status;
  if (actions.set_priority !== undefined) draft.set_priority = actions.set_priority;
  for (const type of ID_ACTIONS) if (actions[type] !== undefined) draft[type] = String(actions[type]);
  for (const type of ['set_tags', 'add_tags', 'remove_tags'] as const)
    if (actions[type] !== undefined) draft[type] = [...(actions[type] ?? [])];
  return draft;
}

/** The actions as the API takes them: rows without a value yet are left out. */
export function actionsOf(draft: ActionDraft): MacroActions {
  const out: MacroActions = {};
  if (draft.set_status) out.set_status = draft.set_status;
  if (draft.set_priority) out.set_priority = draft.set_priority;
  for (const type of ID_ACTIONS) if (draft[type]) out[type] = Number(draft[type]);
  for (const type of ['set_tags', 'add_tags', 'remove_tags'] as const) if (draft[type] !== undefined) out[type] = draft[type];
  return out;
}

function ValueEditor({ type, draft, onChange }: { type: ActionType; draft: ActionDraft; onChange: (next: ActionDraft) => void }) {
  const statuses = useStatuses();
  const priorities = usePriorities();
  const teams = useTeams();
  const agents = useAgents();
  const policies = useSlaPolicies();
  const label = t(`admin.macros.action.${type}`);
  const pick = (options: ReadonlyArray<{ value: string; label: string }>) => (
    <Select
      size="sm"
      aria-label={t('admin.macros.valueOf', { action: label })}
      value={typeof draft[type] === 'string' ? draft[type] : ''}
      placeholder={t('admin.macros.choose')}
      options={options}
      onValueChange={(value) => onChange({ ...draft, [type]: value })}
    />
  );
  switch (type) {
    case 'set_status':
      return pick((statuses.data ?? []).filter((s) => s.name !== 'Snoozed').map((s) => ({ value: s.name, label: s.name })));
    case 'set_priority':
      return pick((priorities.data ?? []).map((p) => ({ value: p.name, label: p.name })));
    case 'assign_team':
      return pick((teams.data ?? []).map((team) => ({ value: String(team.id), label: teamLabel(team) })));
    case 'assign_user':
      return pick(
        (agents.data ?? []).map((agent) => ({ value: String(agent.id), label: `${agent.first_name} ${agent.last_name}`.trim() })),
      );
    case 'apply_sla':
      return pick((policies.data ?? []).map((policy) => ({ value: String(policy.id), label: policy.name })));
    default:
      return (
        <TagPicker
          label={t('admin.macros.valueOf', { action: label })}
          value={draft[type] ?? []}
          onChange={(value) => onChange({ ...draft, [type]: value })}
        />
      );
  }
}

export function ActionsEditor({
  draft,
  onChange,
  error,
}: {
  draft: ActionDraft;
  onChange: (next: ActionDraft) => void;
  error?: string | null;
}) {
  const present = ACTION_TYPES.filter((type) => draft[type] !== undefined);
  const missing = ACTION_TYPES.filter((type) => draft[type] === undefined);
  const add = (type: ActionType) => onChange({ ...draft, [type]: TAG_ACTIONS.includes(type) ? [] : '' });
  const remove = (type: ActionType) => {
    const next = { ...draft };
    delete next[type];
    onChange(next);
  };
  return (
    <fieldset className="actions-editor">
      <legend>{t('admin.macros.actions')}</legend>
      {present.length === 0 ? <p className="cell-muted">{t('admin.macros.noActions')}</p> : null}
      <ul className="actions-editor__list">
        {present.map((type) => (
          <li key={type} className="actions-editor__row">
            <span className="actions-editor__type">{t(`admin.macros.action.${type}`)}</span>
            <span className="actions-editor__value">
              <ValueEditor type={type} draft={draft} onChange={onChange} />
            </span>
            <Button
              size="sm"
              variant="ghost"
              icon
              onClick={() => remove(type)}
              aria-label={t('admin.macros.removeAction', { action: t(`admin.macros.action.${type}`) })}
            >
              <X size={16} aria-hidden />
            </Button>
          </li>
        ))}
      </ul>
      {missing.length > 0 ? (
        <Select
          size="sm"
          aria-label={t('admin.macros.addAction')}
          value=""
          placeholder={t('admin.macros.addAction')}
          options={missing.map((type) => ({ value: type, label: t(`admin.macros.action.${type}`) }))}
          onValueChange={(value) => {
            const type = ACTION_TYPES.find((candidate) => candidate === value);
            if (type) add(type);
          }}
        />
      ) : null}
      {error ? (
        <p className="ui-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
