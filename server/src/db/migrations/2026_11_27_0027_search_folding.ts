// Frozen: never edit a migration once it has landed; add a new dated one.
// Search with folding (docs/api.md, Search): one text function, parley_search_text(), turns text
// into the words the search compares: lower case, accents stripped, letters without a
// decomposition spelled out (ß → ss, æ → ae, ø → o…), punctuation to spaces, and every CJK
// character a word of its own (CJK is written without spaces; a search for "密码" then finds it
// inside "我的密码重置不了" as adjacent words). The same function folds the query (search.service.ts),
// so both sides always agree, on PGlite and PostgreSQL alike.
//
// The indexes are expression GIN indexes over it. The one on messages is built after this
// migration's transaction, concurrently (concurrentIndexes below, db/concurrent-indexes.ts):
// building it inside the transaction would block writes to the largest table for minutes.
// The stored search_vector column it replaces goes (dropping a column rewrites nothing).
import { type Kysely, sql } from 'kysely';
import type { ConcurrentIndex } from '../concurrent-indexes.ts';

/** Han, Hiragana, Katakana, Hangul syllables, CJK compatibility ideographs: each character is a word. */
const CJK = String.raw`\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff`;

const statements = [
  // NFKD then stripping the combining marks removes accents (é → e, also fullwidth Ａ → A); NFC
  // after it puts back together what is no accent (Hangul syllables, kana with their marks).
  // What is left outside letters, digits and CJK becomes a space, so the text-search parser
  // meets only plain words and numbers (no emails, hosts or paths read as one word).
  //
  // Text in ASCII alone (most of it) takes a short path: no accents to strip, punctuation to spaces
  // by translate(). PL/pgSQL, not an inlined SQL function, so that the planner sees its declared
  // cost: a recheck row by row is expensive, and the planner must weigh it against the index.
  String.raw`create function parley_search_text(value text) returns text
    language plpgsql immutable parallel safe cost 1000
    as $fn$
    begin
      if octet_length(value) = char_length(value) then
        return translate(lower(value), '!"#$%&''()*+,-./:;<=>?@[\]^_${'`'}{|}~', '                                ');
      end if;
      return regexp_replace(
        regexp_replace(
          translate(
            replace(replace(replace(replace(replace(replace(replace(replace(replace(
              lower(normalize(regexp_replace(normalize(value, NFKD), '[̀-ͯ]+', '', 'g'), NFC)),
              'ß', 'ss'), 'ẞ', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'), 'þ', 'th'), 'Þ', 'th'), 'ĳ', 'ij'),
            'øØłŁđĐħĦıŧŦðÐĸŋŊ', 'oollddhhittddknn'),
          '[^0-9a-zÀ-ÖØ-öø-῿${CJK}]+', ' ', 'g'),
        '([${CJK}])', ' \1 ', 'g');
    end
    $fn$`,
  `create index conversations_search_idx on conversations using gin (to_tsvector('simple', parley_search_text(subject)))`,
  `create index users_contact_search_idx on users using gin (to_tsvector('simple', parley_search_text(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(phone_number, '')))) where type in ('contact', 'visitor') and deleted_at is null`,
  `create index tags_search_idx on tags using gin (to_tsvector('simple', parley_search_text(name)))`,
  // Replaced by the indexes above and below; nothing else reads them.
  `drop index conversations_subject_trgm_idx`,
  `drop index users_contact_search_trgm_idx`,
  `alter table messages drop column search_vector`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** Message text is indexed up to this many characters (what a search can find in a long message). */
export const MESSAGE_INDEXED_CHARS = 20000;

export const concurrentIndexes: ConcurrentIndex[] = [
  {
    name: 'messages_search_idx',
    create: `on messages using gin (to_tsvector('simple', parley_search_text(left(text_content, ${MESSAGE_INDEXED_CHARS}))))`,
  },
];
