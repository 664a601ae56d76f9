// The lists' totals come from conversation counts kept by triggers (migration 0032); this
// periodic task keeps what a total adds up small. Totals are exact without it.
import type { AppDeps } from '../deps.ts';
import { foldCounts } from './counts.queries.ts';

/** Folds the pending count changes (0 when another instance is folding). */
export async function foldConversationCounts(deps: AppDeps): Promise<number> {
  return deps.db.transaction().execute((trx) => foldCounts(trx));
}
