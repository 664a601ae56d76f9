// The bell in the top bar: the unread count as a badge (and, if the agent wants it, in the tab's
// title), a chime on each new notification, and a panel listing them: unread or all, each opening
// its conversation and marking it read, each marked read/unread or deleted, all marked read at once.
import { Bell, Check, CircleDot, Trash2 } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Popover } from '../../ui/Popover';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import { useAgent } from '../auth/session';
import { ago } from '../inbox/format';
import './notifications.css';
import {
  type Notification,
  type NotificationFilter,
  listenForNotificationChanges,
  onNewNotification,
  useNotificationActions,
  useNotificationList,
  useNotificationSettings,
  useUnreadCount,
} from './queries';
import { playChime } from './sound';
import { useTitleCount } from './title';

export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const client = useQueryClient();
  const agentId = useAgent().id;
  useEffect(() => listenForNotificationChanges(client, agentId), [client, agentId]);
  const count = useUnreadCount().data ?? 0;
  const settings = useNotificationSettings().data;
  const sound = settings?.sound ?? true;
  const soundRef = useRef(sound);
  soundRef.current = sound;
  useTitleCount(count, settings?.title_count ?? true);
  useEffect(
    () =>
      onNewNotification((notification) => {
        if (soundRef.current && notification.read_at === null) playChime();
      }),
    [],
  );
  const shown = count > 99 ? '99+' : String(count);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      label={t('notifications.title')}
      align="end"
      trigger={
        <Button
          variant="ghost"
          icon
          className="bell"
          aria-label={count > 0 ? t('notifications.bellUnread', { n: count }) : t('notifications.bell')}
          title={t('notifications.bell')}
        >
          <Bell size={16} aria-hidden />
          {count > 0 ? (
            <span className="bell__badge" aria-hidden data-testid="notification-badge">
              {shown}
            </span>
          ) : null}
        </Button>
      }
    >
      <NotificationPanel agentId={agentId} count={count} onClose={() => setOpen(false)} />
    </Popover>
  );
}

function NotificationPanel({ agentId, count, onClose }: { agentId: number; count: number; onClose: () => void }) {
  const [filter, setFilter] = useState<NotificationFilter>('unread');
  const list = useNotificationList(filter, true);
  const { mark, remove, readAll } = useNotificationActions(agentId);
  const navigate = useNavigate();
  const items = list.data?.pages.flatMap((page) => page.results) ?? [];
  const failed = (error: Error) => toast(error.message, 'error');

  const open = (notification: Notification) => {
    if (notification.read_at === null) mark.mutate({ id: notification.id, read: true }, { onError: failed });
    onClose();
    void navigate(`/conversations/${notification.conversation_uuid}`);
  };

  return (
    <div className="notifications">
      <div className="notifications__header">
        <h2 className="notifications__title">{t('notifications.title')}</h2>
        {count > 0 ? <span className="muted">{t('notifications.unreadCount', { n: count })}</span> : null}
        <Button
          size="sm"
          variant="ghost"
          disabled={count === 0}
          loading={readAll.isPending}
          onClick={() =>
            readAll.mutate(undefined, {
              onSuccess: (done) => toast(t('notifications.markedAllRead', { n: done.count })),
              onError: failed,
            })
          }
        >
          {t('notifications.markAllRead')}
        </Button>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: two toggle buttons, one pressed */}
      <div className="notifications__filter" role="group" aria-label={t('notifications.filter')}>
        {(['unread', 'all'] as const).map((value) => (
          <Button
            key={value}
            size="sm"
            variant={filter === value ? 'secondary' : 'ghost'}
            aria-pressed={filter === value}
            onClick={() => setFilter(value)}
          >
            {t(`notifications.filter.${value}`)}
          </Button>
        ))}
      </div>
      {list.isPending ? (
        <Spinner size="sm" />
      ) : items.length === 0 ? (
        <p className="muted notifications__empty">{t(`notifications.empty.${filter}`)}</p>
      ) : (
        <ul className="notifications__list" aria-label={t('notifications.list')}>
          {items.map((notification) => {
            const unread = notification.read_at === null;
            return (
              <li key={notification.id} className={`notifications__item${unread ? ' notifications__item--unread' : ''}`}>
                <button type="button" className="notifications__open" onClick={() => open(notification)}>
                  <span className="notifications__line">
                    {unread ? <span className="notifications__dot" title={t('notifications.unreadDot')} /> : null}
                    <span className="notifications__item-title">{notification.title}</span>
                  </span>
                  {notification.excerpt ? <span className="notifications__excerpt">{notification.excerpt}</span> : null}
                  <span className="notifications__meta">
                    {t(`notifications.type.${notification.type}`)}
                    {notification.actor ? ` · ${t('notifications.by', { name: notification.actor.name })}` : ''} ·{' '}
                    {ago(notification.created_at)}
                    {unread ? <span className="visually-hidden"> · {t('notifications.unreadDot')}</span> : null}
                  </span>
                </button>
                <div className="notifications__actions">
                  <Button
                    size="sm"
                    variant="ghost"
                    icon
                    aria-label={unread ? t('notifications.markRead') : t('notifications.markUnread')}
                    title={unread ? t('notifications.markRead') : t('notifications.markUnread')}
                    onClick={() => mark.mutate({ id: notification.id, read: unread }, { onError: failed })}
                  >
                    {unread ? <Check size={14} aria-hidden /> : <CircleDot size={14} aria-hidden />}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon
                    aria-label={t('notifications.delete')}
                    title={t('notifications.delete')}
                    onClick={() => remove.mutate(notification.id, { onError: failed })}
                  >
                    <Trash2 size={14} aria-hidden />
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {list.hasNextPage ? (
        <Button size="sm" variant="ghost" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {t('notifications.loadMore')}
        </Button>
      ) : null}
    </div>
  );
}
