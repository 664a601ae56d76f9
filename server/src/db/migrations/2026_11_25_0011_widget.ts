// Frozen: never edit a migration once it has landed; add a new dated one.
// The live-chat widget: when the contact last read a conversation (the widget's unread count
// and the agents' "seen" mark), and an index for the widget's unread count (agent replies).
import { type Kysely, sql } from 'kysely';

const statements = [
  `alter table conversations add column contact_last_seen_at timestamptz`,
  `create index messages_public_outgoing_idx on messages (conversation_id, created_at) where type = 'outgoing' and private = false`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
