// Every SQL statement of the widget domain: the chat shapes (conversations and messages as
// the widget sees them), the visitor merge, the init cap and the contact's last-seen mark.
// Executor first, always. The widget never sees private notes or activity messages.
import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { Availability, MessageStatus, SenderType, UserType } from '../db/types.ts';

export interface ChatMessageRow {
  id: number;
  uuid: string;
  status: MessageStatus;
  conversation_uuid: string;
  created_at: Date;
  content: string;
  text_content: string;
  meta: Record<string, unknown>;
  sender_id: number | null;
  sender_type: SenderType;
  author_first_name: string | null;
  author_last_name: string | null;
  author_avatar_url: string | null;
  author_availability: Availability | null;
  author_type: UserType | null;
  author_last_active_at: Date | null;
}

function chatMessages(db: DB) {
  return db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .leftJoin('users as u', 'u.id', 'm.sender_id')
    .where('m.private', '=', false)
    .where('m.type', 'in', ['incoming', 'outgoing'])
    .select([
      'm.id',
      'm.uuid',
      'm.status',
      'c.uuid as conversation_uuid',
      'm.created_at',
      'm.content',
      'm.text_content',
      'm.meta',
      'm.sender_id',
      'm.sender_type',
      'u.first_name as author_first_name',
      'u.last_name as author_last_name',
      'u.avatar_url as author_avatar_url',
      'u.availability_status as author_availability',
      'u.type as author_type',
      'u.last_active_at as author_last_active_at',
    ]);
}

/** The public messages of a conversation, newest first (messages_conversation_idx). */
export async function listChatMessageRows(db: DB, conversationId: number, limit: number): Promise<ChatMessageRow[]> {
  return chatMessages(db)
    .where('m.conversation_id', '=', conversationId)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
}

/** One message, if it is public (incoming or outgoing, not private). */
export async function findChatMessageRow(db: DB, messageId: number): Promise<ChatMessageRow | undefined> {
  return chatMessages(db).where('m.id', '=', messageId).executeTakeFirst();
}

export async function findChatMessageRows(db: DB, messageIds: readonly number[]): Promise<ChatMessageRow[]> {
  if (messageIds.length === 0) return [];
  return chatMessages(db)
    .where('m.id', 'in', [...messageIds])
    .execute();
}

export interface ChatConversationRow {
  id: number;
  uuid: string;
  inbox_id: number;
  contact_id: number;
  created_at: Date;
  status: string;
  contact_last_seen_at: Date | null;
  unread: number | string;
  assignee_id: number | null;
  assignee_first_name: string | null;
  assignee_last_name: string | null;
  assignee_avatar_url: string | null;
  assignee_availability: Availability | null;
  assignee_last_active_at: Date | null;
  last_content: string | null;
  last_created_at: Date | null;
  last_sender_id: number | null;
  last_sender_type: SenderType | null;
  last_first_name: string | null;
  last_last_name: string | null;
  last_avatar_url: string | null;
  last_availability: Availability | null;
  last_active_at: Date | null;
}

/** The number the unread count stops at (the widget shows "9+"-style badges). */
export const UNREAD_CAP = 10;

/**
 * Conversations as the widget sees them, one statement: the status name, the assignee, the last
 * public message with its author (a lateral probe of messages_conversation_idx), and the agent
 * replies after the contact's last-seen mark, counted up to UNREAD_CAP.
 */
function chatConversations(where: RawBuilder<unknown>, limit: number) {
  return sql<ChatConversationRow>`
    select c.id, c.uuid, c.inbox_id, c.contact_id, c.created_at, s.name as status, c.contact_last_seen_at,
      (select count(*) from (
        select 1 from messages um
        where um.conversation_id = c.id and um.type = 'outgoing' and um.private = false
          and (c.contact_last_seen_at is null or um.created_at > c.contact_last_seen_at)
        limit ${UNREAD_CAP}) unread_rows) as unread,
      a.id as assignee_id, a.first_name as assignee_first_name, a.last_name as assignee_last_name,
      a.avatar_url as assignee_avatar_url, a.availability_status as assignee_availability,
      a.last_active_at as assignee_last_active_at,
      lm.text_content as last_content, lm.created_at as last_created_at, lm.sender_id as last_sender_id,
      lm.sender_type as last_sender_type, lu.first_name as last_first_name, lu.last_name as last_last_name,
      lu.avatar_url as last_avatar_url, lu.availability_status as last_availability, lu.last_active_at as last_active_at
    from conversations c
    join conversation_statuses s on s.id = c.status_id
    left join users a on a.id = c.assigned_user_id
    left join lateral (
      select m.text_content, m.created_at, m.sender_id, m.sender_type from messages m
      where m.conversation_id = c.id and m.private = false and m.type in ('incoming', 'outgoing')
      order by m.created_at desc, m.id desc limit 1
    ) lm on true
    left join users lu on lu.id = lm.sender_id
    where ${where}
    order by c.created_at desc, c.id desc
    limit ${limit}`;
}

/** A contact's conversations in one inbox, newest first (conversations_contact_idx). */
export async function listChatConversationRows(db: DB, contactId: number, inboxId: number, limit: number) {
  const { rows } = await chatConversations(sql`c.contact_id = ${contactId} and c.inbox_id = ${inboxId}`, limit).execute(db);
  return rows;
}

export async function findChatConversationRow(db: DB, conversationId: number) {
  const { rows } = await chatConversations(sql`c.id = ${conversationId}`, 1).execute(db);
  return rows[0];
}

/** What the access check of a widget conversation needs. */
export async function findConversationOwner(db: DB, uuid: string) {
  return db
    .selectFrom('conversations as c')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .where('c.uuid', '=', uuid)
    .select(['c.id', 'c.uuid', 'c.inbox_id', 'c.contact_id', 'c.assigned_team_id', 's.name as status'])
    .executeTakeFirst();
}

// ---------------------------------------------------------------- widget users

const USER_COLUMNS = ['id', 'type', 'first_name', 'last_name', 'email', 'enabled', 'external_user_id', 'last_active_at'] as const;

/** A live (not deleted) contact or visitor. */
export async function findWidgetUser(db: DB, id: number) {
  return db
    .selectFrom('users')
    .where('id', '=', id)
    .where('type', 'in', ['contact', 'visitor'])
    .where('deleted_at', 'is', null)
    .select(USER_COLUMNS)
    .executeTakeFirst();
}

export type WidgetUserRow = NonNullable<Awaited<ReturnType<typeof findWidgetUser>>>;

/** Locks contacts or visitors (ordered by id, so two merges cannot deadlock). */
export async function lockWidgetUsers(db: DB, ids: number[]) {
  return db
    .selectFrom('users')
    .where('id', 'in', ids)
    .where('type', 'in', ['contact', 'visitor'])
    .where('deleted_at', 'is', null)
    .select(USER_COLUMNS)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** The live contact (not visitor) with this external id. */
export async function findContactByExternalId(db: DB, externalUserId: string) {
  return db
    .selectFrom('users')
    .where('type', '=', 'contact')
    .where('deleted_at', 'is', null)
    .where('external_user_id', '=', externalUserId)
    .select(USER_COLUMNS)
    .forUpdate()
    .executeTakeFirst();
}

/** The live contact (not visitor) with this email and no external id. */
export async function findContactByEmailWithoutExternalId(db: DB, email: string) {
  return db
    .selectFrom('users')
    .where('type', '=', 'contact')
    .where('deleted_at', 'is', null)
    .where('external_user_id', 'is', null)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .select(USER_COLUMNS)
    .orderBy('id')
    .forUpdate()
    .executeTakeFirst();
}

/** Whether any live contact or visitor without an external id holds this email (the unique index's rule). */
export async function emailHeldWithoutExternalId(db: DB, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .where('type', 'in', ['contact', 'visitor'])
    .where('deleted_at', 'is', null)
    .where('external_user_id', 'is', null)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .select('id')
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewWidgetUser {
  type: 'contact' | 'visitor';
  email: string | null;
  external_user_id: string | null;
  first_name: string;
  last_name: string;
  phone_number: string | null;
  phone_number_country_code: string | null;
  custom_attributes: Record<string, unknown>;
  now: Date;
}

const RECORD_COLUMNS = [
  'id',
  'created_at',
  'updated_at',
  'first_name',
  'last_name',
  'email',
  'type',
  'availability_status',
  'phone_number_country_code',
  'phone_number',
  'avatar_url',
  'enabled',
  'last_active_at',
  'last_login_at',
  'custom_attributes',
  'external_user_id',
  'load_remote_images',
] as const;

/** Inserts a contact or visitor and answers its record (for `contact.created`). */
export async function insertWidgetUser(db: DB, user: NewWidgetUser) {
  return db
    .insertInto('users')
    .values({
      type: user.type,
      email: user.email,
      external_user_id: user.external_user_id,
      first_name: user.first_name,
      last_name: user.last_name,
      phone_number: user.phone_number,
      phone_number_country_code: user.phone_number_country_code,
      custom_attributes: JSON.stringify(user.custom_attributes),
      password_hash: null,
      avatar_url: null,
      api_key: null,
      api_secret_hash: null,
      created_at: user.now,
      updated_at: user.now,
      // Created by its own widget request (a first message, an identity exchange): active now.
      last_active_at: user.now,
    })
    .returning(RECORD_COLUMNS)
    .executeTakeFirstOrThrow();
}

export interface WidgetUserChanges {
  email?: string;
  external_user_id?: string;
  first_name?: string;
  last_name?: string;
  phone_number?: string;
  phone_number_country_code?: string;
  custom_attributes?: Record<string, unknown>;
}

export async function updateWidgetUser(db: DB, id: number, changes: WidgetUserChanges, now: Date): Promise<void> {
  const { custom_attributes, ...rest } = changes;
  await db
    .updateTable('users')
    .set({
      ...rest,
      ...(custom_attributes !== undefined ? { custom_attributes: JSON.stringify(custom_attributes) } : {}),
      updated_at: now,
      // Its identity exchange is the contact's own request: it is active now.
      last_active_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function customAttributesOf(db: DB, id: number): Promise<Record<string, unknown>> {
  const row = await db.selectFrom('users').where('id', '=', id).select('custom_attributes').executeTakeFirst();
  return row?.custom_attributes ?? {};
}

// ---------------------------------------------------------------- sessions

/**
 * Ends the user's sessions of this inbox but the `keep` most recently used (latest expiry: it
 * slides on use), before a new one is issued (widget_sessions_user_idx).
 */
export async function trimWidgetSessions(db: DB, userId: number, inboxId: number, keep: number): Promise<void> {
  const kept = db
    .selectFrom('widget_sessions')
    .select('token_hash')
    .where('user_id', '=', userId)
    .where('inbox_id', '=', inboxId)
    .orderBy('expires_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('token_hash')
    .limit(keep);
  await db
    .deleteFrom('widget_sessions')
    .where('user_id', '=', userId)
    .where('inbox_id', '=', inboxId)
    .where('token_hash', 'not in', kept)
    .execute();
}

// ---------------------------------------------------------------- visitor merge

/** Moves everything of the visitor to the contact and soft-deletes the visitor. Answers the conversations moved. */
export async function mergeVisitorInto(db: DB, visitorId: number, contactId: number, keepVisits: number, now: Date): Promise<number[]> {
  const moved = await db
    .updateTable('conversations')
    .set({ contact_id: contactId, updated_at: now })
    .where('contact_id', '=', visitorId)
    .returning('id')
    .execute();
  await db
    .updateTable('messages')
    .set({ sender_id: contactId })
    .where('sender_id', '=', visitorId)
    .where('sender_type', '=', 'contact')
    .execute();
  await db.updateTable('contact_notes').set({ contact_id: contactId }).where('contact_id', '=', visitorId).execute();
  // The visitor's page visits too; the contact keeps its newest `keepVisits` (ids grow with time).
  await db.updateTable('contact_page_visits').set({ contact_id: contactId }).where('contact_id', '=', visitorId).execute();
  await db
    .deleteFrom('contact_page_visits')
    .where('contact_id', '=', contactId)
    .where(
      'id',
      'not in',
      db.selectFrom('contact_page_visits').where('contact_id', '=', contactId).orderBy('id', 'desc').limit(keepVisits).select('id'),
    )
    .execute();
  await db.updateTable('media').set({ uploaded_by: contactId }).where('uploaded_by', '=', visitorId).execute();
  await db.deleteFrom('widget_sessions').where('user_id', '=', visitorId).execute();
  await db.updateTable('users').set({ deleted_at: now, enabled: false, updated_at: now }).where('id', '=', visitorId).execute();
  return moved.map((row) => row.id);
}

// ---------------------------------------------------------------- conversations

/** The creation times of the contact's conversations since `since`, oldest first (conversations_contact_idx). */
export async function conversationsStartedSince(db: DB, contactId: number, since: Date): Promise<Date[]> {
  const rows = await db
    .selectFrom('conversations')
    .where('contact_id', '=', contactId)
    .where('created_at', '>', since)
    .select('created_at')
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.created_at);
}

export async function hasConversationInInbox(db: DB, contactId: number, inboxId: number): Promise<boolean> {
  const row = await db
    .selectFrom('conversations')
    .where('contact_id', '=', contactId)
    .where('inbox_id', '=', inboxId)
    .select('id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setContactLastSeen(db: DB, conversationId: number, at: Date): Promise<void> {
  await db.updateTable('conversations').set({ contact_last_seen_at: at }).where('id', '=', conversationId).execute();
}

/** Whether an away message of the conversation announced an opening still ahead of `now` (one that announced none counts as ahead). */
export async function hasAwayMessageUntilAfter(db: DB, conversationId: number, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('messages')
    .where('conversation_id', '=', conversationId)
    .where('type', '=', 'outgoing')
    .where(sql<boolean>`meta @> '{"away": true}'`)
    .where(sql<boolean>`(meta->>'away_until' is null or (meta->>'away_until')::timestamptz > ${now})`)
    .select('id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
