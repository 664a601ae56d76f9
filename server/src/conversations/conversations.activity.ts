// The two side effects every conversation change writes in its own transaction:
// an activity message (the visible history) and a domain event (the outbox).
import type { DB } from '../db/database.ts';
import { recordEvent } from '../events/events.service.ts';
import { insertMessage } from './conversations.queries.ts';

/** Who made a change: an agent, or the system (round robin, snooze wake-up, channels). */
export interface Actor {
  userId: number | null;
  name: string;
}

export const SYSTEM: Actor = { userId: null, name: 'System' };

export interface ConversationRef {
  id: number;
  uuid: string;
}

export async function logActivity(db: DB, conversation: ConversationRef, actor: Actor, text: string, activity: Record<string, unknown>, now: Date): Promise<void> {
  await insertMessage(db, {
    conversation_id: conversation.id,
    type: 'activity',
    status: 'sent',
    content: text,
    text_content: text,
    content_type: 'text',
    private: true,
    sender_id: actor.userId,
    sender_type: 'agent',
    meta: { activity },
    created_at: now,
    updated_at: now,
  });
}

export async function conversationEvent(db: DB, type: string, conversation: ConversationRef, actor: Actor, data: Record<string, unknown>, now: Date): Promise<void> {
  await recordEvent(db, type, { conversation_id: conversation.id, conversation_uuid: conversation.uuid, actor_id: actor.userId, ...data }, now);
}
