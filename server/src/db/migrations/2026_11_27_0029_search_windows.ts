// Frozen: never edit a migration once it has landed; add a new dated one.
// Message search by windows of recent messages (docs/performance.md, "Search"). A message search
// wants the newest few matches, but the text index of migration 0027 can only list every match of
// a word in the whole table: a common word or a short prefix is tens of thousands of entries read
// for ten results, and the more messages there are, the more it reads.
//
// This index files each word under the message's window: the window is the message id divided by
// 2^MESSAGE_WINDOW_BITS (8,192 consecutive messages), written before the word with an x
// ("122xinvoice"; the window's digits end at the first x, so no two windows share a word). A
// search asks for its words in the newest windows first (`122xinvoice:* | 121xinvoice:*`) and
// reads only their entries; prefixes and CJK characters work as before, each word folded by
// parley_search_text() of migration 0027 and cut by the text parser. It replaces messages_search_idx once built
// (concurrently, after this migration's transaction: concurrent-indexes.ts).
//
// Also: GIN indexes collect new entries in a pending list that every search reads whole, up to
// gin_pending_list_limit (4 MB by default) until VACUUM or an insert past the limit moves them
// into the index. The search indexes keep it at 512 kB: a few pages read per search; an insert
// that moves them pays a little more, a little more often.
//
// And no parallel workers for scans of conversations and messages: the helpdesk's statements on
// them read few rows, and a parallel plan (chosen for the search's folding, which the planner
// believes dear) costs more to start than the scan takes, on a machine busy with other requests.
import { type Kysely, sql } from 'kysely';
import type { ConcurrentIndex } from '../concurrent-indexes.ts';
import { MESSAGE_INDEXED_CHARS } from './2026_11_27_0027_search_folding.ts';

/** A window holds the messages whose ids agree but for the last this-many bits (8,192 messages). */
export const MESSAGE_WINDOW_BITS = 13;

const statements = [
  // The words of to_tsvector('simple', parley_search_text(value)) (the text parser's own words,
  // as the index of migration 0027 held them), each prefixed with the window and an x. Without
  // positions: phrases are checked on the rows a search finds (search.queries.ts). A lexeme may
  // hold at most 2,047 bytes: the longest words (2,000 bytes and more) are left out, as
  // to_tsvector leaves out those past its limit. Its search path is fixed: PostgreSQL 17 and
  // later (PGlite too) build and analyze indexes with pg_catalog alone, and a restore with none.
  String.raw`create function parley_search_window_vector(window_number int, value text) returns tsvector
    language plpgsql immutable parallel safe cost 1000
    set search_path from current
    as $fn$
    begin
      return array_to_tsvector(array(
        select window_number || 'x' || w.lexeme
        from unnest(to_tsvector('simple', parley_search_text(value))) as w
        where octet_length(w.lexeme) < 2000
      ));
    end
    $fn$`,
  'alter index conversations_search_idx set (gin_pending_list_limit = 512)',
  'alter index users_contact_search_idx set (gin_pending_list_limit = 512)',
  'alter index tags_search_idx set (gin_pending_list_limit = 512)',
  'alter table conversations set (parallel_workers = 0)',
  'alter table messages set (parallel_workers = 0)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export const concurrentIndexes: ConcurrentIndex[] = [
  {
    name: 'messages_search_window_idx',
    create: `on messages using gin (parley_search_window_vector(id >> ${MESSAGE_WINDOW_BITS}, left(text_content, ${MESSAGE_INDEXED_CHARS}))) with (gin_pending_list_limit = 512)`,
    replaces: 'messages_search_idx',
  },
];
