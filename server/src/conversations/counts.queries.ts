// The conversation counts behind the lists' totals (migration 0032): their periodic fold and
// their rebuild. The lists read them in records.queries.ts (countedTotal).
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

/**
 * Inside a transaction: folds the pending ±1 rows into the counts, unless another instance is
 * folding (one fold at a time across instances, per schema). Returns the rows folded.
 */
export async function foldCounts(trx: DB): Promise<number> {
  const { rows: lock } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_xact_lock(727276, hashtext(current_schema())) as locked`.execute(trx);
  if (lock[0]?.locked !== true) return 0;
  const { rows } = await sql<{ folded: number }>`select conversation_counts_fold() as folded`.execute(trx);
  return rows[0]?.folded ?? 0;
}

/** Counts everything again from the conversations (after a bulk load that noted nothing). */
export async function rebuildCounts(db: DB): Promise<void> {
  await sql`select conversation_counts_rebuild()`.execute(db);
}
