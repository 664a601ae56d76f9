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
    .select(['c.id', 'c.uuid', 'c.inbox_id', 'c.contact_id', 's.name as status'])
    .executeTakeFirst();
}
