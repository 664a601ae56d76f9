// Who is viewing a conversation, and who is replying (docs/api.md, "Presence"). The rows are
// written by the instance holding each socket (viewers.live.ts); any change is announced on the
// bus channel `viewers.changed` with the conversation's id, and every instance then reads the
// list once and sends it to its own sockets that may read the conversation. Reading after the
// announcement (rather than shipping a list built by the writer) keeps the last frame right
// when two instances change one list at once: the last announcement comes after the last commit.
import type { Principal } from '../auth/credential-cache.ts';
import { readableConversationFacts } from '../conversations/conversations.read.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import type { Viewer } from './viewers.schema.ts';
import { deleteStaleViewers, listViewers } from './viewers.queries.ts';

export const VIEWERS_CHANNEL = 'viewers.changed';
/** A row its instance has not refreshed for this long belongs to a gone instance. */
export const VIEWER_EXPIRY_MS = 60_000;

export async function viewersOf(db: DB, conversationId: number): Promise<Viewer[]> {
  const rows = await listViewers(db, conversationId);
  return rows.map((row) => ({
    agent_id: row.agent_id,
    name: `${row.first_name} ${row.last_name}`.trim(),
    avatar_url: row.avatar_url,
    replying: row.replying,
  }));
}

/** `GET /conversations/{uuid}/viewers`: unknown and not readable are the same 404 (as the socket's `not_found`). */
export async function getViewers(deps: AppDeps, principal: Principal, uuid: string): Promise<Viewer[]> {
  const facts = await readableConversationFacts(deps.db, principal, uuid);
  return viewersOf(deps.db, facts.id);
}

/** Tells every instance that these conversations' lists changed. */
export async function announceViewers(deps: AppDeps, conversationIds: readonly number[]): Promise<void> {
  if (conversationIds.length === 0) return;
  await deps.bus.publish(VIEWERS_CHANNEL, { conversation_ids: [...conversationIds] });
}

/**
 * Periodic: the rows of instances that stopped without saying so (a crash, a lost network). Safe
 * on several instances at once: each row is deleted, and its change announced, by one of them.
 */
export async function expireViewers(deps: AppDeps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - VIEWER_EXPIRY_MS);
  const changed = await deleteStaleViewers(deps.db, before);
  await announceViewers(deps, changed);
  return changed.length;
}
