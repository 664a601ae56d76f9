import { Link } from 'react-router';
import type { ConversationListItem } from '../../api/client';
import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import { Badge, type Tone } from '../../ui/Badge';
import { conversationTitle } from '../conversation/title';
import { RowViewers } from '../presence/ViewersBar';
import { ago, contactName, shortDuration } from './format';

const PRIORITY_TONE: Record<string, Tone> = { Urgent: 'danger', High: 'warning', Medium: 'accent', Low: 'neutral' };

export function SlaBadge({ deadline }: { deadline: string | null }) {
  if (!deadline) return null;
  const left = new Date(deadline).getTime() - Date.now();
  const when = shortDuration(left);
  return left < 0 ? (
    <Badge tone="danger">{t('inbox.slaOverdue', { when })}</Badge>
  ) : (
    <Badge tone={left < 60 * 60_000 ? 'warning' : 'neutral'}>{t('inbox.slaDue', { when: t('time.in', { when }) })}</Badge>
  );
}

interface RowProps {
  conversation: ConversationListItem;
  href: string;
  active: boolean;
  focused: boolean;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onFocus: () => void;
}

export function ConversationRow({ conversation: c, href, active, focused, selected, onSelect, onFocus }: RowProps) {
  const name = contactName(c.contact);
  const title = conversationTitle(c);
  const unread = c.unread_message_count > 0;
  return (
    <li
      className={`row${active ? ' row--active' : ''}${focused ? ' row--focused' : ''}${unread ? ' row--unread' : ''}`}
      data-uuid={c.uuid}
      aria-current={active ? 'true' : undefined}
    >
      <input
        type="checkbox"
        className="ui-checkbox row__check"
        checked={selected}
        onChange={(event) => onSelect(event.target.checked)}
        aria-label={t('inbox.select', { ref: c.reference_number })}
      />
      <Link to={href} className="row__link" onFocus={onFocus} data-conversation-link>
        <Avatar name={name} src={c.contact.avatar_url} size="md" />
        <span className="row__body">
          <span className="row__top">
            <span className="row__name">{name}</span>
            <span className="row__time">{ago(c.last_message_at ?? c.created_at)}</span>
          </span>
          <span className="row__subject">{title}</span>
          <span className="row__preview">{c.last_message === title ? '' : (c.last_message ?? '')}</span>
          <span className="row__meta">
            <Badge>{c.status}</Badge>
            {c.priority ? <Badge tone={PRIORITY_TONE[c.priority] ?? 'neutral'}>{c.priority}</Badge> : null}
            <SlaBadge deadline={c.next_sla_deadline_at} />
            <span className="row__inbox">{c.inbox_name}</span>
            {unread ? <Badge tone="accent">{t('inbox.unread', { n: c.unread_message_count })}</Badge> : null}
            <RowViewers uuid={c.uuid} />
          </span>
        </span>
      </Link>
    </li>
  );
}
