// What the widget sees (docs/api.md, "Live chat (widget API)"): ChatConversation, ChatMessage,
// ChatAttachment and WidgetUser, and their set-based loaders (one statement for the rows, one
// for the attachments, whatever the count). Only public incoming and outgoing messages exist
// for the widget: private notes and activity messages are never loaded. Authors' emails are null.
import { type Static, Type } from 'typebox';
import type { DB } from '../db/database.ts';
import { AVAILABILITIES, DISPOSITIONS, MESSAGE_STATUSES, SENDER_TYPES, USER_TYPES } from '../db/types.ts';
import type { AppDeps } from '../deps.ts';
import { DateTime, Nullable, NullableDateTime, StringEnum } from '../http/schemas.ts';
import { attachmentsByMessage } from '../media/media.service.ts';
import * as q from './widget.queries.ts';

/** The newest messages the widget gets of one conversation. */
export const MAX_CHAT_MESSAGES = 400;
/** The newest conversations the widget lists. */
export const MAX_CHAT_CONVERSATIONS = 200;

export const ChatAttachment = Type.Object(
  {
    name: Type.String(),
    size: Type.Integer(),
    content: Type.Null(),
    content_id: Nullable(Type.String()),
    content_type: Type.String(),
    disposition: StringEnum(DISPOSITIONS),
    uuid: Type.String({ format: 'uuid' }),
    url: Type.String({ description: 'Signed download URL; works without credentials until it expires' }),
    thumbnail_url: Type.String({ description: 'The image itself for images recognised by their bytes; empty otherwise' }),
  },
  { title: 'ChatAttachment' },
);

export const ChatMessageAuthor = Type.Object(
  {
    id: Nullable(Type.Integer()),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.Null({ description: 'Never sent to the widget' }),
    avatar_url: Nullable(Type.String()),
    availability_status: StringEnum(AVAILABILITIES),
    type: StringEnum(USER_TYPES),
    last_active_at: NullableDateTime,
  },
  { title: 'ChatMessageAuthor' },
);

export const ChatMessage = Type.Object(
  {
    uuid: Type.String({ format: 'uuid' }),
    status: StringEnum(MESSAGE_STATUSES),
    conversation_uuid: Type.String({ format: 'uuid' }),
    created_at: DateTime,
    content: Type.String({ description: 'HTML for agent replies (sanitised), plain text for messages from the widget' }),
    text_content: Type.String(),
    author: ChatMessageAuthor,
    attachments: Type.Array(ChatAttachment),
    meta: Type.Object(
      {
        away: Type.Optional(Type.Boolean({ description: 'The away message sent outside business hours' })),
        away_until: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'The opening it announced' }))),
        csat_uuid: Type.Optional(
          Type.String({
            format: 'uuid',
            description: 'On a CSAT survey message: the survey to answer (POST /api/v1/csat/{uuid}/response)',
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          "Only what the widget shows: `away` and `away_until` on the away message, `csat_uuid` on a CSAT survey; the rest of a message's meta stays private",
      },
    ),
  },
  { title: 'ChatMessage' },
);

const Person = {
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  avatar_url: Nullable(Type.String()),
  availability_status: StringEnum(AVAILABILITIES),
};

export const ChatConversation = Type.Object(
  {
    created_at: DateTime,
    uuid: Type.String({ format: 'uuid' }),
    status: Type.String({ description: 'Status name: Open, Snoozed, Resolved, Closed or a custom one' }),
    last_message: Nullable(
      Type.Object({
        content: Type.String({ description: 'Plain text of the last public message' }),
        created_at: DateTime,
        author: Type.Object({
          ...Person,
          id: Nullable(Type.Integer()),
          type: StringEnum(SENDER_TYPES, { description: 'Who wrote it: agent or contact' }),
          active_at: NullableDateTime,
        }),
      }),
    ),
    unread_message_count: Type.Integer({
      minimum: 0,
      maximum: q.UNREAD_CAP,
      description: `Agent replies after the contact last read the conversation, counted up to ${q.UNREAD_CAP}`,
    }),
    assignee: Nullable(Type.Object({ ...Person, type: Type.Literal('agent'), active_at: NullableDateTime })),
  },
  { title: 'ChatConversation' },
);

export const WidgetUser = Type.Object(
  { user_id: Type.Integer(), is_visitor: Type.Boolean(), first_name: Type.String(), last_name: Type.String() },
  { title: 'WidgetUser' },
);

export type ChatAttachment = Static<typeof ChatAttachment>;
export type ChatMessage = Static<typeof ChatMessage>;
export type ChatConversation = Static<typeof ChatConversation>;
export type WidgetUser = Static<typeof WidgetUser>;

const availability = (value: string | null) =>
  (AVAILABILITIES as readonly string[]).includes(value ?? '') ? (value as ChatMessage['author']['availability_status']) : 'offline';

/** The keys of a message's meta the widget may see. */
const WIDGET_META_KEYS = ['away', 'away_until', 'csat_uuid'] as const;

function widgetMeta(meta: Record<string, unknown>): ChatMessage['meta'] {
  return Object.fromEntries(WIDGET_META_KEYS.filter((key) => key in meta).map((key) => [key, meta[key]]));
}

function toChatMessage(row: q.ChatMessageRow, attachments: ChatAttachment[]): ChatMessage {
  const fallbackType = row.sender_type === 'agent' ? 'agent' : 'contact';
  return {
    uuid: row.uuid,
    status: row.status,
    conversation_uuid: row.conversation_uuid,
    created_at: row.created_at,
    content: row.content,
    text_content: row.text_content,
    author: {
      id: row.sender_id,
      first_name: row.author_first_name ?? '',
      last_name: row.author_last_name ?? '',
      email: null,
      avatar_url: row.author_avatar_url,
      availability_status: availability(row.author_availability),
      type: row.author_type ?? fallbackType,
      last_active_at: row.author_last_active_at,
    },
    attachments,
    meta: widgetMeta(row.meta),
  };
}

async function withAttachments(deps: AppDeps, db: DB, rows: q.ChatMessageRow[]): Promise<ChatMessage[]> {
  if (rows.length === 0) return [];
  const byMessage = await attachmentsByMessage(
    deps,
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toChatMessage(
      row,
      (byMessage.get(row.id) ?? []).map((a) => ({
        name: a.name,
        size: a.size,
        content: null,
        content_id: a.content_id,
        content_type: a.content_type,
        disposition: a.disposition,
        uuid: a.uuid,
        url: a.url,
        // Only images recognised by their bytes are stored inline; the widget shows those as thumbnails.
        thumbnail_url: a.disposition === 'inline' ? a.url : '',
      })),
    ),
  );
}

/** The public messages of a conversation as the widget sees them, newest first (at most MAX_CHAT_MESSAGES). */
export async function loadChatMessages(
  deps: AppDeps,
  conversationId: number,
  options: { limit?: number; db?: DB } = {},
): Promise<ChatMessage[]> {
  const db = options.db ?? deps.db;
  const limit = Math.min(Math.max(options.limit ?? MAX_CHAT_MESSAGES, 1), MAX_CHAT_MESSAGES);
  return withAttachments(deps, db, await q.listChatMessageRows(db, conversationId, limit));
}

/** One message as the widget sees it; null unless it is a public incoming or outgoing message. */
export async function chatMessageFor(deps: AppDeps, messageId: number): Promise<ChatMessage | null> {
  const row = await q.findChatMessageRow(deps.db, messageId);
  if (!row) return null;
  const [message] = await withAttachments(deps, deps.db, [row]);
  return message ?? null;
}

/** Many messages as the widget sees them, by message id (two statements whatever their number); ids that are not public messages are absent. */
export async function chatMessagesFor(deps: AppDeps, messageIds: readonly number[]): Promise<Map<number, ChatMessage>> {
  const rows = await q.findChatMessageRows(deps.db, messageIds);
  const messages = await withAttachments(deps, deps.db, rows);
  return new Map(rows.map((row, i) => [row.id, messages[i] as ChatMessage]));
}

function toChatConversation(row: q.ChatConversationRow): ChatConversation {
  return {
    created_at: row.created_at,
    uuid: row.uuid,
    status: row.status,
    last_message:
      row.last_created_at === null
        ? null
        : {
            content: row.last_content ?? '',
            created_at: row.last_created_at,
            author: {
              id: row.last_sender_id,
              first_name: row.last_first_name ?? '',
              last_name: row.last_last_name ?? '',
              avatar_url: row.last_avatar_url,
              availability_status: availability(row.last_availability),
              type: row.last_sender_type ?? 'contact',
              active_at: row.last_active_at,
            },
          },
    unread_message_count: Math.min(Number(row.unread), q.UNREAD_CAP),
    assignee:
      row.assignee_id === null
        ? null
        : {
            id: row.assignee_id,
            first_name: row.assignee_first_name ?? '',
            last_name: row.assignee_last_name ?? '',
            avatar_url: row.assignee_avatar_url,
            availability_status: availability(row.assignee_availability),
            type: 'agent',
            active_at: row.assignee_last_active_at,
          },
  };
}

/** A contact's conversations in an inbox, newest first (at most MAX_CHAT_CONVERSATIONS). One statement. */
export async function loadChatConversations(deps: AppDeps, contactId: number, inboxId: number): Promise<ChatConversation[]> {
  const rows = await q.listChatConversationRows(deps.db, contactId, inboxId, MAX_CHAT_CONVERSATIONS);
  return rows.map(toChatConversation);
}

/** One conversation as the widget sees it (no access check: the caller has done it). */
export async function chatConversationFor(deps: AppDeps, conversationId: number, db: DB = deps.db): Promise<ChatConversation | null> {
  const row = await q.findChatConversationRow(db, conversationId);
  return row ? toChatConversation(row) : null;
}
