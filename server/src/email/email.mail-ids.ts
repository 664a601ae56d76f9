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

/**
 * The mail_ids rows of these Message-IDs, one index probe each whatever the table's statistics: a
 * plan that read the inbox's rows and filtered them would grow with every mail taken in (a
 * generic plan on a table not analyzed yet chooses it).
 */
function probe(inboxId: number, headerIds: readonly string[]) {
  return sql`unnest(${[...new Set(headerIds)]}::text[]) as h(id)
    cross join lateral (select header_id, conversation_id from mail_ids where inbox_id = ${inboxId} and header_id = h.id limit 1) as m`;
}

/** Which of these Message-IDs the inbox knows already (one statement, whatever their number). */
export async function knownMailIds(db: DB, inboxId: number, headerIds: readonly string[]): Promise<Set<string>> {
  if (headerIds.length === 0) return new Set();
  const { rows } = await sql<{ header_id: string }>`select m.header_id from ${probe(inboxId, headerIds)}`.execute(db);
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

/**
 * The conversation of this inbox each of these Message-IDs belongs to (at most the last 100 are
 * looked up), by Message-ID: threading by header, in one statement.
 */
export async function conversationsOfMailIds(db: DB, inboxId: number, headerIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(headerIds)].slice(-100);
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ header_id: string; uuid: string }>`select m.header_id, c.uuid from ${probe(inboxId, ids)}
    join conversations c on c.id = m.conversation_id and c.inbox_id = ${inboxId}`.execute(db);
  return new Map(rows.map((row) => [row.header_id, row.uuid]));
}

/** An outgoing mail's Message-ID, for its message and its inbox. */
export interface OutgoingMailId {
  inboxId: number;
  conversationId: number;
  messageId: number;
  headerId: string;
}

/**
 * Records the Message-IDs of outgoing mails before they leave, in one statement for all of
 * them: each as its message's `source_id` and in mail_ids (outcome `sent`). Idempotent: a retry
 * writes the same values again, and a Message-ID the inbox knows is kept as it is.
 */
export async function recordOutgoingMailIds(db: DB, mails: readonly OutgoingMailId[], now: Date): Promise<void> {
  if (mails.length === 0) return;
  const rows = JSON.stringify(
    mails.map((mail) => ({
      inbox_id: mail.inboxId,
      conversation_id: mail.conversationId,
      message_id: mail.messageId,
      header_id: mail.headerId,
    })),
  );
  await sql`with v as (
      select * from jsonb_to_recordset(${rows}::jsonb) as v(inbox_id bigint, conversation_id bigint, message_id bigint, header_id text)
    ),
    s as (update messages as m set source_id = v.header_id from v where m.id = v.message_id)
    insert into mail_ids (inbox_id, header_id, conversation_id, message_id, direction, outcome, created_at)
    select v.inbox_id, v.header_id, v.conversation_id, v.message_id, 'outgoing', 'sent', ${now}::timestamptz from v
    on conflict (inbox_id, header_id) do nothing`.execute(db);
}
