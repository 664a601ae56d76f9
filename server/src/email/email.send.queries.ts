// What the `email.deliver` job reads (email.send.ts): everything a delivery needs of its message,
// for many messages in one statement.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { MAX_REFERENCES } from './email.compose.ts';

/**
 * Per message: the message; its conversation's uuid, subject, reference and inbox; the contact's
 * address (null when the contact has none or is deleted); the live inbox's channel, `enabled`
 * and a digest of its `from` and settings (null when the inbox is deleted): the sender keeps an
 * inbox's decrypted settings while the digest stays the same; the Message-IDs of the
 * conversation's last mails, stored or sent, oldest first (one more than References holds, in
 * case the last is this message's own); whether the contact wrote, or a public reply went out,
 * before this message; whether the message has files. Messages not found are left out.
 */
export async function findDeliveries(db: DB, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'c.contact_id').on('u.deleted_at', 'is', null))
    .leftJoin('inboxes as i', (join) => join.onRef('i.id', '=', 'c.inbox_id').on('i.deleted_at', 'is', null))
    .where(sql<boolean>`m.id = any(${[...ids]}::bigint[])`)
    .select((eb) => [
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
      'i.channel as inbox_channel',
      'i.enabled as inbox_enabled',
      'i.updated_at as inbox_updated_at',
      sql<string | null>`md5(coalesce(i."from", '') || ' ' || i.config::text)`.as('inbox_version'),
      sql<string[]>`array(select r.header_id from (
          select header_id, id from mail_ids where conversation_id = m.conversation_id and outcome in ('stored', 'sent')
          order by id desc limit ${sql.lit(MAX_REFERENCES + 1)}
        ) as r order by r.id)`.as('mail_ids'),
      eb
        .exists(
          eb
            .selectFrom('messages as e')
            .whereRef('e.conversation_id', '=', 'm.conversation_id')
            .whereRef('e.id', '<', 'm.id')
            .where('e.private', '=', false)
            .where('e.type', 'in', ['incoming', 'outgoing'])
            .select('e.id'),
        )
        .as('exchanged'),
      eb.exists(eb.selectFrom('media as f').whereRef('f.message_id', '=', 'm.id').select('f.id')).as('has_files'),
    ])
    .execute();
}

export type Delivery = Awaited<ReturnType<typeof findDeliveries>>[number];

/** The fields of a message that the mail is built from (email.compose.ts). */
export type DeliveryMessage = Pick<
  Delivery,
  | 'id'
  | 'uuid'
  | 'content'
  | 'text_content'
  | 'content_type'
  | 'meta'
  | 'conversation_id'
  | 'conversation_uuid'
  | 'subject'
  | 'reference_number'
  | 'contact_email'
>;
