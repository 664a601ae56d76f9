// Mentions (docs/api.md, "Working together"): a private note that names agents or teams in its
// markup (followers/mentions.ts) records, in the note's own transaction, one row per mentioned
// agent who may read the conversation, and makes them followers. Anyone else (an unknown id, an
// agent who may not read it, the writer) is left out without a word: the writer learns nothing
// about who may read what. Public replies mention nobody.
//
// Import direction: the followers read the conversations' access rule, so conversations never
// import this domain; app.ts hands recordMentions to the conversation routes, which call it on
// the line after the note is appended.
import type { Principal } from '../auth/credential-cache.ts';
import { accessFilter } from '../conversations/conversations.access.ts';
import { listItemsByIds } from '../conversations/conversations.read.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { type PageRequest, pagedResult } from '../http/schemas.ts';
import { teamMemberIds } from './followers.queries.ts';
import { follow, readersAmong } from './followers.service.ts';
import { mentionsIn } from './mentions.ts';
import { insertMentions, mentionedPage } from './mentions.queries.ts';

export interface MentionedConversation {
  id: number;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
}

export interface WrittenMessage {
  id: number;
  content: string;
  private: boolean;
  sender_type: 'agent' | 'contact';
  sender_id: number | null;
}

/**
 * On the line after a message is appended, in its transaction with the conversation locked:
 * the mentions of an agent's private note. A note without the markup costs no query.
 */
export async function recordMentions(trx: DB, conversation: MentionedConversation, message: WrittenMessage, now: Date): Promise<void> {
  if (!message.private || message.sender_type !== 'agent' || message.sender_id === null) return;
  const { agentIds, teamIds } = mentionsIn(message.content);
  if (agentIds.length === 0 && teamIds.length === 0) return;
  const writer = message.sender_id;
  const members = await teamMemberIds(trx, teamIds);
  const mentioned = [...agentIds, ...members].filter((id) => id !== writer);
  const readers = await readersAmong(trx, conversation, mentioned);
  if (readers.length === 0) return;
  await insertMentions(trx, conversation.id, message.id, readers, now);
  await follow(trx, conversation.id, readers, now);
}

/** The caller's mentioned conversations they may still read, newest mention first: the list item plus the mention. */
export async function listMentioned(deps: AppDeps, principal: Principal, page: PageRequest) {
  const readable = accessFilter(principal);
  if (!readable) return pagedResult([], 0, page);
  const { rows, total } = await mentionedPage(deps.db, principal.userId, readable, page.pageSize, page.offset);
  const items = new Map(
    (
      await listItemsByIds(
        deps,
        rows.map((row) => row.conversation_id),
        principal.userId,
      )
    ).map((item) => [item.id, item]),
  );
  const results = rows.flatMap((row) => {
    const item = items.get(row.conversation_id);
    return item ? [{ ...item, mentioned_at: row.mentioned_at, mention_message_uuid: row.mention_message_uuid }] : [];
  });
  return pagedResult(results, total, page);
}
