// Followers (docs/api.md, "Working together"): who hears about a conversation. The rule that
// decides which agents may read a conversation, asked the other way round (of a conversation:
// which of these agents?), lives here once, for mentions, followers and notifications alike.
import { activeAgentPrincipals } from '../auth/auth.service.ts';
import type { Principal } from '../auth/credential-cache.ts';
import { requirePermission } from '../auth/permissions.ts';
import { canReadConversation } from '../conversations/conversations.access.ts';
import { readableConversationFacts } from '../conversations/conversations.read.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { DataError } from '../errors.ts';
import { deleteFollower, insertFollowers, listFollowers, teamMemberships } from './followers.queries.ts';

/** Each team's members (ids only: ask readersAmong who of them may read a conversation). */
export async function membersByTeam(db: DB, teamIds: readonly number[]): Promise<Map<number, number[]>> {
  const byTeam = new Map<number, number[]>();
  for (const row of await teamMemberships(db, teamIds)) {
    const members = byTeam.get(row.team_id);
    if (members) members.push(row.user_id);
    else byTeam.set(row.team_id, [row.user_id]);
  }
  return byTeam;
}

type Assignment = { assigned_user_id: number | null; assigned_team_id: number | null };

/** Of these agents, the live, enabled ones who may read the conversation (the access rule of conversations.access.ts). */
export async function readersAmong(db: DB, conversation: Assignment, agentIds: readonly number[]): Promise<number[]> {
  const [readers] = await readersOfEach(db, [{ conversation, agentIds }]);
  return readers ?? [];
}

/** readersAmong for several conversations, with one query for all their agents; the answers in the asks' order. */
export async function readersOfEach(
  db: DB,
  asks: ReadonlyArray<{ conversation: Assignment; agentIds: readonly number[] }>,
): Promise<number[][]> {
  const principals = new Map(
    (
      await activeAgentPrincipals(
        db,
        asks.flatMap((ask) => ask.agentIds),
      )
    ).map((p) => [p.userId, p]),
  );
  return asks.map(({ conversation, agentIds }) =>
    [...new Set(agentIds)].filter((id) => {
      const principal = principals.get(id);
      return principal !== undefined && canReadConversation(principal, conversation);
    }),
  );
}

/** Adds followers (already following: unchanged). The caller has checked that they may read it. */
export async function follow(db: DB, conversationId: number, agentIds: readonly number[], at: Date): Promise<void> {
  await insertFollowers(db, conversationId, [...new Set(agentIds)], at);
}

// The followers API: the caller must be able to read the conversation (else 404, as an unknown one).

/** Another agent's follow is changed with the assignment permission (they could be assigned it as well). */
function requireForOthers(principal: Principal, agentId: number): void {
  if (agentId !== principal.userId) requirePermission(principal, 'conversations:update_user_assignee');
}

export async function conversationFollowers(deps: AppDeps, principal: Principal, uuid: string) {
  const conversation = await readableConversationFacts(deps.db, principal, uuid);
  return listFollowers(deps.db, conversation.id);
}

/** Adds the caller, or another agent (who must be able to read the conversation: else 422). */
export async function addFollower(deps: AppDeps, principal: Principal, uuid: string, agentId = principal.userId) {
  const conversation = await readableConversationFacts(deps.db, principal, uuid);
  requireForOthers(principal, agentId);
  const readers = await readersAmong(deps.db, conversation, [agentId]);
  if (readers.length === 0) throw new DataError('This agent cannot read the conversation');
  await follow(deps.db, conversation.id, readers, deps.clock.now());
  return listFollowers(deps.db, conversation.id);
}

/** Removes the caller, or another agent; one who does not follow it is no error. */
export async function removeFollower(deps: AppDeps, principal: Principal, uuid: string, agentId: number) {
  const conversation = await readableConversationFacts(deps.db, principal, uuid);
  requireForOthers(principal, agentId);
  await deleteFollower(deps.db, conversation.id, agentId);
  return listFollowers(deps.db, conversation.id);
}
