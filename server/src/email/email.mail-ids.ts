// The Message-IDs an email inbox saw or sent (table mail_ids): the one owner of threading by
// header and of "each mail once". A row is written in the transaction that stores what the
// mail became, so a mail is either fully taken in and known, or neither.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { MailOutcome } from '../db/types.ts';

export interface MailIdValues {
  inboxId: number;
  headerId: string;
  conversationId: number | null;
  messageId: number | null;
  direction: 'incoming' | 'outgoing';
  outcome: MailOutcome;
}

/** Records a Message-ID; false when the inbox already knew it (the mail was seen before). */
export async function recordMailId(trx: DB, values: MailIdValues, now: Date): Promise<boolean> {
  const row = await trx
    .insertInto('mail_ids')
    .values({
      inbox_id: values.inboxId,
      header_id: values.headerId,
      conversation_id: values.conversationId,
      message_id: values.messageId,
      direction: values.direction,
      outcome: values.outcome,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['inbox_id', 'header_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of these Message-IDs the inbox knows already (one statement, whatever their number). */
export async function knownMailIds(db: DB, inboxId: number, headerIds: readonly string[]): Promise<Set<string>> {
  if (headerIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('mail_ids')
    .where('inbox_id', '=', inboxId)
    // = any(array): one statement text whatever the number (prepared statements).
    .where('header_id', '=', sql<string>`any(${[...new Set(headerIds)]}::text[])`)
    .select('header_id')
    .execute();
  return new Set(rows.map((row) => row.header_id));
}

/** What the inbox knows of these Message-IDs (at most 100 are looked up), each with its conversation and message. */
export async function findMailIds(db: DB, inboxId: number, headerIds: readonly string[]) {
  const ids = [...new Set(headerIds)].slice(-100);
  if (ids.length === 0) return [];
  return db
    .selectFrom('mail_ids')
    .where('inbox_id', '=', inboxId)
    .where('header_id', 'in', ids)
    .select(['header_id', 'conversation_id', 'message_id', 'direction', 'outcome'])
    .execute();
}

/** The Message-IDs of a conversation's mails, oldest first, the last `limit` of them: an outgoing mail's References. */
export async function conversationMailIds(db: DB, conversationId: number, limit = 20): Promise<string[]> {
  const rows = await db
    .selectFrom('mail_ids')
    .where('conversation_id', '=', conversationId)
    .where('outcome', 'in', ['stored', 'sent'])
    .select(['header_id', 'id'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((row) => row.header_id);
}
