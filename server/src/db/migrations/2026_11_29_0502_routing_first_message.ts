// Frozen: never edit a migration once it has landed; add a new dated one.
// A conversation's first message, shortened as `last_message` is (conversations.append.ts,
// previewOf): what a conversation without subject (a live chat) is titled by in the lists, the
// conversation's header and search, read from the row as `last_message` is (no per-row lookup).
// Set once, by the message that makes it non-null; existing conversations get it from their first
// public message here (text only: one whose first message was only a file keeps null).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table conversations add column first_message text`.execute(db);
  await fillFirstMessages(db);
}

/** Each conversation's first public message, shortened (exported for its test). */
export async function fillFirstMessages(db: Kysely<unknown>): Promise<void> {
  await sql`update conversations c set first_message = f.preview
    from (
      select distinct on (m.conversation_id) m.conversation_id,
        nullif(left(btrim(regexp_replace(m.text_content, '\\s+', ' ', 'g')), 200), '') as preview
      from messages m
      where m.type in ('incoming', 'outgoing') and m.private = false
      order by m.conversation_id, m.created_at, m.id
    ) f
    where f.conversation_id = c.id and f.preview is not null`.execute(db);
}
