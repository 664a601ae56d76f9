// Every SQL statement of the global search. Each one is answered from an index:
// reference numbers by their unique btree, subjects and contact names by the trigram GIN
// indexes of migration 0003, message text by the tsvector GIN index. The text-matching
// statements are planned for their values each time (customPlan): a common word and a rare
// one need different plans, which one cached plan cannot be.
import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { accessFilter } from '../conversations/conversations.access.ts';
import type { DB } from '../db/database.ts';
import { customPlan } from '../db/prepared.ts';
import type { Database } from '../db/types.ts';

/** The database with the conversations table aliased `c`, as the access filter expects. */
export type WithC = Database & { c: Database['conversations'] };

/** The conversation access rule as SQL on `conversations as c` (see conversations.access.ts). */
export type ReadableFilter = NonNullable<ReturnType<typeof accessFilter<WithC, 'c'>>>;

export interface TextSearch {
  /** The trimmed query text, lower-cased. */
  text: string;
  /**
   * A `like` pattern (`%text%`, wildcards escaped) for a substring match; null when the text is
   * shorter than a trigram, and it is matched as the start of a word instead.
   */
  pattern: string | null;
  limit: number;
}

/** The expression of the trigram index on contacts (users_contact_search_trgm_idx), written identically. */
const CONTACT_SEARCH_TEXT = sql`lower(u.first_name || ' ' || u.last_name || ' ' || coalesce(u.email, '') || ' ' || coalesce(u.phone_number, ''))`;
/** The predicate of that partial index, as literals so the planner can prove it. */
const LIVE_CONTACT = sql<SqlBool>`u.type in ('contact', 'visitor') and u.deleted_at is null`;

/**
 * `text` is a substring of `column` (3+ characters: every trigram of the text must be in the
 * row, so the GIN index narrows it down), or, for 1-2 characters, begins a word of it (trigram
 * word similarity: "jo" matches "John"). Fuzzy matching of longer texts is left out on purpose:
 * a common prefix (all emails share "person…") would make the index return every row.
 */
function textMatches(column: RawBuilder<unknown>, search: TextSearch): RawBuilder<SqlBool> {
  return search.pattern === null ? sql<SqlBool>`${search.text} <% ${column}` : sql<SqlBool>`${column} like ${search.pattern}`;
}

/** Among matches, the closest to a whole-word match first. */
function relevance(column: RawBuilder<unknown>, search: TextSearch): RawBuilder<unknown> {
  return sql`word_similarity(${search.text}, ${column}) desc`;
}

export interface ConversationHitRow {
  id: number;
  uuid: string;
  reference_number: string;
  subject: string;
  status: string;
  inbox_id: number;
  contact: { id: number; first_name: string; last_name: string; email: string | null };
  last_message_at: Date | null;
  created_at: Date;
}

/**
 * Conversations whose reference number is `reference` or whose subject matches, among those
 * `readable` allows. The reference match comes first, then by word similarity, then the most
 * recently active.
 */
export async function searchConversations(
  db: DB,
  readable: ReadableFilter,
  reference: string | null,
  search: TextSearch,
): Promise<ConversationHitRow[]> {
  const subject = sql`lower(c.subject)`;
  // A literal in ORDER BY would be read as a column position: every key here is an expression.
  const order = [
    ...(reference === null ? [] : [sql`(c.reference_number = ${reference}) desc`]),
    relevance(subject, search),
    sql`c.last_message_at desc nulls last`,
    sql`c.id desc`,
  ];
  const rows = await db
    .selectFrom('conversations as c')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .innerJoin('users as u', 'u.id', 'c.contact_id')
    .where(readable)
    .where((eb: ExpressionBuilder<WithC, 'c'>) => {
      const matches: Expression<SqlBool>[] = [textMatches(subject, search)];
      if (reference !== null) matches.push(eb('c.reference_number', '=', reference));
      return eb.or(matches);
    })
    .select([
      'c.id',
      'c.uuid',
      'c.reference_number',
      'c.subject',
      's.name as status',
      'c.inbox_id',
      'u.id as contact_id',
      'u.first_name as contact_first_name',
      'u.last_name as contact_last_name',
      'u.email as contact_email',
      'c.last_message_at',
      'c.created_at',
    ])
    .$call((qb) => order.reduce((ordered, key) => ordered.orderBy(key), qb))
    .limit(search.limit)
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
  type: 'incoming' | 'outgoing';
  private: boolean;
  snippet: string;
  created_at: Date;
}

/** At most this many characters of a message are read to build its snippet. */
const SNIPPET_SOURCE_CHARS = 20000;

export interface MessageSearchTuning {
  /** First pass: only the newest this-many messages (by id) are searched... */
  recentMessages: number;
  /** ...and relevance is ranked among the newest this-many matches there. */
  rankedCandidates: number;
}

/**
 * A common word matches most messages, and ranking them all reads the whole table. So the
 * first pass looks at the newest matches only: walking the primary key backwards stops early
 * for common words, the text index answers rare ones, and the id range bounds the work even
 * when the planner misjudges a phrase. Only when that finds too few does a second pass rank
 * every match (then there are few, or the caller's conversations are few).
 */
export const MESSAGE_SEARCH: MessageSearchTuning = { recentMessages: 100_000, rankedCandidates: 500 };

/**
 * Incoming and outgoing messages (never activity) of the conversations `readable` allows,
 * whose text matches `text` as a web-search query (words, "phrases", -exclusions): the best
 * ts_rank first, newest first among equals, with a plain-text snippet.
 */
export async function searchMessages(
  db: DB,
  readable: ReadableFilter,
  text: string,
  limit: number,
  tuning: MessageSearchTuning = MESSAGE_SEARCH,
): Promise<MessageHitRow[]> {
  const newest = await db.selectFrom('messages').select(sql<number | null>`max(id)`.as('id')).executeTakeFirst();
  const afterId = Math.max((newest?.id ?? 0) - tuning.recentMessages, 0);
  let best = await rankMessages(db, readable, text, limit, afterId, tuning.rankedCandidates);
  if (best.length < limit && afterId > 0) best = await rankMessages(db, readable, text, limit, 0, null);
  return messageHits(db, text, best);
}

/** Ids of the best matches among messages with id > `afterId` (of the newest `candidates` matches, or of all). */
async function rankMessages(
  db: DB,
  readable: ReadableFilter,
  text: string,
  limit: number,
  afterId: number,
  candidates: number | null,
): Promise<number[]> {
  const query = sql`websearch_to_tsquery('simple', ${text})`;
  const matches = db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .where(sql<SqlBool>`m.search_vector @@ ${query}`)
    .where('m.type', 'in', ['incoming', 'outgoing'])
    .where(readable)
    .$if(afterId > 0, (qb) => qb.where('m.id', '>', afterId));
  const rank = sql<number>`ts_rank(m.search_vector, ${query})`.as('rank');
  const rows =
    candidates === null
      ? await matches
          .select(['m.id', rank])
          .orderBy('rank', 'desc')
          .orderBy('m.created_at', 'desc')
          .orderBy('m.id', 'desc')
          .limit(limit)
          .modifyFront(customPlan)
          .execute()
      : await db
          .selectFrom(matches.select('m.id').orderBy('m.id', 'desc').limit(candidates).as('newest'))
          .innerJoin('messages as m', 'm.id', 'newest.id')
          .select(['m.id', rank])
          .orderBy('rank', 'desc')
          .orderBy('m.created_at', 'desc')
          .orderBy('m.id', 'desc')
          .limit(limit)
          .modifyFront(customPlan)
          .execute();
  return rows.map((row) => row.id);
}

/** The answer rows of these messages, in this order, with snippets made for them only. */
async function messageHits(db: DB, text: string, ids: number[]): Promise<MessageHitRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .where('m.id', '=', sql<number>`any(${ids}::int[])`)
    .select([
      'm.id',
      'm.uuid',
      'c.uuid as conversation_uuid',
      'c.reference_number',
      sql<'incoming' | 'outgoing'>`m.type`.as('type'),
      'm.private',
      sql<string>`ts_headline('simple', left(m.text_content, ${SNIPPET_SOURCE_CHARS}), websearch_to_tsquery('simple', ${text}), 'StartSel="", StopSel="", MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "')`.as(
        'snippet',
      ),
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

/**
 * Live contacts and visitors whose name, email or phone matches. `readable` null: any
 * contact; otherwise only contacts with a conversation that the filter allows.
 */
export async function searchContacts(db: DB, readable: ReadableFilter | null, search: TextSearch): Promise<ContactHitRow[]> {
  let query = db
    .selectFrom('users as u')
    .where(LIVE_CONTACT)
    .where(textMatches(CONTACT_SEARCH_TEXT, search))
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.phone_number',
      'u.avatar_url',
      sql<'contact' | 'visitor'>`u.type`.as('type'),
    ]);
  if (readable !== null) {
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('conversations as c').select(sql`1`.as('one')).whereRef('c.contact_id', '=', 'u.id').where(readable)),
    );
  }
  return query
    .$call((qb) =>
      [relevance(CONTACT_SEARCH_TEXT, search), sql`lower(u.first_name || ' ' || u.last_name)`, sql`u.id`].reduce(
        (ordered, key) => ordered.orderBy(key),
        qb,
      ),
    )
    .limit(search.limit)
    .modifyFront(customPlan)
    .execute();
}
