// SQL of round-robin assignment, and of releasing a departing agent's conversations.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { eventColumns } from '../events/events.service.ts';

/**
 * Locks the team row: every placement into one team is serialised, across instances too.
 * FOR NO KEY UPDATE, not FOR UPDATE: inserting a conversation that references the team takes
 * a KEY SHARE lock on it, which FOR UPDATE would conflict with (two creators would deadlock).
 */
export async function lockTeam(db: DB, teamId: number) {
  return db
    .selectFrom('teams')
    .where('id', '=', teamId)
    .select(['id', 'name', 'conversation_assignment_type', 'max_auto_assigned_conversations'])
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/**
 * The next agent of the team to receive a conversation: available, enabled, live, under the
 * cap of open conversations (0 = no cap), least recently assigned first.
 */
export async function nextAgent(db: DB, teamId: number, cap: number) {
  let query = db
    .selectFrom('team_members as tm')
    .innerJoin('users as u', 'u.id', 'tm.user_id')
    .where('tm.team_id', '=', teamId)
    .where('u.type', '=', 'agent')
    .where('u.deleted_at', 'is', null)
    .where('u.enabled', '=', true)
    .where('u.availability_status', '=', 'available')
    .select(['u.id', 'u.first_name', 'u.last_name']);
  if (cap > 0) {
    query = query.where(
      sql<number>`(select count(*) from conversations c join conversation_statuses s on s.id = c.status_id where c.assigned_user_id = u.id and s.category = 'open')`,
      '<',
      cap,
    );
  }
  return query.orderBy(sql`tm.last_assigned_at asc nulls first`).orderBy('u.id').limit(1).executeTakeFirst();
}

export async function markAssigned(db: DB, teamId: number, userId: number, now: Date): Promise<void> {
  await db.updateTable('team_members').set({ last_assigned_at: now }).where('team_id', '=', teamId).where('user_id', '=', userId).execute();
}

/** Gives the conversation to the agent only if it still has none; false when somebody was faster. */
export async function assignIfUnassigned(db: DB, conversationId: number, userId: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('conversations')
    .set({ assigned_user_id: userId, assignee_last_seen_at: null, updated_at: now })
    .where('id', '=', conversationId)
    .where('assigned_user_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The oldest conversation of the team waiting for an agent (open, unassigned), skipping rows another transaction holds. */
export async function lockNextWaiting(db: DB, teamId: number) {
  return db
    .selectFrom('conversations as c')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .where('c.assigned_team_id', '=', teamId)
    .where('c.assigned_user_id', 'is', null)
    .where('s.category', '=', 'open')
    .select(['c.id', 'c.uuid'])
    .orderBy('c.created_at')
    .orderBy('c.id')
    .limit(1)
    .forNoKeyUpdate('c')
    .skipLocked()
    .executeTakeFirst();
}

/** Round-robin teams that have conversations waiting for an agent. */
export async function teamsWithWaiting(db: DB, teamIds: number[] | null): Promise<number[]> {
  let query = db
    .selectFrom('teams as t')
    .where('t.conversation_assignment_type', '=', 'round_robin')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('conversations as c')
          .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
          .select('c.id')
          .whereRef('c.assigned_team_id', '=', 't.id')
          .where('c.assigned_user_id', 'is', null)
          .where('s.category', '=', 'open'),
      ),
    )
    .select('t.id');
  if (teamIds !== null) {
    if (teamIds.length === 0) return [];
    query = query.where('t.id', 'in', teamIds);
  }
  const rows = await query.orderBy('t.id').execute();
  return rows.map((r) => r.id);
}

export async function teamIdsOfAgent(db: DB, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('team_members').where('user_id', '=', userId).select('team_id').execute();
  return rows.map((r) => r.team_id);
}

/**
 * An agent leaves (soft delete): their conversations that are not resolved lose the assignee,
 * with one activity message and one `conversation.unassigned` event each, set-based. Returns
 * the teams of those conversations.
 */
export async function releaseConversationsOf(db: DB, agentId: number, text: string, now: Date): Promise<number[]> {
  const released = await db
    .updateTable('conversations as c')
    .set({ assigned_user_id: null, assignee_last_seen_at: null, updated_at: now })
    .from('conversation_statuses as s')
    .whereRef('s.id', '=', 'c.status_id')
    .where('c.assigned_user_id', '=', agentId)
    .where('s.category', '!=', 'resolved')
    .returning(['c.id', 'c.uuid', 'c.assigned_team_id'])
    .execute();
  if (released.length === 0) return [];
  const ids = released.map((r) => r.id);
  await sql`insert into messages (conversation_id, type, status, content, text_content, content_type, private, sender_id, sender_type, meta, created_at, updated_at)
    select id, 'activity', 'sent', ${text}, ${text}, 'text', true, null, 'agent', ${JSON.stringify({ activity: { type: 'assignee', assignee_id: null, agent_deleted: agentId } })}::jsonb, ${now}, ${now}
    from conversations where id = any(${ids})`.execute(db);
  await db
    .insertInto('domain_events')
    .columns(['type', 'payload', 'created_at'])
    .expression(
      db
        .selectFrom('conversations as c')
        .where('c.id', '=', sql<number>`any(${ids}::int[])`)
        .select(
          eventColumns(
            'conversation.unassigned',
            {
              conversation_id: sql<number>`c.id`,
              conversation_uuid: sql<string>`c.uuid`,
              actor_id: null,
              assignee_type: 'user',
              previous_assignee_id: agentId,
            },
            now,
          ),
        ),
    )
    .execute();
  return [...new Set(released.map((r) => r.assigned_team_id).filter((id): id is number => id !== null))];
}
