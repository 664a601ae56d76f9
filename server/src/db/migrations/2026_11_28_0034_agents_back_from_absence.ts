// Frozen: never edit a migration once it has landed; add a new dated one.
// An agent whose socket opens comes back from an absence (agents.service.ts, returnFromAbsence):
// an `offline` that nobody chose becomes what the agent was before the absence rule put it
// offline (absent_from_status/source, kept by that rule), or `available` for a new agent. An
// offline nobody chose is marked by source `idle`, so new agents now start offline with source
// `idle`. Existing agents keep their rows as they are: an `offline` with source `user` may have
// been chosen, and nothing kept says otherwise.
import { type Kysely, sql } from 'kysely';

const statements = [
  `alter table users alter column availability_source set default 'idle'`,
  `alter table users
     add column absent_from_status text check (absent_from_status in ('available', 'busy', 'away')),
     add column absent_from_source text check (absent_from_source in ('user', 'idle'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
