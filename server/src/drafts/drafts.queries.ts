// Every statement of drafts. A draft is deleted by a trigger when its agent sends a message in
// the conversation (migration 2026_12_01_0600): no code line shows that one.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

/** The conversation's access columns and the caller's draft, in one statement (GET is called on every open). */
export async function findConversationWithDraft(db: DB, uuid: string, agentId: number) {
  return db
    .selectFrom('conversations as c')
    .leftJoin('conversation_drafts as d', (join) => join.onRef('d.conversation_id', '=', 'c.id').on('d.agent_id', '=', agentId))
    .where('c.uuid', '=', uuid)
    .select([
      'c.id',
      'c.assigned_user_id',
      'c.assigned_team_id',
      'd.content',
      'd.private',
      sql<string[] | null>`d.attachments::text[]`.as('attachments'),
      'd.updated_at',
    ])
    .executeTakeFirst();
}

export async function findConversationAccess(db: DB, uuid: string) {
  return db.selectFrom('conversations').where('uuid', '=', uuid).select(['id', 'assigned_user_id', 'assigned_team_id']).executeTakeFirst();
}

export interface DraftValues {
  content: string;
  private: boolean;
  attachments: string[];
  updated_at: Date;
}

/** Full replace (insert or update) of the agent's draft. */
export async function upsertDraft(db: DB, conversationId: number, agentId: number, values: DraftValues) {
  const row = { ...values, attachments: sql<string[]>`${values.attachments}::uuid[]` };
  return db
    .insertInto('conversation_drafts')
    .values({ conversation_id: conversationId, agent_id: agentId, ...row })
    .onConflict((oc) => oc.columns(['conversation_id', 'agent_id']).doUpdateSet(row))
    .returning(['content', 'private', sql<string[]>`attachments::text[]`.as('attachments'), 'updated_at'])
    .executeTakeFirstOrThrow();
}

export async function deleteDraft(db: DB, conversationId: number, agentId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('conversation_drafts')
    .where('conversation_id', '=', conversationId)
    .where('agent_id', '=', agentId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The other live agents' drafts of a conversation, newest first (no content). */
export async function listOtherDrafts(db: DB, conversationId: number, agentId: number) {
  return db
    .selectFrom('conversation_drafts as d')
    .innerJoin('users as u', 'u.id', 'd.agent_id')
    .where('d.conversation_id', '=', conversationId)
    .where('d.agent_id', '<>', agentId)
    .where('u.deleted_at', 'is', null)
    .where('u.enabled', '=', true)
    .select(['d.agent_id', 'u.first_name', 'u.last_name', 'd.private', 'd.updated_at'])
    .orderBy('d.updated_at', 'desc')
    .orderBy('d.agent_id')
    .execute();
}

/** Drafts not updated since `before`, in bounded batches (the retention task). */
export async function deleteDraftsBefore(db: DB, before: Date, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('conversation_drafts')
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('conversation_id', 'agent_id'),
        'in',
        selectFrom('conversation_drafts')
          .where('updated_at', '<', before)
          .select(['conversation_id', 'agent_id'])
          .limit(batch)
          .$asTuple('conversation_id', 'agent_id'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
