// Reading messages, and the idempotency keys of sends.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { MessageStatus } from '../db/types.ts';
import { compiledOnce } from '../db/statement.ts';
import { eventColumns } from '../events/events.service.ts';
import { attachmentsColumn } from '../media/media.queries.ts';

function selectMessages(db: DB) {
  return db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select([
      'm.id',
      'm.created_at',
      'm.updated_at',
      'm.uuid',
      'm.type',
      'm.status',
      'm.conversation_id',
      'c.uuid as conversation_uuid',
      'm.content',
      'm.text_content',
      'm.content_type',
      'm.private',
      'm.sender_id',
      'm.sender_type',
      'm.meta',
      attachmentsColumn().as('attachments'),
    ]);
}

export type MessageRow = Awaited<ReturnType<ReturnType<typeof selectMessages>['executeTakeFirstOrThrow']>>;

/** Newest first (index messages_conversation_idx). */
export async function listMessages(
  db: DB,
  conversationId: number,
  limit: number,
  offset: number,
): Promise<{ rows: MessageRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    selectMessages(db)
      .where('m.conversation_id', '=', conversationId)
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('messages')
      .where('conversation_id', '=', conversationId)
      .select(sql<number>`count(*)::int`.as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

const messageForReader = compiledOnce((db: DB, conversationUuid: string, uuid: string) =>
  selectMessages(db).select(['c.assigned_user_id', 'c.assigned_team_id']).where('m.uuid', '=', uuid).where('c.uuid', '=', conversationUuid),
);

/** The message with its conversation's access columns, so one statement serves a read (compiled once: every read runs it). */
export async function findMessage(db: DB, conversationUuid: string, uuid: string) {
  return messageForReader.executeTakeFirst(db, conversationUuid, uuid);
}

export async function findMessagesByIds(db: DB, ids: readonly number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return selectMessages(db)
    .where('m.id', '=', sql<number>`any(${[...ids]}::int[])`)
    .execute();
}

export async function findMessageById(db: DB, id: number): Promise<MessageRow | undefined> {
  return selectMessages(db).where('m.id', '=', id).executeTakeFirst();
}

export async function findIdempotencyKey(db: DB, userId: number, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .select(['request_hash', 'message_id'])
    .executeTakeFirst();
}

/** Keys are kept for a day; older ones are purged by the periodic sweep. */
export async function deleteIdempotencyKeysBefore(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A message's status change: the statuses it may move from, the one it moves to, and what it needs. */
export interface MessageStatusChange {
  from: readonly [MessageStatus, ...MessageStatus[]];
  to: 'sent' | 'failed';
  now: Date;
  /** Merged into the message's meta (its keys replace the stored ones). */
  meta?: Record<string, unknown>;
  /** Only an outgoing message moves (a bounce reports one of ours). */
  outgoingOnly?: boolean;
}

/** One message of a set-based status change: where it goes, and what its meta gains. */
export interface StatusChangeItem {
  id: number;
  to: 'sent' | 'failed';
  meta?: Record<string, unknown>;
}

/**
 * Moves each message from one of the `from` statuses to its `to` and records `message.updated`
 * for each one moved, all in one statement. Answers the messages moved, in no given order; a
 * message in none of the `from` statuses is left as it is (nothing is written for it).
 */
export async function markMessagesStatus(
  db: DB,
  items: readonly StatusChangeItem[],
  change: Pick<MessageStatusChange, 'from' | 'now' | 'outgoingOnly'>,
) {
  if (items.length === 0) return [];
  const { from, now } = change;
  const rows = JSON.stringify(items.map((item) => ({ id: item.id, to: item.to, meta: item.meta })));
  const events = eventColumns(
    'message.updated',
    {
      conversation_id: sql<number>`m.conversation_id`,
      conversation_uuid: sql<string>`m.conversation_uuid`,
      message_id: sql<number>`m.id`,
      message_uuid: sql<string>`m.uuid`,
      status: sql<'sent' | 'failed'>`m.status`,
    },
    now,
  );
  const { rows: moved } = await sql<{ id: number; uuid: string; conversation_id: number; conversation_uuid: string }>`
    with v as (select * from jsonb_to_recordset(${rows}::jsonb) as v(id bigint, "to" text, meta jsonb)),
    m as (
      update messages as m set status = v."to", updated_at = ${now}, meta = case when v.meta is null then m.meta else m.meta || v.meta end
      from v, conversations as c
      where m.id = v.id and c.id = m.conversation_id and m.status = any(${[...from]}::text[])
        ${change.outgoingOnly === true ? sql`and m.type = 'outgoing'` : sql``}
      returning m.id, m.uuid, m.status, m.conversation_id, c.uuid as conversation_uuid
    ),
    ev as (insert into domain_events (type, payload, created_at) select ${sql.join(events)} from m returning id)
    select m.id, m.uuid, m.conversation_id, m.conversation_uuid from m`.execute(db);
  return moved;
}

/**
 * Moves a message from one of the `from` statuses to `to` and records `message.updated`, in one
 * statement; undefined when the message was in none of them (nothing is written).
 */
export async function markMessageStatus(db: DB, id: number, change: MessageStatusChange) {
  const [moved] = await markMessagesStatus(db, [{ id, to: change.to, ...(change.meta ? { meta: change.meta } : {}) }], change);
  return moved === undefined
    ? undefined
    : { uuid: moved.uuid, conversation_id: moved.conversation_id, conversation_uuid: moved.conversation_uuid };
}
