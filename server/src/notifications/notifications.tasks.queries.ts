// The statements of the notification tasks: the email digest and the retention.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

/** The advisory lock class of one agent's digest (with the agent's id as the second key). */
const DIGEST_LOCK = 727_104_101;

/** Agents with a notification waiting for a digest since `cutoff` or earlier. */
export async function agentsWithDueDigest(db: DB, cutoff: Date, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('notifications')
    .where('email_status', '=', 'pending')
    .where('created_at', '<=', cutoff)
    .select('agent_id')
    .distinct()
    .orderBy('agent_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.agent_id);
}

/**
 * Of these agents, those whose digest this transaction takes (a lock per agent held until it
 * ends; another instance skips them), and for them every pending notification, marked sent —
 * provided one of them is still due (a statement after the lock sees what another instance
 * committed meanwhile: a digest it just sent leaves nothing due here).
 */
export async function claimDigests(trx: DB, agentIds: readonly number[], cutoff: Date) {
  if (agentIds.length === 0) return [];
  const locked = await sql<{
    agent_id: number;
  }>`select a.agent_id from unnest(${[...agentIds]}::int[]) as a(agent_id) where pg_try_advisory_xact_lock(${DIGEST_LOCK}::int, a.agent_id)`.execute(
    trx,
  );
  const ids = locked.rows.map((row) => row.agent_id);
  if (ids.length === 0) return [];
  return trx
    .updateTable('notifications as n')
    .set({ email_status: 'sent' })
    .where('n.agent_id', '=', sql<number>`any(${ids}::int[])`)
    .where('n.email_status', '=', 'pending')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('notifications as due')
          .whereRef('due.agent_id', '=', 'n.agent_id')
          .where('due.email_status', '=', 'pending')
          .where('due.created_at', '<=', cutoff)
          .select(sql`1`.as('one')),
      ),
    )
    .returning(['n.id', 'n.agent_id', 'n.title', 'n.created_at', 'n.conversation_id'])
    .execute();
}

export async function conversationUuids(db: DB, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('conversations')
    .where('id', '=', sql<number>`any(${[...ids]}::int[])`)
    .select(['id', 'uuid'])
    .execute();
  return new Map(rows.map((row) => [row.id, row.uuid]));
}

/** Deletes up to `batch` notifications created before `before`; returns how many. */
export async function deleteNotificationsBefore(db: DB, before: Date, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('notifications')
    .where('id', 'in', (qb) => qb.selectFrom('notifications').where('created_at', '<', before).select('id').limit(batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
