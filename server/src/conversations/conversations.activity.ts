// The two side effects every conversation change writes in its own transaction:
// an activity message (the visible history) and a domain event (the outbox).
import type { Principal } from '../auth/credential-cache.ts';
import type { DB } from '../db/database.ts';
import type { DomainEventPayload, DomainEventType } from '../events/events.schema.ts';
import { recordEvent } from '../events/events.service.ts';
import { insertMessage } from './append.queries.ts';

/** Who made a change: an agent, or the system (round robin, snooze wake-up, channels). */
export interface Actor {
  userId: number | null;
  name: string;
}

export const SYSTEM: Actor = { userId: null, name: 'System' };

export function actorOf(principal: Principal): Actor {
  return {
    userId: principal.userId,
    name: `${principal.firstName} ${principal.lastName}`.trim() || principal.email || `Agent ${principal.userId}`,
  };
}

export interface ConversationRef {
  id: number;
  uuid: string;
}

export async function logActivity(
  db: DB,
  conversation: ConversationRef,
  actor: Actor,
  text: string,
  activity: Record<string, unknown>,
  now: Date,
): Promise<void> {
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

/** The events whose payload starts with the conversation and the actor. */
export type ConversationEventType = {
  [K in DomainEventType]: DomainEventPayload<K> extends { conversation_uuid: string; actor_id: number | null } ? K : never;
}[DomainEventType];

type Common = 'conversation_id' | 'conversation_uuid' | 'actor_id';
/** What a conversation event says besides the conversation and the actor (per member of a union payload). */
export type ConversationEventData<K extends ConversationEventType> =
  DomainEventPayload<K> extends infer P ? (P extends unknown ? Omit<P, Common> : never) : never;

export async function conversationEvent<K extends ConversationEventType>(
  db: DB,
  type: K,
  conversation: ConversationRef,
  actor: Actor,
  data: ConversationEventData<K>,
  now: Date,
): Promise<void> {
  // The declared payload of `type` (the parameters say so); TypeScript cannot follow the spread over a union.
  const payload = {
    conversation_id: conversation.id,
    conversation_uuid: conversation.uuid,
    actor_id: actor.userId,
    ...data,
  } as DomainEventPayload<K>;
  await recordEvent(db, type, payload, now);
}
