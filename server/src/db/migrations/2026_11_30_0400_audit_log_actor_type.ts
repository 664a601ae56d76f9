// Frozen: never edit a migration once it has landed; add a new dated one.
// The audit log's `actor_type` filter (GET /audit-log?actor_type=system|automation…): the entries
// of one kind of actor, newest first, in the order of the other filters' indexes (migration
// 2026_11_30_0001), so a page reads its rows in order from the index and stops. Built
// concurrently after the migrations' transaction (concurrent-indexes.ts): the log grows large.
import type { Kysely } from 'kysely';
import type { ConcurrentIndex } from '../concurrent-indexes.ts';

export async function up(_db: Kysely<unknown>): Promise<void> {}

export const concurrentIndexes: ConcurrentIndex[] = [
  { name: 'audit_log_actor_type_idx', create: 'on audit_log (actor_type, created_at desc, id desc)' },
];
