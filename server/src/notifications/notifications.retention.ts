// Notifications are kept 90 days (docs/api.md, "Working together" → "Notifications"); a
// periodic task deletes older ones in bounded batches, safe to run on several instances at once.
import type { AppDeps } from '../deps.ts';
import { deleteNotificationsBefore } from './notifications.tasks.queries.ts';

export const NOTIFICATION_RETENTION_DAYS = 90;
const BATCH = 1000;

/** Deletes notifications older than 90 days; returns how many. */
export async function purgeOldNotifications(deps: AppDeps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - NOTIFICATION_RETENTION_DAYS * 24 * 3600 * 1000);
  let total = 0;
  // Bounded, so that one run never holds the database for long; the next run continues.
  for (let round = 0; round < 100; round += 1) {
    const deleted = await deleteNotificationsBefore(deps.db, before, BATCH);
    total += deleted;
    if (deleted < BATCH) break;
  }
  return total;
}
