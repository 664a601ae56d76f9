// Frozen: never edit a migration once it has landed; add a new dated one.
// The webhook dispatcher's claim (webhooks/webhooks.dispatch.queries.ts) picks, per enabled
// webhook, its oldest due deliveries up to the room that webhook has left on the instance
// (per-webhook concurrency): one index range per webhook instead of the whole due list.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create index webhook_deliveries_webhook_due_idx on webhook_deliveries (webhook_id, next_attempt_at, id)
     where status in ('pending', 'failed')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
