// Reading one's notifications and choosing how to be notified (docs/api.md, "Notification API and
// preferences"). Notifications are made elsewhere (the fan-out, from domain events); here an agent
// reads, marks and deletes their own, and nobody else's: another agent's id answers as unknown.
import type { Static } from 'typebox';
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

export async function listNotifications(deps: AppDeps, agentId: number, page: PageRequest, unread: boolean) {
  const [rows, total] = await Promise.all([
    q.listNotifications(deps.db, agentId, { unread, limit: page.pageSize, offset: page.offset }),
    q.countNotifications(deps.db, agentId, unread),
  ]);
  return { rows: rows.map(recordOf), total };
}

export async function unreadCount(deps: AppDeps, agentId: number): Promise<number> {
  return q.countNotifications(deps.db, agentId, true);
}

async function mustFind(deps: AppDeps, agentId: number, id: number): Promise<Item> {
  const row = await q.findNotification(deps.db, agentId, id);
  if (!row) throw new NotFoundError('Notification not found');
  return recordOf(row);
}

/** Marks one read (`read`) or unread; answers the notification as it is now. */
export async function markNotification(deps: AppDeps, agentId: number, id: number, read: boolean): Promise<Item> {
  const found = await q.setRead(deps.db, agentId, id, read ? deps.clock.now() : null);
  if (!found) throw new NotFoundError('Notification not found');
  return mustFind(deps, agentId, id);
}

export async function markAllRead(deps: AppDeps, agentId: number): Promise<number> {
  return q.markAllRead(deps.db, agentId, deps.clock.now());
}

export async function deleteNotification(deps: AppDeps, agentId: number, id: number): Promise<void> {
  if (!(await q.deleteNotification(deps.db, agentId, id))) throw new NotFoundError('Notification not found');
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
