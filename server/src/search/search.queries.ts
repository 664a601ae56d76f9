// Every SQL statement of the global search. Each one is answered from an index:
// reference numbers by their unique btree, subjects and contact names by the trigram GIN
// indexes of migration 0003, message text by the tsvector GIN index.
import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { accessFilter } from '../conversations/conversations.access.ts';
import type { DB } from '../db/database.ts';
import type { Database } from '../db/types.ts';

/** The database with the conversations table aliased `c`, as the access filter expects. */
export type WithC = Database & { c: Database['conversations'] };

/** The conversation access rule as SQL on `conversations as c` (see conversations.access.ts). */
export type ReadableFilter = NonNullable<ReturnType<typeof accessFilter<WithC, 'c'>>>;

export interface TextSearch {
  /** The trimmed query text, lower-cased. */
  text: string;
  /** A `like` pattern (`%text%`, wildcards escaped), or null when the text is too short for trigrams to narrow it. */
  pattern: string | null;
  limit: number;
}

/** The expression of the trigram index on contacts (users_contact_search_trgm_idx), written identically. */
const CONTACT_SEARCH_TEXT = sql`lower(u.first_name || ' ' || u.last_name || ' ' || coalesce(u.email, '') || ' ' || coalesce(u.phone_number, ''))`;
/** The predicate of that partial index, as literals so the planner can prove it. */
const LIVE_CONTACT = sql<SqlBool>`u.type in ('contact', 'visitor') and u.deleted_at is null`;

/** `text` matches `column` as a substring (when long enough) or as a close word (trigram word similarity). */
function textMatches(column: RawBuilder<unknown>, search: TextSearch): RawBuilder<SqlBool> {
  const similar = sql<SqlBool>`${search.text} <% ${column}`;
  return search.pattern === null ? similar : sql<SqlBool>`(${column} like ${search.pattern} or ${similar})`;
}

/** Sort keys: substring matches first (when the text is long enough for them), then by word similarity. */
function relevance(column: RawBuilder<unknown>, search: TextSearch): RawBuilder<unknown>[] {
  const similarity = sql`word_similarity(${search.text}, ${column}) desc`;
  return search.pattern === null ? [similarity] : [sql`(${column} like ${search.pattern}) desc`, similarity];
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
 * `readable` allows. The reference match comes first, then substring matches, then by word
 * similarity, newest activity last as the tiebreaker.
 */
export async function searchConversations(db: DB, readable: ReadableFilter, reference: string | null, search: TextSearch): Promise<ConversationHitRow[]> {
  const subject = sql`lower(c.subject)`;
  // A literal in ORDER BY would be read as a column position: every key here is an expression.
  const order = [...(reference === null ? [] : [sql`(c.reference_number = ${reference}) desc`]), ...relevance(subject, search), sql`c.last_message_at desc nulls last`, sql`c.id desc`];
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

/**
 * Incoming and outgoing messages (never activity) of the conversations `readable` allows,
 * whose text matches `text` as a web-search query (words, "phrases", -exclusions), best
 * ts_rank first, newest first among equals. Snippets are made for the returned rows only.
 */
export async function searchMessages(db: DB, readable: ReadableFilter, text: string, limit: number): Promise<MessageHitRow[]> {
  const query = sql`websearch_to_tsquery('simple', ${text})`;
  const top = db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .where(sql<SqlBool>`m.search_vector @@ ${query}`)
    .where('m.type', 'in', ['incoming', 'outgoing'])
    .where(readable)
    .select(['m.id', sql<number>`ts_rank(m.search_vector, ${query})`.as('rank')])
    .orderBy('rank', 'desc')
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit)
    .as('top');
  return db
    .selectFrom(top)
    .innerJoin('messages as m', 'm.id', 'top.id')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select([
      'm.uuid',
      'c.uuid as conversation_uuid',
      'c.reference_number',
      sql<'incoming' | 'outgoing'>`m.type`.as('type'),
      'm.private',
      sql<string>`ts_headline('simple', left(m.text_content, ${SNIPPET_SOURCE_CHARS}), ${query}, 'StartSel="", StopSel="", MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "')`.as(
        'snippet',
      ),
      'm.created_at',
    ])
    .orderBy('top.rank', 'desc')
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .execute();
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
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.phone_number', 'u.avatar_url', sql<'contact' | 'visitor'>`u.type`.as('type')]);
  if (readable !== null) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('conversations as c')
          .select(sql`1`.as('one'))
          .whereRef('c.contact_id', '=', 'u.id')
          .where(readable),
      ),
    );
  }
  return query
    .$call((qb) => [...relevance(CONTACT_SEARCH_TEXT, search), sql`lower(u.first_name || ' ' || u.last_name)`, sql`u.id`].reduce((ordered, key) => ordered.orderBy(key), qb))
    .limit(search.limit)
    .execute();
}
