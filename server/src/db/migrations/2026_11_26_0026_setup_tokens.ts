// Frozen: never edit a migration once it has landed; add a new dated one.
// First run (docs/api.md, "First run"): the one-time setup tokens printed in the log of a server
// that starts with no agent. Only their SHA-256 is kept, in the database so that any instance
// accepts a token another one printed; the first admin's creation deletes them all.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table setup_tokens (
    token_hash text primary key,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null
  )`.execute(db);
}
