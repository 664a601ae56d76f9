// Enrichment: what the relay adds to a batch of committed events, once, so that every
// instance only filters and sends (docs/api.md, "Realtime"). One statement for the access
// facts of every conversation of the batch, one for every new message; the widget's shapes
// of public agent replies and assignees of live-chat conversations.
import { type ConversationFacts, conversationFacts } from '../conversations/conversations.read.ts';
import type { AppDeps } from '../deps.ts';
import { channelHas } from '../inboxes/channels.ts';
import { messagesByIds } from '../messages/messages.service.ts';
import { chatConversationFor, chatMessagesFor } from '../widget/widget.shapes.ts';
import type { StoredEvent } from './realtime.queries.ts';

/** Who may see a conversation: the facts the access rule reads, and where it lives. */
export interface Facts {
  uuid: string;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
  contact_id: number;
  inbox_id: number;
  livechat: boolean;
}

/** One committed event as it crosses the bus: enough for any instance to build its frames. */
export interface RelayedEvent {
  id: number;
  type: string;
  created_at: string;
  payload: Record<string, unknown>;
  /** The conversation's facts now (null: not a conversation event, or the conversation is gone). */
  conversation: Facts | null;
  /** For assignment changes: the facts before, so that the agents who lose the conversation hear of it. */
  previous: Pick<Facts, 'assigned_user_id' | 'assigned_team_id'> | null;
  /** new_message: the full message record, as the REST API returns it. */
  message: unknown;
  /** What the widget gets: the ChatMessage of a public agent reply, the assignee of a live-chat conversation. */
  widget: Record<string, unknown> | null;
}

function numberOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

function toFacts(row: ConversationFacts): Facts {
  return {
    uuid: row.uuid,
    assigned_user_id: row.assigned_user_id,
    assigned_team_id: row.assigned_team_id,
    contact_id: row.contact_id,
    inbox_id: row.inbox_id,
    livechat: channelHas(row.inbox_channel, 'liveSocket'),
  };
}

function previousOf(event: StoredEvent, now: Facts | null): RelayedEvent['previous'] {
  if (!now || (event.type !== 'conversation.assigned' && event.type !== 'conversation.unassigned')) return null;
  const p = event.payload;
  if (p['assignee_type'] === 'user') {
    return { assigned_user_id: numberOf(p['previous_assignee_id']), assigned_team_id: now.assigned_team_id };
  }
  return { assigned_user_id: now.assigned_user_id, assigned_team_id: numberOf(p['previous_team_id']) };
}

export async function enrichEvents(deps: AppDeps, events: readonly StoredEvent[]): Promise<RelayedEvent[]> {
  const conversationIds = new Set<number>();
  const conversationUuids = new Set<string>();
  const messageIds = new Set<number>();
  /** Public agent replies: the widget gets them as ChatMessages (only those of live-chat conversations are used). */
  const replyIds = new Set<number>();
  for (const event of events) {
    const id = numberOf(event.payload['conversation_id']);
    if (id !== null) conversationIds.add(id);
    else if (typeof event.payload['conversation_uuid'] === 'string') conversationUuids.add(event.payload['conversation_uuid']);
    const messageId = numberOf(event.payload['message_id']);
    if (event.type === 'message.created' && messageId !== null) {
      messageIds.add(messageId);
      if (event.payload['type'] === 'outgoing' && event.payload['private'] === false) replyIds.add(messageId);
    }
  }
  const [facts, messages, chatMessages] = await Promise.all([
    conversationIds.size + conversationUuids.size > 0
      ? conversationFacts(deps.db, { ids: [...conversationIds], uuids: [...conversationUuids] })
      : [],
    messagesByIds(deps, [...messageIds]),
    chatMessagesFor(deps, [...replyIds]),
  ]);
  const byId = new Map(facts.map((row) => [row.id, toFacts(row)]));
  const byUuid = new Map([...byId.values()].map((f) => [f.uuid, f]));
  const messageById = new Map(messages.map((m) => [m.id, m]));
  const out: RelayedEvent[] = [];
  for (const event of events) {
    const p = event.payload;
    const id = numberOf(p['conversation_id']);
    const conversation =
      id !== null
        ? (byId.get(id) ?? null)
        : typeof p['conversation_uuid'] === 'string'
          ? (byUuid.get(p['conversation_uuid']) ?? null)
          : null;
    const messageId = numberOf(p['message_id']);
    let widget: Record<string, unknown> | null = null;
    if (conversation?.livechat) {
      if (event.type === 'message.created' && messageId !== null && p['type'] === 'outgoing' && p['private'] === false) {
        const chat = chatMessages.get(messageId);
        if (chat) widget = { message: chat };
      } else if (event.type === 'conversation.assigned' || event.type === 'conversation.unassigned') {
        if (p['assignee_type'] === 'user' && id !== null) widget = { assignee: (await chatConversationFor(deps, id))?.assignee ?? null };
      }
    }
    out.push({
      id: event.id,
      type: event.type,
      created_at: event.created_at.toISOString(),
      payload: p,
      conversation,
      previous: previousOf(event, conversation),
      message: event.type === 'message.created' && messageId !== null ? (messageById.get(messageId) ?? null) : null,
      widget,
    });
  }
  return out;
}
