// Every SQL statement of the global search. Text matches are `to_tsvector('simple',
// parley_search_text(…)) @@ to_tsquery('simple', $query)`, written exactly as the expression GIN
// indexes of migration 0027 (for messages, `parley_search_window_vector(id >> 13, …)`, the index
// of windows of migration 0029) so that the planner answers them from those indexes; the tsquery
// is built by search.text.ts from folded words only. Statements are planned for their values
// each time (customPlan): a common word and a rare one need different plans.
import { type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { accessFilter } from '../conversations/conversations.access.ts';
import type { ContactFilter } from '../conversations/contacts.access.ts';
import type { DB } from '../db/database.ts';
import { MESSAGE_INDEXED_CHARS } from '../db/migrations/2026_11_27_0027_search_folding.ts';
import { MESSAGE_WINDOW_BITS } from '../db/migrations/2026_11_27_0029_search_windows.ts';
import { customPlan } from '../db/prepared.ts';
import type { Database } from '../db/types.ts';

/** The database with the conversations table aliased `c`, as the access filter expects. */
export type WithC = Database & { c: Database['conversations'] };

/** The conversation access rule as SQL on `conversations as c` (see conversations.access.ts). */
export type ReadableFilter = NonNullable<ReturnType<typeof accessFilter<WithC, 'c'>>>;

/** Narrowing of conversations (and of messages through their conversation), all optional. */
export interface SearchFilters {
  statusIds?: number[];
  inboxIds?: number[];
  teamIds?: number[];
  assigneeIds?: number[];
  /** With assigneeIds: also (or, alone: only) conversations assigned to no agent. */
  unassigned?: boolean;
  /** Creation time range (of the conversation, or of the message): from inclusive, to exclusive. */
  from?: Date;
  to?: Date;
}

/** The words of the query, folded, in the order the caller gave them (one SQL call). */
export async function foldTexts(db: DB, texts: readonly string[]): Promise<string[]> {
  if (texts.length === 0) return [];
  const { rows } = await sql<{ folded: string | null }>`
    select parley_search_text(t.value) as folded from unnest(${[...texts]}::text[]) with ordinality as t(value, n) order by t.n
  `.execute(db);
  return rows.map((row) => row.folded ?? '');
}

const tsQuery = (query: string) => sql`to_tsquery('simple', ${query})`;
// Each written as its index's expression (migration 0027), character for character.
const subjectVector = (alias: string) => sql`to_tsvector('simple', parley_search_text(${sql.ref(`${alias}.subject`)}))`;
const CONTACT_VECTOR = sql`to_tsvector('simple', parley_search_text(u.first_name || ' ' || u.last_name || ' ' || coalesce(u.email, '') || ' ' || coalesce(u.phone_number, '')))`;
/** The predicate of the contacts' partial index, as literals so the planner can prove it. */
const LIVE_CONTACT = sql<SqlBool>`u.type in ('contact', 'visitor') and u.deleted_at is null`;
// The walk's text as no index holds it (`|| ''`), so that the planner folds the newest rows one by one.
const MESSAGE_VECTOR_WALKED = sql`to_tsvector('simple', parley_search_text(left(m.text_content, ${sql.lit(MESSAGE_INDEXED_CHARS)}) || ''))`;
// The expression of the index of windows (migration 0029), character for character.
const MESSAGE_WINDOW_VECTOR = sql`parley_search_window_vector(m.id >> ${sql.lit(MESSAGE_WINDOW_BITS)}, left(m.text_content, ${sql.lit(MESSAGE_INDEXED_CHARS)}))`;

/** The filters on `conversations as c`, and the creation range on `createdAt`. */
function filtered(filters: SearchFilters, createdAt: RawBuilder<unknown>): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [sql<SqlBool>`true`];
  if (filters.statusIds) parts.push(sql`c.status_id = any(${filters.statusIds}::int[])`);
  if (filters.inboxIds) parts.push(sql`c.inbox_id = any(${filters.inboxIds}::int[])`);
  if (filters.teamIds) parts.push(sql`c.assigned_team_id = any(${filters.teamIds}::int[])`);
  if (filters.assigneeIds || filters.unassigned) {
    const who: RawBuilder<SqlBool>[] = [];
    if (filters.assigneeIds) who.push(sql`c.assigned_user_id = any(${filters.assigneeIds}::int[])`);
    if (filters.unassigned) who.push(sql`c.assigned_user_id is null`);
    parts.push(sql`(${sql.join(who, sql` or `)})`);
  }
  if (filters.from) parts.push(sql`${createdAt} >= ${filters.from}`);
  if (filters.to) parts.push(sql`${createdAt} < ${filters.to}`);
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** Conversations are found through at most this many matching contacts (a short prefix matches thousands). */
const MAX_CONTACTS = 1000;

/** A query for the conversations' sources: exact (phrases as phrases), and loose (phrases' words all present) when it holds a phrase. */
export interface TextQuery {
  exact: string;
  loose: string | null;
}

export interface ConversationHitRow {
  id: number;
  uuid: string;
  reference_number: string;
  subject: string;
  first_message: string | null;
  status: string;
  inbox_id: number;
  contact: { id: number; first_name: string; last_name: string; email: string | null };
  tags: string[];
  last_message_at: Date | null;
  created_at: Date;
}

/**
 * Conversations `readable` allows and the filters keep whose reference number is `reference`,
 * or whose subject, one of whose tags, or whose contact's name, email or phone matches `query`.
 * Each source is its own index-driven branch cut to `limit` (the most recently active first),
 * so a query matching most rows costs no more than a rare one; the exact reference comes first.
 */
export async function searchConversations(
  db: DB,
  readable: ReadableFilter,
  filters: SearchFilters,
  reference: string | null,
  query: TextQuery | null,
  limit: number,
): Promise<ConversationHitRow[]> {
  if (query === null && reference === null) return [];
  const allowed = (eb: ExpressionBuilder<WithC, 'c'>) => eb.and([readable(eb), filtered(filters, sql`c.created_at`)]);
  const base = () => db.selectFrom('conversations as c').where(allowed).select(['c.id', 'c.last_message_at']);
  const newest = <T extends ReturnType<typeof base>>(qb: T) =>
    qb.orderBy(sql`c.last_message_at desc nulls last`).orderBy('c.id', 'desc').limit(limit);
  const branches: ReturnType<typeof base>[] = [];
  if (reference !== null) branches.push(base().where('c.reference_number', '=', reference));
  if (query !== null) {
    const q = tsQuery(query.exact);
    // A phrase: the index finds the subjects holding its words, and only those the caller may
    // read are folded again for the phrase (written unlike the index's expression, so that the
    // planner checks it after the cheap conditions instead of rechecking every index match).
    const subject =
      query.loose === null
        ? sql<SqlBool>`${subjectVector('c')} @@ ${q}`
        : sql<SqlBool>`${subjectVector('c')} @@ ${tsQuery(query.loose)} and to_tsvector('simple', parley_search_text(c.subject || '')) @@ ${q}`;
    branches.push(newest(base().where(subject)));
    // The matching contacts and tags first, as lists: the planner then sees how many there are,
    // and a branch without any is left out (as subqueries, it may walk every conversation instead).
    const [contactIds, tagIds] = await Promise.all([
      db
        .selectFrom('users as u')
        .where(LIVE_CONTACT)
        .where(sql<SqlBool>`${CONTACT_VECTOR} @@ ${q}`)
        .select('u.id')
        .limit(MAX_CONTACTS)
        .modifyFront(customPlan)
        .execute(),
      db.selectFrom('tags as t').where(sql<SqlBool>`to_tsvector('simple', parley_search_text(t.name)) @@ ${q}`).select('t.id').execute(),
    ]);
    if (contactIds.length > 0) {
      branches.push(newest(base().where('c.contact_id', '=', sql<number>`any(${contactIds.map((row) => row.id)}::int[])`)));
    }
    if (tagIds.length > 0) {
      const ids = tagIds.map((row) => row.id);
      branches.push(
        newest(
          base().where(sql<SqlBool>`c.id in (select ct.conversation_id from conversation_tags ct where ct.tag_id = any(${ids}::int[]))`),
        ),
      );
    }
  }
  const [first, ...rest] = branches.map((branch) => db.selectFrom(branch.as('b')).selectAll());
  if (!first) return [];
  const union = rest.reduce((all, branch) => all.union(branch), first);
  const rows = await db
    .selectFrom(union.as('hit'))
    .innerJoin('conversations as c', 'c.id', 'hit.id')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .innerJoin('users as u', 'u.id', 'c.contact_id')
    .select([
      'c.id',
      'c.uuid',
      'c.reference_number',
      'c.subject',
      'c.first_message',
      's.name as status',
      'c.inbox_id',
      'u.id as contact_id',
      'u.first_name as contact_first_name',
      'u.last_name as contact_last_name',
      'u.email as contact_email',
      'c.last_message_at',
      'c.created_at',
      sql<
        string[]
      >`array(select t.name from conversation_tags ct join tags t on t.id = ct.tag_id where ct.conversation_id = c.id order by lower(t.name))`.as(
        'tags',
      ),
    ])
    .$call((qb) => (reference === null ? qb : qb.orderBy(sql`(c.reference_number = ${reference}) desc`)))
    .orderBy(sql`c.last_message_at desc nulls last`)
    .orderBy('c.id', 'desc')
    .limit(limit)
    .modifyFront(customPlan)
    .execute();
  return rows.map(({ contact_id, contact_first_name, contact_last_name, contact_email, ...row }) => ({
    ...row,
    contact: { id: contact_id, first_name: contact_first_name, last_name: contact_last_name, email: contact_email },
  }));
}

export interface MessageHitRow {
  uuid: string;
  conversation_uuid: string;
  reference_number: string;
  subject: string;
  first_message: string | null;
  status: string;
  type: 'incoming' | 'outgoing';
  private: boolean;
  /** The start of the message's text (what is indexed), for the snippet. */
  text: string;
  created_at: Date;
}

export interface MessageSearchTuning {
  /** First pass: the newest this-many messages, each one's text folded and matched in turn. */
  walkedMessages: number;
  /** Second pass: the newest this-many windows, through their index; each pass after it asks WINDOW_GROWTH times as many older ones. */
  firstWindows: number;
  /** At most this many candidates of an incomplete index query (a phrase…) are checked in all. */
  maxChecked: number;
}

/**
 * A query with a word of one or two letters (`pa`) is matched by walking this many newest
 * messages only: the index would list the matches of every word starting with them, most of
 * the table.
 */
export const SHORT_QUERY_WALK = 1000;

/**
 * Matching a message without the index folds its text again (tens of microseconds each); the
 * index of windows (migration 0029) lists the matches of the windows asked for. So: the newest
 * hundred messages are matched one by one, enough for a common word; when they hold too few
 * matches, the index answers for the newest two windows of 8,192 messages, then for the 4 windows
 * before them, then 8, and so on until `limit` matches or the oldest window (each pass reads every
 * candidate of its windows to order them: doubling reads at most about twice what was needed). Windows hold
 * consecutive ids, so each pass's matches are older than the ones before and are appended.
 * The candidates of an incomplete query (a phrase: the index finds the messages with its words,
 * each is checked for adjacency) are checked 500 at most, the newest: a phrase of common words
 * rarely adjacent is looked for among those, not through every message.
 */
export const MESSAGE_SEARCH: MessageSearchTuning = { walkedMessages: 100, firstWindows: 2, maxChecked: 500 };

/** How many times more windows each pass asks for than the one before. */
const WINDOW_GROWTH = 2;

/**
 * At most this many window-prefixed words in one statement. The planner cannot tell how many
 * messages an or of window words matches: its estimate grows with their number, whatever the
 * windows hold. Measured at 10 million messages: 64 words estimated 35% of the table (the index
 * is used), 96 words 41%, and the planner then read every message, folding each one's text again
 * (minutes). A pass over more windows is cut into several statements; groups of the query that do
 * not fit are checked on each candidate instead.
 */
const MAX_WINDOW_LEXEMES = 32;

/** A message query: for the walk, and for the index of windows with the check of its rows. */
export interface MessageQuery {
  /** The whole query (tsquery syntax, phrases as phrases) on folded text: the walk. */
  exact: string;
  /** Some word a prefix of one or two letters: walked only (SHORT_QUERY_WALK). */
  short: boolean;
  /** The query for the index over these windows (null: none can be asked), and whether its rows need the check. */
  windowed: (windows: readonly number[], maxLexemes: number) => { query: string; complete: boolean } | null;
  /** How many windows one statement may ask for within `maxLexemes`. */
  windowsPerStatement: (maxLexemes: number) => number;
  /** Whether a message's text matches the whole query (the rows of an incomplete index query). */
  check: (text: string) => boolean;
}

/**
 * Incoming and outgoing messages and private notes (never activity) of the conversations
 * `readable` allows and the filters keep (the date range on the message's creation), whose text
 * matches the query: the newest first.
 */
export async function searchMessages(
  db: DB,
  readable: ReadableFilter,
  filters: SearchFilters,
  query: MessageQuery,
  limit: number,
  tuning: MessageSearchTuning = MESSAGE_SEARCH,
): Promise<MessageHitRow[]> {
  const newest = await db.selectFrom('messages').select(sql<number | null>`max(id)`.as('id')).executeTakeFirst();
  const maxId = newest?.id ?? 0;
  if (query.short) {
    const from = Math.max(maxId - Math.max(tuning.walkedMessages, SHORT_QUERY_WALK), 0);
    return messageHits(db, ids(await matchingMessages(db, readable, filters, query.exact, limit, from, 'walk')));
  }
  const walkFrom = Math.max(maxId - tuning.walkedMessages, 0);
  const walked = ids(await matchingMessages(db, readable, filters, query.exact, limit, walkFrom, 'walk'));
  if (walked.length >= limit || walkFrom === 0) return messageHits(db, walked);
  // The first pass reaches back past the walk: its matches include the walk's (kept all the same,
  // should the index and the walk cut some word differently).
  const found: number[] = [];
  const newestFirst = () => [...new Set([...walked, ...found])].sort((a, b) => b - a).slice(0, limit);
  const perStatement = query.windowsPerStatement(MAX_WINDOW_LEXEMES);
  let budget = tuning.maxChecked;
  let upper = maxId >> MESSAGE_WINDOW_BITS;
  let lower = Math.min(upper - Math.max(tuning.firstWindows, 1) + 1, walkFrom >> MESSAGE_WINDOW_BITS);
  for (let size = Math.max(tuning.firstWindows, 1); upper >= 0; size *= WINDOW_GROWTH, upper = lower - 1, lower = upper - size + 1) {
    for (let top = upper; top >= Math.max(lower, 0); top -= perStatement) {
      const windows = Array.from({ length: Math.min(perStatement, top - Math.max(lower, 0) + 1) }, (_, i) => top - i);
      const asked = query.windowed(windows, MAX_WINDOW_LEXEMES);
      if (asked === null) return messageHits(db, walked);
      const pass = await windowMatches(db, readable, filters, asked, query.check, limit - found.length, budget);
      found.push(...pass.ids);
      budget -= pass.checked;
      if (found.length >= limit || budget <= 0) return messageHits(db, newestFirst());
    }
  }
  return messageHits(db, newestFirst());
}

/**
 * Through the index of windows, at most `limit` ids, the newest first. An incomplete query's
 * candidates are checked, fetching more while too few pass, at most `budget` of them; `checked`
 * is how many were.
 */
async function windowMatches(
  db: DB,
  readable: ReadableFilter,
  filters: SearchFilters,
  asked: { query: string; complete: boolean },
  check: (text: string) => boolean,
  limit: number,
  budget: number,
): Promise<{ ids: number[]; checked: number }> {
  if (asked.complete) {
    return { ids: ids(await matchingMessages(db, readable, filters, asked.query, limit, 0, 'index')), checked: 0 };
  }
  // Each fetch reads every match of the windows from the table (to order them), whatever it
  // returns: so a second fetch, when one is needed, takes all it may check at once.
  for (let wanted = Math.min(limit * 8, budget); ; wanted = budget) {
    const rows = await matchingMessages(db, readable, filters, asked.query, wanted, 0, 'index');
    const kept = rows.filter((row) => check(row.text)).map((row) => row.id);
    if (kept.length >= limit || rows.length < wanted || wanted >= budget) return { ids: kept.slice(0, limit), checked: rows.length };
  }
}

/** The newest matches, ids and checked text: walking the newest messages after `afterId` (each one's text folded again), or through the index of windows. */
async function matchingMessages(
  db: DB,
  readable: ReadableFilter,
  filters: SearchFilters,
  query: string,
  limit: number,
  afterId: number,
  path: 'walk' | 'index',
): Promise<Array<{ id: number; text: string }>> {
  return (
    db
      .selectFrom('messages as m')
      .where(sql<SqlBool>`${path === 'walk' ? MESSAGE_VECTOR_WALKED : MESSAGE_WINDOW_VECTOR} @@ ${tsQuery(query)}`)
      .where('m.type', 'in', ['incoming', 'outgoing'])
      // Each candidate's conversation looked up by its key. `offset 0` keeps the subquery a
      // subquery: as a join, the planner (which cannot tell how many candidates a window holds)
      // may hash every conversation the caller can read, thousands, for a handful of candidates.
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('conversations as c')
            .select(sql`1`.as('one'))
            .whereRef('c.id', '=', 'm.conversation_id')
            .where(readable)
            .where(filtered(filters, sql`m.created_at`))
            .offset(0),
        ),
      )
      .$if(afterId > 0, (qb) => qb.where('m.id', '>', afterId))
      .select([
        'm.id',
        sql<string>`case when ${path === 'index'} then left(m.text_content, ${sql.lit(MESSAGE_INDEXED_CHARS)}) else '' end`.as('text'),
      ])
      // `m.id + 0`: no walk along the primary key in its order, which would fold message after
      // message; the planner takes the index of windows (the function's declared cost makes the rest dear).
      .orderBy(path === 'walk' ? sql`m.id` : sql`m.id + 0`, 'desc')
      .limit(limit)
      .modifyFront(customPlan)
      .execute()
  );
}

const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((row) => row.id);

/** The answer rows of these messages, in this order. */
async function messageHits(db: DB, ids: number[]): Promise<MessageHitRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .where('m.id', '=', sql<number>`any(${ids}::int[])`)
    .select([
      'm.id',
      'm.uuid',
      'c.uuid as conversation_uuid',
      'c.reference_number',
      'c.subject',
      'c.first_message',
      's.name as status',
      sql<'incoming' | 'outgoing'>`m.type`.as('type'),
      'm.private',
      sql<string>`left(m.text_content, ${sql.lit(MESSAGE_INDEXED_CHARS)})`.as('text'),
      'm.created_at',
    ])
    .execute();
  const position = new Map(ids.map((id, index) => [id, index]));
  return rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0)).map(({ id: _id, ...hit }) => hit);
}

export interface ContactHitRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone_number: string | null;
  avatar_url: string | null;
  type: 'contact' | 'visitor';
}

/** Live contacts and visitors whose name, email or phone matches, of those `readable` allows (the contact access rule). */
export async function searchContacts(db: DB, readable: ContactFilter, query: string, limit: number): Promise<ContactHitRow[]> {
  const select = db
    .selectFrom('users as u')
    .where(LIVE_CONTACT)
    .where(sql<SqlBool>`${CONTACT_VECTOR} @@ ${tsQuery(query)}`)
    .where(readable)
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.phone_number',
      'u.avatar_url',
      sql<'contact' | 'visitor'>`u.type`.as('type'),
    ]);
  return select.orderBy(sql`lower(u.first_name || ' ' || u.last_name)`).orderBy('u.id').limit(limit).modifyFront(customPlan).execute();
}
