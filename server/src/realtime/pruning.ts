// Pruning the domain-event outbox (docs/api.md, "Realtime"): events older than the retention
// that the relay has passed are deleted, in bounded batches.
import type { AppDeps } from '../deps.ts';
import { deleteEventsBefore, readCursor } from './realtime.queries.ts';
import { RELAY_CURSOR } from './relay.ts';

export const EVENT_RETENTION_MS = 3 * 24 * 3600 * 1000;

export async function pruneDomainEvents(deps: AppDeps): Promise<number> {
  const cursor = await readCursor(deps.db, RELAY_CURSOR);
  if (cursor === null) return 0;
  const before = new Date(deps.clock.now().getTime() - EVENT_RETENTION_MS);
  let total = 0;
  for (let round = 0; round < 100; round += 1) {
    const deleted = await deleteEventsBefore(deps.db, before, cursor, 1000);
    total += deleted;
    if (deleted < 1000) break;
  }
  return total;
}
