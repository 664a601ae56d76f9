import { useAgents, usePriorities, useStatuses, useTags, useTeams } from '../../api/reference';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { DropdownMenu, type MenuEntry } from '../../ui/DropdownMenu';
import { can, displayName, useAgent } from '../auth/session';
import type { Change } from '../conversation/changes';
import { teamEmoji } from '../../ui/glyph';

/**
 * Actions on the selected conversations: status (no snooze: that needs a time), priority, assign to
 * me, to an agent or to a team, add or remove a tag. Each shown only with its permission.
 * `selectedTags` are the tags the selection carries (what "Remove tag" offers).
 */
export function BulkBar({
  count,
  selectedTags,
  busy,
  onChange,
  onClear,
}: {
  count: number;
  selectedTags: readonly string[];
  busy: boolean;
  onChange: (change: Change) => void;
  onClear: () => void;
}) {
  const statuses = useStatuses();
  const priorities = usePriorities();
  const agents = useAgents();
  const teams = useTeams();
  const tags = useTags();
  const agent = useAgent();
  const menu = (label: string, entries: readonly MenuEntry[]) =>
    entries.length > 0 ? (
      <DropdownMenu
        trigger={
          <Button size="sm" disabled={busy}>
            {label}
          </Button>
        }
        entries={entries}
      />
    ) : null;
  const assignAgents = can(agent, 'conversations:update_user_assignee');
  const tagging = can(agent, 'conversations:update_tags');

  return (
    <div className="bulkbar" role="toolbar" aria-label={t('inbox.selected', { n: count })} aria-busy={busy || undefined}>
      <span className="bulkbar__count">{t('inbox.selected', { n: count })}</span>
      {can(agent, 'conversations:update_status')
        ? menu(
            t('inbox.bulk.status'),
            (statuses.data ?? [])
              .filter((status) => status.category !== 'waiting')
              .map((status) => ({ label: status.name, onSelect: () => onChange({ kind: 'status', status: status.name }) })),
          )
        : null}
      {can(agent, 'conversations:update_priority')
        ? menu(
            t('inbox.bulk.priority'),
            (priorities.data ?? []).map((priority) => ({
              label: priority.name,
              onSelect: () => onChange({ kind: 'priority', priority: priority.name }),
            })),
          )
        : null}
      {assignAgents ? (
        <Button size="sm" disabled={busy} onClick={() => onChange({ kind: 'assignee', id: agent.id })}>
          {t('inbox.bulk.assignMe')}
        </Button>
      ) : null}
      {assignAgents
        ? menu(
            t('inbox.bulk.assignAgent'),
            (agents.data ?? [])
              .filter((a) => a.enabled)
              .map((a) => ({ id: String(a.id), label: displayName(a), onSelect: () => onChange({ kind: 'assignee', id: a.id }) })),
          )
        : null}
      {can(agent, 'conversations:update_team_assignee')
        ? menu(
            t('inbox.bulk.assignTeam'),
            (teams.data ?? []).map((team) => ({
              id: String(team.id),
              label: `${teamEmoji(team)} ${team.name}`.trim(),
              onSelect: () => onChange({ kind: 'team', id: team.id }),
            })),
          )
        : null}
      {tagging
        ? menu(
            t('inbox.bulk.addTag'),
            (tags.data ?? []).map((tag) => ({
              label: tag.name,
              onSelect: () => onChange({ kind: 'tags', tags: [tag.name], action: 'add_tags' }),
            })),
          )
        : null}
      {tagging
        ? menu(
            t('inbox.bulk.removeTag'),
            selectedTags.map((name) => ({ label: name, onSelect: () => onChange({ kind: 'tags', tags: [name], action: 'remove_tags' }) })),
          )
        : null}
      <Button size="sm" variant="ghost" onClick={onClear}>
        {t('inbox.bulk.clear')}
      </Button>
    </div>
  );
}
