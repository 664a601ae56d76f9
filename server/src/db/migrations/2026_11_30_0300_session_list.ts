// Frozen: never edit a migration once it has landed; add a new dated one.
// The agent's list of sessions (GET /agents/me/sessions). A session's primary key is the SHA-256
// of its cookie, and the key of its cached credential: it never leaves the server. `public_id`
// names the session in the API instead. `last_seen_at` is written with the agent's activity, at
// most once a minute per session (auth.service.ts); null until the session is first used.
import { type Kysely, sql } from 'kysely';

const statements = [
  `alter table sessions add column public_id uuid not null default gen_random_uuid()`,
  `alter table sessions add column last_seen_at timestamptz`,
  `create unique index sessions_public_id_idx on sessions (public_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
