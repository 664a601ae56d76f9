// The statements of an agent's notifications: its list (one statement with the conversation's and
// the message's uuids joined in), its unread count (the partial index `notifications_unread_idx`),
// and its read marks. Every statement is scoped to the agent and to the rows shown in the app
// (`in_app`): a row made only for mail or push is nobody's to read here.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

function mine(db: DB, agentId: number) {
  return db.selectFrom('notifications as n').where('n.agent_id', '=', agentId).where('n.in_app', '=', true);
}

function withRecordColumns(db: DB, agentId: number) {
  return mine(db, agentId)
    .innerJoin('conversations as c', 'c.id', 'n.conversation_id')
    .leftJoin('messages as m', 'm.id', 'n.message_id')
    .select([
      'n.id',
      'n.type',
      'n.created_at',
      'n.read_at',
      'c.uuid as conversation_uuid',
      'm.uuid as message_uuid',
      'n.actor_type',
      'n.actor_id',
      'n.actor_name',
      'n.title',
      'n.excerpt',
    ]);
}

/** One page, newest first (id breaks ties), in the order of `notifications_agent_idx`. */
export async function listNotifications(db: DB, agentId: number, page: { unread: boolean; limit: number; offset: number }) {
  let query = withRecordColumns(db, agentId);
  if (page.unread) query = query.where('n.read_at', 'is', null);
  return query.orderBy('n.created_at', 'desc').orderBy('n.id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countNotifications(db: DB, agentId: number, unread: boolean): Promise<number> {
  let query = mine(db, agentId);
  if (unread) query = query.where('n.read_at', 'is', null);
  const row = await query.select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
  return row.count;
}

export async function findNotification(db: DB, agentId: number, id: number) {
  return withRecordColumns(db, agentId).where('n.id', '=', id).executeTakeFirst();
}

/** Sets or clears the read mark; a read notification keeps the time it was first read. Answers whether the row is the agent's. */
export async function setRead(db: DB, agentId: number, id: number, readAt: Date | null): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: readAt === null ? null : sql<Date>`coalesce(read_at, ${readAt}::timestamptz)` })
    .where('id', '=', id)
    .where('agent_id', '=', agentId)
    .where('in_app', '=', true)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markAllRead(db: DB, agentId: number, readAt: Date): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: readAt })
    .where('agent_id', '=', agentId)
    .where('in_app', '=', true)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteNotification(db: DB, agentId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('notifications')
    .where('id', '=', id)
    .where('agent_id', '=', agentId)
    .where('in_app', '=', true)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
