// Every SQL statement of the conversations domain.
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { compiledOnce } from '../db/statement.ts';
import type { Database, MessageMeta, MessageStatus, MessageType, SenderType } from '../db/types.ts';
import type { DomainEventPayload } from '../events/events.schema.ts';
import { eventColumns } from '../events/events.service.ts';

type WithC = Database & { c: Database['conversations'] };
export type ConversationFilter = (eb: ExpressionBuilder<WithC, 'c'>) => Expression<SqlBool>;

/** The state a change needs, locked until the transaction ends. */
const lockStatement = compiledOnce((db: DB, uuid: string) =>
  db
    .selectFrom('conversations as c')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .innerJoin('inboxes as i', 'i.id', 'c.inbox_id')
    .leftJoin('conversation_priorities as p', 'p.id', 'c.priority_id')
    .where('c.uuid', '=', uuid)
    .select([
      'c.id',
      'c.uuid',
      'c.reference_number',
      'c.inbox_id',
      'c.contact_id',
      'c.assigned_user_id',
      'c.assigned_team_id',
      'c.status_id',
      'c.priority_id',
      'c.subject',
      'c.snoozed_until',
      'c.first_reply_at',
      'c.waiting_since',
      's.name as status',
      's.category as status_category',
      'p.name as priority',
      'i.channel as inbox_channel',
    ])
    .forNoKeyUpdate('c'),
);

/** The conversation, locked for the rest of the transaction (compiled once: every change and reply runs it). */
export async function lockConversation(db: DB, uuid: string) {
  return lockStatement.executeTakeFirst(db, uuid);
}

export type LockedConversation = NonNullable<Awaited<ReturnType<typeof lockConversation>>>;

/** Just enough to decide access (no lock). */
export async function findConversationAccess(db: DB, uuid: string) {
  return db.selectFrom('conversations').where('uuid', '=', uuid).select(['id', 'uuid', 'assigned_user_id', 'assigned_team_id']).executeTakeFirst();
}

/** Which list: each is one of the access rules (see conversations.access.ts), so every item is readable. */
export type ListScope = { kind: 'all' } | { kind: 'assigned'; userId: number } | { kind: 'unassigned' } | { kind: 'team_unassigned'; teamId: number };

/** A list's scope and its filters, names already resolved to ids; each filter matches any of its ids. */
export interface ListFilter {
  scope: ListScope;
  statusIds?: readonly number[] | undefined;
  priorityIds?: readonly number[] | undefined;
  tagIds?: readonly number[] | undefined;
  inboxIds?: readonly number[] | undefined;
  teamIds?: readonly number[] | undefined;
  assigneeIds?: readonly number[] | undefined;
  contactIds?: readonly number[] | undefined;
}

export interface ListOptions {
  filter: ListFilter;
  orderBy: 'last_message_at' | 'created_at' | 'updated_at' | 'waiting_since';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** `= any(array)`: one statement text whatever the number of ids (prepared statements). */
function anyOf(ids: readonly number[]) {
  return sql<number>`any(${[...ids]}::int[])`;
}

function scopeFilter(scope: ListScope): ConversationFilter | null {
  switch (scope.kind) {
    case 'all':
      return null;
    case 'assigned':
      return (eb) => eb('c.assigned_user_id', '=', scope.userId);
    case 'unassigned':
      return (eb) => eb('c.assigned_user_id', 'is', null);
    case 'team_unassigned':
      return (eb) => eb.and([eb('c.assigned_team_id', '=', scope.teamId), eb('c.assigned_user_id', 'is', null)]);
  }
}

/** The WHERE terms of a list: its scope, then one term per non-empty filter. */
function filtersOf(filter: ListFilter): ConversationFilter[] {
  const filters: ConversationFilter[] = [];
  const scope = scopeFilter(filter.scope);
  if (scope) filters.push(scope);
  const column = (name: 'c.status_id' | 'c.priority_id' | 'c.inbox_id' | 'c.assigned_team_id' | 'c.assigned_user_id' | 'c.contact_id', ids?: readonly number[]) => {
    if (ids?.length) filters.push((eb) => eb(name, '=', anyOf(ids)));
  };
  column('c.status_id', filter.statusIds);
  column('c.priority_id', filter.priorityIds);
  column('c.inbox_id', filter.inboxIds);
  column('c.assigned_team_id', filter.teamIds);
  column('c.assigned_user_id', filter.assigneeIds);
  column('c.contact_id', filter.contactIds);
  const tagIds = filter.tagIds;
  if (tagIds?.length) {
    filters.push((eb) =>
      eb.exists(eb.selectFrom('conversation_tags as ctf').select('ctf.tag_id').whereRef('ctf.conversation_id', '=', 'c.id').where('ctf.tag_id', '=', anyOf(tagIds))),
    );
  }
  return filters;
}

const LIMIT_BUCKETS = [10, 20, 30, 50, 100];

function limitBucket(limit: number): number {
  return LIMIT_BUCKETS.find((size) => size >= limit) ?? limit;
}

function filtered(db: DB, filters: ConversationFilter[]) {
  let query = db.selectFrom('conversations as c');
  for (const filter of filters) query = query.where(filter);
  return query;
}

function countOf(db: DB, filters: ConversationFilter[]) {
  return filtered(db, filters).select(sql<number>`count(*)::int`.as('total'));
}

/**
 * One page of records plus the true total, in one statement: the page's ids come from a
 * subquery on the list's index (so skipped rows cost no per-record subqueries), the page's
 * tag names from one join over all its conversations (a subquery per record cost PostgreSQL
 * half of the list's time), and the total from an uncorrelated subquery. A page past the end
 * has no row to carry the total: only then is it counted on its own.
 */
export async function listConversations(db: DB, options: ListOptions, viewerId: number): Promise<{ rows: ConversationRow[]; total: number }> {
  const filters = filtersOf(options.filter);
  const column = (alias: 'c') => sql.ref(`${alias}.${options.orderBy}`);
  const direction = options.order === 'desc' ? sql`desc nulls last` : sql`asc nulls first`;
  const pageIds = filtered(db, filters)
    .select('c.id')
    .orderBy(sql`${column('c')} ${direction}`)
    .orderBy('c.id', options.order)
    // The page size as a literal, rounded up to one of a few sizes (the extra rows are cut
    // below): with LIMIT as a parameter PostgreSQL cannot cost a generic plan and would plan
    // this statement again on every request, and a literal per size would fill the statement cache.
    .limit(sql.lit(limitBucket(options.limit)))
    .offset(options.offset);
  const rows = await db
    .with('page', () => pageIds)
    .with('page_tags', (w) =>
      w
        .selectFrom('conversation_tags as ctg')
        .innerJoin('tags as t', 't.id', 'ctg.tag_id')
        .where('ctg.conversation_id', 'in', (eb) => eb.selectFrom('page').select('page.id'))
        .groupBy('ctg.conversation_id')
        .select(['ctg.conversation_id', sql<string[]>`array_agg(t.name order by lower(t.name))`.as('names')]),
    )
    .selectFrom('conversations as c')
    .leftJoin('page_tags as pt', 'pt.conversation_id', 'c.id')
    .where('c.id', 'in', (eb) => eb.selectFrom('page').select('page.id'))
    // (pt is out of the builder's sight past the shared columns: its column is named in SQL)
    .$call((query) => withRecordColumns(query, viewerId))
    .select([sql<string[]>`coalesce(pt.names, '{}')`.as('tags'), countOf(db, filters).as('total')])
    .orderBy(sql`${column('c')} ${direction}`)
    .orderBy('c.id', options.order)
    .execute();
  const first = rows[0];
  if (first) return { rows: rows.slice(0, options.limit), total: first.total ?? rows.length };
  if (options.offset === 0) return { rows: [], total: 0 };
  const count = await countOf(db, filters).executeTakeFirstOrThrow();
  return { rows: [], total: count.total };
}

/** The record's joins and columns, except its tags (a list joins them for its whole page, one record reads its own). */
function withRecordColumns<QB extends SelectQueryBuilder<WithC, 'c', object>>(query: QB, viewerId: number) {
  return query
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .innerJoin('inboxes as i', 'i.id', 'c.inbox_id')
    .innerJoin('users as ct', 'ct.id', 'c.contact_id')
    .leftJoin('conversation_priorities as p', 'p.id', 'c.priority_id')
    .leftJoin('conversation_last_seen as ls', (join) => join.onRef('ls.conversation_id', '=', 'c.id').on('ls.user_id', '=', viewerId))
    .select([
      'c.id',
      'c.created_at',
      'c.updated_at',
      'c.uuid',
      'c.reference_number',
      'c.waiting_since',
      'c.assignee_last_seen_at',
      'c.inbox_id',
      'i.channel as inbox_channel',
      'i.name as inbox_name',
      'c.first_reply_at',
      'c.last_reply_at',
      'c.resolved_at',
      'c.subject',
      'c.last_message',
      'c.last_message_at',
      'c.last_message_sender',
      'c.priority_id',
      's.name as status',
      's.category as status_category',
      'p.name as priority',
      'c.assigned_user_id',
      'c.assigned_team_id',
      'c.snoozed_until',
      'c.custom_attributes',
      'c.meta',
      'c.contact_id',
      'ct.created_at as contact_created_at',
      'ct.updated_at as contact_updated_at',
      'ct.first_name as contact_first_name',
      'ct.last_name as contact_last_name',
      'ct.avatar_url as contact_avatar_url',
      'ct.email as contact_email',
      sql<number>`(select count(*)::int from messages m where m.conversation_id = c.id and m.type = 'incoming' and m.private = false and m.created_at > coalesce(ls.last_seen_at, '-infinity'::timestamptz))`.as(
        'unread_message_count',
      ),
    ]);
}

function selectRecord(db: DB, viewerId: number) {
  return db
    .selectFrom('conversations as c')
    .$call((query) => withRecordColumns(query, viewerId))
    .select(
      sql<string[]>`coalesce((select array_agg(t.name order by lower(t.name)) from conversation_tags ctg join tags t on t.id = ctg.tag_id where ctg.conversation_id = c.id), '{}')`.as(
        'tags',
      ),
    );
}

export type ConversationRow = Awaited<ReturnType<ReturnType<typeof selectRecord>['executeTakeFirstOrThrow']>>;

export async function findConversationRecordByUuid(db: DB, uuid: string, viewerId: number): Promise<ConversationRow | undefined> {
  return selectRecord(db, viewerId).where('c.uuid', '=', uuid).executeTakeFirst();
}

// Lookups of what a conversation refers to.

export async function isTeamMember(db: DB, teamId: number, userId: number): Promise<boolean> {
  const row = await db.selectFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).select('user_id').executeTakeFirst();
  return row !== undefined;
}

export async function findLiveInbox(db: DB, id: number) {
  return db.selectFrom('inboxes').where('id', '=', id).where('deleted_at', 'is', null).select(['id', 'channel', 'enabled', 'name']).executeTakeFirst();
}

export async function findLiveContactByEmail(db: DB, email: string) {
  return db
    .selectFrom('users')
    .where('type', 'in', ['contact', 'visitor'])
    .where('deleted_at', 'is', null)
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .select(['id', 'enabled'])
    .orderBy(sql`external_user_id is null`, 'desc')
    .orderBy('id')
    .executeTakeFirst();
}

export async function findLiveContact(db: DB, id: number) {
  return db.selectFrom('users').where('id', '=', id).where('type', 'in', ['contact', 'visitor']).where('deleted_at', 'is', null).select(['id', 'enabled']).executeTakeFirst();
}

// Writes.

export interface NewConversation {
  inbox_id: number;
  contact_id: number;
  status_id: number;
  subject: string;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertConversation(db: DB, values: NewConversation) {
  return db.insertInto('conversations').values(values).returning(['id', 'uuid', 'reference_number']).executeTakeFirstOrThrow();
}

export interface ConversationChanges {
  status_id?: number;
  priority_id?: number | null;
  assigned_user_id?: number | null;
  assigned_team_id?: number | null;
  snoozed_until?: Date | null;
  resolved_at?: Date | null;
  waiting_since?: Date | null;
  assignee_last_seen_at?: Date | null;
  first_reply_at?: Date | null;
  last_reply_at?: Date | null;
  last_message?: string | null;
  last_message_at?: Date | null;
  last_message_sender?: SenderType | null;
  last_incoming_at?: Date | null;
  updated_at: Date;
}

export async function updateConversation(db: DB, id: number, changes: ConversationChanges): Promise<void> {
  await db.updateTable('conversations').set(changes).where('id', '=', id).execute();
}

export interface NewMessage {
  conversation_id: number;
  type: MessageType;
  status: MessageStatus;
  content: string;
  text_content: string;
  content_type: 'text' | 'html';
  private: boolean;
  sender_id: number | null;
  sender_type: SenderType;
  meta: MessageMeta;
  source_id?: string | null;
  created_at: Date;
  updated_at: Date;
}

const MESSAGE_COLUMNS = ['id', 'uuid', 'created_at', 'updated_at', 'type', 'status', 'conversation_id', 'content', 'text_content', 'content_type', 'private', 'sender_id', 'sender_type', 'meta'] as const;

export async function insertMessage(db: DB, values: NewMessage) {
  return db
    .insertInto('messages')
    .values({ ...values, meta: JSON.stringify(values.meta) })
    .returning(MESSAGE_COLUMNS)
    .executeTakeFirstOrThrow();
}

export interface MessageEffects {
  conversationId: number;
  /** The conversation's denormalised columns after the message. */
  conversation: ConversationChanges;
  /** The `message.created` event; its `message_id` and `message_uuid` come from the inserted row. */
  event: { payload: Omit<DomainEventPayload<'message.created'>, 'message_id' | 'message_uuid'>; at: Date };
  /** A job queued with the message (delivery); `message_id` and `message_uuid` are added to its payload. */
  job: { kind: string; payload: Record<string, unknown>; maxAttempts: number } | null;
}

/**
 * A new message and what it causes, in one statement (data-modifying CTEs, so one round
 * trip instead of four): the message row, the conversation's columns, the domain event,
 * and optionally a job. Inside the caller's transaction, with the conversation locked.
 */
export async function insertMessageWithEffects(db: DB, values: NewMessage, effects: MessageEffects) {
  const job = effects.job;
  const jobPayload = sql<string>`${JSON.stringify(job?.payload ?? {})}::jsonb || jsonb_build_object('message_id', msg.id, 'message_uuid', msg.uuid)`;
  return db
    .with('msg', (d) =>
      d
        .insertInto('messages')
        .values({ ...values, meta: JSON.stringify(values.meta) })
        .returning(MESSAGE_COLUMNS),
    )
    .with('conv', (d) => d.updateTable('conversations').set(effects.conversation).where('id', '=', effects.conversationId).returning('id'))
    .with('ev', (d) =>
      d
        .insertInto('domain_events')
        .columns(['type', 'payload', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('msg')
            .select(
              eventColumns(
                'message.created',
                { ...effects.event.payload, message_id: sql<number>`msg.id`, message_uuid: sql<string>`msg.uuid` },
                effects.event.at,
              ),
            ),
        )
        .returning('id'),
    )
    .with('job', (d) =>
      d
        .insertInto('jobs')
        .columns(['kind', 'payload', 'max_attempts'])
        .expression((eb) =>
          eb
            .selectFrom('msg')
            .select([sql<string>`${job?.kind ?? ''}::text`.as('kind'), jobPayload.as('payload'), sql<number>`${job?.maxAttempts ?? 1}::int`.as('max_attempts')])
            .where(sql<boolean>`${job !== null}::boolean`),
        )
        .returning('id'),
    )
    .selectFrom('msg')
    .select(MESSAGE_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function setTags(db: DB, conversationId: number, tagIds: number[], now: Date): Promise<void> {
  await db
    .deleteFrom('conversation_tags')
    .where('conversation_id', '=', conversationId)
    .where('tag_id', 'not in', tagIds.length ? tagIds : [0])
    .execute();
  await addTags(db, conversationId, tagIds, now);
}

export async function addTags(db: DB, conversationId: number, tagIds: number[], now: Date): Promise<void> {
  if (tagIds.length === 0) return;
  await db
    .insertInto('conversation_tags')
    .values(tagIds.map((tag_id) => ({ conversation_id: conversationId, tag_id, created_at: now })))
    .onConflict((oc) => oc.columns(['conversation_id', 'tag_id']).doNothing())
    .execute();
}

export async function removeTags(db: DB, conversationId: number, tagIds: number[]): Promise<void> {
  if (tagIds.length === 0) return;
  await db.deleteFrom('conversation_tags').where('conversation_id', '=', conversationId).where('tag_id', 'in', tagIds).execute();
}

export async function tagNamesOf(db: DB, conversationId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('conversation_tags as ct')
    .innerJoin('tags as t', 't.id', 'ct.tag_id')
    .where('ct.conversation_id', '=', conversationId)
    .select('t.name')
    .orderBy(sql`lower(t.name)`)
    .execute();
  return rows.map((r) => r.name);
}

export async function setLastSeen(db: DB, conversationId: number, userId: number, at: Date): Promise<void> {
  await db
    .insertInto('conversation_last_seen')
    .values({ conversation_id: conversationId, user_id: userId, last_seen_at: at })
    .onConflict((oc) => oc.columns(['conversation_id', 'user_id']).doUpdateSet({ last_seen_at: at }))
    .execute();
}

export async function clearLastSeen(db: DB, conversationId: number, userId: number): Promise<void> {
  await db.deleteFrom('conversation_last_seen').where('conversation_id', '=', conversationId).where('user_id', '=', userId).execute();
}

/** The newest public message from the contact, for mark-unread. */
export async function latestIncomingAt(db: DB, conversationId: number): Promise<Date | null> {
  const row = await db
    .selectFrom('messages')
    .where('conversation_id', '=', conversationId)
    .where('type', '=', 'incoming')
    .where('private', '=', false)
    .select('created_at')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/** Snoozed conversations whose time has come, locked and skipped when another instance holds them. */
export async function lockDueSnoozed(db: DB, now: Date, limit: number) {
  return db
    .selectFrom('conversations as c')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .where('c.snoozed_until', '<=', now)
    .where('s.category', '=', 'waiting')
    .select(['c.id', 'c.uuid', 'c.assigned_team_id', 's.name as status'])
    .orderBy('c.snoozed_until')
    .limit(limit)
    .forNoKeyUpdate('c')
    .skipLocked()
    .execute();
}

