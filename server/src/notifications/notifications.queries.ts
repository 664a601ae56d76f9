// The statements of an agent's notifications: its list (one statement with the conversation's and
// the message's uuids joined in), its unread count (the partial index `notifications_unread_idx`),
// and its read marks. Every statement is scoped to the agent and to the rows shown in the app
// (`in_app`): a row made only for mail or push is nobody's to read here.
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { Database } from '../db/types.ts';

type WithC = Database & { c: Database['conversations'] };
/** The conversation access rule as SQL over `c` (conversations.access.ts, accessFilter). */
export type ReadableFilter = (eb: ExpressionBuilder<WithC, 'c'>) => Expression<SqlBool>;

/** The agent's notifications shown in the app, about conversations they may still read. */
function mine(db: DB, agentId: number, readable: ReadableFilter) {
  return db
    .selectFrom('notifications as n')
    .innerJoin('conversations as c', 'c.id', 'n.conversation_id')
    .where('n.agent_id', '=', agentId)
    .where('n.in_app', '=', true)
    .where((eb) => readable(eb as unknown as ExpressionBuilder<WithC, 'c'>));
}

function withRecordColumns(db: DB, agentId: number, readable: ReadableFilter) {
  return mine(db, agentId, readable)
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
export async function listNotifications(
  db: DB,
  agentId: number,
  readable: ReadableFilter,
  page: { unread: boolean; limit: number; offset: number },
) {
  let query = withRecordColumns(db, agentId, readable);
  if (page.unread) query = query.where('n.read_at', 'is', null);
  return query.orderBy('n.created_at', 'desc').orderBy('n.id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countNotifications(db: DB, agentId: number, readable: ReadableFilter, unread: boolean): Promise<number> {
  let query = mine(db, agentId, readable);
  if (unread) query = query.where('n.read_at', 'is', null);
  const row = await query.select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
  return row.count;
}

export async function findNotification(db: DB, agentId: number, readable: ReadableFilter, id: number) {
  return withRecordColumns(db, agentId, readable).where('n.id', '=', id).executeTakeFirst();
}

/** The conversations the agent may read, for the writes' filter (the same rule as `mine`). */
function readableIds(db: DB, readable: ReadableFilter) {
  return db
    .selectFrom('conversations as c')
    .select('c.id')
    .where((eb) => readable(eb as unknown as ExpressionBuilder<WithC, 'c'>));
}

/**
 * Sets or clears the read mark; a read notification keeps the time it was first read. Answers
 * whether the row is one the agent may see (theirs, shown in the app, about a readable conversation).
 */
export async function setRead(db: DB, agentId: number, readable: ReadableFilter, id: number, readAt: Date | null): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: readAt === null ? null : sql<Date>`coalesce(read_at, ${readAt}::timestamptz)` })
    .where('id', '=', id)
    .where('agent_id', '=', agentId)
    .where('in_app', '=', true)
    .where('conversation_id', 'in', readableIds(db, readable))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markAllRead(db: DB, agentId: number, readable: ReadableFilter, readAt: Date): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: readAt })
    .where('agent_id', '=', agentId)
    .where('in_app', '=', true)
    .where('read_at', 'is', null)
    .where('conversation_id', 'in', readableIds(db, readable))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteNotification(db: DB, agentId: number, readable: ReadableFilter, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('notifications')
    .where('id', '=', id)
    .where('agent_id', '=', agentId)
    .where('in_app', '=', true)
    .where('conversation_id', 'in', readableIds(db, readable))
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
