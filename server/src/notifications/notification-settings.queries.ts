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

/** The agent's stored row, locked for a read-modify-write (the caller's transaction); made first if missing. */
export async function lockSettingsRow(db: DB, agentId: number, at: Date) {
  await db
    .insertInto('notification_settings')
    .values({ agent_id: agentId, types: JSON.stringify({}), updated_at: at })
    .onConflict((oc) => oc.column('agent_id').doNothing())
    .execute();
  return db
    .selectFrom('notification_settings')
    .where('agent_id', '=', agentId)
    .select(['types', 'email_digest', 'sound', 'title_count'])
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function writeSettingsRow(
  db: DB,
  agentId: number,
  values: {
    types: Record<string, Partial<Record<'in_app' | 'email' | 'push', boolean>>>;
    email_digest: boolean;
    sound: boolean;
    title_count: boolean;
  },
  at: Date,
): Promise<void> {
  await db
    .updateTable('notification_settings')
    .set({ ...values, types: JSON.stringify(values.types), updated_at: at })
    .where('agent_id', '=', agentId)
    .execute();
}
