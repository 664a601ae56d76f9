// The statements of notification preferences.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

export async function settingsRows(db: DB, agentIds: readonly number[]) {
  if (agentIds.length === 0) return [];
  return db
    .selectFrom('notification_settings')
    .where('agent_id', '=', sql<number>`any(${[...agentIds]}::int[])`)
    .select(['agent_id', 'types', 'email_digest', 'sound', 'title_count', 'updated_at'])
    .execute();
}
