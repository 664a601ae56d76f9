// GET /api/v1/search: conversations, messages and contacts, within what the caller may read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { agentWith, createContact, createConversation, createInbox, createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, readingEverything, type TestApp } from '../../test/helpers.ts';
import { accessFilter } from '../conversations/conversations.access.ts';
import { MESSAGE_WINDOW_BITS } from '../db/migrations/2026_11_27_0029_search_windows.ts';
import { foldTexts, searchMessages, type WithC } from './search.queries.ts';
import { clampLimit, messageQueryOf, referenceOf } from './search.service.ts';
import { foldTerms, parseQuery } from './search.text.ts';

type ConversationHit = {
  id: number;
  uuid: string;
  reference_number: string;
  subject: string;
  status: string;
  inbox_id: number;
  subject_highlights: Array<[number, number]>;
  contact: {
    id: number;
    first_name: string;
    last_name: string;
    email: string | null;
    name_highlights: Array<[number, number]>;
    email_highlights: Array<[number, number]>;
  };
  tags: Array<{ name: string; highlights: Array<[number, number]> }>;
  last_message_at: string | null;
  created_at: string;
};
type MessageHit = {
  uuid: string;
  conversation_uuid: string;
  reference_number: string;
  conversation_subject: string;
  conversation_status: string;
  type: string;
  private: boolean;
  snippet: string;
  highlights: Array<[number, number]>;
  created_at: string;
};
type ContactHit = {
  id: number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone_number: string | null;
  avatar_url: string | null;
  type: string;
  name_highlights: Array<[number, number]>;
  email_highlights: Array<[number, number]>;
  phone_highlights: Array<[number, number]>;
};
type Results = { conversations: ConversationHit[]; messages: MessageHit[]; contacts: ContactHit[] };
type Conversation = { id: number; uuid: string; reference_number: string; contact: { id: number } };

const CONVERSATION_FIELDS = [
  'contact',
  'created_at',
  'first_message',
  'id',
  'inbox_id',
  'last_message_at',
  'reference_number',
  'status',
  'subject',
  'subject_highlights',
  'tags',
  'uuid',
];
const MESSAGE_FIELDS = [
  'conversation_first_message',
  'conversation_status',
  'conversation_subject',
  'conversation_uuid',
  'created_at',
  'highlights',
  'private',
  'reference_number',
  'snippet',
  'type',
  'uuid',
];
const CONTACT_FIELDS = [
  'avatar_url',
  'email',
  'email_highlights',
  'first_name',
  'id',
  'last_name',
  'name_highlights',
  'phone_highlights',
  'phone_number',
  'type',
];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function assertShape(results: Results): void {
  assert.deepEqual(Object.keys(results).sort(), ['contacts', 'conversations', 'messages']);
  for (const c of results.conversations) {
    assert.deepEqual(Object.keys(c).sort(), CONVERSATION_FIELDS);
    assert.deepEqual(Object.keys(c.contact).sort(), ['email', 'email_highlights', 'first_name', 'id', 'last_name', 'name_highlights']);
    assert.match(c.created_at, ISO);
  }
  for (const m of results.messages) {
    assert.deepEqual(Object.keys(m).sort(), MESSAGE_FIELDS);
    assert.ok(m.type === 'incoming' || m.type === 'outgoing', m.type);
    assert.match(m.created_at, ISO);
  }
  for (const c of results.contacts) {
    assert.deepEqual(Object.keys(c).sort(), CONTACT_FIELDS);
    assert.ok(c.type === 'contact' || c.type === 'visitor');
  }
}

describe('search: pure rules', () => {
  it('reads a reference number with or without #', () => {
    assert.equal(referenceOf('123'), '123');
    assert.equal(referenceOf('#123'), '123');
    assert.equal(referenceOf('# 123'), '123');
    assert.equal(referenceOf('#'), null);
    assert.equal(referenceOf('refund please'), null);
  });
  it('clamps the limit into 1..50, default 10', () => {
    assert.equal(clampLimit(undefined), 10);
    assert.equal(clampLimit(0), 1);
    assert.equal(clampLimit(-3), 1);
    assert.equal(clampLimit(25), 25);
    assert.equal(clampLimit(500), 50);
  });
});

describe('search over HTTP', () => {
  let t: TestApp;
  let alice: Caller; // read_assigned + messages:read
  let bob: Caller; // read_assigned + messages:read
  let carol: Caller; // the Agent role, member of team North
  let dave: Caller; // read_all but no messages:read
  let erin: Caller; // no conversation access at all
  let inboxId: number;
  let north: number;
  let south: number;
  const conv: Record<'A' | 'B' | 'C' | 'D' | 'E', Conversation> = {} as Record<'A' | 'B' | 'C' | 'D' | 'E', Conversation>;

  const search = async (q: string, as: Caller | null = t.admin, extra = '') => {
    const results = dataOf<Results>(await t.call({ method: 'GET', url: `/api/v1/search?q=${encodeURIComponent(q)}${extra}`, as }));
    assertShape(results);
    return results;
  };
  const uuids = (hits: Array<{ uuid: string }>) => hits.map((h) => h.uuid).sort();
  const refsOf = (hits: Array<{ conversation_uuid: string }>) => [...new Set(hits.map((h) => h.conversation_uuid))].sort();
  const expected = (...names: Array<keyof typeof conv>) => names.map((n) => conv[n].uuid).sort();

  const create = (body: Parameters<typeof createConversation>[1]): Promise<Conversation> =>
    createConversation(t, { inbox_id: inboxId, ...body });
  async function note(uuid: string, message: string, isPrivate: boolean): Promise<void> {
    dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload: { message, private: isPrivate } }));
  }

  before(async () => {
    t = await buildTestApp();
    north = (await createTeam(t, { name: 'North Walrus' })).id;
    south = (await createTeam(t, { name: 'South Pelican' })).id;
    alice = await agentWith(t, ['conversations:read', 'conversations:read_assigned', 'messages:read']);
    bob = await agentWith(t, ['conversations:read', 'conversations:read_assigned', 'messages:read']);
    carol = await t.makeAgent({ roles: ['Agent'], teams: [north] });
    dave = await agentWith(t, ['conversations:read', 'conversations:read_all']);
    erin = await agentWith(t, ['reports:manage']);
    inboxId = (await createInbox(t, { name: 'Search inbox' })).id;

    conv.A = await create({
      contact_email: 'zebulon.quixote@example.com',
      first_name: 'Zebulon',
      last_name: 'Quixote',
      subject: 'Refund for my broken kettle',
      content: '<p>The kettle arrived damaged, flamingo umbrella included</p>',
      assignee_id: alice.id,
    });
    conv.B = await create({
      contact_email: 'xavier.yodel@example.com',
      first_name: 'Xavier',
      last_name: 'Yodel',
      subject: 'Refund request delayed',
      content: 'Still waiting, flamingo again',
      assignee_id: bob.id,
    });
    conv.C = await create({
      contact_email: 'wanda.north@example.com',
      first_name: 'Wanda',
      last_name: 'Northcott',
      subject: 'Printer jammed',
      content: 'The printer eats paper, flamingo style',
      assignee_id: bob.id,
      team_id: north,
    });
    conv.D = await create({
      contact_email: 'victor.south@example.com',
      first_name: 'Victor',
      last_name: 'Southey',
      subject: `Follow-up on order ${conv.A.reference_number}`,
      content: 'Nobody has this one yet, flamingo unassigned',
      team_id: south,
    });
    conv.E = await create({
      contact_email: 'ursula.east@example.com',
      first_name: 'Ursula',
      last_name: 'Easton',
      subject: 'Invoice copy',
      content: 'Please send the invoice, flamingo',
      assignee_id: alice.id,
      team_id: south,
    });
    // A private note and an agent reply on A; a status change on A writes an activity message.
    await note(conv.A.uuid, 'Internal: this customer is a platypus collector, refund approved', true);
    await note(conv.A.uuid, 'We are sending a replacement kettle today', false);
    dataOf(
      await t.call({
        method: 'PUT',
        url: `/api/v1/conversations/${conv.A.uuid}/status`,
        payload: { status: 'Snoozed', snoozed_until: '1d' },
      }),
    );
    // A contact with no conversation, and a visitor-less phone match.
    await createContact(t, {
      email: 'quentin.lonely@example.com',
      first_name: 'Quentin',
      last_name: 'Lonely',
      phone_number: '+15550009876',
    });
  });
  after(async () => {
    await t?.close();
  });

  it('401 without credentials', async () => {
    assertError(await t.call({ method: 'GET', url: '/api/v1/search?q=flamingo', as: null }), 401, 'UnauthorizedException');
    assertError(
      await t.call({ method: 'GET', url: '/api/v1/search?q=flamingo', as: null, headers: { authorization: 'token a:b' } }),
      401,
      'UnauthorizedException',
    );
  });

  it('q is required, trimmed, 1..200 characters; limit must be an integer', async () => {
    for (const url of [
      '/api/v1/search',
      '/api/v1/search?q=',
      '/api/v1/search?q=%20%20%20',
      `/api/v1/search?q=${'a'.repeat(201)}`,
      `/api/v1/search?q=%20${'a'.repeat(201)}`,
    ]) {
      const body = assertError(await t.call({ method: 'GET', url }), 400, 'InputException');
      assert.match(body.message, /\bq\b/, url);
    }
    const limit = assertError(await t.call({ method: 'GET', url: '/api/v1/search?q=flamingo&limit=abc' }), 400, 'InputException');
    assert.match(limit.message, /limit/);
    // 200 characters after trimming are fine.
    await search(`  ${'a'.repeat(200)}  `);
  });

  it('an admin finds every match in every section', async () => {
    const results = await search('flamingo');
    assert.deepEqual(refsOf(results.messages), expected('A', 'B', 'C', 'D', 'E'));
    assert.ok(
      results.messages.every((m) => /flamingo/i.test(m.snippet)),
      JSON.stringify(results.messages),
    );
    const refund = await search('refund');
    assert.deepEqual(uuids(refund.conversations), expected('A', 'B'));
    const hit = refund.conversations.find((c) => c.uuid === conv.A.uuid);
    assert.deepEqual(hit?.contact, {
      id: conv.A.contact.id,
      first_name: 'Zebulon',
      last_name: 'Quixote',
      email: 'zebulon.quixote@example.com',
      name_highlights: [],
      email_highlights: [],
    });
    assert.deepEqual(hit?.subject_highlights, [[0, 6]]);
    assert.equal(hit?.status, 'Snoozed');
    assert.equal(hit?.inbox_id, inboxId);
    assert.equal(hit?.reference_number, conv.A.reference_number);
    assert.equal(hit?.id, conv.A.id);
    // "refund" is also in A's private note.
    assert.ok(refund.messages.some((m) => m.conversation_uuid === conv.A.uuid && m.private));
    // Contacts: by name, email and phone, including one without any conversation.
    assert.deepEqual(
      (await search('quixote')).contacts.map((c) => c.email),
      ['zebulon.quixote@example.com'],
    );
    assert.deepEqual(
      (await search('yodel@exa')).contacts.map((c) => c.first_name),
      ['Xavier'],
    );
    assert.deepEqual(
      (await search('+1555000')).contacts.map((c) => c.last_name),
      ['Lonely'],
    );
    const lonely = (await search('Quentin Lonely')).contacts;
    assert.equal(lonely.length, 1);
    assert.deepEqual(lonely[0], {
      id: lonely[0]?.id,
      first_name: 'Quentin',
      last_name: 'Lonely',
      email: 'quentin.lonely@example.com',
      phone_number: '+15550009876',
      avatar_url: null,
      type: 'contact',
      name_highlights: [
        [0, 7],
        [8, 14],
      ],
      email_highlights: [
        [0, 7],
        [8, 14],
      ],
      phone_highlights: [],
    });
  });

  it('matches a reference number exactly, with or without #, first', async () => {
    // D mentions A's number in its subject: found too, but after the exact match.
    assert.deepEqual(
      (await search(conv.A.reference_number)).conversations.map((c) => c.uuid),
      [conv.A.uuid, conv.D.uuid],
    );
    // With a leading #, the text is a reference: D's subject does not contain "#<number>".
    for (const q of [`#${conv.A.reference_number}`, ` #${conv.A.reference_number} `, `# ${conv.A.reference_number}`]) {
      assert.deepEqual(
        (await search(q)).conversations.map((c) => c.uuid),
        [conv.A.uuid],
        q,
      );
    }
    const other = await search(conv.B.reference_number);
    assert.equal(other.conversations[0]?.uuid, conv.B.uuid);
  });

  it('subjects: case-insensitive, each word the start of a word', async () => {
    assert.deepEqual(uuids((await search('kettle')).conversations), expected('A'));
    assert.deepEqual(uuids((await search('INVOIC')).conversations), expected('E'));
    assert.deepEqual(uuids((await search('REF')).conversations), expected('A', 'B'));
    assert.deepEqual(uuids((await search('fund')).conversations), []);
    // Two letters: words that start with them ("Printer"), not words that contain them.
    assert.deepEqual(uuids((await search('pr')).conversations), expected('C'));
    assert.deepEqual(uuids((await search('nt')).conversations), []);
    // Contacts alike.
    assert.deepEqual(
      (await search('xa')).contacts.map((c) => c.first_name),
      ['Xavier'],
    );
    assert.deepEqual((await search('avie')).contacts, []);
  });

  it('an agent with read_assigned finds only its own conversations, their messages and contacts', async () => {
    const forAlice = await search('flamingo', alice);
    assert.deepEqual(refsOf(forAlice.messages), expected('A', 'E'));
    const forBob = await search('flamingo', bob);
    assert.deepEqual(refsOf(forBob.messages), expected('B', 'C'));

    assert.deepEqual(uuids((await search('refund', alice)).conversations), expected('A'));
    assert.deepEqual(uuids((await search('refund', bob)).conversations), expected('B'));
    // Another agent's conversation by its reference number: nothing.
    assert.deepEqual((await search(`#${conv.B.reference_number}`, alice)).conversations, []);
    assert.deepEqual((await search(`#${conv.A.reference_number}`, bob)).conversations, []);
    // Contacts: only those of readable conversations; none without any conversation.
    assert.deepEqual(
      (await search('quixote', alice)).contacts.map((c) => c.first_name),
      ['Zebulon'],
    );
    assert.deepEqual((await search('quixote', bob)).contacts, []);
    assert.deepEqual((await search('yodel', alice)).contacts, []);
    assert.deepEqual((await search('lonely', alice)).contacts, []);
    assert.deepEqual((await search('lonely', carol)).contacts, []);
  });

  it('team and unassigned access: an agent sees its team and the unassigned, not another team', async () => {
    const forCarol = await search('flamingo', carol);
    // C: team North (hers); D: no agent (read_unassigned). Not A, B (others' with no team), nor E (South, assigned).
    assert.deepEqual(refsOf(forCarol.messages), expected('C', 'D'));
    assert.deepEqual(uuids((await search('printer', carol)).conversations), expected('C'));
    assert.deepEqual(uuids((await search('invoice', carol)).conversations), []);
    assert.deepEqual((await search('ursula', carol)).contacts, []);
    assert.deepEqual(
      (await search('victor', carol)).contacts.map((c) => c.last_name),
      ['Southey'],
    );
  });

  it('private notes: found by whoever may read the conversation and holds messages:read', async () => {
    const forAlice = await search('platypus', alice);
    assert.equal(forAlice.messages.length, 1);
    const noteHit = forAlice.messages[0];
    assert.equal(noteHit?.private, true);
    assert.equal(noteHit?.type, 'outgoing');
    assert.equal(noteHit?.conversation_uuid, conv.A.uuid);
    assert.equal(noteHit?.reference_number, conv.A.reference_number);
    assert.match(noteHit?.snippet ?? '', /platypus/);
    assert.deepEqual((await search('platypus', bob)).messages, []);
    assert.deepEqual((await search('platypus', carol)).messages, []);
    // dave may read every conversation but not messages: no messages at all.
    const forDave = await search('flamingo', dave);
    assert.deepEqual(forDave.messages, []);
    assert.deepEqual((await search('refund', dave)).conversations.length, 2);
    assert.deepEqual((await search('platypus', dave)).messages, []);
  });

  it('activity messages are never results', async () => {
    // Activity texts mention the team names and the new status; messages do not.
    for (const q of ['walrus', 'pelican', 'snoozed']) {
      assert.deepEqual((await search(q)).messages, [], q);
    }
  });

  it('a caller with no conversation access gets empty sections, not an error', async () => {
    for (const q of ['flamingo', 'refund', 'quixote', conv.A.reference_number]) {
      assert.deepEqual(await search(q, erin), { conversations: [], messages: [], contacts: [] });
    }
  });

  it('limit bounds each section; nothing found is empty, odd input is harmless', async () => {
    assert.equal((await search('flamingo', t.admin, '&limit=2')).messages.length, 2);
    assert.equal((await search('flamingo', t.admin, '&limit=0')).messages.length, 1);
    assert.equal((await search('flamingo', t.admin, '&limit=500')).messages.length, 5);
    assert.deepEqual(await search('nothing-matches-this-xyzzy'), { conversations: [], messages: [], contacts: [] });
    for (const q of ['#', '%', '_', '\\', "'; drop table messages; --", '"unterminated', '!!!', '& | !', 'a', 'é', '😀', '<b>x</b>']) {
      await search(q);
    }
    // A literal % is not a wildcard.
    assert.deepEqual((await search('%%%')).conversations, []);
  });

  it('web-search syntax: phrases and exclusions', async () => {
    assert.deepEqual(refsOf((await search('"replacement kettle"')).messages), expected('A'));
    assert.deepEqual(refsOf((await search('flamingo -unassigned -again')).messages), expected('A', 'C', 'E'));
  });

  it('messages: the newest matches first, and all messages when the newest ones hold too few', async () => {
    await note(conv.E.uuid, 'zanzibar in an older message', false);
    await note(conv.E.uuid, 'zanzibar in the newest message', false);
    const texts = (walkedMessages: number, firstWindows: number, limit: number) =>
      messageTexts('zanzibar', walkedMessages, firstWindows, limit);
    assert.deepEqual(await texts(1, 1_000_000, 1), ['zanzibar in the newest message']);
    assert.deepEqual(await texts(1_000_000, 1_000_000, 1), ['zanzibar in the newest message']);
    // The newest message alone holds too few matches for two results: the index finds the others.
    assert.deepEqual(await texts(1, 2, 2), ['zanzibar in the newest message', 'zanzibar in an older message']);
    assert.deepEqual(await texts(1, 1, 2), ['zanzibar in the newest message', 'zanzibar in an older message']);
  });

  it('messages in windows far back are found by the passes that follow, still the newest first', async () => {
    // Each note in a window of its own, windows apart: the message ids jump between them.
    const skip = (windows: number) =>
      sql`select setval(pg_get_serial_sequence('messages', 'id'), (select max(id) from messages) + ${windows << MESSAGE_WINDOW_BITS})`.execute(
        t.deps.db,
      );
    await note(conv.E.uuid, 'ocelot far back', false);
    await skip(5);
    await note(conv.E.uuid, 'ocelot in between', false);
    await skip(40);
    await note(conv.E.uuid, 'Ocelots recently', false);
    await skip(1);
    await note(conv.E.uuid, 'the newest message', false);
    assert.deepEqual(await messageTexts('ocelot', 1, 1, 1), ['Ocelots recently']);
    assert.deepEqual(await messageTexts('ocelot', 1, 1, 3), ['Ocelots recently', 'ocelot in between', 'ocelot far back']);
    // A phrase: the windows find both words, the check keeps the adjacent ones.
    assert.deepEqual(await messageTexts('"ocelot far"', 1, 1, 3), ['ocelot far back']);
    assert.deepEqual(await messageTexts('ocelot -between', 1, 1, 3), ['Ocelots recently', 'ocelot far back']);
    // Through HTTP, with the tuning it ships with.
    assert.deepEqual(
      (await search('ocelot')).messages.map((m) => m.snippet),
      ['Ocelots recently', 'ocelot in between', 'ocelot far back'],
    );
  });

  it('a phrase is looked for among the newest candidates with its words, up to the bound of checks', async () => {
    await note(conv.E.uuid, 'the gecko jumped left, an early message', false);
    for (let i = 0; i < 4; i++) await note(conv.E.uuid, `gecko ${i} then jumped`, false);
    assert.deepEqual(await messageTexts('"gecko jumped"', 0, 1, 10, 100), ['the gecko jumped left, an early message']);
    // Three candidates checked, the newest: none holds the phrase, and the search stops there.
    assert.deepEqual(await messageTexts('"gecko jumped"', 0, 1, 10, 3), []);
    // An excluded word is asked of the index itself: no candidate to check.
    assert.deepEqual(await messageTexts('gecko -then', 0, 1, 10, 3), ['the gecko jumped left, an early message']);
  });

  it('the index of windows answers the window query (its expression is the one indexed)', async () => {
    const query = messageQueryOf(foldTerms(parseQuery('ocelot'), ['ocelot']));
    const asked = query?.windowed([3, 2], 100);
    assert.ok(asked);
    const plan = await t.deps.db.connection().execute(async (conn) => {
      await sql`set enable_seqscan = off`.execute(conn);
      try {
        const { rows } = await sql<Record<string, string>>`explain select m.id from messages m
          where parley_search_window_vector(m.id >> ${sql.lit(MESSAGE_WINDOW_BITS)}, left(m.text_content, 20000)) @@ to_tsquery('simple', ${asked.query})`.execute(
          conn,
        );
        return rows.map((row) => Object.values(row).join(' ')).join('\n');
      } finally {
        await sql`reset enable_seqscan`.execute(conn);
      }
    });
    assert.match(plan, /messages_search_window_idx/);
    // Built again over stored messages and analyzed: PostgreSQL 17 and later (PGlite too) run
    // both with pg_catalog alone as the search path, and the function still finds its own.
    await sql`reindex index messages_search_window_idx`.execute(t.deps.db);
    await sql`analyze messages`.execute(t.deps.db);
  });

  /** The texts of the message search's hits for `q`, with this tuning. */
  async function messageTexts(q: string, walkedMessages: number, firstWindows: number, limit: number, maxChecked = 500): Promise<string[]> {
    const readable = accessFilter<WithC, 'c'>(readingEverything(t.admin.id));
    assert.ok(readable);
    const terms = parseQuery(q);
    const query = messageQueryOf(
      foldTerms(
        terms,
        await foldTexts(
          t.deps.db,
          terms.map((term) => term.text),
        ),
      ),
    );
    assert.ok(query);
    return (await searchMessages(t.deps.db, readable, {}, query, limit, { walkedMessages, firstWindows, maxChecked })).map((m) => m.text);
  }

  it('is documented in the OpenAPI document', async () => {
    const doc = (await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null })).json() as {
      paths: Record<
        string,
        Record<string, { parameters?: Array<{ name: string; required?: boolean }>; responses: Record<string, unknown> }>
      >;
    };
    const op = doc.paths['/api/v1/search']?.['get'];
    assert.ok(op);
    assert.equal(op.parameters?.find((p) => p.name === 'q')?.required, true);
    assert.ok(op.parameters?.some((p) => p.name === 'limit'));
    assert.ok(op.responses['200'] && op.responses['400'] && op.responses['401']);
  });
});
