// Global search over conversations, messages and contacts, within what the caller may read.
import type { Principal } from '../auth/credential-cache.ts';
import { contactFilter } from '../conversations/contacts.access.ts';
import { accessFilter } from '../conversations/conversations.access.ts';
import type { AppDeps } from '../deps.ts';
import { InputError } from '../errors.ts';
import { listStatuses } from '../statuses/statuses.service.ts';
import * as q from './search.queries.ts';
import {
  buildTsQuery,
  type FoldedTerm,
  foldTerms,
  highlight,
  looseTsQuery,
  matchesTerms,
  parseQuery,
  type Range,
  snippet,
  windowsPerStatement,
  windowTsQuery,
} from './search.text.ts';

export const MAX_QUERY_CHARS = 200;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
const MAX_ID = 2147483647;

export interface SearchInput {
  q: string;
  limit?: number;
  status?: string[];
  inbox_id?: number[];
  team_id?: number[];
  assignee_id?: string[];
  from?: string;
  to?: string;
}

export interface ConversationHit extends Omit<q.ConversationHitRow, 'contact' | 'tags'> {
  subject_highlights: Range[];
  contact: q.ConversationHitRow['contact'] & { name_highlights: Range[]; email_highlights: Range[] };
  tags: Array<{ name: string; highlights: Range[] }>;
}

export interface MessageHit extends Omit<q.MessageHitRow, 'text' | 'subject' | 'first_message' | 'status'> {
  conversation_subject: string;
  conversation_first_message: string | null;
  conversation_status: string;
  snippet: string;
  highlights: Range[];
}

export interface ContactHit extends q.ContactHitRow {
  name_highlights: Range[];
  email_highlights: Range[];
  phone_highlights: Range[];
}

export interface SearchResults {
  conversations: ConversationHit[];
  messages: MessageHit[];
  contacts: ContactHit[];
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  return Math.min(Math.max(limit, 1), MAX_LIMIT);
}

/** `123` or `#123` as a reference number; null when the text cannot be one. */
export function referenceOf(text: string): string | null {
  const reference = text.startsWith('#') ? text.slice(1).trim() : text;
  return /^[A-Za-z0-9-]{1,64}$/.test(reference) ? reference : null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;

/** `from`/`to` as a time; a day is its start (UTC), and for `to` the day is included (its end). */
function parseTime(field: 'from' | 'to', value: string): Date {
  const text = value.trim();
  const day = DAY.test(text);
  if (!day && !TIME.test(text)) throw InputError.field(field, 'must be an RFC 3339 time or a date YYYY-MM-DD');
  const time = new Date(day ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(time.getTime()) || (day && time.toISOString().slice(0, 10) !== text))
    throw InputError.field(field, 'is not a valid time');
  if (day && field === 'to') time.setUTCDate(time.getUTCDate() + 1);
  return time;
}

async function filtersOf(deps: AppDeps, input: SearchInput): Promise<q.SearchFilters> {
  const filters: q.SearchFilters = {};
  if (input.status?.length) {
    const statuses = await listStatuses(deps);
    filters.statusIds = input.status.map((wanted) => {
      const key = wanted.trim().toLowerCase();
      const status = statuses.find((s) => s.name.toLowerCase() === key || (/^[0-9]+$/.test(key) && s.id === Number(key)));
      if (!status) throw InputError.field('status', `unknown status "${wanted.trim()}"`);
      return status.id;
    });
  }
  if (input.inbox_id?.length) filters.inboxIds = input.inbox_id;
  if (input.team_id?.length) filters.teamIds = input.team_id;
  if (input.assignee_id?.length) {
    const ids: number[] = [];
    for (const value of input.assignee_id) {
      if (value === 'unassigned') filters.unassigned = true;
      else if (/^[0-9]+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_ID) ids.push(Number(value));
      else throw InputError.field('assignee_id', 'must be agent ids or "unassigned"');
    }
    if (ids.length > 0) filters.assigneeIds = ids;
  }
  if (input.from !== undefined) filters.from = parseTime('from', input.from);
  if (input.to !== undefined) filters.to = parseTime('to', input.to);
  if (filters.from && filters.to && filters.from >= filters.to) throw InputError.field('to', 'must be after from');
  return filters;
}

export async function search(deps: AppDeps, principal: Principal, input: SearchInput): Promise<SearchResults> {
  const text = input.q.trim();
  if (text.length === 0) throw InputError.field('q', 'must not be blank');
  if (text.length > MAX_QUERY_CHARS) throw InputError.field('q', `must be at most ${MAX_QUERY_CHARS} characters`);
  // NUL cannot be stored in PostgreSQL text: it is no word, so it is a space.
  const terms = parseQuery(text.replaceAll('\u0000', ' '));
  const limit = clampLimit(input.limit);
  const filters = await filtersOf(deps, input);
  const folded = foldTerms(
    terms,
    await q.foldTexts(
      deps.db,
      terms.map((term) => term.text),
    ),
  );
  const query = buildTsQuery(folded);
  const messageQuery = messageQueryOf(folded);
  const readable = accessFilter<q.WithC, 'c'>(principal);
  // `#123` is a reference number only; `123` also matches the number in subjects.
  const reference = referenceOf(text);
  const readableContacts = contactFilter(principal);
  // A caller who may read no conversation gets empty sections, not an error; so does a query without a word to look for.
  const [conversations, messages, contacts] = await Promise.all([
    readable
      ? q.searchConversations(
          deps.db,
          readable,
          filters,
          reference,
          query === null || (reference !== null && text.startsWith('#')) ? null : { exact: query, loose: looseTsQuery(folded) },
          limit,
        )
      : [],
    readable && messageQuery && principal.permissions.has('messages:read')
      ? q.searchMessages(deps.db, readable, filters, messageQuery, limit)
      : [],
    query === null || readableContacts === null ? [] : q.searchContacts(deps.db, readableContacts, query, limit),
  ]);
  return {
    conversations: conversations.map((hit) => conversationHit(hit, folded)),
    messages: messages.map((hit) => messageHit(hit, folded)),
    contacts: contacts.map((hit) => contactHit(hit, folded)),
  };
}

/** What the message search asks for these terms (search.queries.ts), or null when they ask for nothing. */
export function messageQueryOf(terms: readonly FoldedTerm[]): q.MessageQuery | null {
  const exact = buildTsQuery(terms);
  if (exact === null) return null;
  return {
    exact,
    short: isShort(terms),
    windowed: (windows, maxLexemes) => windowTsQuery(terms, windows, maxLexemes),
    windowsPerStatement: (maxLexemes) => windowsPerStatement(terms, maxLexemes),
    check: (text) => matchesTerms(text, terms),
  };
}

/** Some wanted term is a word of one or two letters (not CJK, whose characters are words of one): its index entries are most of the table. */
function isShort(terms: readonly FoldedTerm[]): boolean {
  return terms
    .filter((term) => !term.negated)
    .some(
      (term) =>
        term.words.length === 1 && /^[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]{1,2}$/.test(term.words[0] ?? ''),
    );
}

function conversationHit({ contact, tags, ...hit }: q.ConversationHitRow, terms: FoldedTerm[]): ConversationHit {
  return {
    ...hit,
    subject_highlights: highlight(hit.subject, terms),
    contact: {
      ...contact,
      name_highlights: highlight(`${contact.first_name} ${contact.last_name}`, terms),
      email_highlights: highlight(contact.email ?? '', terms),
    },
    tags: tags.map((name) => ({ name, highlights: highlight(name, terms) })),
  };
}

function messageHit({ text, subject, first_message, status, ...hit }: q.MessageHitRow, terms: FoldedTerm[]): MessageHit {
  const excerpt = snippet(text, terms);
  return {
    ...hit,
    conversation_subject: subject,
    conversation_first_message: first_message,
    conversation_status: status,
    snippet: excerpt.snippet,
    highlights: excerpt.highlights,
  };
}

function contactHit(hit: q.ContactHitRow, terms: FoldedTerm[]): ContactHit {
  return {
    ...hit,
    name_highlights: highlight(`${hit.first_name} ${hit.last_name}`, terms),
    email_highlights: highlight(hit.email ?? '', terms),
    phone_highlights: highlight(hit.phone_number ?? '', terms),
  };
}
