// The statements of the conversations domain that lock, look up and write (the record and
// the lists are in records.queries.ts; round robin's in assignment.queries.ts; a new
// message's in append.queries.ts).
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { compiledOnce } from '../db/statement.ts';
import type { SenderType } from '../db/types.ts';

/** The state a change needs, locked until the transaction ends. */
const lockStatement = compiledOnce((db: DB, uuid: string) =>
  db
    .selectFrom('conversations as c')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .innerJoin('inboxes as i', 'i.id', 'c.inbox_id')
    .leftJoin('conversation_priorities as p', 'p.id', 'c.priority_id')
    .where('c.uuid', '=', uuid)
    .select([
      'c.id',
      'c.uuid',
      'c.reference_number',
      'c.inbox_id',
      'c.contact_id',
      'c.assigned_user_id',
      'c.assigned_team_id',
      'c.status_id',
      'c.priority_id',
      'c.subject',
      'c.snoozed_until',
      'c.first_reply_at',
      'c.waiting_since',
      'c.applied_sla_id',
      's.name as status',
      's.category as status_category',
      'p.name as priority',
      'i.channel as inbox_channel',
      'i.default_team_id as inbox_default_team_id',
      'i.assign_on_first_reply as inbox_assign_on_first_reply',
    ])
    .forNoKeyUpdate('c'),
);

/** The conversation, locked for the rest of the transaction (compiled once: every change and reply runs it). */
export async function lockConversation(db: DB, uuid: string) {
  return lockStatement.executeTakeFirst(db, uuid);
}

export type LockedConversation = NonNullable<Awaited<ReturnType<typeof lockConversation>>>;

/** Just enough to decide access (no lock). */
export async function findConversationAccess(db: DB, uuid: string) {
  return db
    .selectFrom('conversations')
    .where('uuid', '=', uuid)
    .select(['id', 'uuid', 'assigned_user_id', 'assigned_team_id'])
    .executeTakeFirst();
}

/** The access facts of many conversations (by id or uuid) in one statement: the realtime relay's enrichment. */
export async function findAccessFacts(db: DB, by: { ids: readonly number[]; uuids: readonly string[] }) {
  if (by.ids.length === 0 && by.uuids.length === 0) return [];
  return db
    .selectFrom('conversations as c')
    .innerJoin('inboxes as i', 'i.id', 'c.inbox_id')
    .where((eb) =>
      eb.or([eb('c.id', '=', sql<number>`any(${[...by.ids]}::int[])`), eb('c.uuid', '=', sql<string>`any(${[...by.uuids]}::uuid[])`)]),
    )
    .select(['c.id', 'c.uuid', 'c.assigned_user_id', 'c.assigned_team_id', 'c.contact_id', 'c.inbox_id', 'i.channel as inbox_channel'])
    .execute();
}

/** The same facts for a contact's newest conversations (who may see the contact's presence and page visits). */
export async function findContactAccessFacts(db: DB, contactId: number, limit: number) {
  return db
    .selectFrom('conversations as c')
    .innerJoin('inboxes as i', 'i.id', 'c.inbox_id')
    .where('c.contact_id', '=', contactId)
    .orderBy('c.created_at', 'desc')
    .limit(limit)
    .select(['c.id', 'c.uuid', 'c.assigned_user_id', 'c.assigned_team_id', 'c.contact_id', 'c.inbox_id', 'i.channel as inbox_channel'])
    .execute();
}

// Lookups of what a conversation refers to.

export async function isTeamMember(db: DB, teamId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .select('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

// Writes.

export interface NewConversation {
  inbox_id: number;
  contact_id: number;
  status_id: number;
  subject: string;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
  meta?: string;
  custom_attributes?: string;
  created_at: Date;
  updated_at: Date;
}

export async function insertConversation(db: DB, values: NewConversation) {
  return db.insertInto('conversations').values(values).returning(['id', 'uuid', 'reference_number']).executeTakeFirstOrThrow();
}

export interface ConversationUpdate {
  status_id?: number;
  priority_id?: number | null;
  assigned_user_id?: number | null;
  assigned_team_id?: number | null;
  snoozed_until?: Date | null;
  resolved_at?: Date | null;
  waiting_since?: Date | null;
  assignee_last_seen_at?: Date | null;
  first_reply_at?: Date | null;
  last_reply_at?: Date | null;
  last_message?: string | null;
  last_message_at?: Date | null;
  last_message_sender?: SenderType | null;
  last_incoming_at?: Date | null;
  updated_at: Date;
}

export async function updateConversation(db: DB, id: number, changes: ConversationUpdate): Promise<void> {
  await db.updateTable('conversations').set(changes).where('id', '=', id).execute();
}

export async function setTags(db: DB, conversationId: number, tagIds: number[], now: Date): Promise<void> {
  await db
    .deleteFrom('conversation_tags')
    .where('conversation_id', '=', conversationId)
    .where('tag_id', 'not in', tagIds.length ? tagIds : [0])
    .execute();
  await addTags(db, conversationId, tagIds, now);
}

export async function addTags(db: DB, conversationId: number, tagIds: number[], now: Date): Promise<void> {
  if (tagIds.length === 0) return;
  await db
    .insertInto('conversation_tags')
    .values(tagIds.map((tag_id) => ({ conversation_id: conversationId, tag_id, created_at: now })))
    .onConflict((oc) => oc.columns(['conversation_id', 'tag_id']).doNothing())
    .execute();
}

export async function removeTags(db: DB, conversationId: number, tagIds: number[]): Promise<void> {
  if (tagIds.length === 0) return;
  await db.deleteFrom('conversation_tags').where('conversation_id', '=', conversationId).where('tag_id', 'in', tagIds).execute();
}

export async function tagNamesOf(db: DB, conversationId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('conversation_tags as ct')
    .innerJoin('tags as t', 't.id', 'ct.tag_id')
    .where('ct.conversation_id', '=', conversationId)
    .select('t.name')
    .orderBy(sql`lower(t.name)`)
    .execute();
  return rows.map((r) => r.name);
}

export async function setLastSeen(db: DB, conversationId: number, userId: number, at: Date): Promise<void> {
  await db
    .insertInto('conversation_last_seen')
    .values({ conversation_id: conversationId, user_id: userId, last_seen_at: at })
    .onConflict((oc) => oc.columns(['conversation_id', 'user_id']).doUpdateSet({ last_seen_at: at }))
    .execute();
}

export async function clearLastSeen(db: DB, conversationId: number, userId: number): Promise<void> {
  await db.deleteFrom('conversation_last_seen').where('conversation_id', '=', conversationId).where('user_id', '=', userId).execute();
}

/** The newest public message from the contact, for mark-unread. */
export async function latestIncomingAt(db: DB, conversationId: number): Promise<Date | null> {
  const row = await db
    .selectFrom('messages')
    .where('conversation_id', '=', conversationId)
    .where('type', '=', 'incoming')
    .where('private', '=', false)
    .select('created_at')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/** Snoozed conversations whose time has come, locked and skipped when another instance holds them. */
export async function lockDueSnoozed(db: DB, now: Date, limit: number) {
  return db
    .selectFrom('conversations as c')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .where('c.snoozed_until', '<=', now)
    .where('s.category', '=', 'waiting')
    .select(['c.id', 'c.uuid', 'c.assigned_team_id', 's.name as status', 'c.applied_sla_id', 'c.first_reply_at', 'c.waiting_since'])
    .orderBy('c.snoozed_until')
    .limit(limit)
    .forNoKeyUpdate('c')
    .skipLocked()
    .execute();
}
