// Notifications for tests, made the way the fan-out makes them: the row and, in the same
// transaction, the `notification.created` event that brings the agent's sockets the frame.
// Rows made only for mail or push (`in_app: false`) record no event, as the fan-out does.
import type { Static } from 'typebox';
import type { NotificationType } from '../src/db/types.ts';
import { recordEvent } from '../src/events/events.service.ts';
import type { NotificationRecord } from '../src/notifications/notifications.schema.ts';
import type { TestApp } from './helpers.ts';

export type Notification = Static<typeof NotificationRecord>;

export interface NotificationInput {
  agentId: number;
  conversationUuid: string;
  type?: NotificationType;
  /** A message of that conversation. */
  messageUuid?: string | null;
  actor?: { type: 'agent' | 'contact' | 'automation' | 'system'; id: number | null; name: string } | null;
  title?: string;
  excerpt?: string;
  createdAt?: Date;
  readAt?: Date | null;
  inApp?: boolean;
  /** The cause's event id; a fresh one by default. */
  causeEventId?: number;
}

let causes = Date.now() * 1000;

/** Inserts one notification (and records its event when shown in the app); answers its record. */
export async function insertNotification(t: Pick<TestApp, 'deps'>, input: NotificationInput): Promise<Notification> {
  const { db, clock } = t.deps;
  return db.transaction().execute(async (trx) => {
    const conversation = await trx
      .selectFrom('conversations')
      .where('uuid', '=', input.conversationUuid)
      .select(['id', 'uuid'])
      .executeTakeFirstOrThrow();
    const message =
      input.messageUuid == null
        ? null
        : await trx
            .selectFrom('messages')
            .where('uuid', '=', input.messageUuid)
            .where('conversation_id', '=', conversation.id)
            .select(['id', 'uuid'])
            .executeTakeFirstOrThrow();
    const actor = input.actor === undefined ? { type: 'agent' as const, id: null, name: 'Someone' } : input.actor;
    causes += 1;
    const row = await trx
      .insertInto('notifications')
      .values({
        agent_id: input.agentId,
        type: input.type ?? 'assigned',
        cause_event_id: input.causeEventId ?? causes,
        conversation_id: conversation.id,
        message_id: message?.id ?? null,
        actor_type: actor?.type ?? null,
        actor_id: actor?.id ?? null,
        actor_name: actor?.name ?? '',
        title: input.title ?? 'Assigned to you',
        excerpt: input.excerpt ?? '',
        created_at: input.createdAt ?? clock.now(),
        read_at: input.readAt ?? null,
        in_app: input.inApp ?? true,
      })
      .returning(['id', 'type', 'created_at', 'read_at', 'title', 'excerpt'])
      .executeTakeFirstOrThrow();
    const record: Notification = {
      id: row.id,
      type: row.type,
      created_at: row.created_at,
      read_at: row.read_at,
      conversation_uuid: conversation.uuid,
      message_uuid: message?.uuid ?? null,
      actor,
      title: row.title,
      excerpt: row.excerpt,
    };
    if (input.inApp !== false)
      await recordEvent(trx, 'notification.created', { agent_id: input.agentId, notification: record }, clock.now());
    return record;
  });
}
