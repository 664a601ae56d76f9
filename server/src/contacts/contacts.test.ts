// Every /api/v1/contacts endpoint (docs/api.md: Agents and availability; Pagination and lists; spec: Agent record, contact block).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createContact, uniqueEmail, uniqueNumber } from '../../test/factories.ts';
import { AGENT_RECORD_FIELDS, assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

type Contact = {
  id: number;
  created_at: string;
  updated_at: string;
  first_name: string;
  last_name: string;
  email: string | null;
  type: string;
  enabled: boolean;
  phone_number: string | null;
  phone_number_country_code: string | null;
  roles: string[];
  permissions: string[];
  teams: unknown[];
  api_key: string | null;
  api_key_last_used_at: string | null;
  custom_attributes: Record<string, unknown>;
  [key: string]: unknown;
};
type Note = {
  id: number;
  created_at: string;
  updated_at: string;
  contact_id: number;
  note: string;
  user_id: number | null;
  first_name: string;
  last_name: string;
  avatar_url: string | null;
};
type Paged<T> = { results: T[]; total: number; per_page: number; total_pages: number; page: number };

const RECORD_FIELDS = AGENT_RECORD_FIELDS;
const NOTE_FIELDS = ['avatar_url', 'contact_id', 'created_at', 'first_name', 'id', 'last_name', 'note', 'updated_at', 'user_id'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function assertContactShape(c: Contact): void {
  assert.deepEqual(Object.keys(c).sort(), RECORD_FIELDS);
  assert.ok(Number.isInteger(c.id));
  assert.match(c.created_at, ISO);
  assert.match(c.updated_at, ISO);
  assert.ok(['contact', 'visitor'].includes(c.type));
  assert.equal(typeof c.enabled, 'boolean');
  assert.deepEqual(c.roles, []);
  assert.deepEqual(c.permissions, []);
  assert.deepEqual(c.teams, []);
  assert.equal(c.api_key, null);
  assert.equal(c.api_key_last_used_at, null);
  assert.equal(typeof c.custom_attributes, 'object');
  assert.ok(c.custom_attributes !== null && !Array.isArray(c.custom_attributes));
}

describe('contacts', () => {
  const clock = fakeClock();
  let t: TestApp;
  let agent: Caller;
  let otherAgent: Caller;
  let moderator: Caller;
  let noNotes: Caller;

  before(async () => {
    t = await buildTestApp({ clock });
    agent = await t.makeAgent();
    otherAgent = await t.makeAgent();
    moderator = await agentWith(t, ['contact_notes:delete', 'contact_notes:read']);
    noNotes = await agentWith(t, ['contacts:read']);
  });
  after(() => t.close());

  const as = (caller: Caller | null | undefined) => (caller !== undefined ? { as: caller } : {});
  const create = (payload: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return t.call({ method: 'POST', url: '/api/v1/contacts', payload: payload as Record<string, unknown>, ...as(caller) });
  };
  const get = (id: number | string, caller?: Caller | null) => t.call({ method: 'GET', url: `/api/v1/contacts/${id}`, ...as(caller) });
  const update = (id: number | string, payload: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return t.call({ method: 'PUT', url: `/api/v1/contacts/${id}`, payload: payload as Record<string, unknown>, ...as(caller) });
  };
  const block = (id: number | string, payload: unknown, caller?: Caller | null) =>
    t.call({ method: 'PUT', url: `/api/v1/contacts/${id}/block`, payload: payload as Record<string, unknown>, ...as(caller) });
  const list = (query: string, caller?: Caller | null) => t.call({ method: 'GET', url: `/api/v1/contacts${query}`, ...as(caller) });
  const notes = (id: number | string, caller?: Caller | null) =>
    t.call({ method: 'GET', url: `/api/v1/contacts/${id}/notes`, ...as(caller) });
  const addNote = (id: number | string, payload: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return t.call({ method: 'POST', url: `/api/v1/contacts/${id}/notes`, payload: payload as Record<string, unknown>, ...as(caller) });
  };
  const deleteNote = (id: number | string, noteId: number | string, caller?: Caller | null) =>
    t.call({ method: 'DELETE', url: `/api/v1/contacts/${id}/notes/${noteId}`, ...as(caller) });
  const newContact = async (extra: Parameters<typeof createContact>[1] = {}) => {
    clock.advance(1000);
    return (await createContact(t, { first_name: 'New', ...extra })) as Contact;
  };

  describe('POST /contacts', () => {
    it('creates a contact with exactly the Agent record fields', async () => {
      const email = uniqueEmail('Grace.Hopper');
      const c = dataOf<Contact>(
        await create(
          {
            email: `  ${email.toUpperCase()} `,
            first_name: '  Grace ',
            last_name: ' Hopper ',
            phone_number: ' +1 555 0100 ',
            phone_number_country_code: 'us',
            custom_attributes: { plan: 'pro', seats: 5, nested: { a: [1, 2] } },
          },
          agent,
        ),
      );
      assertContactShape(c);
      assert.equal(c.type, 'contact');
      assert.equal(c.email, email.toLowerCase());
      assert.equal(c.first_name, 'Grace');
      assert.equal(c.last_name, 'Hopper');
      assert.equal(c.phone_number, '+1 555 0100');
      assert.equal(c.phone_number_country_code, 'US');
      assert.equal(c.enabled, true);
      assert.deepEqual(c.custom_attributes, { plan: 'pro', seats: 5, nested: { a: [1, 2] } });
      assert.equal(c.created_at, clock.now().toISOString());
      assert.deepEqual(dataOf<Contact>(await get(c.id)), c);
    });

    it('records a contact.created event in the outbox', async () => {
      const c = await newContact({ first_name: 'Evented' });
      const events = await t.deps.db.selectFrom('domain_events').where('type', '=', 'contact.created').select(['payload']).execute();
      const payloads = events.map((e) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload) as Record<string, unknown>);
      const mine = payloads.filter((p) => p['id'] === c.id);
      assert.equal(mine.length, 1);
      assert.equal(mine[0]!['email'], c.email);
      assert.equal(mine[0]!['first_name'], 'Evented');
    });

    it('applies defaults and accepts an external_user_id without email', async () => {
      const ext = `ext-${process.pid}-${uniqueNumber()}`;
      const c = dataOf<Contact>(await create({ first_name: 'Ext', external_user_id: ext }));
      assertContactShape(c);
      assert.equal(c.email, null);
      assert.equal(c.last_name, '');
      assert.equal(c.phone_number, null);
      assert.equal(c.phone_number_country_code, null);
      assert.deepEqual(c.custom_attributes, {});
    });

    it('refuses invalid bodies with 400 InputException and creates nothing', async () => {
      const email = uniqueEmail('bad');
      const base = { first_name: 'Bad', email };
      const bodies: Array<[string, unknown]> = [
        ['no email nor external id', { first_name: 'Bad' }],
        ['null email, no external id', { first_name: 'Bad', email: null }],
        ['missing first_name', { email }],
        ['empty first_name', { ...base, first_name: '' }],
        ['blank first_name', { ...base, first_name: '   ' }],
        ['first_name a number', { ...base, first_name: 5 }],
        ['first_name too long', { ...base, first_name: 'x'.repeat(129) }],
        ['bad email', { ...base, email: 'not-an-email' }],
        ['empty email', { ...base, email: '' }],
        ['email a number', { ...base, email: 42 }],
        ['last_name a number', { ...base, last_name: 7 }],
        ['phone a number', { ...base, phone_number: 5550100 }],
        ['phone too long', { ...base, phone_number: '1'.repeat(33) }],
        ['country code of 3 letters', { ...base, phone_number_country_code: 'USA' }],
        ['country code digits', { ...base, phone_number_country_code: '12' }],
        ['custom_attributes an array', { ...base, custom_attributes: [1, 2] }],
        ['custom_attributes a string', { ...base, custom_attributes: 'x' }],
        ['external id empty', { first_name: 'Bad', external_user_id: '' }],
        ['external id a number', { first_name: 'Bad', external_user_id: 12 }],
        ['body an array', [base]],
      ];
      for (const [label, payload] of bodies) {
        const body = assertError(await create(payload), 400, 'InputException');
        assert.ok(body.message.length > 0, label);
      }
      const missing = assertError(await create({ email }), 400, 'InputException');
      assert.match(missing.message, /first_name/);
      assert.equal(dataOf<Paged<Contact>>(await list(`?q=${encodeURIComponent(email)}`)).total, 0);
    });

    it('never lets unknown properties through (400 or ignored)', async () => {
      const email = uniqueEmail('extra');
      const res = await create({ first_name: 'Extra', email, enabled: false, type: 'agent', api_key: 'x', roles: ['Admin'] });
      if (res.statusCode === 400) {
        assertError(res, 400, 'InputException');
      } else {
        const c = dataOf<Contact>(res);
        assert.equal(c.enabled, true);
        assert.equal(c.type, 'contact');
        assert.equal(c.api_key, null);
        assert.deepEqual(c.roles, []);
      }
    });

    it('answers 409 for a duplicate email (case-insensitively) or external id', async () => {
      const c = await newContact();
      const dup = assertError(await create({ first_name: 'Dup', email: c.email!.toUpperCase() }), 409, 'ConflictException');
      assert.match(dup.message, /email/);
      const ext = `dup-ext-${process.pid}-${uniqueNumber()}`;
      dataOf<Contact>(await create({ first_name: 'Ext', external_user_id: ext }));
      assertError(await create({ first_name: 'Ext2', external_user_id: ext, email: uniqueEmail() }), 409, 'ConflictException');
      // an agent's email is not a contact's: no clash
      const sameAsAgent = dataOf<Contact>(await create({ first_name: 'Agentish', email: agent.email }));
      assert.equal(sameAsAgent.email, agent.email);
    });

    it('answers 401 without credentials and 403 without contacts:write', async () => {
      const email = uniqueEmail('denied');
      assertError(await create({ first_name: 'X', email }, null), 401, 'UnauthorizedException');
      assertError(await create({ first_name: 'X', email }, noNotes), 403, 'PermissionException');
      assert.equal(dataOf<Paged<Contact>>(await list(`?q=${encodeURIComponent(email)}`)).total, 0);
    });
  });

  describe('GET /contacts (paged)', () => {
    const marker = `zq${process.pid}m`;
    let listed: Contact[] = [];

    before(async () => {
      listed = [];
      for (const [first, phone] of [
        ['Charlie', '+44 20 7946 0001'],
        ['alice', '+44 20 7946 0002'],
        ['Bob', null],
      ] as const) {
        listed.push(await newContact({ first_name: first, last_name: marker, email: uniqueEmail(first), phone_number: phone }));
      }
      // a visitor (created by the widget later) is listed too; a deleted contact is not
      const now = clock.now();
      await t.deps.db
        .insertInto('users')
        .values([
          {
            type: 'visitor',
            email: null,
            first_name: 'Visiting',
            last_name: marker,
            custom_attributes: '{}',
            external_user_id: null,
            password_hash: null,
            phone_number: null,
            phone_number_country_code: null,
            avatar_url: null,
            api_key: null,
            api_secret_hash: null,
            created_at: now,
            updated_at: now,
          },
          {
            type: 'contact',
            email: uniqueEmail('gone'),
            first_name: 'Gone',
            last_name: marker,
            custom_attributes: '{}',
            external_user_id: null,
            password_hash: null,
            phone_number: null,
            phone_number_country_code: null,
            avatar_url: null,
            api_key: null,
            api_secret_hash: null,
            created_at: now,
            updated_at: now,
            deleted_at: now,
          },
        ])
        .execute();
    });

    it('returns the paged wrapper, newest first by default, contacts and visitors only', async () => {
      const page = dataOf<Paged<Contact>>(await list(''));
      assert.deepEqual(Object.keys(page).sort(), ['page', 'per_page', 'results', 'total', 'total_pages']);
      assert.equal(page.page, 1);
      assert.equal(page.per_page, 30);
      assert.equal(page.total_pages, Math.ceil(page.total / 30));
      assert.equal(page.results.length, Math.min(page.total, 30));
      for (const c of page.results) assertContactShape(c);
      assert.ok(!page.results.some((c) => c.id === t.admin.id || c.id === agent.id), 'agents are not contacts');
      const mine = dataOf<Paged<Contact>>(await list(`?q=${marker}`));
      assert.equal(mine.total, 4);
      assert.deepEqual(
        mine.results.map((c) => c.first_name),
        ['Visiting', 'Bob', 'alice', 'Charlie'],
      );
      assert.equal(mine.results[0]!.type, 'visitor');
      const stamps = page.results.map((c) => c.created_at);
      assert.deepEqual(stamps, [...stamps].sort().reverse());
    });

    it('clamps page_size into 1..100 and page to at least 1', async () => {
      const one = dataOf<Paged<Contact>>(await list('?page_size=0'));
      assert.equal(one.per_page, 1);
      assert.equal(one.results.length, 1);
      assert.equal(one.total_pages, one.total);
      assert.equal(dataOf<Paged<Contact>>(await list('?page_size=-5')).per_page, 1);
      assert.equal(dataOf<Paged<Contact>>(await list('?page_size=1000')).per_page, 100);
      const negative = dataOf<Paged<Contact>>(await list('?page=-3&page_size=2'));
      assert.equal(negative.page, 1);
      assert.equal(negative.per_page, 2);
      assert.equal(dataOf<Paged<Contact>>(await list('?page=0')).page, 1);
    });

    it('pages through the results; total stays true past the last page', async () => {
      const all = dataOf<Paged<Contact>>(await list(`?q=${marker}&order_by=first_name`)).results.map((c) => c.id);
      const p1 = dataOf<Paged<Contact>>(await list(`?q=${marker}&order_by=first_name&page=1&page_size=3`));
      const p2 = dataOf<Paged<Contact>>(await list(`?q=${marker}&order_by=first_name&page=2&page_size=3`));
      assert.equal(p1.total_pages, 2);
      assert.deepEqual(
        [...p1.results, ...p2.results].map((c) => c.id),
        all,
      );
      const past = dataOf<Paged<Contact>>(await list(`?q=${marker}&page=50&page_size=3`));
      assert.deepEqual(past.results, []);
      assert.equal(past.total, 4);
      assert.equal(past.page, 50);
    });

    it('refuses non-integer page values and unknown ordering with 400', async () => {
      for (const query of [
        '?page=abc',
        '?page=1.5',
        '?page_size=ten',
        '?page_size=2.5',
        '?order_by=password_hash',
        '?order=sideways',
        `?q=${'x'.repeat(201)}`,
      ]) {
        assertError(await list(query), 400, 'InputException');
      }
    });

    it('searches name, email and phone case-insensitively, with LIKE wildcards taken literally', async () => {
      const names = async (q: string) =>
        dataOf<Paged<Contact>>(await list(`?q=${encodeURIComponent(q)}&order_by=first_name&order=asc`)).results.map((c) => c.first_name);
      assert.deepEqual(await names('ALICE'), ['alice']);
      assert.deepEqual(await names(`charlie ${marker}`), ['Charlie']);
      assert.deepEqual(await names(listed[2]!.email!.toUpperCase()), ['Bob']);
      assert.deepEqual(await names('7946 0002'), ['alice']);
      assert.deepEqual(await names(`  ${marker.toUpperCase()}  `), ['alice', 'Bob', 'Charlie', 'Visiting']);
      assert.deepEqual(await names('%'), []);
      assert.deepEqual(await names(`_${marker}`), [], 'an unescaped _ would match the space before the last name');
      // With the marker: a bare `b_b` may occur in another test's random email (the agent's: `…_mb_b3…`).
      assert.deepEqual(await names(`B_b ${marker}`), [], 'an unescaped _ would match Bob');
      assert.deepEqual(await names('\\'), []);
      assert.deepEqual(await names('Gone'), []);
    });

    it('orders by order_by and order, id as tiebreaker', async () => {
      const names = async (query: string) => dataOf<Paged<Contact>>(await list(`?q=${marker}&${query}`)).results.map((c) => c.first_name);
      // names sort case-insensitively, the same on PGlite and PostgreSQL whatever the collation
      assert.deepEqual(await names('order_by=first_name&order=asc'), ['alice', 'Bob', 'Charlie', 'Visiting']);
      assert.deepEqual(await names('order_by=first_name&order=desc'), ['Visiting', 'Charlie', 'Bob', 'alice']);
      assert.deepEqual(await names('order_by=created_at&order=asc'), ['Charlie', 'alice', 'Bob', 'Visiting']);
      const byEmail = dataOf<Paged<Contact>>(await list('?order_by=email&order=asc&page_size=100')).results;
      const emails = byEmail.map((c) => c.email).filter((e): e is string => e !== null);
      assert.deepEqual(emails, [...emails].sort());
      dataOf<Contact>(await update(listed[0]!.id, { last_name: marker }));
      assert.equal((await names('order_by=updated_at&order=desc'))[0], 'Charlie');
    });

    it('needs contacts:read_all (403 for an Agent, 401 anonymous)', async () => {
      assertError(await list('', agent), 403, 'PermissionException');
      assertError(await list('', null), 401, 'UnauthorizedException');
    });
  });

  describe('GET /contacts/{id}', () => {
    it('returns the contact; 404 for unknown, malformed, agent or deleted ids', async () => {
      const c = await newContact();
      assertContactShape(dataOf<Contact>(await get(c.id, agent)));
      assertError(await get(987654), 404, 'NotFoundException');
      assertError(await get('abc'), 404, 'NotFoundException');
      assertError(await get(0), 404, 'NotFoundException');
      assertError(await get(agent.id), 404, 'NotFoundException');
      assertError(await get(t.admin.id), 404, 'NotFoundException');
      await t.deps.db.updateTable('users').set({ deleted_at: clock.now() }).where('id', '=', c.id).execute();
      assertError(await get(c.id), 404, 'NotFoundException');
    });

    it('answers 401 without credentials and 403 without contacts:read', async () => {
      const c = await newContact();
      assertError(await get(c.id, null), 401, 'UnauthorizedException');
      assertError(await get(c.id, moderator), 403, 'PermissionException');
    });
  });

  describe('PUT /contacts/{id}', () => {
    it('updates only the given fields; custom_attributes are replaced', async () => {
      const c = await newContact({
        last_name: 'Keep',
        phone_number: '123',
        phone_number_country_code: 'FR',
        custom_attributes: { a: 1, b: 2 },
      });
      const u = dataOf<Contact>(await update(c.id, { first_name: ' Renamed ', custom_attributes: { c: 3 } }, agent));
      assertContactShape(u);
      assert.equal(u.first_name, 'Renamed');
      assert.equal(u.last_name, 'Keep');
      assert.equal(u.email, c.email);
      assert.equal(u.phone_number, '123');
      assert.equal(u.phone_number_country_code, 'FR');
      assert.deepEqual(u.custom_attributes, { c: 3 });
      assert.equal(u.created_at, c.created_at);
      assert.ok(u.updated_at > c.updated_at);
      const email = uniqueEmail('Moved');
      const v = dataOf<Contact>(
        await update(c.id, { email: email.toUpperCase(), phone_number: null, phone_number_country_code: 'de', last_name: '' }),
      );
      assert.equal(v.email, email.toLowerCase());
      assert.equal(v.phone_number, null);
      assert.equal(v.phone_number_country_code, 'DE');
      assert.equal(v.last_name, '');
      assert.equal(v.first_name, 'Renamed');
      assert.deepEqual(v.custom_attributes, { c: 3 });
      assert.deepEqual(dataOf<Contact>(await get(c.id)), v);
      // an empty body changes nothing but updated_at
      const w = dataOf<Contact>(await update(c.id, {}));
      assert.deepEqual({ ...w, updated_at: v.updated_at }, v);
    });

    it('answers 409 on an email or external id clash, but a contact may keep its own', async () => {
      const a = await newContact();
      const b = await newContact();
      assertError(await update(b.id, { email: a.email!.toUpperCase() }), 409, 'ConflictException');
      assert.equal(dataOf<Contact>(await update(a.id, { email: a.email })).email, a.email);
      const ext = `put-ext-${process.pid}-${uniqueNumber()}`;
      dataOf(await update(a.id, { external_user_id: ext }));
      assertError(await update(b.id, { external_user_id: ext }), 409, 'ConflictException');
      assert.equal(dataOf<Contact>(await get(b.id)).email, b.email);
    });

    it('refuses bad input with 400; a contact keeps an email or an external id', async () => {
      const c = await newContact();
      const bodies: unknown[] = [
        { first_name: '' },
        { first_name: '  ' },
        { first_name: 3 },
        { email: 'nope' },
        { email: 5 },
        { email: null },
        { phone_number_country_code: 'GBR' },
        { custom_attributes: [] },
        { custom_attributes: null },
        { last_name: null },
      ];
      for (const payload of bodies) assertError(await update(c.id, payload), 400, 'InputException');
      assert.deepEqual(dataOf<Contact>(await get(c.id)), c);
    });

    it('404 for unknown or agent ids, 401 anonymous, 403 without contacts:write', async () => {
      const c = await newContact();
      assertError(await update(987654, { first_name: 'X' }), 404, 'NotFoundException');
      assertError(await update(agent.id, { first_name: 'X' }), 404, 'NotFoundException');
      assertError(await update('abc', { first_name: 'X' }), 404, 'NotFoundException');
      assertError(await update(c.id, { first_name: 'X' }, null), 401, 'UnauthorizedException');
      assertError(await update(c.id, { first_name: 'X' }, noNotes), 403, 'PermissionException');
      assert.equal(dataOf<Contact>(await get(c.id)).first_name, c.first_name);
      // the agent's own record was not touched
      const me = dataOf<{ first_name: string }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent }));
      assert.notEqual(me.first_name, 'X');
    });
  });

  describe('PUT /contacts/{id}/block', () => {
    it('blocks and unblocks, returning the contact', async () => {
      const c = await newContact();
      const blocked = dataOf<Contact>(await block(c.id, { enabled: false }));
      assertContactShape(blocked);
      assert.equal(blocked.enabled, false);
      assert.equal(dataOf<Contact>(await get(c.id)).enabled, false);
      // blocked contacts are still listed
      assert.equal(dataOf<Paged<Contact>>(await list(`?q=${encodeURIComponent(c.email!)}`)).results[0]!.enabled, false);
      const unblocked = dataOf<Contact>(await block(c.id, { enabled: true }));
      assert.equal(unblocked.enabled, true);
      assert.equal(dataOf<Contact>(await get(c.id)).enabled, true);
    });

    it('400 for a missing or non-boolean enabled', async () => {
      const c = await newContact();
      for (const payload of [{}, { enabled: 'false' }, { enabled: 0 }, { enabled: null }]) {
        assertError(await block(c.id, payload), 400, 'InputException');
      }
      assert.equal(dataOf<Contact>(await get(c.id)).enabled, true);
    });

    it('404 for unknown or agent ids, 401 anonymous, 403 without contacts:block', async () => {
      const c = await newContact();
      assertError(await block(987654, { enabled: false }), 404, 'NotFoundException');
      assertError(await block(agent.id, { enabled: false }), 404, 'NotFoundException');
      assertError(await block(c.id, { enabled: false }, null), 401, 'UnauthorizedException');
      assertError(await block(c.id, { enabled: false }, agent), 403, 'PermissionException');
      assert.equal(dataOf<Contact>(await get(c.id)).enabled, true);
      // the agent was not disabled by the attempt on its id
      assert.equal(dataOf<{ enabled: boolean }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent })).enabled, true);
    });
  });

  describe('notes', () => {
    it('adds notes (trimmed) with the author, and lists them newest first', async () => {
      const c = await newContact();
      assert.deepEqual(dataOf<Note[]>(await notes(c.id, agent)), []);
      const first = dataOf<Note>(await addNote(c.id, { note: '  first note  ' }, agent));
      assert.deepEqual(Object.keys(first).sort(), NOTE_FIELDS);
      assert.equal(first.note, 'first note');
      assert.equal(first.contact_id, c.id);
      assert.equal(first.user_id, agent.id);
      assert.match(first.first_name, /^Agent\d+$/);
      assert.equal(first.last_name, 'Test');
      assert.equal(first.avatar_url, null);
      assert.match(first.created_at, ISO);
      const second = dataOf<Note>(await addNote(c.id, { note: 'second' }, otherAgent));
      assert.equal(second.user_id, otherAgent.id);
      const listedNotes = dataOf<Note[]>(await notes(c.id, agent));
      assert.deepEqual(
        listedNotes.map((n) => n.id),
        [second.id, first.id],
      );
      assert.deepEqual(listedNotes[1], first);
      // a note of 10000 characters is accepted
      assert.equal(dataOf<Note>(await addNote(c.id, { note: 'n'.repeat(10000) })).note.length, 10000);
      // notes of another contact are not mixed in
      const other = await newContact();
      assert.deepEqual(dataOf<Note[]>(await notes(other.id)), []);
    });

    it('refuses empty, blank, too long or wrong-typed notes with 400', async () => {
      const c = await newContact();
      for (const payload of [{}, { note: '' }, { note: '   \n ' }, { note: 'n'.repeat(10001) }, { note: 42 }, { note: null }]) {
        assertError(await addNote(c.id, payload), 400, 'InputException');
      }
      assert.deepEqual(dataOf<Note[]>(await notes(c.id)), []);
    });

    it('notes are HTML sanitised like messages: scripts, handlers and javascript: links are gone, formatting stays', async () => {
      const c = await newContact();
      const raw =
        '<p onclick="steal()">VIP <b>since</b> <i>2019</i>, <a href="https://crm.example.com/42" onmouseover="x()">CRM</a></p>' +
        '<script>alert(document.cookie)</script><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">click</a>' +
        '<ul><li>prefers email</li></ul><iframe src="https://evil.example.com"></iframe><style>body{display:none}</style>';
      const added = dataOf<Note>(await addNote(c.id, { note: raw }, agent));
      const [listed] = dataOf<Note[]>(await notes(c.id, agent));
      assert.ok(listed);
      assert.equal(listed.note, added.note, 'the list answers what was stored');
      for (const stored of [added.note, listed.note]) {
        for (const banned of [/<script/i, /alert\(/, /onerror/i, /onclick/i, /onmouseover/i, /javascript:/i, /<iframe/i, /<style/i]) {
          assert.doesNotMatch(stored, banned);
        }
        assert.match(stored, /<p>VIP <b>since<\/b> <i>2019<\/i>, <a href="https:\/\/crm\.example\.com\/42"[^>]*>CRM<\/a><\/p>/);
        assert.match(stored, /<ul><li>prefers email<\/li><\/ul>/);
        assert.match(stored, /<a[^>]*>click<\/a>/, 'the text of a refused link stays');
      }
      // Plain text is read as HTML: markup characters come back escaped.
      assert.equal(dataOf<Note>(await addNote(c.id, { note: 'a < b & c' }, agent)).note, 'a &lt; b &amp; c');
    });

    it('refuses a note that sanitising empties, and one that grows past 10000 characters, storing nothing', async () => {
      const c = await newContact();
      for (const note of ['<script>alert(1)</script>', '<p onclick="x()"> </p>', '<style>p{}</style><iframe></iframe>']) {
        assertError(await addNote(c.id, { note }, agent), 400, 'InputException');
      }
      const grows = assertError(await addNote(c.id, { note: '<'.repeat(10000) }, agent), 400, 'InputException');
      assert.match(grows.message, /10000/);
      assert.deepEqual(dataOf<Note[]>(await notes(c.id)), []);
      // An image alone is content.
      assert.match(
        dataOf<Note>(await addNote(c.id, { note: '<img src="https://cdn.example.com/a.png" onerror="x()">' }, agent)).note,
        /^<img src="https:\/\/cdn\.example\.com\/a\.png" \/>$/,
      );
    });

    it('404 for unknown or agent ids; 401 anonymous; 403 without contact_notes permissions', async () => {
      const c = await newContact();
      assertError(await notes(987654), 404, 'NotFoundException');
      assertError(await notes(agent.id), 404, 'NotFoundException');
      assertError(await addNote(987654, { note: 'x' }), 404, 'NotFoundException');
      assertError(await addNote(agent.id, { note: 'x' }), 404, 'NotFoundException');
      assertError(await notes(c.id, null), 401, 'UnauthorizedException');
      assertError(await addNote(c.id, { note: 'x' }, null), 401, 'UnauthorizedException');
      assertError(await notes(c.id, noNotes), 403, 'PermissionException');
      assertError(await addNote(c.id, { note: 'x' }, noNotes), 403, 'PermissionException');
      assertError(await addNote(c.id, { note: 'x' }, moderator), 403, 'PermissionException');
      assert.deepEqual(dataOf<Note[]>(await notes(c.id)), []);
    });

    it('the author deletes their own note with contact_notes:write', async () => {
      const c = await newContact();
      const n = dataOf<Note>(await addNote(c.id, { note: 'mine' }, agent));
      assert.equal(dataOf<boolean>(await deleteNote(c.id, n.id, agent)), true);
      assert.deepEqual(dataOf<Note[]>(await notes(c.id)), []);
      assertError(await deleteNote(c.id, n.id, agent), 404, 'NotFoundException');
    });

    it("deleting another agent's note needs contact_notes:delete", async () => {
      const c = await newContact();
      const n = dataOf<Note>(await addNote(c.id, { note: 'theirs' }, agent));
      assertError(await deleteNote(c.id, n.id, otherAgent), 403, 'PermissionException');
      assertError(await deleteNote(c.id, n.id, noNotes), 403, 'PermissionException');
      assertError(await deleteNote(c.id, n.id, null), 401, 'UnauthorizedException');
      assert.equal(dataOf<Note[]>(await notes(c.id)).length, 1);
      assert.equal(dataOf<boolean>(await deleteNote(c.id, n.id, moderator)), true);
      const m = dataOf<Note>(await addNote(c.id, { note: 'by agent again' }, agent));
      assert.equal(dataOf<boolean>(await deleteNote(c.id, m.id)), true, 'Admin holds contact_notes:delete');
      assert.deepEqual(dataOf<Note[]>(await notes(c.id)), []);
    });

    it('404 for an unknown note, a note of another contact, or an unknown contact', async () => {
      const c = await newContact();
      const other = await newContact();
      const n = dataOf<Note>(await addNote(c.id, { note: 'here' }, agent));
      assertError(await deleteNote(c.id, 987654, agent), 404, 'NotFoundException');
      assertError(await deleteNote(other.id, n.id, agent), 404, 'NotFoundException');
      assertError(await deleteNote(987654, n.id, agent), 404, 'NotFoundException');
      assertError(await deleteNote(agent.id, n.id, agent), 404, 'NotFoundException');
      assertError(await deleteNote(c.id, 'abc', agent), 404, 'NotFoundException');
      assert.equal(dataOf<Note[]>(await notes(c.id)).length, 1);
    });
  });

  it('documents every contacts route in the OpenAPI document', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null });
    assert.equal(res.statusCode, 200);
    const doc = res.json() as { paths: Record<string, Record<string, { responses: Record<string, unknown>; description?: string }>> };
    // (429: the failed-authentication limit, documented on every authenticated operation)
    const expected: Array<[string, string, string[]]> = [
      ['/api/v1/contacts', 'get', ['200', '400', '401', '403', '429']],
      ['/api/v1/contacts', 'post', ['200', '400', '401', '403', '409', '429']],
      ['/api/v1/contacts/{id}', 'get', ['200', '401', '403', '404', '429']],
      ['/api/v1/contacts/{id}', 'put', ['200', '400', '401', '403', '404', '409', '429']],
      ['/api/v1/contacts/{id}/block', 'put', ['200', '400', '401', '403', '404', '429']],
      ['/api/v1/contacts/{id}/notes', 'get', ['200', '401', '403', '404', '429']],
      ['/api/v1/contacts/{id}/notes', 'post', ['200', '400', '401', '403', '404', '429']],
      ['/api/v1/contacts/{id}/notes/{note_id}', 'delete', ['200', '401', '403', '404', '429']],
    ];
    for (const [path, method, codes] of expected) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path}`);
      assert.deepEqual(Object.keys(op.responses).sort(), codes, `${method} ${path}`);
    }
    assert.match(doc.paths['/api/v1/contacts/{id}/block']!['put']!.description ?? '', /contacts:block/);
  });
});
