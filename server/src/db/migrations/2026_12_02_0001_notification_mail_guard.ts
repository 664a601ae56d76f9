// Frozen: never edit a migration once it has landed; add a new dated one.
// The notification mail flood guard (notifications/notifications.fanout.ts): has this agent been
// mailed a notification in the last minutes? An index of the mailed rows per agent and time
// answers it for a batch's recipients at once.
import type { Kysely } from 'kysely';
import type { ConcurrentIndex } from '../concurrent-indexes.ts';

export async function up(_db: Kysely<unknown>): Promise<void> {}

export const concurrentIndexes: ConcurrentIndex[] = [
  { name: 'notifications_mailed_idx', create: "on notifications (agent_id, created_at) where email_status = 'sent'" },
];
