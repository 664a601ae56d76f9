// The statements of the conversation record (list item and detail) and of the lists.
import { type Expression, type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { compiledPerShape } from '../db/statement.ts';
import type { Database } from '../db/types.ts';

type WithC = Database & { c: Database['conversations'] };
type ConversationFilter = (eb: ExpressionBuilder<WithC, 'c'>) => Expression<SqlBool>;

/** Which list: each is one of the access rules (see conversations.access.ts), so every item is readable. */
export type ListScope =
  | { kind: 'all' }
  | { kind: 'assigned'; userId: number }
  | { kind: 'unassigned' }
  | { kind: 'team_unassigned'; teamId: number };

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
  orderBy: 'last_message_at' | 'created_at' | 'updated_at' | 'waiting_since' | 'next_sla_deadline_at';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** `= any(array)`: one statement text whatever the number of ids (prepared statements, compiled once per shape). */
function anyOf(ids: readonly number[]) {
  return sql<number>`any(${ids}::int[])`;
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
  const column = (
    name: 'c.status_id' | 'c.priority_id' | 'c.inbox_id' | 'c.assigned_team_id' | 'c.assigned_user_id' | 'c.contact_id',
    ids?: readonly number[],
  ) => {
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
      eb.exists(
        eb
          .selectFrom('conversation_tags as ctf')
          .select('ctf.tag_id')
          .whereRef('ctf.conversation_id', '=', 'c.id')
          .where('ctf.tag_id', '=', anyOf(tagIds)),
      ),
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

/** The filters of a list (ListFilter's id lists). */
const FILTERS = ['statusIds', 'priorityIds', 'tagIds', 'inboxIds', 'teamIds', 'assigneeIds', 'contactIds'] as const;

/** The list filters the conversation counts (migration 0032) are keyed by, and their columns there. */
const COUNTED_FILTERS = { statusIds: 'status_id', teamIds: 'team_id', assigneeIds: 'assignee_id', inboxIds: 'inbox_id' } as const;

function isCounted(name: (typeof FILTERS)[number]): name is keyof typeof COUNTED_FILTERS {
  return name in COUNTED_FILTERS;
}

/**
 * The list's true total from the conversation counts when every filter it has is one of their
 * keys, else null (its rows are then counted): counted and pending rows summed, a few dozen rows
 * whatever the number of conversations. The same rule as filtersOf, over the counts' columns
 * (none = 0; no filter id is ever 0).
 */
function countedTotal(filter: ListFilter) {
  const present = FILTERS.filter((name) => (filter[name]?.length ?? 0) > 0);
  const terms = [];
  for (const name of present) {
    if (!isCounted(name)) return null;
    terms.push(sql`${sql.ref(`k.${COUNTED_FILTERS[name]}`)} = ${anyOf(filter[name] as readonly number[])}`);
  }
  const scope = filter.scope;
  if (scope.kind === 'assigned') terms.push(sql`k.assignee_id = ${scope.userId}`);
  if (scope.kind === 'unassigned') terms.push(sql`k.assignee_id = 0`);
  if (scope.kind === 'team_unassigned') terms.push(sql`k.assignee_id = 0`, sql`k.team_id = ${scope.teamId}`);
  const where = terms.length > 0 ? sql`where ${sql.join(terms, sql` and `)}` : sql``;
  return sql<number>`(select coalesce(sum(counted.n), 0)::int from (
    select k.n from conversation_counts k ${where}
    union all select k.delta from conversation_count_pending k ${where}) counted)`;
}

/**
 * The unread rule: the contact's public messages on conversation `c` newer than the viewer's
 * last-seen mark (`lastSeen`, null when never seen). The list items count them, the view counts
 * (views.queries.ts) ask whether there is one.
 */
export function unreadMessages(lastSeen: RawBuilder<unknown>) {
  return sql`messages m where m.conversation_id = c.id and m.type = 'incoming' and m.private = false and m.created_at > coalesce(${lastSeen}, '-infinity'::timestamptz)`;
}

const UNREAD_COUNT = sql<number>`(select count(*)::int from ${unreadMessages(sql.ref('ls.last_seen_at'))})`;

type ListArg = number | readonly number[];

/**
 * A list request as a statement shape (scope kind, which filters, order, page-size bucket) and
 * its arguments (viewer, offset, page size, the scope's id, each filter's ids), so that the
 * statement is built and compiled once per shape (db/statement.ts) instead of on every request.
 */
function parametrise(options: ListOptions, viewerId: number) {
  const { filter } = options;
  const scopeId =
    filter.scope.kind === 'assigned' ? filter.scope.userId : filter.scope.kind === 'team_unassigned' ? filter.scope.teamId : null;
  const present = FILTERS.filter((name) => (filter[name]?.length ?? 0) > 0);
  const args: ListArg[] = [viewerId, options.offset, options.limit];
  if (scopeId !== null) args.push(scopeId);
  for (const name of present) args.push(filter[name] as readonly number[]);
  const shape = [filter.scope.kind, ...present, options.orderBy, options.order, limitBucket(options.limit)].join(' ');
  /** The request again, its values replaced by what the compiler is given (placeholders, the first time). */
  const rebuild = (values: readonly ListArg[]): { options: ListOptions; viewerId: number; limit: number } => {
    let next = 3;
    const take = () => values[next++] as never;
    const scope: ListScope =
      filter.scope.kind === 'assigned'
        ? { kind: 'assigned', userId: take() }
        : filter.scope.kind === 'team_unassigned'
          ? { kind: 'team_unassigned', teamId: take() }
          : filter.scope;
    const rebuilt: ListFilter = { scope };
    for (const name of present) rebuilt[name] = take();
    return {
      options: { ...options, filter: rebuilt, offset: values[1] as number },
      viewerId: values[0] as number,
      limit: values[2] as number,
    };
  };
  return { shape, args, rebuild };
}

const listStatement = compiledPerShape<{ items: string; total: number | null }>();

/**
 * One page of list items as JSON (UTF-8 bytes), written by PostgreSQL, plus the true total, in
 * one statement. The page's ids come from a subquery on the list's index (so skipped rows cost
 * no per-record subqueries), the page's tag names from one join over all its conversations, the
 * total from an uncorrelated subquery. PostgreSQL writes the items (json_build_object, times
 * as ISO 8601 UTC with milliseconds, as JavaScript writes them), so that the server neither
 * parses ~40 columns per row (a Date per timestamp) nor serialises them again: the page goes
 * out as the database wrote it.
 *
 * The JSON comes base64-encoded: a one-byte (ASCII) string 1.35 times the page's size, decoded
 * at once into a Buffer (outside the JavaScript heap) that goes out as it is. As text, a page of
 * 40 KB holding one non-Latin-1 character was an 80 KB two-byte string, decoded from UTF-8,
 * copied into the envelope, and encoded to UTF-8 again for the socket; under 50 clients those
 * strings kept the garbage collector busy (docs/performance.md, "The list's page as bytes").
 */
export async function listConversationsJson(db: DB, options: ListOptions, viewerId: number): Promise<{ items: Buffer; total: number }> {
  const { shape, args, rebuild } = parametrise(options, viewerId);
  const [row] = await listStatement(db, shape, args, (builder, ...values) => {
    const request = rebuild(values);
    return pageStatement(builder, request.options, request.viewerId, request.limit);
  });
  if (!row) throw new Error('the list statement answered no row');
  // PostgreSQL's base64 breaks lines every 76 characters; Node's decoder skips the line breaks.
  return { items: Buffer.from(row.items, 'base64'), total: row.total ?? 0 };
}

/** A timestamp as JSON writes a JavaScript Date: ISO 8601 in UTC, milliseconds (truncated, as pg's Date parsing does). */
function iso(column: string) {
  return sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The list item (schema ConversationListItem) as JSON, from the record's joins; its fields and
 * their order are those of toListItem (conversations.read.ts), which the tests hold equal.
 */
const LIST_ITEM = sql`json_build_object(
  'id', c.id, 'created_at', ${iso('c.created_at')}, 'updated_at', ${iso('c.updated_at')}, 'uuid', c.uuid,
  'reference_number', c.reference_number, 'waiting_since', ${iso('c.waiting_since')},
  'assignee_last_seen_at', ${iso('c.assignee_last_seen_at')},
  'contact', json_build_object('id', ct.id, 'created_at', ${iso('ct.created_at')}, 'updated_at', ${iso('ct.updated_at')},
    'first_name', ct.first_name, 'last_name', ct.last_name, 'avatar_url', ct.avatar_url, 'email', ct.email),
  'inbox_id', c.inbox_id, 'inbox_channel', i.channel, 'inbox_name', i.name, 'sla_policy_id', c.sla_policy_id,
  'first_reply_at', ${iso('c.first_reply_at')}, 'last_reply_at', ${iso('c.last_reply_at')}, 'resolved_at', ${iso('c.resolved_at')},
  'subject', c.subject, 'last_message', c.last_message, 'first_message', c.first_message,
  'last_message_at', ${iso('c.last_message_at')},
  'last_message_sender', c.last_message_sender, 'next_sla_deadline_at', ${iso('c.next_sla_deadline_at')},
  'priority_id', c.priority_id, 'unread_message_count', ${UNREAD_COUNT}, 'status', s.name, 'priority', p.name,
  'first_response_deadline_at', ${iso('c.first_response_deadline_at')}, 'resolution_deadline_at', ${iso('c.resolution_deadline_at')},
  'applied_sla_id', c.applied_sla_id, 'next_response_deadline_at', ${iso('c.next_response_deadline_at')},
  'next_response_met_at', ${iso('c.next_response_met_at')}, 'assigned_user_id', c.assigned_user_id,
  'assigned_team_id', c.assigned_team_id, 'tags', coalesce(pt.names, '{}'))`;

function pageStatement(db: DB, options: ListOptions, viewerId: number, limit: number) {
  const filters = filtersOf(options.filter);
  const column = sql.ref(`c.${options.orderBy}`);
  // Deadlines put conversations without one last whichever the direction (their indexes, 0022, say so).
  const nullsLast = options.orderBy === 'next_sla_deadline_at';
  const direction = options.order === 'desc' ? sql`desc nulls last` : nullsLast ? sql`asc nulls last` : sql`asc nulls first`;
  const pageIds = filtered(db, filters)
    .select('c.id')
    .orderBy(sql`${column} ${direction}`)
    .orderBy('c.id', options.order)
    // The page size as a literal, rounded up to one of a few sizes (the extra rows are left out
    // of the JSON below): with LIMIT as a parameter PostgreSQL cannot cost a generic plan and
    // would plan this statement again on every request.
    .limit(sql.lit(limitBucket(options.limit)))
    .offset(options.offset);
  return (
    db
      // The page's ids numbered in the list's order (the subquery's order, which a plain scan keeps).
      .with('page', (w) => w.selectFrom(pageIds.as('ordered')).select(['ordered.id', sql<number>`row_number() over ()`.as('position')]))
      .with('page_tags', (w) =>
        w
          .selectFrom('conversation_tags as ctg')
          .innerJoin('tags as t', 't.id', 'ctg.tag_id')
          .where('ctg.conversation_id', 'in', (eb) => eb.selectFrom('page').select('page.id'))
          .groupBy('ctg.conversation_id')
          .select(['ctg.conversation_id', sql<string[]>`array_agg(t.name order by lower(t.name))`.as('names')]),
      )
      .selectFrom('conversations as c')
      .innerJoin('page', 'page.id', 'c.id')
      .leftJoin('page_tags as pt', 'pt.conversation_id', 'c.id')
      .$call((query) => withRecordJoins(query, viewerId))
      // An aggregate answers one row even for a page past the end: the total is always there.
      .select([
        sql<string>`encode(convert_to(coalesce(json_agg(${LIST_ITEM} order by page.position) filter (where page.position <= ${limit}), '[]')::text, 'UTF8'), 'base64')`.as(
          'items',
        ),
        (countedTotal(options.filter) ?? countOf(db, filters)).as('total'),
      ])
  );
}

/** The record's joins: status, inbox, contact, priority and the viewer's last-seen mark. */
function withRecordJoins<QB extends SelectQueryBuilder<WithC, 'c', object>>(query: QB, viewerId: number) {
  return query
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .innerJoin('inboxes as i', 'i.id', 'c.inbox_id')
    .innerJoin('users as ct', 'ct.id', 'c.contact_id')
    .leftJoin('conversation_priorities as p', 'p.id', 'c.priority_id')
    .leftJoin('conversation_last_seen as ls', (join) => join.onRef('ls.conversation_id', '=', 'c.id').on('ls.user_id', '=', viewerId));
}

/** The record's joins and columns, except its tags (one record reads its own). */
function withRecordColumns<QB extends SelectQueryBuilder<WithC, 'c', object>>(query: QB, viewerId: number) {
  return withRecordJoins(query, viewerId).select([
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
    'c.first_message',
    'c.last_message_at',
    'c.last_message_sender',
    'c.priority_id',
    's.name as status',
    's.category as status_category',
    'p.name as priority',
    'c.assigned_user_id',
    'c.assigned_team_id',
    'c.sla_policy_id',
    'c.applied_sla_id',
    'c.first_response_deadline_at',
    'c.resolution_deadline_at',
    'c.next_response_deadline_at',
    'c.next_response_met_at',
    'c.next_sla_deadline_at',
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
    UNREAD_COUNT.as('unread_message_count'),
  ]);
}

function selectRecord(db: DB, viewerId: number) {
  return db
    .selectFrom('conversations as c')
    .$call((query) => withRecordColumns(query, viewerId))
    .select(
      sql<
        string[]
      >`coalesce((select array_agg(t.name order by lower(t.name)) from conversation_tags ctg join tags t on t.id = ctg.tag_id where ctg.conversation_id = c.id), '{}')`.as(
        'tags',
      ),
    );
}

export type ConversationRow = Awaited<ReturnType<ReturnType<typeof selectRecord>['executeTakeFirstOrThrow']>>;

export async function findConversationRecordByUuid(db: DB, uuid: string, viewerId: number): Promise<ConversationRow | undefined> {
  return selectRecord(db, viewerId).where('c.uuid', '=', uuid).executeTakeFirst();
}

/** Many records in one statement (webhook payloads); unknown ids are left out. */
export async function findConversationRecordsByIds(db: DB, ids: readonly number[], viewerId: number): Promise<ConversationRow[]> {
  if (ids.length === 0) return [];
  return selectRecord(db, viewerId)
    .where('c.id', '=', sql<number>`any(${[...ids]}::int[])`)
    .execute();
}
