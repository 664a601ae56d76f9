// Drafts (docs/api.md, "Working together"): what an agent is writing in a conversation, kept on
// the server so that it follows them to another tab or device. One row per agent and
// conversation. Sending a message deletes the sender's draft in the message's own statement:
// a row trigger on messages, because the common reply is a single SQL statement with no
// transaction around it (conversations/append.queries.ts), and every other path that inserts
// an agent's message (notes, macros, uploads, the locked path) gets the same rule for free.
// The trigger's WHEN skips contact, automatic and activity messages (an agent's status change
// writes one) without calling the function.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table conversation_drafts (
    conversation_id integer not null references conversations (id) on delete cascade,
    agent_id integer not null references users (id) on delete cascade,
    content text not null,
    private boolean not null default false,
    attachments uuid[] not null default '{}',
    updated_at timestamptz not null,
    primary key (conversation_id, agent_id)
  )`,
  // The retention task deletes drafts not updated for 15 days.
  `create index conversation_drafts_updated_idx on conversation_drafts (updated_at)`,
  // The agent's drafts (deleting an agent cascades through it).
  `create index conversation_drafts_agent_idx on conversation_drafts (agent_id)`,
  `create function messages_delete_sender_draft() returns trigger language plpgsql as $$
   begin
     delete from conversation_drafts where conversation_id = new.conversation_id and agent_id = new.sender_id;
     return null;
   end
   $$`,
  `create trigger messages_delete_sender_draft after insert on messages
     for each row when (new.type = 'outgoing' and new.sender_type = 'agent' and new.sender_id is not null)
     execute function messages_delete_sender_draft()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
