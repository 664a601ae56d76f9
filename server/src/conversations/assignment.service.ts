// Round-robin assignment. A conversation of a round-robin team with no agent
// goes to the next available member under the team's cap, least recently assigned first.
// Conversations that found nobody wait and are placed when an agent frees up or becomes
// available (and by a periodic sweep). The team row lock serialises placements per team,
// so two instances on one PostgreSQL never give one conversation to two agents nor break a cap.
import { findLiveAgent } from '../agents/agents.service.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { PermanentJobError } from '../jobs/jobs.runner.ts';
import * as q from './assignment.queries.ts';
import { type ConversationRef, conversationEvent, logActivity, SYSTEM } from './conversations.activity.ts';

const MAX_PLACEMENTS_PER_TEAM = 100;

async function giveTo(db: DB, conversation: ConversationRef, teamId: number, cap: number, now: Date): Promise<number | null> {
  const agent = await q.nextAgent(db, teamId, cap);
  if (!agent) return null;
  if (!(await q.assignIfUnassigned(db, conversation.id, agent.id, now))) return null;
  await q.markAssigned(db, teamId, agent.id, now);
  const name = `${agent.first_name} ${agent.last_name}`.trim();
  await logActivity(
    db,
    conversation,
    SYSTEM,
    `Assigned to ${name} by round robin`,
    { type: 'assignee', assignee_id: agent.id, auto: true },
    now,
  );
  const event = { assignee_type: 'user', assignee_id: agent.id, previous_assignee_id: null, team_id: teamId, auto: true } as const;
  await conversationEvent(db, 'conversation.assigned', conversation, SYSTEM, event, now);
  return agent.id;
}

/**
 * Inside the caller's transaction: gives the (new or team-reassigned) conversation to the
 * team's next agent when the team is round robin. Returns the agent id, or null (it waits).
 */
export async function autoAssign(deps: AppDeps, db: DB, conversation: ConversationRef, teamId: number): Promise<number | null> {
  const team = await q.lockTeam(db, teamId);
  if (!team || team.conversation_assignment_type !== 'round_robin') return null;
  return giveTo(db, conversation, teamId, team.max_auto_assigned_conversations, deps.clock.now());
}

async function placeInTeam(deps: AppDeps, teamId: number): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const team = await q.lockTeam(trx, teamId);
    if (!team || team.conversation_assignment_type !== 'round_robin') return 0;
    let placed = 0;
    while (placed < MAX_PLACEMENTS_PER_TEAM) {
      const waiting = await q.lockNextWaiting(trx, teamId);
      if (!waiting) break;
      const agentId = await giveTo(trx, waiting, teamId, team.max_auto_assigned_conversations, deps.clock.now());
      if (agentId === null) break;
      placed += 1;
    }
    return placed;
  });
}

/** Places waiting conversations of the given round-robin teams (all of them when omitted). Returns how many were placed. */
export async function placeWaitingConversations(deps: AppDeps, teamIds: number[] | null = null): Promise<number> {
  const teams = await q.teamsWithWaiting(deps.db, teamIds);
  let placed = 0;
  for (const teamId of teams) placed += await placeInTeam(deps, teamId);
  return placed;
}

/** An agent freed up or became available: place what waits in their teams. */
export async function placeForAgent(deps: AppDeps, agentId: number): Promise<number> {
  const teams = await q.teamIdsOfAgent(deps.db, agentId);
  return placeWaitingConversations(deps, teams);
}

function agentIdOf(kind: string, payload: Record<string, unknown>): number {
  const id = payload['agent_id'];
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1)
    throw new PermanentJobError(`${kind}: payload.agent_id must be a positive integer`);
  return id;
}

/**
 * Job `conversations.place_for_agent`, enqueued by the agents domain when an agent may take
 * conversations (became available, enabled again, joined teams): places what waits in their teams.
 */
export async function placeForAgentJob(deps: AppDeps, payload: Record<string, unknown>): Promise<void> {
  await placeForAgent(deps, agentIdOf('conversations.place_for_agent', payload));
}

/** Job `conversations.place_team`, enqueued when a team gains members or changes how it assigns: its waiting conversations are placed. */
export async function placeTeamJob(deps: AppDeps, payload: Record<string, unknown>): Promise<void> {
  const id = payload['team_id'];
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw new PermanentJobError('conversations.place_team: payload.team_id must be a positive integer');
  }
  await placeWaitingConversations(deps, [id]);
}

/**
 * Job `conversations.release_agent`, enqueued in the transaction that deletes an agent: their
 * unresolved conversations lose the assignee (one activity message and one event each) and are
 * placed again by round robin. Until it runs, they keep the deleted agent as assignee; nothing
 * new can go to that agent (assignments and round robin take live agents only), and since this
 * runs after the deletion commits, an assignment that raced it and committed first is released
 * too. Idempotent: a second run finds nothing left to release (the periodic sweep places what a
 * run that stopped halfway left waiting).
 */
export async function releaseAgentJob(deps: AppDeps, payload: Record<string, unknown>): Promise<void> {
  const agentId = agentIdOf('conversations.release_agent', payload);
  const teams = await deps.db.transaction().execute(async (trx) => {
    // Only a deleted agent lets their conversations go.
    if (await findLiveAgent(trx, agentId)) return [];
    return q.releaseConversationsOf(trx, agentId, 'The assigned agent was removed; the conversation is unassigned', deps.clock.now());
  });
  if (teams.length > 0) await placeWaitingConversations(deps, teams);
}
