// Frozen: never edit a migration once it has landed; add a new dated one.
// The navigation's view counts (views.queries.ts) read each view's open conversations: by team,
// by inbox and with no agent, each narrowed by status. The inbox index on (inbox_id) alone gives
// way to (inbox_id, status_id), which serves what it served (its foreign key, inbox filters).
// Per agent (mine), conversations_open_load_idx (assigned_user_id, status_id) already serves.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create index conversations_team_status_idx on conversations (assigned_team_id, status_id) where assigned_team_id is not null`,
  `create index conversations_inbox_status_idx on conversations (inbox_id, status_id)`,
  `drop index conversations_inbox_idx`,
  `create index conversations_unassigned_status_idx on conversations (status_id) where assigned_user_id is null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
