// Every statement of followers and mentions. The automatic follows (assignee, writer) are the
// domain_events_follow trigger's (migration 2026_12_01_0001).
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

export async function listFollowers(db: DB, conversationId: number) {
  return db
    .selectFrom('conversation_followers as f')
    .innerJoin('users as u', 'u.id', 'f.agent_id')
    .where('f.conversation_id', '=', conversationId)
    .where('u.deleted_at', 'is', null)
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.avatar_url'])
    .orderBy('f.created_at')
    .orderBy('u.id')
    .execute();
}

export async function insertFollowers(db: DB, conversationId: number, agentIds: readonly number[], at: Date): Promise<void> {
  if (agentIds.length === 0) return;
  await db
    .insertInto('conversation_followers')
    .values(agentIds.map((agentId) => ({ conversation_id: conversationId, agent_id: agentId, created_at: at })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function deleteFollower(db: DB, conversationId: number, agentId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('conversation_followers')
    .where('conversation_id', '=', conversationId)
    .where('agent_id', '=', agentId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The members of these teams (ids only; access is checked by the caller). */
export async function teamMemberIds(db: DB, teamIds: readonly number[]): Promise<number[]> {
  if (teamIds.length === 0) return [];
  const rows = await db
    .selectFrom('team_members')
    .where('team_id', '=', sql<number>`any(${[...teamIds]}::int[])`)
    .select('user_id')
    .distinct()
    .execute();
  return rows.map((row) => row.user_id);
}

/** Each (team, member) pair of these teams. */
export async function teamMemberships(db: DB, teamIds: readonly number[]) {
  if (teamIds.length === 0) return [];
  return db
    .selectFrom('team_members')
    .where('team_id', '=', sql<number>`any(${[...teamIds]}::int[])`)
    .select(['team_id', 'user_id'])
    .execute();
}
