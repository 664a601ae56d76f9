// Frozen: never edit a migration once it has landed; add a new dated one.
// Conversation lists: a list item's unread count reads only the contact's public messages
// (a conversation with a long agent-side history no longer costs a scan of it), and the
// plain created_at index is covered by conversations_created_id_idx (0004).
import { type Kysely, sql } from 'kysely';

const statements = [
  `create index messages_unread_idx on messages (conversation_id, created_at) where type = 'incoming' and private = false`,
  `drop index if exists conversations_created_idx`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
