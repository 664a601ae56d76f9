// The conversation's details beside the thread: status (with snooze), priority, agent and team,
// tags, SLA deadlines, the contact's CSAT answer, and the contact card.
import { X } from 'lucide-react';
import type { ComponentProps } from 'react';
import type { Conversation } from '../../api/client';
import { useAgents, usePriorities, useStatuses, useTags, useTeams } from '../../api/reference';
import { t } from '../../i18n/t';
import { Badge } from '../../ui/Badge';
import { Select } from '../../ui/Select';
import { toast } from '../../ui/Toast';
import { displayName } from '../auth/session';
import { type Change, useChangeConversation } from './changes';
import { ContactCard } from './ContactCard';
import { CsatPanel } from './CsatPanel';
import { FollowersPanel } from './FollowersPanel';
import { SlaPanel } from './SlaPanel';
import { dateTime } from '../inbox/format';
import { DetailsHeader } from './DetailsHeader';
import { SnoozeMenu } from './SnoozeMenu';
import { teamEmoji } from '../../ui/glyph';

const NONE = '__none';

/** One labelled choice of the details (priority, agent, team). */
function DetailSelect({ id, label, ...select }: { id: string; label: string } & Omit<ComponentProps<typeof Select>, 'id' | 'size'>) {
  return (
    <section className="details__section">
      <label className="details__label" htmlFor={id}>
        {label}
      </label>
      <Select id={id} size="sm" {...select} />
    </section>
  );
}

/**
 * `onClose`: the panel's close button and Escape inside it (over the thread on a narrow screen it
 * hides the thread); `focusClose`: the agent opened it, so the close button takes the focus.
 */
export function Sidebar({
  conversation: c,
  onClose,
  focusClose,
}: {
  conversation: Conversation;
  onClose: () => void;
  focusClose: boolean;
}) {
  const statuses = useStatuses();
  const priorities = usePriorities();
  const agents = useAgents();
  const teams = useTeams();
  const tags = useTags();
  const change = useChangeConversation();
  const apply = (next: Change) => change.mutate({ uuid: c.uuid, change: next }, { onError: (error) => toast(error.message, 'error') });

  const statusOptions = (statuses.data ?? [])
    .filter((s) => s.category !== 'waiting' || s.name === c.status)
    .map((s) => ({ value: s.name, label: s.name }));
  const freeTags = (tags.data ?? []).filter((tag) => !c.tags.some((name) => name.toLowerCase() === tag.name.toLowerCase()));

  return (
    <aside
      className="details"
      aria-label={t('sidebar.label')}
      onKeyDown={(event) => {
        // Only from the panel itself: Escape in a menu it opened (portalled) closes the menu.
        if (event.key === 'Escape' && event.target instanceof Node && event.currentTarget.contains(event.target)) onClose();
      }}
    >
      <DetailsHeader onClose={onClose} focusClose={focusClose} />
      <section className="details__section">
        <label className="details__label" htmlFor="details-status">
          {t('sidebar.status')}
        </label>
        <div className="details__row">
          <Select
            id="details-status"
            size="sm"
            value={c.status}
            options={statusOptions}
            onValueChange={(status) => apply({ kind: 'status', status })}
          />
          <SnoozeMenu onSnooze={(status, until) => apply({ kind: 'status', status, snoozed_until: until })} />
        </div>
        {c.snoozed_until ? <p className="details__note">{t('sidebar.snoozedUntil', { when: dateTime(c.snoozed_until) })}</p> : null}
      </section>
      <DetailSelect
        id="details-priority"
        label={t('sidebar.priority')}
        value={c.priority ?? ''}
        placeholder={t('common.none')}
        options={(priorities.data ?? []).map((p) => ({ value: p.name, label: p.name }))}
        onValueChange={(priority) => apply({ kind: 'priority', priority })}
      />
      <DetailSelect
        id="details-agent"
        label={t('sidebar.assignee')}
        value={c.assigned_user_id === null ? NONE : String(c.assigned_user_id)}
        options={[
          { value: NONE, label: t('sidebar.unassigned') },
          ...(agents.data ?? []).filter((a) => a.enabled).map((a) => ({ value: String(a.id), label: displayName(a) })),
        ]}
        onValueChange={(value) => apply({ kind: 'assignee', id: value === NONE ? null : Number(value) })}
      />
      <DetailSelect
        id="details-team"
        label={t('sidebar.team')}
        value={c.assigned_team_id === null ? NONE : String(c.assigned_team_id)}
        options={[
          { value: NONE, label: t('sidebar.unassigned') },
          ...(teams.data ?? []).map((team) => ({ value: String(team.id), label: `${teamEmoji(team)} ${team.name}`.trim() })),
        ]}
        onValueChange={(value) => apply({ kind: 'team', id: value === NONE ? null : Number(value) })}
      />
      <section className="details__section" aria-labelledby="details-tags">
        <h3 id="details-tags" className="details__label">
          {t('sidebar.tags')}
        </h3>
        <ul className="details__tags">
          {c.tags.map((name) => (
            <li key={name} className="chip">
              <span>{name}</span>
              <button
                type="button"
                className="chip__remove"
                aria-label={t('sidebar.removeTag', { name })}
                onClick={() => apply({ kind: 'tags', tags: [name], action: 'remove_tags' })}
              >
                <X size={12} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
        {freeTags.length > 0 ? (
          <Select
            size="sm"
            aria-label={t('sidebar.addTag')}
            value=""
            placeholder={t('sidebar.addTag')}
            options={freeTags.map((tag) => ({ value: tag.name, label: tag.name }))}
            onValueChange={(name) => apply({ kind: 'tags', tags: [name], action: 'add_tags' })}
          />
        ) : null}
      </section>
      <FollowersPanel conversation={c} />
      <SlaPanel conversation={c} />
      <CsatPanel conversation={c} />
      <ContactCard conversation={c} />
      {change.isPending ? <Badge>{t('app.loading')}</Badge> : null}
    </aside>
  );
}
