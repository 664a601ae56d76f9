// Every SQL statement of the media domain.
import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';

const RECORD_COLUMNS = [
  'id',
  'uuid',
  'filename',
  'content_type',
  'size',
  'disposition',
  'content_id',
  'storage_key',
  'message_id',
  'created_at',
] as const;

export interface NewMediaRow {
  uuid: string;
  filename: string;
  content_type: string;
  size: number;
  storage_key: string;
  disposition: 'attachment' | 'inline';
  content_id?: string | null;
  uploaded_by: number | null;
  message_id: number | null;
  created_at: Date;
}

/** Inserts the rows and returns them in the order given (ids follow that order). */
export async function insertMedia(db: DB, rows: NewMediaRow[]) {
  const inserted = await db.insertInto('media').values(rows).returning(RECORD_COLUMNS).execute();
  return inserted.sort((a, b) => a.id - b.id);
}

export async function findMediaByUuid(db: DB, uuid: string) {
  return db.selectFrom('media').select(RECORD_COLUMNS).where('uuid', '=', uuid).executeTakeFirst();
}

/** Locks the rows so two messages cannot claim the same upload at once. */
export async function lockMediaByUuids(db: DB, uuids: string[]) {
  return db
    .selectFrom('media')
    .select(['id', 'uuid', 'message_id', 'uploaded_by'])
    .where('uuid', 'in', uuids)
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function mediaByUuids(db: DB, uuids: string[]) {
  return db.selectFrom('media').select(['id', 'uuid', 'message_id', 'uploaded_by']).where('uuid', 'in', uuids).execute();
}

export async function setMediaMessage(db: DB, ids: number[], messageId: number): Promise<void> {
  await db.updateTable('media').set({ message_id: messageId }).where('id', 'in', ids).execute();
}

export interface AttachmentRow {
  uuid: string;
  filename: string;
  content_type: string;
  size: number;
  disposition: 'attachment' | 'inline';
  content_id: string | null;
}

/**
 * A column expression for a query over `messages as m`: the message's attachments as a JSON
 * array of AttachmentRow in upload order (one probe of media_message_idx per message), so
 * message reads need no second statement.
 */
export function attachmentsColumn(): RawBuilder<AttachmentRow[]> {
  return sql<
    AttachmentRow[]
  >`coalesce((select json_agg(json_build_object('uuid', md.uuid, 'filename', md.filename, 'content_type', md.content_type, 'size', md.size, 'disposition', md.disposition, 'content_id', md.content_id) order by md.id) from media md where md.message_id = m.id), '[]'::json)`;
}

/** A message's files with their storage keys, in upload order (the email sender attaches them). */
export async function filesOfMessage(db: DB, messageId: number) {
  return db
    .selectFrom('media')
    .select(['uuid', 'filename', 'content_type', 'size', 'disposition', 'storage_key'])
    .where('message_id', '=', messageId)
    .orderBy('id')
    .execute();
}

/** The attachments of many messages in one statement, in upload order. */
export async function mediaOfMessages(db: DB, messageIds: number[]) {
  return db
    .selectFrom('media')
    .select(['message_id', 'uuid', 'filename', 'content_type', 'size', 'disposition', 'content_id'])
    .where('message_id', 'in', messageIds)
    .orderBy('message_id')
    .orderBy('id')
    .execute();
}

/**
 * Deletes up to `limit` uploads never attached to a message and older than `olderThan`,
 * returning their storage keys. Rows locked by an attach in progress are skipped; an
 * attach that commits first makes the row fail the `message_id is null` re-check.
 */
export async function deleteOrphans(db: DB, olderThan: Date, limit: number): Promise<string[]> {
  const rows = await db
    .deleteFrom('media')
    .where(
      'id',
      'in',
      db
        .selectFrom('media')
        .select('id')
        .where('message_id', 'is', null)
        .where('created_at', '<', olderThan)
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .where('message_id', 'is', null)
    .returning('storage_key')
    .execute();
  return rows.map((row) => row.storage_key);
}
