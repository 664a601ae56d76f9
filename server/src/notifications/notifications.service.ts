// Reading one's notifications and choosing how to be notified (docs/api.md, "Notification API and
// preferences"). Notifications are made elsewhere (the fan-out, from domain events); here an agent
// reads, marks and deletes their own, and nobody else's: another agent's id answers as unknown.
import type { Static } from 'typebox';
import type { Principal } from '../auth/credential-cache.ts';
import { accessFilter } from '../conversations/conversations.access.ts';
import type { AppDeps } from '../deps.ts';
import { NOTIFICATION_TYPES } from '../db/types.ts';
import { NotFoundError } from '../errors.ts';
import type { PageRequest } from '../http/schemas.ts';
import { lockSettingsRow, writeSettingsRow } from './notification-settings.queries.ts';
import {
  defaultChoice,
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
  type NotificationSettings,
  settingsFrom,
  settingsOf,
} from './notification-settings.ts';
import type { NotificationRecord, NotificationSettingsBody } from './notifications.schema.ts';
import * as q from './notifications.queries.ts';

type Item = Static<typeof NotificationRecord>;
type Row = NonNullable<Awaited<ReturnType<typeof q.findNotification>>>;

function recordOf(row: Row): Item {
  return {
    id: row.id,
    type: row.type,
    created_at: row.created_at,
    read_at: row.read_at,
    conversation_uuid: row.conversation_uuid,
    message_uuid: row.message_uuid,
    actor: row.actor_type === null ? null : { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    title: row.title,
    excerpt: row.excerpt,
  };
}

export async function listNotifications(deps: AppDeps, principal: Principal, page: PageRequest, unread: boolean) {
  const readable = accessFilter(principal);
  if (!readable) return { rows: [], total: 0 };
  const [rows, total] = await Promise.all([
    q.listNotifications(deps.db, principal.userId, readable, { unread, limit: page.pageSize, offset: page.offset }),
    q.countNotifications(deps.db, principal.userId, readable, unread),
  ]);
  return { rows: rows.map(recordOf), total };
}

export async function unreadCount(deps: AppDeps, principal: Principal): Promise<number> {
  const readable = accessFilter(principal);
  return readable ? q.countNotifications(deps.db, principal.userId, readable, true) : 0;
}

const notFound = () => new NotFoundError('Notification not found');

/**
 * Marks one read (`read`) or unread; answers the notification as it is now. One about a
 * conversation the agent may no longer read answers as unknown, as another agent's does, and
 * is left as it was.
 */
export async function markNotification(deps: AppDeps, principal: Principal, id: number, read: boolean): Promise<Item> {
  const readable = accessFilter(principal);
  if (!readable) throw notFound();
  // One transaction: a notification that turns unreadable between the mark and the answer is a 404 that marked nothing.
  return deps.db.transaction().execute(async (trx) => {
    if (!(await q.setRead(trx, principal.userId, readable, id, read ? deps.clock.now() : null))) throw notFound();
    const row = await q.findNotification(trx, principal.userId, readable, id);
    if (!row) throw notFound();
    return recordOf(row);
  });
}

/** Answers how many were unread (of those the bell counts) and are read now. */
export async function markAllRead(deps: AppDeps, principal: Principal): Promise<number> {
  const readable = accessFilter(principal);
  return readable ? q.markAllRead(deps.db, principal.userId, readable, deps.clock.now()) : 0;
}

export async function deleteNotification(deps: AppDeps, principal: Principal, id: number): Promise<void> {
  const readable = accessFilter(principal);
  if (!readable || !(await q.deleteNotification(deps.db, principal.userId, readable, id))) throw notFound();
}

export async function mySettings(deps: AppDeps, agentId: number): Promise<NotificationSettings> {
  const settings = (await settingsOf(deps.db, [agentId])).get(agentId);
  return settings ?? settingsFrom(undefined);
}

type StoredTypes = { [type: string]: Partial<{ [channel in NotificationChannel]: boolean }> };

/** Only what differs from the defaults is kept, so a default changed later reaches whoever never chose. */
function differences(settings: NotificationSettings): StoredTypes {
  const stored: StoredTypes = {};
  for (const type of NOTIFICATION_TYPES) {
    const defaults = defaultChoice(type);
    const own: Partial<{ [channel in NotificationChannel]: boolean }> = {};
    for (const channel of NOTIFICATION_CHANNELS) {
      if (settings.types[type][channel] !== defaults[channel]) own[channel] = settings.types[type][channel];
    }
    if (Object.keys(own).length > 0) stored[type] = own;
  }
  return stored;
}

/** A partial change: the row is locked while read and written, so two tabs saving at once both land. */
export async function changeMySettings(
  deps: AppDeps,
  agentId: number,
  change: Static<typeof NotificationSettingsBody>,
): Promise<NotificationSettings> {
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const current = settingsFrom(await lockSettingsRow(trx, agentId, now));
    for (const type of NOTIFICATION_TYPES) {
      const own = change.types?.[type];
      if (own) for (const channel of NOTIFICATION_CHANNELS) if (own[channel] !== undefined) current.types[type][channel] = own[channel];
    }
    const next: NotificationSettings = {
      types: current.types,
      email_digest: change.email_digest ?? current.email_digest,
      sound: change.sound ?? current.sound,
      title_count: change.title_count ?? current.title_count,
    };
    await writeSettingsRow(trx, agentId, { ...next, types: differences(next) }, now);
    return next;
  });
}
