// The statements of the fan-out (notifications.fanout.ts): what a cause is about, and the
// notifications, their events and their jobs, each written for all recipients in one statement.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { NotificationType } from '../db/types.ts';
import type { DomainEventPayload } from '../events/events.schema.ts';

export async function conversationOf(db: DB, conversationId: number) {
  return db
    .selectFrom('conversations')
    .where('id', '=', conversationId)
    .select(['id', 'uuid', 'reference_number', 'subject', 'assigned_user_id', 'assigned_team_id'])
    .executeTakeFirst();
}

export async function messageOf(db: DB, messageId: number) {
  return db.selectFrom('messages').where('id', '=', messageId).select(['id', 'uuid', 'text_content']).executeTakeFirst();
}

/** The agents who followed the conversation before `before` (a follow made with the message itself is not yet one). */
export async function followersBefore(db: DB, conversationId: number, before: Date): Promise<number[]> {
  const rows = await db
    .selectFrom('conversation_followers')
    .where('conversation_id', '=', conversationId)
    .where('created_at', '<', before)
    .select('agent_id')
    .execute();
  return rows.map((row) => row.agent_id);
}

/** The agents a note mentions (rows written by the note's own transaction). */
export async function mentionedAgentIds(db: DB, messageId: number): Promise<number[]> {
  const rows = await db.selectFrom('conversation_mentions').where('message_id', '=', messageId).select('agent_id').execute();
  return rows.map((row) => row.agent_id);
}

/** A user's (agent's or contact's) display fields. */
export async function personOf(db: DB, userId: number) {
  return db.selectFrom('users').where('id', '=', userId).select(['id', 'type', 'first_name', 'last_name', 'email']).executeTakeFirst();
}

export async function teamNameOf(db: DB, teamId: number): Promise<string | null> {
  const row = await db.selectFrom('teams').where('id', '=', teamId).select('name').executeTakeFirst();
  return row?.name ?? null;
}

/** Recipients' mail addresses and names (live, enabled agents only). */
export async function mailboxesOf(db: DB, agentIds: readonly number[]) {
  if (agentIds.length === 0) return [];
  return db
    .selectFrom('users')
    .where('id', '=', sql<number>`any(${[...agentIds]}::int[])`)
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .where('enabled', '=', true)
    .where('email', 'is not', null)
    .select(['id', 'email', 'first_name', 'last_name'])
    .execute();
}

export interface NewNotification {
  agent_id: number;
  type: NotificationType;
  cause_event_id: number;
  conversation_id: number;
  message_id: number | null;
  actor_type: 'agent' | 'contact' | 'automation' | 'system' | null;
  actor_id: number | null;
  actor_name: string;
  title: string;
  excerpt: string;
  created_at: Date;
  in_app: boolean;
  email_status: 'none' | 'pending' | 'sent';
}

/**
 * Inserts the notifications that do not exist yet (agent, cause, type) and returns only those:
 * a retried or duplicated job, or another instance fanning out the same cause, inserts nothing
 * twice, and whoever inserted a row is the one who announces and mails it.
 */
export async function insertNotifications(db: DB, rows: readonly NewNotification[]) {
  if (rows.length === 0) return [];
  return db
    .insertInto('notifications')
    .values([...rows])
    .onConflict((oc) => oc.columns(['agent_id', 'cause_event_id', 'type']).doNothing())
    .returning(['id', 'agent_id', 'type', 'created_at', 'in_app', 'email_status', 'title', 'excerpt'])
    .execute();
}

/** `notification.created` events, one per notification, in one statement. */
export async function insertNotificationEvents(db: DB, payloads: readonly DomainEventPayload<'notification.created'>[], at: Date) {
  if (payloads.length === 0) return;
  await db
    .insertInto('domain_events')
    .values(payloads.map((payload) => ({ type: 'notification.created', payload: JSON.stringify(payload), created_at: at })))
    .execute();
}

/** Jobs due at once, in one statement (the rows enqueueJob would write, without a dedupe key). */
export async function insertJobs(db: DB, jobs: readonly { kind: string; payload: Record<string, unknown>; maxAttempts: number }[]) {
  if (jobs.length === 0) return;
  await db
    .insertInto('jobs')
    .values(jobs.map((job) => ({ kind: job.kind, payload: JSON.stringify(job.payload), max_attempts: job.maxAttempts })))
    .execute();
}
