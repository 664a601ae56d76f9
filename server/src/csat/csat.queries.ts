// Every SQL statement of CSAT surveys. Executor first, always.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { CsatChannel } from '../db/types.ts';

const surveyColumns = [
  's.id',
  's.uuid',
  'c.uuid as conversation_uuid',
  's.created_at',
  's.sent_via',
  's.rating',
  's.feedback',
  's.submitted_at',
] as const;

/** Whether the inbox asks for surveys (false for a disabled or deleted inbox: nothing would deliver them). */
export async function inboxWantsSurveys(db: DB, inboxId: number): Promise<boolean> {
  const row = await db
    .selectFrom('inboxes')
    .where('id', '=', inboxId)
    .where('enabled', '=', true)
    .where('deleted_at', 'is', null)
    .select('csat_enabled')
    .executeTakeFirst();
  return row?.csat_enabled ?? false;
}

export interface SurveyedConversation {
  id: number;
  inbox_id: number;
  inbox_channel: CsatChannel;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
}

/**
 * The conversation's survey, unless it has one already (csat_surveys_conversation_key): undefined
 * then. It keeps who had the conversation when it was sent, whom the service report credits.
 */
export async function insertSurveyOnce(db: DB, conversation: SurveyedConversation, now: Date) {
  return db
    .insertInto('csat_surveys')
    .values({
      conversation_id: conversation.id,
      sent_via: conversation.inbox_channel,
      inbox_id: conversation.inbox_id,
      assignee_id: conversation.assigned_user_id,
      team_id: conversation.assigned_team_id,
      created_at: now,
    })
    .onConflict((oc) => oc.column('conversation_id').doNothing())
    .returning(['id', 'uuid', 'created_at'])
    .executeTakeFirst();
}

/** The surveys of these conversations (csat_surveys_conversation_key). */
export async function findSurveysByConversationIds(db: DB, conversationIds: readonly number[]) {
  if (conversationIds.length === 0) return [];
  return db
    .selectFrom('csat_surveys as s')
    .innerJoin('conversations as c', 'c.id', 's.conversation_id')
    .where(sql<boolean>`s.conversation_id = any(${[...conversationIds]}::int[])`)
    .select([...surveyColumns, 's.conversation_id'])
    .execute();
}

/** A survey with what its public page shows: the conversation's subject, the inbox's name and brand (csat_surveys_uuid_key). */
export async function findPublicSurvey(db: DB, uuid: string) {
  return db
    .selectFrom('csat_surveys as s')
    .innerJoin('conversations as c', 'c.id', 's.conversation_id')
    .innerJoin('inboxes as i', 'i.id', 'c.inbox_id')
    .where('s.uuid', '=', uuid)
    .select([
      ...surveyColumns,
      'c.subject as conversation_subject',
      'i.name as inbox_name',
      'i.channel as inbox_channel',
      // Public parts of a live-chat inbox's config only (never its secret).
      sql<string | null>`i.config->>'brand_name'`.as('brand_name'),
      sql<string | null>`i.config->>'logo_url'`.as('logo_url'),
      sql<string | null>`i.config->'colors'->>'primary'`.as('primary_color'),
    ])
    .executeTakeFirst();
}

/**
 * The survey, locked for the rest of the transaction (an answer), after its conversation: a tag
 * change locks the conversation too, so whichever of the two comes second sees the other's work
 * and the rollups by tag (migration 0035) count the answer under the tags the conversation has.
 */
export async function lockSurvey(db: DB, uuid: string) {
  const conversation = await db
    .selectFrom('conversations')
    .where('id', '=', (eb) => eb.selectFrom('csat_surveys').where('uuid', '=', uuid).select('conversation_id'))
    .select(['id', 'uuid'])
    .forNoKeyUpdate()
    .executeTakeFirst();
  const survey = await db
    .selectFrom('csat_surveys')
    .where('uuid', '=', uuid)
    .select(['id', 'created_at', 'feedback'])
    .forUpdate()
    .executeTakeFirst();
  return survey && conversation ? { ...survey, conversation_id: conversation.id, conversation_uuid: conversation.uuid } : undefined;
}

export async function saveAnswer(db: DB, id: number, answer: { rating: number; feedback: string; submitted_at: Date }): Promise<void> {
  await db.updateTable('csat_surveys').set(answer).where('id', '=', id).execute();
}
