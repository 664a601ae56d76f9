// The delivery log's upkeep (docs/api.md, "Webhooks" → "Retries and the log"), as periodic
// tasks of workers.ts: deliveries whose instance died during their last attempt are left dead,
// and old deliveries are deleted in bounded batches (their attempts go with them).
import type { AppDeps } from '../deps.ts';
import { deleteOldDeliveries, reapLostDeliveries } from './webhooks.dispatch.queries.ts';

const DAY = 24 * 3600 * 1000;
/** Succeeded deliveries are kept this long… */
export const SUCCEEDED_RETENTION_MS = 7 * DAY;
/** …and every other delivery (failed, dead, refused, still pending) this long. */
export const DELIVERY_RETENTION_MS = 30 * DAY;
const BATCH = 1000;

/** Deletes deliveries past their retention, at most 100 batches a run (the next run goes on). Returns how many. */
export async function purgeWebhookDeliveries(deps: AppDeps): Promise<number> {
  let total = 0;
  for (let round = 0; round < 100; round += 1) {
    const deleted = await deleteOldDeliveries(deps.db, {
      succeededMs: SUCCEEDED_RETENTION_MS,
      othersMs: DELIVERY_RETENTION_MS,
      batch: BATCH,
      clockNow: deps.clock.now(),
    });
    total += deleted;
    if (deleted < BATCH) break;
  }
  return total;
}

/** Deliveries whose lease expired during their last allowed attempt: dead (the dispatcher no longer claims them). */
export async function reapLostWebhookDeliveries(deps: AppDeps): Promise<number> {
  return reapLostDeliveries(deps.db, deps.clock.now());
}
