// Frozen: never edit a migration once it has landed; add a new dated one.
// Reports: the conversations created in a window, read from the index alone (the tag
// distribution report counts and joins them on id without visiting the table).
import { type Kysely, sql } from 'kysely';

const statements = [`create index conversations_created_id_idx on conversations (created_at, id)`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
