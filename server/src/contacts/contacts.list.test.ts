// GET /api/v1/contacts: the paged list, its search and ordering (docs/api.md: Pagination and lists).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertContactShape, type Contact, contactCalls, type Paged } from '../../test/contacts.ts';
import { uniqueEmail } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

describe('contacts', () => {
  const clock = fakeClock();
  let t: TestApp;
  let agent: Caller;

  before(async () => {
    t = await buildTestApp({ clock });
    agent = await t.makeAgent();
  });
  after(() => t.close());

  const { update, list, newContact } = contactCalls(() => t, clock);

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
});
