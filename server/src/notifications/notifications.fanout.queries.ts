// The statements of the fan-out (notifications.fanout.ts): what a cause is about, and the
// notifications, their events and their jobs, each written for all recipients in one statement.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { NotificationType } from '../db/types.ts';
import type { DomainEventPayload } from '../events/events.schema.ts';

/** Characters of a message read for its excerpt (plainExcerpt keeps 200 of them, whitespace folded). */
const EXCERPT_SOURCE_LENGTH = 2000;

const anyOf = (ids: Iterable<number>) => sql<number>`any(${[...ids]}::int[])`;

export async function conversationsOf(db: DB, ids: ReadonlySet<number>) {
  if (ids.size === 0) return [];
  return db
    .selectFrom('conversations')
    .where('id', '=', anyOf(ids))
    .select(['id', 'uuid', 'reference_number', 'subject', 'assigned_user_id', 'assigned_team_id'])
    .execute();
}

/** The messages' uuids and the start of their text (enough for an excerpt: a long mail is not read whole). */
export async function messagesOf(db: DB, ids: ReadonlySet<number>) {
  if (ids.size === 0) return [];
  return db
    .selectFrom('messages')
    .where('id', '=', anyOf(ids))
    .select(['id', 'uuid', sql<string>`left(text_content, ${EXCERPT_SOURCE_LENGTH})`.as('text_content')])
    .execute();
}

/** Who follows these conversations, since when. */
export async function followsOf(db: DB, conversationIds: ReadonlySet<number>) {
  if (conversationIds.size === 0) return [];
  return db
    .selectFrom('conversation_followers')
    .where('conversation_id', '=', anyOf(conversationIds))
    .select(['conversation_id', 'agent_id', 'created_at'])
    .execute();
}

/** The agents these notes mention (rows written by each note's own transaction). */
export async function mentionsOf(db: DB, messageIds: ReadonlySet<number>) {
  if (messageIds.size === 0) return [];
  return db.selectFrom('conversation_mentions').where('message_id', '=', anyOf(messageIds)).select(['message_id', 'agent_id']).execute();
}

/** Users' (agents' or contacts') display fields. */
export async function peopleOf(db: DB, userIds: ReadonlySet<number>) {
  if (userIds.size === 0) return [];
  return db.selectFrom('users').where('id', '=', anyOf(userIds)).select(['id', 'type', 'first_name', 'last_name', 'email']).execute();
}

export async function teamNamesOf(db: DB, teamIds: ReadonlySet<number>) {
  if (teamIds.size === 0) return [];
  return db.selectFrom('teams').where('id', '=', anyOf(teamIds)).select(['id', 'name']).execute();
}

/** Recipients' mail addresses and names (live, enabled agents only). */
export async function mailboxesOf(db: DB, agentIds: readonly number[]) {
  if (agentIds.length === 0) return [];
  return db
    .selectFrom('users')
    .where('id', '=', anyOf(agentIds))
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .where('enabled', '=', true)
    .where('email', 'is not', null)
    .select(['id', 'email', 'first_name', 'last_name'])
    .execute();
}

/** Of these agents, those mailed a notification made since `since` (in a mail of its own or in a digest). */
export async function mailedSince(db: DB, agentIds: readonly number[], since: Date): Promise<Set<number>> {
  if (agentIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('notifications')
    .where('agent_id', '=', anyOf(agentIds))
    .where('email_status', '=', 'sent')
    .where('created_at', '>', since)
    .select('agent_id')
    .distinct()
    .execute();
  return new Set(rows.map((row) => row.agent_id));
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

/** A job written with a new notification; a `null` payload is `{ notification_id }` of the row inserted. */
export interface NotificationJob {
  kind: string;
  payload: Record<string, unknown> | null;
  maxAttempts: number;
}

/** A notification to insert, with what announces it: its event (the id filled in by the database) and its jobs. */
export interface AnnouncedNotification {
  row: NewNotification;
  event: DomainEventPayload<'notification.created'> | null;
  jobs: NotificationJob[];
}

/**
 * One statement, all or nothing as a transaction: inserts the notifications that do not exist
 * yet (agent, cause, type) and, for those only, their `notification.created` events and their
 * jobs. A retried or duplicated job, or another instance fanning out the same cause, inserts
 * nothing twice, and whoever inserted a row is the one who announces and mails it. Answers the
 * kinds of the jobs written. (A cause has one type: agent and cause name a row of the batch.)
 */
export async function insertAnnouncedNotifications(db: DB, items: readonly AnnouncedNotification[], at: Date): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  const inserted = db
    .insertInto('notifications')
    .values(items.map((item) => item.row))
    .onConflict((oc) => oc.columns(['agent_id', 'cause_event_id', 'type']).doNothing())
    .returning(['id', 'agent_id', 'cause_event_id']);
  const extra = JSON.stringify(
    items.map(({ row, event, jobs }) => ({
      agent_id: row.agent_id,
      cause_event_id: row.cause_event_id,
      event,
      jobs: jobs.map((job) => ({ kind: job.kind, payload: job.payload, max_attempts: job.maxAttempts })),
    })),
  );
  const result = await sql<{ kind: string }>`
    with inserted as (${inserted}),
    announced as (
      select i.id, x.event, x.jobs
      from inserted i
      join jsonb_to_recordset(${extra}::jsonb) as x(agent_id integer, cause_event_id bigint, event jsonb, jobs jsonb)
        using (agent_id, cause_event_id)
    ),
    events as (
      insert into domain_events (type, payload, created_at)
      select 'notification.created', jsonb_set(a.event, '{notification,id}', to_jsonb(a.id)), ${at}
      from announced a
      where jsonb_typeof(a.event) = 'object'
      order by a.id
    ),
    new_jobs as (
      insert into jobs (kind, payload, max_attempts)
      select j->>'kind', coalesce(nullif(j->'payload', 'null'::jsonb), jsonb_build_object('notification_id', a.id)), (j->>'max_attempts')::integer
      from announced a, jsonb_array_elements(a.jobs) j
      returning kind
    )
    select distinct kind from new_jobs`.execute(db);
  return new Set(result.rows.map((row) => row.kind));
}

/** Jobs due at once, in one statement (the rows enqueueJob would write, without a dedupe key). */
export async function insertJobs(db: DB, jobs: readonly { kind: string; payload: Record<string, unknown>; maxAttempts: number }[]) {
  if (jobs.length === 0) return;
  await db
    .insertInto('jobs')
    .values(jobs.map((job) => ({ kind: job.kind, payload: JSON.stringify(job.payload), max_attempts: job.maxAttempts })))
    .execute();
}
