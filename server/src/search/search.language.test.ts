// GET /api/v1/search: the query language (prefix words, folding, phrases, exclusions, CJK), the
// sources (subject, tags, contact), the filters, the highlights, and the access rule through each.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { agentWith, createConversation, createInbox, createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, readingEverything, type TestApp } from '../../test/helpers.ts';
import { accessFilter } from '../conversations/conversations.access.ts';
import { searchMessages, type WithC } from './search.queries.ts';
import { messageQueryOf } from './search.service.ts';
import {
  buildTsQuery,
  type FoldedTerm,
  highlight,
  looseTsQuery,
  matchesTerms,
  parseQuery,
  snippet,
  windowsPerStatement,
  windowTsQuery,
} from './search.text.ts';

type Range = [number, number];
type Results = {
  conversations: Array<{
    uuid: string;
    subject: string;
    subject_highlights: Range[];
    tags: Array<{ name: string; highlights: Range[] }>;
    contact: { first_name: string; last_name: string; name_highlights: Range[]; email_highlights: Range[] };
  }>;
  messages: Array<{
    uuid: string;
    conversation_uuid: string;
    conversation_subject: string;
    conversation_status: string;
    snippet: string;
    highlights: Range[];
  }>;
  contacts: Array<{ first_name: string; name_highlights: Range[] }>;
};
type Conversation = { id: number; uuid: string; reference_number: string };

const word = (...words: string[]): FoldedTerm => ({ words, negated: false, or: false });
/** The highlighted pieces of a text. */
const marked = (text: string, ranges: Range[]) => ranges.map(([s, e]) => text.slice(s, e));

describe('search text: pure rules', () => {
  it('parses words, phrases, exclusions and or', () => {
    assert.deepEqual(parseQuery('reset "my password" -spam or x'), [
      { text: 'reset', negated: false, or: false },
      { text: 'my password', negated: false, or: false },
      { text: 'spam', negated: true, or: false },
      { text: 'x', negated: false, or: true },
    ]);
    assert.deepEqual(parseQuery('a or b'), [
      { text: 'a', negated: false, or: false },
      { text: 'b', negated: false, or: true },
    ]);
    assert.deepEqual(parseQuery('"unclosed phrase'), [{ text: 'unclosed phrase', negated: false, or: false }]);
    assert.deepEqual(parseQuery(' - -"x" '), [
      { text: '-', negated: false, or: false },
      { text: 'x', negated: true, or: false },
    ]);
  });

  it('builds a tsquery of quoted prefix lexemes, CJK characters exact and adjacent', () => {
    assert.equal(buildTsQuery([word('reset'), word('my', 'pass')]), "'reset':* & ('my':* <-> 'pass':*)");
    assert.equal(buildTsQuery([word('密', '码')]), "('密' <-> '码')");
    assert.equal(buildTsQuery([word('a'), { words: ['b'], negated: true, or: false }]), "'a':* & !'b':*");
    assert.equal(buildTsQuery([word('a'), { words: ['b'], negated: false, or: true }, word('c')]), "('a':* | 'b':*) & 'c':*");
    // Only exclusions, or nothing: no query.
    assert.equal(buildTsQuery([{ words: ['b'], negated: true, or: false }]), null);
    assert.equal(buildTsQuery([]), null);
  });

  it('highlights with the same folding, prefixes and phrases, in UTF-16 offsets', () => {
    assert.deepEqual(marked('Le Café, CAFÉ et cafe', highlight('Le Café, CAFÉ et cafe', [word('cafe')])), ['Café', 'CAFÉ', 'cafe']);
    assert.deepEqual(marked('Resetting the Straße', highlight('Resetting the Straße', [word('reset'), word('strasse')])), [
      'Reset',
      'Straße',
    ]);
    assert.deepEqual(marked('我的密码重置不了', highlight('我的密码重置不了', [word('密', '码')])), ['密码']);
    assert.deepEqual(marked('😀 naïve user', highlight('😀 naïve user', [word('naive')])), ['naïve']);
    assert.deepEqual(highlight('😀 naïve user', [word('naive')]), [[3, 8]]);
    // A phrase only where its words are adjacent; an excluded word is never highlighted.
    const text = 'reset your password, password reset';
    assert.deepEqual(marked(text, highlight(text, [word('password', 'reset')])), ['password reset']);
    assert.deepEqual(highlight(text, [{ words: ['reset'], negated: true, or: false }]), []);
  });

  it('asks the index of windows for each word in each window; what it cannot ask is left to the check', () => {
    assert.deepEqual(windowTsQuery([word('refund')], [7, 6], 100), { query: "('7xrefund':* | '6xrefund':*)", complete: true });
    assert.deepEqual(windowTsQuery([word('密', '码')], [3], 100), { query: "('3x密') & ('3x码')", complete: false });
    // Or-groups stay groups; a phrase's words are all present, not adjacent; exclusions are not asked.
    assert.deepEqual(
      windowTsQuery([word('a'), { words: ['b'], negated: false, or: true }, { words: ['x'], negated: true, or: false }], [1], 100),
      {
        query: "((('1xa':*)) | (('1xb':*))) & !('1xx':*)",
        complete: true,
      },
    );
    // An excluded phrase, or an exclusion or-ed with a word, is left to the check; so is an exclusion past the budget.
    assert.deepEqual(windowTsQuery([word('a'), { words: ['x', 'y'], negated: true, or: false }], [1], 100), {
      query: "('1xa':*)",
      complete: false,
    });
    assert.deepEqual(windowTsQuery([word('a'), { words: ['x'], negated: true, or: false }], [2, 1], 3), {
      query: "('2xa':* | '1xa':*)",
      complete: false,
    });
    // Statements ask as many windows as keep the first group within the budget.
    assert.equal(windowsPerStatement([word('a', 'b')], 2048), 1024);
    assert.equal(windowsPerStatement([word('a'), word('b'), { words: ['x'], negated: true, or: false }], 2048), 682);
    assert.equal(windowsPerStatement([{ words: ['x', 'y'], negated: true, or: false }, word('a')], 10), 10);
    // At that many windows, the whole query fits: nothing is left to the check.
    const terms = [word('a'), word('b'), { words: ['x'], negated: true, or: false }];
    const windows = Array.from({ length: windowsPerStatement(terms, 2048) }, (_, i) => i);
    assert.equal(windowTsQuery(terms, windows, 2048)?.complete, true);
    assert.deepEqual(windowTsQuery([word('reset', 'pass')], [2, 1], 100), {
      query: "('2xreset':* | '1xreset':*) & ('2xpass':* | '1xpass':*)",
      complete: false,
    });
    // Past the budget of lexemes, later groups are left out (the first is always asked); nothing positive: no query.
    assert.deepEqual(windowTsQuery([word('one'), word('two')], [2, 1], 3), { query: "('2xone':* | '1xone':*)", complete: false });
    assert.equal(windowTsQuery([{ words: ['b'], negated: true, or: false }], [1], 100), null);
    // Words hold only letters, digits and CJK; quotes in them would still be escaped.
    assert.equal(windowTsQuery([word("o'k")], [1], 100)?.query, "('1xo''k':*)");
  });

  it('checks phrases on text as the tsquery would, for the index pass that finds their words only', () => {
    const phrase = word('reset', 'pass');
    assert.equal(looseTsQuery([phrase, { words: ['x', 'y'], negated: true, or: false }]), "('reset':* & 'pass':*)");
    assert.equal(looseTsQuery([word('reset')]), null);
    assert.equal(matchesTerms('Resetting passwords', [phrase]), true);
    assert.equal(matchesTerms('password reset', [phrase]), false);
    assert.equal(matchesTerms('reset password', [phrase, { words: ['pass'], negated: true, or: false }]), false);
    assert.equal(matchesTerms('我的密码重置不了', [word('密', '码')]), true);
    assert.equal(matchesTerms('码密', [word('密', '码')]), false);
    assert.equal(matchesTerms('b', [word('a'), { words: ['b'], negated: false, or: true }]), true);
  });

  it('cuts a one-line snippet around the first match and shifts the highlights into it', () => {
    const long = `${'filler words here '.repeat(20)}the quokka\nlives   on Rottnest ${'and more text '.repeat(30)}`;
    const { snippet: text, highlights } = snippet(long, [word('quokka')]);
    assert.ok(text.startsWith('… ') && text.endsWith(' …'), text);
    assert.ok(!text.includes('\n') && text.length < 260, text);
    assert.deepEqual(marked(text, highlights), ['quokka']);
  });
});

describe('search over HTTP: language, sources, filters, access', () => {
  let t: TestApp;
  let north: number;
  let south: number;
  let inboxA: number;
  let inboxB: number;
  let carol: Caller; // team North only
  let admin: Caller;
  const conv: Record<string, Conversation> = {};

  const search = async (q: string, as: Caller = admin, extra = '') =>
    dataOf<Results>(await t.call({ method: 'GET', url: `/api/v1/search?q=${encodeURIComponent(q)}${extra}`, as }));
  /** The keys of the conversations of these hits (conversation hits, or message hits by their conversation). */
  const found = (hits: Array<{ uuid: string } | { conversation_uuid: string }>) =>
    [
      ...new Set(
        hits.map((h) => {
          const uuid = 'conversation_uuid' in h ? h.conversation_uuid : h.uuid;
          return Object.entries(conv).find(([, c]) => c.uuid === uuid)?.[0] ?? uuid;
        }),
      ),
    ].sort();

  before(async () => {
    t = await buildTestApp();
    admin = t.admin;
    north = (await createTeam(t, { name: 'North' })).id;
    south = (await createTeam(t, { name: 'South' })).id;
    carol = await agentWith(t, ['conversations:read', 'conversations:read_team_inbox', 'messages:read'], { teams: [north] });
    inboxA = (await createInbox(t, { name: 'Inbox A' })).id;
    inboxB = (await createInbox(t, { name: 'Inbox B' })).id;
    const make = async (key: string, body: Record<string, unknown>) => {
      conv[key] = await createConversation(t, { inbox_id: inboxA, ...body } as Parameters<typeof createConversation>[1]);
    };
    await make('cafe', {
      contact_email: 'amelie@example.com',
      first_name: 'Amélie',
      last_name: 'Poulain',
      subject: 'Le Café est fermé',
      content: 'Resetting my password did not work at the café',
      team_id: north,
    });
    await make('strasse', {
      contact_email: 'hans@example.de',
      first_name: 'Hans',
      last_name: 'Großmann',
      subject: 'Lieferung in die Hauptstraße',
      content: 'cafe without accent, and Łódź with one',
      team_id: south,
    });
    await make('cjk', {
      contact_email: 'wang@example.cn',
      first_name: '伟',
      last_name: '王',
      subject: '我的密码重置不了',
      content: 'パスワードを忘れました。비밀번호를 잊어버렸어요',
      team_id: north,
      inbox_id: inboxB,
    });
    await make('phrase', {
      contact_email: 'zed@example.com',
      first_name: 'Zed',
      last_name: 'Quokkaman',
      subject: 'Two orders',
      content: 'password reset failed, then reset password worked',
      team_id: south,
    });
    // Tags: "vip" on cafe (North) and on phrase (South).
    for (const name of ['vip-customer', 'Überfällig']) dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name } }));
    for (const key of ['cafe', 'phrase']) {
      dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${conv[key]?.uuid}/tags`, payload: { tags: ['vip-customer'] } }));
    }
    dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${conv['strasse']?.uuid}/tags`, payload: { tags: ['Überfällig'] } }));
  });
  after(async () => {
    await t?.close();
  });

  it('folds ASCII text character by character: punctuation to a space, letters to lower case, the rest kept', async () => {
    const characters = Array.from({ length: 127 }, (_, i) => String.fromCharCode(i + 1));
    const punctuation = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
    assert.equal(punctuation.size, 32);
    const { rows } = await sql<{ folded: string[]; whole: string }>`
      select array(select parley_search_text(c) from unnest(${characters}::text[]) with ordinality as t(c, n) order by n) as folded,
             parley_search_text(${characters.join('')}) as whole`.execute(t.deps.db);
    const expected = characters.map((c) => (punctuation.has(c) ? ' ' : c.toLowerCase()));
    assert.deepEqual(rows[0]?.folded, expected);
    assert.equal(rows[0]?.whole, expected.join(''));
    const { rows: text } = await sql<{
      folded: string;
    }>`select parley_search_text(${"Re: [Order #123] Can't log-in (e-mail: A.B@x.io)!"}) as folded`.execute(t.deps.db);
    assert.equal(text[0]?.folded, 're   order  123  can t log in  e mail  a b x io  ');
  });

  it('every word is a prefix', async () => {
    assert.deepEqual(found((await search('reset')).messages), ['cafe', 'phrase']);
    assert.deepEqual(found((await search('pass')).messages), ['cafe', 'phrase']);
    assert.deepEqual(found((await search('RESETT')).messages), ['cafe']);
    assert.deepEqual(found((await search('ssword')).messages), []);
  });

  it('folds accents and case both ways, and letters without a decomposition', async () => {
    assert.deepEqual(found((await search('cafe')).messages), ['cafe', 'strasse']);
    assert.deepEqual(found((await search('CAFÉ')).messages), ['cafe', 'strasse']);
    assert.deepEqual(found((await search('cafe')).conversations), ['cafe']);
    assert.deepEqual(found((await search('hauptstrasse')).conversations), ['strasse']);
    assert.deepEqual(found((await search('HAUPTSTRAẞE')).conversations), ['strasse']);
    assert.deepEqual(found((await search('lodz')).messages), ['strasse']);
    assert.deepEqual(found((await search('grossmann')).conversations), ['strasse']);
    assert.deepEqual(
      (await search('amelie')).contacts.map((c) => c.first_name),
      ['Amélie'],
    );
  });

  it('quoted phrases need their words adjacent and in order; -word excludes', async () => {
    assert.deepEqual(found((await search('"reset password"')).messages), ['phrase']);
    assert.deepEqual(found((await search('"password reset"')).messages), ['phrase']);
    assert.deepEqual(found((await search('"my password"')).messages), ['cafe']);
    assert.deepEqual(found((await search('"password my"')).messages), []);
    assert.deepEqual(found((await search('password -failed')).messages), ['cafe']);
    assert.deepEqual(found((await search('password -"reset failed"')).messages), ['cafe']);
    assert.deepEqual(found((await search('password -"failed reset"')).messages), ['cafe', 'phrase']);
    assert.deepEqual(found((await search('lodz or resetting')).messages), ['cafe', 'strasse']);
    // Only exclusions: nothing.
    assert.deepEqual(await search('-password'), { conversations: [], messages: [], contacts: [] });
  });

  it('CJK text is found anywhere inside longer text', async () => {
    assert.deepEqual(found((await search('密码')).conversations), ['cjk']);
    assert.deepEqual(found((await search('重置')).conversations), ['cjk']);
    assert.deepEqual(found((await search('码密')).conversations), []);
    assert.deepEqual(found((await search('ワード')).messages), ['cjk']);
    assert.deepEqual(found((await search('번호')).messages), ['cjk']);
    const hit = (await search('密码')).conversations[0];
    assert.deepEqual(hit && marked(hit.subject, hit.subject_highlights), ['密码']);
    assert.deepEqual(
      (await search('王')).contacts.map((c) => c.first_name),
      ['伟'],
    );
  });

  it('conversations by tag name and by contact name or email, with highlights', async () => {
    const vip = await search('vip');
    assert.deepEqual(found(vip.conversations), ['cafe', 'phrase']);
    const tag = vip.conversations[0]?.tags.find((x) => x.name === 'vip-customer');
    assert.deepEqual(tag && marked(tag.name, tag.highlights), ['vip']);
    assert.deepEqual(found((await search('uberfallig')).conversations), ['strasse']);
    const byName = await search('poulain');
    assert.deepEqual(found(byName.conversations), ['cafe']);
    const contact = byName.conversations[0]?.contact;
    assert.deepEqual(contact && marked(`${contact.first_name} ${contact.last_name}`, contact.name_highlights), ['Poulain']);
    assert.deepEqual(found((await search('hans@example')).conversations), ['strasse']);
    assert.deepEqual(found((await search('quokkaman')).conversations), ['phrase']);
  });

  it('message hits carry their conversation, a snippet and highlights computed with the folding', async () => {
    const [hit] = (await search('café')).messages.filter((m) => m.conversation_uuid === conv['strasse']?.uuid);
    assert.ok(hit);
    assert.equal(hit.conversation_subject, 'Lieferung in die Hauptstraße');
    assert.equal(hit.conversation_status, 'Open');
    assert.deepEqual(marked(hit.snippet, hit.highlights), ['cafe']);
    const [accented] = (await search('cafe')).messages.filter((m) => m.conversation_uuid === conv['cafe']?.uuid);
    assert.deepEqual(accented && marked(accented.snippet, accented.highlights), ['café']);
    const [conversation] = (await search('cafe')).conversations;
    assert.deepEqual(conversation && marked(conversation.subject, conversation.subject_highlights), ['Café']);
  });

  it('filters: status, inbox, team, assignee, date range; each invalid value is a 400', async () => {
    const all = ['cafe', 'cjk', 'phrase', 'strasse'];
    const q = 'example';
    assert.deepEqual(found((await search(q)).conversations), all);
    assert.deepEqual(found((await search(q, admin, `&inbox_id=${inboxB}`)).conversations), ['cjk']);
    assert.deepEqual(found((await search(q, admin, `&team_id=${south}`)).conversations), ['phrase', 'strasse']);
    assert.deepEqual(found((await search(q, admin, `&team_id=${south}&team_id=${north}`)).conversations), all);
    assert.deepEqual(found((await search(q, admin, '&status=open')).conversations), all);
    assert.deepEqual(found((await search(q, admin, '&status=Resolved')).conversations), []);
    assert.deepEqual(found((await search(q, admin, '&assignee_id=unassigned')).conversations), all);
    assert.deepEqual(found((await search(q, admin, `&assignee_id=${admin.id}`)).conversations), []);
    assert.deepEqual(found((await search('password', admin, `&team_id=${south}`)).messages), ['phrase']);
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual(found((await search(q, admin, `&from=${today}&to=${today}`)).conversations), all);
    assert.deepEqual(found((await search(q, admin, '&to=2001-01-01')).conversations), []);
    assert.deepEqual(found((await search('password', admin, '&from=2999-01-01T00:00:00Z')).messages), []);
    const statuses = dataOf<Array<{ id: number; name: string }>>(await t.call({ method: 'GET', url: '/api/v1/statuses' }));
    const open = statuses.find((s) => s.name === 'Open');
    assert.deepEqual(found((await search(q, admin, `&status=${open?.id}`)).conversations), all);
    for (const [extra, field] of [
      ['&status=nope', 'status'],
      ['&status=999999', 'status'],
      ['&inbox_id=abc', 'inbox_id'],
      ['&inbox_id=0', 'inbox_id'],
      ['&team_id=99999999999', 'team_id'],
      ['&assignee_id=someone', 'assignee_id'],
      ['&assignee_id=99999999999', 'assignee_id'],
      ['&from=yesterday', 'from'],
      ['&to=2026-02-30', 'to'],
      ['&from=2026-01-02&to=2026-01-01', 'to'],
    ] as const) {
      const body = assertError(await t.call({ method: 'GET', url: `/api/v1/search?q=x${extra}` }), 400, 'InputException');
      assert.match(body.message, new RegExp(field), extra);
    }
  });

  it('another team never shows through any source', async () => {
    // carol reads team North: cafe and cjk, never strasse or phrase (South).
    assert.deepEqual(found((await search('example', carol)).conversations), ['cafe', 'cjk']);
    assert.deepEqual(found((await search('vip', carol)).conversations), ['cafe']);
    assert.deepEqual(found((await search('uberfallig', carol)).conversations), []);
    assert.deepEqual(found((await search('grossmann', carol)).conversations), []);
    assert.deepEqual(found((await search('hans@example', carol)).conversations), []);
    assert.deepEqual(found((await search('quokkaman', carol)).conversations), []);
    assert.deepEqual(found((await search('hauptstrasse', carol)).conversations), []);
    assert.deepEqual(found((await search(conv['phrase']?.reference_number ?? '', carol)).conversations), []);
    assert.deepEqual(found((await search('password', carol)).messages), ['cafe']);
    assert.deepEqual(found((await search('lodz', carol)).messages), []);
    assert.deepEqual((await search('grossmann', carol)).contacts, []);
    assert.deepEqual(
      (await search('poulain', carol)).contacts.map((c) => c.first_name),
      ['Amélie'],
    );
    // Filters never widen access.
    assert.deepEqual(found((await search('example', carol, `&team_id=${south}`)).conversations), []);
  });

  it('phrases through the text index: candidates with all the words, checked for adjacency', async () => {
    const readable = accessFilter<WithC, 'c'>(readingEverything(admin.id));
    assert.ok(readable);
    const query = messageQueryOf([word('reset', 'password')]);
    assert.ok(query);
    // No walk at all, then the index: both phrase messages hold both words, one in order.
    const hits = await searchMessages(t.deps.db, readable, {}, query, 10, { walkedMessages: 0, firstWindows: 1, maxChecked: 500 });
    assert.deepEqual(
      hits.map((hit) => hit.text),
      ['password reset failed, then reset password worked'],
    );
  });

  it('malformed queries are harmless: never a tsquery syntax error', async () => {
    for (const q of [
      '!!!',
      "&|!():*<>'\\",
      "'",
      "''",
      ':*',
      '<->',
      '!(',
      '"',
      '""',
      '- -',
      'a:*b',
      'x & y | !z',
      'w'.repeat(200),
      '😀😀',
      '\u0301\u0301',
      'or',
      'or or',
      '-"',
    ]) {
      const response = await t.call({ method: 'GET', url: `/api/v1/search?q=${encodeURIComponent(q)}` });
      assert.equal(response.statusCode, 200, `${JSON.stringify(q)}: ${response.body}`);
    }
    // NUL bytes are refused for every query string, as everywhere.
    for (const q of ['abc\u0000def', '\u0000']) {
      assertError(await t.call({ method: 'GET', url: `/api/v1/search?q=${encodeURIComponent(q)}` }), 400, 'InputException');
    }
  });
});
