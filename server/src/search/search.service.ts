// Global search over conversations, messages and contacts, within what the caller may read.
import type { Principal } from '../auth/credential-cache.ts';
import { accessFilter } from '../conversations/conversations.access.ts';
import type { AppDeps } from '../deps.ts';
import { InputError } from '../errors.ts';
import * as q from './search.queries.ts';
import { containsPattern } from '../db/like.ts';

export const MAX_QUERY_CHARS = 200;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
/** Trigrams narrow a substring search only from three characters on. */
const MIN_SUBSTRING_CHARS = 3;

export interface SearchResults {
  conversations: q.ConversationHitRow[];
  messages: q.MessageHitRow[];
  contacts: q.ContactHitRow[];
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

export async function search(deps: AppDeps, principal: Principal, input: { q: string; limit?: number }): Promise<SearchResults> {
  const text = input.q.trim();
  if (text.length === 0) throw InputError.field('q', 'must not be blank');
  if (text.length > MAX_QUERY_CHARS) throw InputError.field('q', `must be at most ${MAX_QUERY_CHARS} characters`);
  const lower = text.toLowerCase();
  const limit = clampLimit(input.limit);
  const textSearch: q.TextSearch = {
    text: lower,
    pattern: lower.length >= MIN_SUBSTRING_CHARS ? containsPattern(lower) : null,
    limit,
  };
  const readable = accessFilter<q.WithC, 'c'>(principal);
  const readsAllContacts = principal.permissions.has('contacts:read_all');
  // A caller who may read no conversation gets empty sections, not an error.
  const [conversations, messages, contacts] = await Promise.all([
    readable ? q.searchConversations(deps.db, readable, referenceOf(text), textSearch) : [],
    readable && principal.permissions.has('messages:read') ? q.searchMessages(deps.db, readable, text, limit) : [],
    readsAllContacts ? q.searchContacts(deps.db, null, textSearch) : readable ? q.searchContacts(deps.db, readable, textSearch) : [],
  ]);
  return { conversations, messages, contacts };
}
