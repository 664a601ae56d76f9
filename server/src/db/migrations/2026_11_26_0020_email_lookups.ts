// Frozen: never edit a migration once it has landed; add a new dated one.
// Look-ups of the email channel: the sender of every inbound mail is found among live contacts
// by email (contacts.queries.ts findLiveContactByEmail; the unique index of 0001 covers only
// contacts without an external id), and a late reply finds the conversation that continues a
// resolved one (email.thread.ts successorOf, by meta.previous_conversation_uuid).
import { type Kysely, sql } from 'kysely';

const statements = [
  `create index users_contact_email_idx on users (lower(email)) where type in ('contact', 'visitor') and deleted_at is null`,
  `create index conversations_previous_idx on conversations (inbox_id, (meta->>'previous_conversation_uuid'))
     where meta ? 'previous_conversation_uuid'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
