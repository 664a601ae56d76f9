// Frozen: never edit a migration once it has landed; add a new dated one.
// Sessions of the live-chat widget (visitors and verified contacts). The token itself is never
// stored: the key is its SHA-256. A session belongs to one inbox and slides its expiry on use.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table widget_sessions (
    token_hash text primary key,
    inbox_id integer not null references inboxes (id) on delete cascade,
    user_id integer not null references users (id) on delete cascade,
    is_visitor boolean not null,
    expires_at timestamptz not null,
    created_at timestamptz not null default now()
  )`,
  `create index widget_sessions_user_idx on widget_sessions (user_id, inbox_id)`,
  `create index widget_sessions_expires_idx on widget_sessions (expires_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
