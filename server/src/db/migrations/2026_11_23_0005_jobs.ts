// Frozen: never edit a migration once it has landed; add a new dated one.
// The job queue's dead state, its dedupe key, and the indexes the runner and the purge use.
import { type Kysely, sql } from 'kysely';

const statements = [
  // A job that used its last attempt is dead: kept for inspection, never claimed again.
  `alter table jobs add column failed_at timestamptz`,
  // At most one pending (waiting or running) job per key; completed and dead jobs free the key.
  `alter table jobs add column dedupe_key text`,
  `create unique index jobs_dedupe_key_idx on jobs (dedupe_key) where completed_at is null and failed_at is null`,
  // The claim scans due, live jobs by run_at.
  `create index jobs_claim_idx on jobs (run_at, id) where completed_at is null and failed_at is null`,
  `drop index jobs_due_idx`,
  // The purge of completed jobs.
  `create index jobs_completed_idx on jobs (completed_at) where completed_at is not null`,
  `create index jobs_failed_idx on jobs (failed_at) where failed_at is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
