// Reading messages, and the idempotency keys of sends.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { MessageMeta, MessageStatus } from '../db/types.ts';
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

export async function insertIdempotencyKey(
  db: DB,
  values: { user_id: number; key: string; request_hash: string; message_id: number; created_at: Date },
): Promise<void> {
  await db.insertInto('idempotency_keys').values(values).execute();
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

/**
 * Moves a message from one of the `from` statuses to `to` and records `message.updated`, in one
 * statement; undefined when the message was in none of them (nothing is written).
 */
export async function markMessageStatus(db: DB, id: number, change: MessageStatusChange) {
  const { from, to, now, meta } = change;
  const metaChange = meta === undefined ? {} : { meta: sql<MessageMeta>`m.meta || ${JSON.stringify(meta)}::jsonb` };
  return db
    .with('m', (d) =>
      d
        .updateTable('messages as m')
        .set({ status: to, updated_at: now, ...metaChange })
        .from('conversations as c')
        .whereRef('c.id', '=', 'm.conversation_id')
        .where('m.id', '=', id)
        .$if(change.outgoingOnly === true, (qb) => qb.where('m.type', '=', 'outgoing'))
        .where('m.status', 'in', from)
        .returning(['m.id', 'm.uuid', 'm.conversation_id', 'c.uuid as conversation_uuid']),
    )
    .with('ev', (d) =>
      d
        .insertInto('domain_events')
        .columns(['type', 'payload', 'created_at'])
        .expression((eb) =>
          eb.selectFrom('m').select(
            eventColumns(
              'message.updated',
              {
                conversation_id: sql<number>`m.conversation_id`,
                conversation_uuid: sql<string>`m.conversation_uuid`,
                message_id: sql<number>`m.id`,
                message_uuid: sql<string>`m.uuid`,
                status: to,
              },
              now,
            ),
          ),
        )
        .returning('id'),
    )
    .selectFrom('m')
    .select(['m.uuid', 'm.conversation_id', 'm.conversation_uuid'])
    .executeTakeFirst();
}

// Delivery of email replies (email/email.send.ts).

/**
 * What the email sender needs of a message: the message, its conversation's subject, reference
 * and inbox, and the contact's address (null when the contact has none or is deleted).
 */
export async function findMessageForDelivery(db: DB, id: number) {
  return db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'c.contact_id').on('u.deleted_at', 'is', null))
    .where('m.id', '=', id)
    .select([
      'm.id',
      'm.uuid',
      'm.type',
      'm.status',
      'm.private',
      'm.content',
      'm.text_content',
      'm.content_type',
      'm.meta',
      'm.source_id',
      'm.conversation_id',
      'c.uuid as conversation_uuid',
      'c.subject',
      'c.reference_number',
      'c.inbox_id',
      'u.email as contact_email',
    ])
    .executeTakeFirst();
}

export type DeliveryMessage = NonNullable<Awaited<ReturnType<typeof findMessageForDelivery>>>;

/** Whether the conversation has a message from the contact or a public reply older than message `id`. */
export async function hasEarlierExchange(db: DB, conversationId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('messages')
    .where('conversation_id', '=', conversationId)
    .where('id', '<', id)
    .where('private', '=', false)
    .where('type', 'in', ['incoming', 'outgoing'])
    .select('id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Sets the message's source id (an email's Message-ID); the same value again changes nothing. */
export async function setMessageSourceId(db: DB, id: number, sourceId: string): Promise<void> {
  await db.updateTable('messages').set({ source_id: sourceId }).where('id', '=', id).execute();
}
