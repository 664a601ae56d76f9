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

/** The followers' ids (deleted agents left out). */
export async function followerIds(db: DB, conversationId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('conversation_followers as f')
    .innerJoin('users as u', 'u.id', 'f.agent_id')
    .where('f.conversation_id', '=', conversationId)
    .where('u.deleted_at', 'is', null)
    .where('u.enabled', '=', true)
    .select('f.agent_id')
    .execute();
  return rows.map((row) => row.agent_id);
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

/** Live, enabled agents among `ids` with what the conversation access rule needs of them. */
export async function agentAccessRows(db: DB, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('users as u')
    .where('u.id', '=', sql<number>`any(${[...ids]}::int[])`)
    .where('u.type', '=', 'agent')
    .where('u.deleted_at', 'is', null)
    .where('u.enabled', '=', true)
    .select([
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      sql<
        string[]
      >`coalesce((select array_agg(distinct p) from user_roles ur join roles r on r.id = ur.role_id cross join unnest(r.permissions) as p where ur.user_id = u.id), '{}')`.as(
        'permissions',
      ),
      sql<number[]>`coalesce((select array_agg(tm.team_id order by tm.team_id) from team_members tm where tm.user_id = u.id), '{}')`.as(
        'team_ids',
      ),
    ])
    .execute();
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
