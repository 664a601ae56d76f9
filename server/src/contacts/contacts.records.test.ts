// /api/v1/contacts: create, read, update and block a contact, and the OpenAPI document of every
// contacts route (docs/api.md: Agents and availability; spec: Agent record, contact block).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertContactShape, type Contact, contactCalls, type Paged } from '../../test/contacts.ts';
import { agentWith, uniqueEmail, uniqueNumber } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

describe('contacts', () => {
  const clock = fakeClock();
  let t: TestApp;
  let agent: Caller;
  let moderator: Caller;
  let noNotes: Caller;

  before(async () => {
    t = await buildTestApp({ clock });
    agent = await t.makeAgent();
    moderator = await agentWith(t, ['contact_notes:delete', 'contact_notes:read']);
    noNotes = await agentWith(t, ['contacts:read']);
  });
  after(() => t.close());

  const { create, get, update, block, list, newContact, newReadableContact } = contactCalls(() => t, clock);

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

  describe('GET /contacts/{id}', () => {
    it('returns the contact; 404 for unknown, malformed, agent or deleted ids', async () => {
      const c = await newReadableContact();
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
      const c = await newReadableContact({
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
