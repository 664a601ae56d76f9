// The search's query language and highlights, as pure functions (docs/api.md, Search).
//
// A query is words, "quoted phrases", -exclusions and `or`. Its terms are folded by the
// database's own parley_search_text() (migration 0027), the function the indexes were built
// with, so both sides always agree; the tsquery is built from the folded words, which hold only
// letters, digits and single CJK characters: no user text ever reaches tsquery syntax.
// Highlights fold the hit's text again here, character by character, to map matches back to
// offsets of the original text.

/** One term of a query: a word or a quoted phrase, perhaps excluded, perhaps or-ed with the one before. */
export interface QueryTerm {
  text: string;
  negated: boolean;
  /** Joined to the previous term by `or` instead of `and`. */
  or: boolean;
}

/** A term once folded: its words, which must appear adjacent and in order. */
export interface FoldedTerm {
  words: string[];
  negated: boolean;
  or: boolean;
}

/** Splits the query text into terms; never fails (an unclosed quote runs to the end). */
export function parseQuery(raw: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  let i = 0;
  let pendingOr = false;
  while (i < raw.length) {
    const char = raw[i] as string;
    if (/\s/.test(char)) {
      i += 1;
      continue;
    }
    let negated = false;
    if (char === '-' && i + 1 < raw.length && !/\s/.test(raw[i + 1] as string)) {
      negated = true;
      i += 1;
    }
    let text: string;
    let quoted = false;
    if (raw[i] === '"') {
      const close = raw.indexOf('"', i + 1);
      text = raw.slice(i + 1, close === -1 ? raw.length : close);
      i = close === -1 ? raw.length : close + 1;
      quoted = true;
    } else {
      let end = i;
      while (end < raw.length && !/[\s"]/.test(raw[end] as string)) end += 1;
      text = raw.slice(i, end);
      i = end;
    }
    if (!quoted && !negated && text.toLowerCase() === 'or' && terms.length > 0) {
      pendingOr = true;
      continue;
    }
    terms.push({ text, negated, or: pendingOr && !negated });
    pendingOr = false;
  }
  return terms;
}

const CJK_CHAR = /^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]$/;

/** The terms with their folded text (parley_search_text's output, in order); terms left without a word are dropped. */
export function foldTerms(terms: readonly QueryTerm[], folded: readonly string[]): FoldedTerm[] {
  const result: FoldedTerm[] = [];
  terms.forEach((term, index) => {
    const words = (folded[index] ?? '').split(/\s+/).filter((word) => word !== '');
    if (words.length === 0) return;
    result.push({ words, negated: term.negated, or: term.or && result.length > 0 });
  });
  return result;
}

/** A lexeme in tsquery syntax: quoted, a prefix unless the word is a CJK character (those are words of one character). */
function lexeme(text: string, word: string = text): string {
  const quoted = `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  return CJK_CHAR.test(word) ? quoted : `${quoted}:*`;
}

function termQuery(term: FoldedTerm, adjacent: boolean): string {
  const phrase = term.words.map((word) => lexeme(word)).join(adjacent ? ' <-> ' : ' & ');
  const grouped = term.words.length > 1 ? `(${phrase})` : phrase;
  return term.negated ? `!${grouped}` : grouped;
}

/**
 * The tsquery (to_tsquery('simple', …) syntax) of the folded terms: or-groups and-ed together,
 * exclusions and-ed as negations. Null when no term asks for something (only exclusions, or
 * nothing): such a query would match nearly everything, so it matches nothing.
 */
export function buildTsQuery(terms: readonly FoldedTerm[], adjacent = true): string | null {
  if (!terms.some((term) => !term.negated)) return null;
  const groups: string[][] = [];
  for (const term of terms) {
    const last = groups[groups.length - 1];
    if (term.or && last) last.push(termQuery(term, adjacent));
    else groups.push([termQuery(term, adjacent)]);
  }
  return groups.map((group) => (group.length > 1 ? `(${group.join(' | ')})` : group[0])).join(' & ');
}

/**
 * When the query holds a phrase (or a word written with punctuation or CJK): the same query with
 * each phrase's words merely all present and no excluded phrase, what a text index answers
 * without reading each row again (adjacency needs the row's positions). Null otherwise.
 */
export function looseTsQuery(terms: readonly FoldedTerm[]): string | null {
  if (!terms.some((term) => term.words.length > 1)) return null;
  return buildTsQuery(
    terms.filter((term) => !(term.negated && term.words.length > 1)),
    false,
  );
}

/** The query's or-groups: each term with the terms or-ed to it. */
function orGroups(terms: readonly FoldedTerm[]): FoldedTerm[][] {
  const groups: FoldedTerm[][] = [];
  for (const term of terms) {
    const last = groups[groups.length - 1];
    if (term.or && last) last.push(term);
    else groups.push([term]);
  }
  return groups;
}

const wordCount = (group: readonly FoldedTerm[]) => group.reduce((n, term) => n + term.words.length, 0);

/** A word in any of these windows: an or of its window-prefixed lexemes (words of the index of windows, migration 0029). */
function inWindows(word: string, windows: readonly number[]): string {
  return `(${windows.map((w) => lexeme(`${w}x${word}`, word)).join(' | ')})`;
}

/**
 * How many windows one statement asks for: as many as keep every word windowTsQuery() asks (the
 * groups without an exclusion, and the excluded single words) within `maxLexemes`
 * window-prefixed words; at least one.
 */
export function windowsPerStatement(terms: readonly FoldedTerm[], maxLexemes: number): number {
  const words = orGroups(terms).reduce((n, group) => {
    if (!group.some((term) => term.negated)) return n + wordCount(group);
    const [term] = group;
    return group.length === 1 && term !== undefined && term.words.length === 1 ? n + 1 : n;
  }, 0);
  return Math.max(1, Math.floor(maxLexemes / Math.max(1, words)));
}

/**
 * The tsquery for the index of message windows (migration 0029) over these windows, or null when
 * no group of the query can be asked of it. It holds the or-groups without an exclusion, each
 * term's words all present (not necessarily adjacent), each word an or of its window-prefixed
 * lexemes, taken in order while their lexemes fit in `maxLexemes` (the first always); then each
 * excluded single word as the negation of its lexemes, exact within the windows (a message holds
 * its own window's words only), while they fit. `complete`: it asks exactly the query (no phrase,
 * excluded phrase or group left out), so the rows it finds need no check with matchesTerms().
 */
export function windowTsQuery(
  terms: readonly FoldedTerm[],
  windows: readonly number[],
  maxLexemes: number,
): { query: string; complete: boolean } | null {
  const groups = orGroups(terms);
  const asked: string[] = [];
  let lexemes = 0;
  let complete = true;
  for (const group of groups.filter((g) => !g.some((term) => term.negated))) {
    const words = wordCount(group) * windows.length;
    if (asked.length > 0 && lexemes + words > maxLexemes) {
      complete = false;
      continue;
    }
    if (group.some((term) => term.words.length > 1)) complete = false;
    lexemes += words;
    const alternatives = group.map((term) => term.words.map((word) => inWindows(word, windows)).join(' & '));
    asked.push(alternatives.length > 1 ? `(${alternatives.map((a) => `(${a})`).join(' | ')})` : (alternatives[0] as string));
  }
  if (asked.length === 0) return null;
  for (const group of groups.filter((g) => g.some((term) => term.negated))) {
    const [term] = group;
    if (group.length > 1 || term === undefined || term.words.length > 1 || lexemes + windows.length > maxLexemes) {
      complete = false;
      continue;
    }
    lexemes += windows.length;
    asked.push(`!${inWindows(term.words[0] as string, windows)}`);
  }
  return { query: asked.join(' & '), complete };
}

/** A highlight: [start, end) offsets in UTF-16 code units (JavaScript string indexes) of the text it belongs to. */
export type Range = [number, number];

interface Token {
  text: string;
  /** Offsets in the original text of each folded character. */
  starts: number[];
  ends: number[];
}

const SPECIAL: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
  ĳ: 'ij',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ħ: 'h',
  ı: 'i',
  ŧ: 't',
  ð: 'd',
  ĸ: 'k',
  ŋ: 'n',
};
const TOKEN_CHAR = /[0-9a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u1fff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;

/** parley_search_text() of one character (as JavaScript can: its lower-casing may fold more). */
function foldChar(char: string): string {
  const lower = char
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]+/g, '')
    .normalize('NFC');
  let out = '';
  for (const c of lower) out += SPECIAL[c] ?? c;
  return out;
}

/** The words of `text` as parley_search_text() sees them, each with its characters' original offsets. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let current: Token | null = null;
  let offset = 0;
  for (const char of text) {
    const start = offset;
    offset += char.length;
    for (const c of foldChar(char)) {
      if (!TOKEN_CHAR.test(c)) {
        current = null;
        continue;
      }
      if (CJK_CHAR.test(c)) {
        tokens.push({ text: c, starts: [start], ends: [offset] });
        current = null;
        continue;
      }
      if (current === null) {
        current = { text: '', starts: [], ends: [] };
        tokens.push(current);
      }
      current.text += c;
      current.starts.push(start);
      current.ends.push(offset);
    }
  }
  return tokens;
}

/** Whether the term's words are at tokens i, i+1…: each word a prefix (a CJK character itself). */
function matchesAt(tokens: readonly Token[], i: number, term: FoldedTerm): boolean {
  return term.words.every((word, k) => {
    const token = tokens[i + k];
    return token !== undefined && (CJK_CHAR.test(word) ? token.text === word : token.text.startsWith(word));
  });
}

/** Whether `text` matches the whole query, as to_tsquery() of buildTsQuery() would say. */
export function matchesTerms(text: string, terms: readonly FoldedTerm[]): boolean {
  const tokens = tokenize(text);
  const present = (term: FoldedTerm) => tokens.some((_, i) => matchesAt(tokens, i, term));
  let result = true;
  let group: boolean | null = null;
  for (const term of terms) {
    const value = term.negated ? !present(term) : present(term);
    if (term.or && group !== null) group = group || value;
    else {
      if (group !== null) result = result && group;
      group = value;
    }
  }
  return result && (group ?? false) && terms.some((term) => !term.negated);
}

/** Where the words of the terms (not the excluded ones) occur in `text`: each word a prefix, a term's words adjacent. */
export function highlight(text: string, terms: readonly FoldedTerm[]): Range[] {
  const wanted = terms.filter((term) => !term.negated);
  if (wanted.length === 0 || text === '') return [];
  const tokens = tokenize(text);
  const ranges: Range[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    for (const term of wanted) {
      const last = term.words.length - 1;
      if (!matchesAt(tokens, i, term)) continue;
      const first = tokens[i] as Token;
      const end = tokens[i + last] as Token;
      const lastWord = term.words[last] as string;
      ranges.push([first.starts[0] as number, end.ends[lastWord.length - 1] as number]);
    }
  }
  return mergeRanges(ranges);
}

function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Range[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** Characters of message text around the first match in a snippet. */
const SNIPPET_CHARS = 240;
const SNIPPET_LEAD = 60;

/** A one-line excerpt of `text` around its first match, with the highlights inside it. */
export function snippet(text: string, terms: readonly FoldedTerm[]): { snippet: string; highlights: Range[] } {
  const line = text.replace(/\s+/g, ' ').trim();
  const all = highlight(line, terms);
  let start = 0;
  const firstMatch = all[0];
  if (firstMatch && firstMatch[0] > SNIPPET_LEAD) {
    start = firstMatch[0] - SNIPPET_LEAD;
    // Begin at a word: after the next space, unless that passes the match.
    const space = line.indexOf(' ', start);
    start = space !== -1 && space < firstMatch[0] ? space + 1 : start;
  }
  let end = Math.min(line.length, start + SNIPPET_CHARS);
  if (end < line.length) {
    const space = line.lastIndexOf(' ', end);
    if (space > start && (!firstMatch || space >= firstMatch[1])) end = space;
  }
  // Never split a surrogate pair at either edge.
  if (start > 0 && /[\udc00-\udfff]/.test(line[start] ?? '')) start -= 1;
  if (end < line.length && /[\udc00-\udfff]/.test(line[end] ?? '')) end += 1;
  const lead = start > 0 ? '… ' : '';
  const body = line.slice(start, end);
  const shift = lead.length - start;
  const highlights = all
    .filter(([s, e]) => s < end && e > start)
    .map(([s, e]): Range => [Math.max(s, start) + shift, Math.min(e, end) + shift]);
  return { snippet: lead + body + (end < line.length ? ' …' : ''), highlights };
}
