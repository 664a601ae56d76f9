// The statements of mentions: the rows a note writes, and the caller's mentioned conversations.
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { Database } from '../db/types.ts';

export async function insertMentions(
  db: DB,
  conversationId: number,
  messageId: number,
  agentIds: readonly number[],
  at: Date,
): Promise<void> {
  if (agentIds.length === 0) return;
  await db
    .insertInto('conversation_mentions')
    .values(agentIds.map((agentId) => ({ conversation_id: conversationId, message_id: messageId, agent_id: agentId, created_at: at })))
    .onConflict((oc) => oc.columns(['message_id', 'agent_id']).doNothing())
    .execute();
}

type WithC = Database & { c: Database['conversations'] };
/** The conversation access rule as SQL over `c` (conversations.access.ts, accessFilter). */
export type ReadableFilter = (eb: ExpressionBuilder<WithC, 'c'>) => Expression<SqlBool>;

/** Each conversation once, with the agent's newest mention in it (the agent's index, 2026_12_01_0001). */
function latestMentions(db: DB, agentId: number) {
  return db
    .selectFrom('conversation_mentions as m')
    .where('m.agent_id', '=', agentId)
    .distinctOn('m.conversation_id')
    .select(['m.id', 'm.conversation_id', 'm.message_id', 'm.created_at'])
    .orderBy('m.conversation_id')
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc');
}

function readableMentions(db: DB, agentId: number, readable: ReadableFilter) {
  return db
    .selectFrom(latestMentions(db, agentId).as('l'))
    .innerJoin('conversations as c', 'c.id', 'l.conversation_id')
    .where((eb) => readable(eb as unknown as ExpressionBuilder<WithC, 'c'>));
}

/** One page of the agent's mentioned conversations they may read, newest mention first, and the true total. */
export async function mentionedPage(db: DB, agentId: number, readable: ReadableFilter, limit: number, offset: number) {
  const rows = await readableMentions(db, agentId, readable)
    .innerJoin('messages as msg', 'msg.id', 'l.message_id')
    .select(['l.conversation_id', 'l.created_at as mentioned_at', 'msg.uuid as mention_message_uuid'])
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const counted = await readableMentions(db, agentId, readable).select(sql<number>`count(*)::int`.as('total')).executeTakeFirst();
  return { rows, total: counted?.total ?? 0 };
}
