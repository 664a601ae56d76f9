// Followers (docs/api.md, "Working together"): who hears about a conversation. The rule that
// decides which agents may read a conversation, asked the other way round (of a conversation:
// which of these agents?), lives here once, for mentions, followers and notifications alike.
import type { Principal } from '../auth/credential-cache.ts';
import { canReadConversation } from '../conversations/conversations.access.ts';
import type { DB } from '../db/database.ts';
import { agentAccessRows, followerIds, insertFollowers, listFollowers } from './followers.queries.ts';

export { followerIds, listFollowers };

type Assignment = { assigned_user_id: number | null; assigned_team_id: number | null };

/** Of these agents, the live, enabled ones who may read the conversation (the access rule of conversations.access.ts). */
export async function readersAmong(db: DB, conversation: Assignment, agentIds: readonly number[]): Promise<number[]> {
  const unique = [...new Set(agentIds)];
  const rows = await agentAccessRows(db, unique);
  return rows
    .filter((row) => {
      const principal: Principal = {
        userId: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        permissions: new Set(row.permissions),
        teamIds: row.team_ids,
        method: 'session',
        sessionId: null,
      };
      return canReadConversation(principal, conversation);
    })
    .map((row) => row.id);
}

/** Adds followers (already following: unchanged). The caller has checked that they may read it. */
export async function follow(db: DB, conversationId: number, agentIds: readonly number[], at: Date): Promise<void> {
  await insertFollowers(db, conversationId, [...new Set(agentIds)], at);
}
