// Frozen: never edit a migration once it has landed; add a new dated one.
// The navigation's view counts (views.queries.ts) read each view's open conversations: by team,
// by inbox and with no agent, each narrowed by status. The inbox index on (inbox_id) alone gives
// way to (inbox_id, status_id), which serves what it served (its foreign key, inbox filters).
// Per agent (mine), conversations_open_load_idx (assigned_user_id, status_id) already serves.
// Built concurrently after the migrations' transaction (concurrent-indexes.ts): conversations
// may be large.
import type { Kysely } from 'kysely';
import type { ConcurrentIndex } from '../concurrent-indexes.ts';

export async function up(_db: Kysely<unknown>): Promise<void> {}

export const concurrentIndexes: ConcurrentIndex[] = [
  { name: 'conversations_team_status_idx', create: 'on conversations (assigned_team_id, status_id) where assigned_team_id is not null' },
  { name: 'conversations_inbox_status_idx', create: 'on conversations (inbox_id, status_id)', replaces: 'conversations_inbox_idx' },
  { name: 'conversations_unassigned_status_idx', create: 'on conversations (status_id) where assigned_user_id is null' },
];
