// GET /api/v1/agents (paged, filtered, ordered) and GET /api/v1/agents/compact (docs/api.md:
// Agents and availability; Pagination and lists).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Agent, agentCalls, agentsFixtures, assertAgentShape, type Paged } from '../../test/agents.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';

describe('agents', () => {
  let t: TestApp;
  let agent: Caller;

  before(async () => {
    t = await buildTestApp();
    ({ agent } = await agentsFixtures(t));
  });
  after(() => t.close());

  const { list, newAgent } = agentCalls(() => t);

  describe('GET /agents (paged)', () => {
    before(async () => {
      for (const name of ['Zed', 'Yara', 'Xavier']) await newAgent({ first_name: name, last_name: 'Listed' });
    });

    it('returns the paged wrapper with full agent records', async () => {
      const page = dataOf<Paged<Agent>>(await list(''));
      assert.deepEqual(Object.keys(page).sort(), ['page', 'per_page', 'results', 'total', 'total_pages']);
      assert.equal(page.page, 1);
      assert.equal(page.per_page, 30);
      assert.ok(page.total >= 5);
      assert.equal(page.total_pages, Math.ceil(page.total / 30));
      assert.equal(page.results.length, Math.min(page.total, 30));
      for (const a of page.results) assertAgentShape(a);
      assert.ok(page.results.some((a) => a.id === t.admin.id));
      // default order: created_at asc, id tiebreaker
      const ids = page.results.map((a) => a.id);
      assert.deepEqual(
        ids,
        [...ids].sort((x, y) => x - y),
      );
    });

    it('clamps page_size into 1..100 and page to at least 1', async () => {
      const one = dataOf<Paged<Agent>>(await list('?page_size=0'));
      assert.equal(one.per_page, 1);
      assert.equal(one.results.length, 1);
      assert.equal(one.total_pages, one.total);
      const big = dataOf<Paged<Agent>>(await list('?page_size=1000'));
      assert.equal(big.per_page, 100);
      const negative = dataOf<Paged<Agent>>(await list('?page=-3&page_size=2'));
      assert.equal(negative.page, 1);
      assert.equal(negative.per_page, 2);
      const zero = dataOf<Paged<Agent>>(await list('?page=0'));
      assert.equal(zero.page, 1);
    });

    it('pages through the results, and total stays true past the last page', async () => {
      const all = dataOf<Paged<Agent>>(await list('?page_size=100')).results.map((a) => a.id);
      const p1 = dataOf<Paged<Agent>>(await list('?page=1&page_size=2'));
      const p2 = dataOf<Paged<Agent>>(await list('?page=2&page_size=2'));
      assert.deepEqual(
        [...p1.results, ...p2.results].map((a) => a.id),
        all.slice(0, 4),
      );
      assert.equal(p2.page, 2);
      const past = dataOf<Paged<Agent>>(await list('?page=999&page_size=2'));
      assert.deepEqual(past.results, []);
      assert.equal(past.total, all.length);
      assert.equal(past.page, 999);
    });

    it('refuses non-integer page values and unknown ordering with 400', async () => {
      for (const query of ['?page=abc', '?page=1.5', '?page_size=ten', '?page_size=2.5', '?order_by=password_hash', '?order=sideways']) {
        assertError(await list(query), 400, 'InputException');
      }
    });

    it('filters by q on name and email, case-insensitively', async () => {
      const byName = dataOf<Paged<Agent>>(await list('?q=yARA'));
      assert.deepEqual(
        byName.results.map((a) => a.first_name),
        ['Yara'],
      );
      assert.equal(byName.total, 1);
      const byFullName = dataOf<Paged<Agent>>(await list(`?q=${encodeURIComponent('xavier listed')}`));
      assert.deepEqual(
        byFullName.results.map((a) => a.first_name),
        ['Xavier'],
      );
      const byEmail = dataOf<Paged<Agent>>(await list(`?q=${encodeURIComponent(t.admin.email.toUpperCase())}`));
      assert.deepEqual(
        byEmail.results.map((a) => a.id),
        [t.admin.id],
      );
      const byLastName = dataOf<Paged<Agent>>(await list('?q=Listed&order_by=first_name'));
      assert.deepEqual(
        byLastName.results.map((a) => a.first_name),
        ['Xavier', 'Yara', 'Zed'],
      );
      // LIKE wildcards are taken literally
      assert.equal(dataOf<Paged<Agent>>(await list('?q=%25')).total, 0);
      assert.equal(dataOf<Paged<Agent>>(await list('?q=Y_ra')).total, 0);
      assert.equal(dataOf<Paged<Agent>>(await list('?q=Y%25a')).total, 0);
    });

    it('orders by order_by and order', async () => {
      const desc = dataOf<Paged<Agent>>(await list('?q=Listed&order_by=first_name&order=desc'));
      assert.deepEqual(
        desc.results.map((a) => a.first_name),
        ['Zed', 'Yara', 'Xavier'],
      );
      const byEmail = dataOf<Paged<Agent>>(await list('?order_by=email&page_size=100')).results.map((a) => a.email);
      assert.deepEqual(byEmail, [...byEmail].sort());
      const newest = dataOf<Paged<Agent>>(await list('?order_by=created_at&order=desc&page_size=100')).results.map((a) => a.id);
      assert.deepEqual(
        newest,
        [...newest].sort((x, y) => y - x),
      );
    });

    it('needs users:manage (403 for an Agent, 401 anonymous)', async () => {
      assertError(await t.call({ method: 'GET', url: '/api/v1/agents', as: agent }), 403, 'PermissionException');
      assertError(await t.call({ method: 'GET', url: '/api/v1/agents', as: null }), 401, 'UnauthorizedException');
    });
  });

  describe('GET /agents/compact', () => {
    it('answers any agent with id, name, avatar and availability', async () => {
      const items = dataOf<Array<Record<string, unknown>>>(await t.call({ method: 'GET', url: '/api/v1/agents/compact', as: agent }));
      assert.ok(items.length >= 2);
      for (const item of items) {
        assert.deepEqual(Object.keys(item).sort(), [
          'availability_status',
          'avatar_url',
          'email',
          'enabled',
          'first_name',
          'id',
          'last_name',
        ]);
      }
      assert.ok(items.some((i) => i['id'] === agent.id));
      assert.ok(items.some((i) => i['id'] === t.admin.id));
      assertError(await t.call({ method: 'GET', url: '/api/v1/agents/compact', as: null }), 401, 'UnauthorizedException');
    });
  });
});
