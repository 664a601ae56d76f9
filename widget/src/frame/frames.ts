// Guards for the data of the socket's frames (docs/api.md "Realtime", widget events). The
// socket is a trust boundary: a frame of an unexpected shape (a server of another version, a
// proxy's mangling) is ignored, rather than cast and then thrown on inside onmessage.
import type { ChatAttachment, ChatConversation, ChatMessage } from './api.ts';
import type { ServerFrameOf } from './frames.gen.ts';

type Assignee = NonNullable<ChatConversation['assignee']>;

export type TypingData = ServerFrameOf<'typing'>['data'];

type Update = ServerFrameOf<'conversation_update'>['data'];
type UpdateWith<K extends string> = Extract<Update, Record<K, unknown>>;
/** What the widget shows of a `conversation_update`: `status`, `assignee` (absent: unchanged; null: unassigned). */
export type ConversationUpdate = Pick<Update, 'uuid'> &
  Partial<Pick<UpdateWith<'status'>, 'status'> & Pick<UpdateWith<'assignee'>, 'assignee'>>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isStringOrNull = (value: unknown): boolean => value === null || typeof value === 'string';
const AVAILABILITY = ['available', 'busy', 'away', 'offline'];
const AUTHOR_TYPES = ['agent', 'contact', 'visitor'];

function isAuthor(value: unknown): value is ChatMessage['author'] {
  return (
    isRecord(value) &&
    (value['id'] === null || typeof value['id'] === 'number') &&
    isString(value['first_name']) &&
    isString(value['last_name']) &&
    isStringOrNull(value['avatar_url']) &&
    AVAILABILITY.includes(String(value['availability_status'])) &&
    AUTHOR_TYPES.includes(String(value['type'])) &&
    isStringOrNull(value['last_active_at'] ?? null)
  );
}

function isAttachment(value: unknown): value is ChatAttachment {
  return (
    isRecord(value) &&
    isString(value['uuid']) &&
    isString(value['name']) &&
    typeof value['size'] === 'number' &&
    isString(value['content_type']) &&
    isString(value['url']) &&
    isString(value['thumbnail_url']) &&
    (value['disposition'] === 'attachment' || value['disposition'] === 'inline')
  );
}

/** A `new_message` frame's data: a message as the widget API answers it. */
export function isChatMessage(value: unknown): value is ChatMessage {
  if (!isRecord(value)) return false;
  const meta = value['meta'];
  return (
    isString(value['uuid']) &&
    isString(value['conversation_uuid']) &&
    isString(value['created_at']) &&
    !Number.isNaN(Date.parse(value['created_at'])) &&
    isString(value['content']) &&
    isString(value['text_content']) &&
    isString(value['status']) &&
    isAuthor(value['author']) &&
    Array.isArray(value['attachments']) &&
    value['attachments'].every(isAttachment) &&
    isRecord(meta) &&
    (meta['away'] === undefined || typeof meta['away'] === 'boolean') &&
    (meta['csat_uuid'] === undefined || isString(meta['csat_uuid'])) &&
    (meta['away_until'] === undefined || isStringOrNull(meta['away_until']))
  );
}

/** A `typing` frame's data, or null. */
export function typingData(value: unknown): TypingData | null {
  if (!isRecord(value) || !isString(value['conversation_uuid']) || typeof value['is_typing'] !== 'boolean') return null;
  return { conversation_uuid: value['conversation_uuid'], is_typing: value['is_typing'] };
}

function isAssignee(value: unknown): value is Assignee {
  return (
    isRecord(value) &&
    typeof value['id'] === 'number' &&
    isString(value['first_name']) &&
    isString(value['last_name']) &&
    isStringOrNull(value['avatar_url']) &&
    AVAILABILITY.includes(String(value['availability_status'])) &&
    value['type'] === 'agent' &&
    isStringOrNull(value['active_at'] ?? null)
  );
}

/** A `conversation_update` frame's data (only the fields the widget shows), or null. */
export function conversationUpdate(value: unknown): ConversationUpdate | null {
  if (!isRecord(value) || !isString(value['uuid'])) return null;
  const update: ConversationUpdate = { uuid: value['uuid'] };
  if ('status' in value) {
    if (!isString(value['status'])) return null;
    update.status = value['status'];
  }
  if ('assignee' in value) {
    const assignee = value['assignee'] ?? null;
    if (assignee !== null && !isAssignee(assignee)) return null;
    update.assignee = assignee;
  }
  return update;
}
