// Frozen: never edit a migration once it has landed; add a new dated one.
// The tag report counts the tags of conversations created in a window. Each conversation
// tag carries its conversation's creation time (which never changes), filled by a trigger
// on insert, so the report reads one index (window, tag, conversation) without joining
// conversations: an index-only scan instead of a hash join over every tag of the window.
import { type Kysely, sql } from 'kysely';

const statements = [
  `alter table conversation_tags add column conversation_created_at timestamptz`,
  `update conversation_tags ct set conversation_created_at = c.created_at from conversations c where c.id = ct.conversation_id`,
  `alter table conversation_tags alter column conversation_created_at set not null`,
  // The tables are found on the search path of the migration, whatever the inserting session's.
  `create function conversation_tags_set_created_at() returns trigger language plpgsql set search_path from current as $$
   begin
     select c.created_at into new.conversation_created_at from conversations c where c.id = new.conversation_id;
     if not found then
       raise foreign_key_violation using message = 'conversation ' || new.conversation_id || ' does not exist';
     end if;
     return new;
   end
   $$`,
  `create trigger conversation_tags_set_created_at before insert on conversation_tags
   for each row execute function conversation_tags_set_created_at()`,
  `create index conversation_tags_window_idx on conversation_tags (conversation_created_at, tag_id, conversation_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
