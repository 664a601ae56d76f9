// Every /api/v1/agents endpoint (docs/api.md: Agents and availability; Pagination and lists) and the availability rules.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AGENT_ROLE_PERMISSIONS } from '../auth/permissions.ts';
import { agentWith, createTeam } from '../../test/factories.ts';
import { AGENT_RECORD_FIELDS, assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';

type Team = { id: number; name: string; emoji: string };
type Agent = {
  id: number;
  created_at: string;
  updated_at: string;
  first_name: string;
  last_name: string;
  email: string;
  type: string;
  availability_status: string;
  enabled: boolean;
  roles: string[];
  permissions: string[];
  teams: Team[];
  api_key: string | null;
  api_key_last_used_at: string | null;
  custom_attributes: Record<string, unknown>;
  [key: string]: unknown;
};
type Paged<T> = { results: T[]; total: number; per_page: number; total_pages: number; page: number };

const AGENT_FIELDS = AGENT_RECORD_FIELDS;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function assertAgentShape(a: Agent): void {
  assert.deepEqual(Object.keys(a).sort(), AGENT_FIELDS);
  assert.ok(Number.isInteger(a.id));
  assert.match(a.created_at, ISO);
  assert.match(a.updated_at, ISO);
  assert.equal(a.type, 'agent');
  assert.ok(['available', 'busy', 'away', 'offline'].includes(a.availability_status));
  assert.equal(typeof a.enabled, 'boolean');
  assert.ok(Array.isArray(a.roles));
  assert.deepEqual(a.permissions, [...a.permissions].sort(), 'permissions are sorted');
  assert.equal(new Set(a.permissions).size, a.permissions.length, 'permissions have no duplicates');
  for (const team of a.teams) assert.deepEqual(Object.keys(team).sort(), ['emoji', 'id', 'name']);
  assert.deepEqual(typeof a.custom_attributes, 'object');
}

let seq = 0;
const uniqueEmail = (label = 'a') => `${label}-${process.pid}-${Date.now()}-${++seq}@example.com`;

describe('agents', () => {
  let t: TestApp;
  let agent: Caller;
  let teamA: Team;
  let teamB: Team;

  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent();
    teamA = await createTeam(t, { name: 'Alpha team', emoji: '🅰️' });
    teamB = await createTeam(t, { name: 'Bravo team' });
    dataOf(
      await t.call({
        method: 'POST',
        url: '/api/v1/roles',
        payload: { name: 'Reporter', permissions: ['reports:manage', 'tags:manage', 'messages:read'] },
      }),
    );
    dataOf(await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name: 'UserManager', permissions: ['users:manage'] } }));
  });
  after(() => t.close());

  const create = (payload: Record<string, unknown>, as?: Caller | null) =>
    t.call({ method: 'POST', url: '/api/v1/agents', payload, ...(as !== undefined ? { as } : {}) });
  const get = (id: number | string, as?: Caller | null) =>
    t.call({ method: 'GET', url: `/api/v1/agents/${id}`, ...(as !== undefined ? { as } : {}) });
  const update = (id: number, payload: Record<string, unknown>, as?: Caller | null) =>
    t.call({ method: 'PUT', url: `/api/v1/agents/${id}`, payload, ...(as !== undefined ? { as } : {}) });
  const list = (query: string) => t.call({ method: 'GET', url: `/api/v1/agents${query}` });
  const newAgent = async (extra: Record<string, unknown> = {}) =>
    dataOf<Agent>(await create({ first_name: 'New', email: uniqueEmail(), roles: ['Agent'], ...extra }));

  describe('POST /agents', () => {
    it('creates an agent with exactly the spec fields', async () => {
      const email = uniqueEmail('Ada.Lovelace');
      const a = dataOf<Agent>(
        await create({
          first_name: '  Ada ',
          last_name: 'Lovelace',
          email: email.toUpperCase(),
          roles: ['Agent', 'reporter'],
          teams: [teamA.id, teamB.id],
          password: 'long-enough-pw',
        }),
      );
      assertAgentShape(a);
      assert.equal(a.first_name, 'Ada');
      assert.equal(a.last_name, 'Lovelace');
      assert.equal(a.email, email.toLowerCase());
      assert.equal(a.enabled, true);
      assert.deepEqual(a.roles, ['Agent', 'Reporter']);
      assert.deepEqual(a.permissions, [...new Set([...AGENT_ROLE_PERMISSIONS, 'reports:manage', 'tags:manage', 'messages:read'])].sort());
      assert.deepEqual(a.teams.map((x) => x.id).sort(), [teamA.id, teamB.id].sort());
      assert.deepEqual(
        a.teams.find((x) => x.id === teamA.id),
        { id: teamA.id, name: 'Alpha team', emoji: '🅰️' },
      );
      assert.equal(a.api_key, null);
      assert.equal(a.api_key_last_used_at, null);
      assert.deepEqual(a.custom_attributes, {});
      assert.deepEqual(dataOf<Agent>(await get(a.id)), a);
      // the password works for login
      const login = await t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: 'long-enough-pw' }, as: null });
      assert.equal(dataOf<Agent>(login).id, a.id);
    });

    it('applies defaults and enabled:false', async () => {
      const a = await newAgent({ enabled: false });
      assert.equal(a.enabled, false);
      assert.equal(a.last_name, '');
      assert.deepEqual(a.teams, []);
      assert.deepEqual(a.permissions, [...AGENT_ROLE_PERMISSIONS].sort());
    });

    it('refuses invalid bodies with 400 InputException', async () => {
      const base = { first_name: 'Bad', email: uniqueEmail('bad'), roles: ['Agent'] };
      const { first_name: _f, ...noFirst } = base;
      const { email: _e, ...noEmail } = base;
      const { roles: _r, ...noRoles } = base;
      const bodies: Array<[string, Record<string, unknown>]> = [
        ['missing first_name', noFirst],
        ['missing email', noEmail],
        ['missing roles', noRoles],
        ['empty roles', { ...base, roles: [] }],
        ['unknown role', { ...base, roles: ['Agent', 'Wizard'] }],
        ['roles not an array', { ...base, roles: 'Agent' }],
        ['unknown team', { ...base, teams: [teamA.id, 987654] }],
        ['team not an integer', { ...base, teams: ['x'] }],
        ['bad email', { ...base, email: 'not-an-email' }],
        ['email a number', { ...base, email: 42 }],
        ['first_name a number', { ...base, first_name: 5 }],
        ['blank first_name', { ...base, first_name: '   ' }],
        ['short password', { ...base, password: 'short' }],
        ['password a number', { ...base, password: 12345678901 }],
        ['enabled a string', { ...base, enabled: 'yes' }],
      ];
      for (const [label, payload] of bodies) {
        const body = assertError(await create(payload), 400, 'InputException');
        assert.ok(body.message.length > 0, label);
      }
      const unknownRole = assertError(await create({ ...base, roles: ['Wizard'] }), 400, 'InputException');
      assert.match(unknownRole.message, /roles/);
      const unknownTeam = assertError(await create({ ...base, teams: [987654] }), 400, 'InputException');
      assert.match(unknownTeam.message, /teams/);
      // nothing was created by the refused requests
      const found = dataOf<Paged<Agent>>(await list(`?q=${encodeURIComponent(base.email)}`));
      assert.equal(found.total, 0);
    });

    it('answers 409 for a duplicate email, case-insensitively', async () => {
      const a = await newAgent();
      assertError(await create({ first_name: 'Dup', email: a.email.toUpperCase(), roles: ['Agent'] }), 409, 'ConflictException');
      assertError(await create({ first_name: 'Dup', email: t.admin.email, roles: ['Agent'] }), 409, 'ConflictException');
    });

    it('answers 401 without credentials and 403 for an Agent-role caller', async () => {
      const payload = { first_name: 'X', email: uniqueEmail(), roles: ['Admin'] };
      assertError(await create(payload, null), 401, 'UnauthorizedException');
      assertError(await create(payload, agent), 403, 'PermissionException');
      assert.equal(dataOf<Paged<Agent>>(await list(`?q=${encodeURIComponent(payload.email)}`)).total, 0);
    });
  });

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

  describe('GET /agents/{id}', () => {
    it('returns the agent, 404 for an unknown or malformed id', async () => {
      const a = dataOf<Agent>(await get(agent.id));
      assertAgentShape(a);
      assert.equal(a.id, agent.id);
      assert.equal(a.email, agent.email);
      assert.deepEqual(a.roles, ['Agent']);
      assert.equal(a.api_key, agent.apiKey);
      assertError(await get(987654), 404, 'NotFoundException');
      // docs/api.md: Envelope and errors: a malformed id is answered like an unknown one
      for (const id of ['abc', '0', '-1', '1.5']) assertError(await get(id), 404, 'NotFoundException');
    });

    it('needs users:manage: 403 for an Agent, even for itself; 401 anonymous', async () => {
      assertError(await get(agent.id, agent), 403, 'PermissionException');
      assertError(await get(t.admin.id, agent), 403, 'PermissionException');
      assertError(await get(agent.id, null), 401, 'UnauthorizedException');
    });
  });

  describe('PUT /agents/{id}', () => {
    it('is a partial update: omitted fields keep their value', async () => {
      const a = await newAgent({ first_name: 'Keep', last_name: 'Me', teams: [teamA.id], roles: ['Agent', 'Reporter'] });
      const b = dataOf<Agent>(await update(a.id, { last_name: ' Changed ' }));
      assert.equal(b.last_name, 'Changed');
      for (const field of [
        'first_name',
        'email',
        'roles',
        'permissions',
        'teams',
        'enabled',
        'availability_status',
        'created_at',
      ] as const) {
        assert.deepEqual(b[field], a[field], field);
      }
      const c = dataOf<Agent>(await update(a.id, {}));
      assert.equal(c.last_name, 'Changed');
      assert.deepEqual(c.roles, a.roles);
    });

    it('replaces roles and teams, and recomputes permissions', async () => {
      const a = await newAgent({ roles: ['Agent'], teams: [teamA.id] });
      const b = dataOf<Agent>(await update(a.id, { roles: ['Reporter'], teams: [teamB.id] }));
      assert.deepEqual(b.roles, ['Reporter']);
      assert.deepEqual(b.permissions, ['messages:read', 'reports:manage', 'tags:manage']);
      assert.deepEqual(b.teams, [{ id: teamB.id, name: 'Bravo team', emoji: teamB.emoji }]);
      const c = dataOf<Agent>(await update(a.id, { teams: [] }));
      assert.deepEqual(c.teams, []);
      assert.deepEqual(c.roles, ['Reporter']);
      // a changed role takes effect for the agent's own requests at once
      const key = dataOf<{ api_key: string; api_secret: string }>(await t.call({ method: 'POST', url: `/api/v1/agents/${a.id}/api-key` }));
      const headers = { authorization: `token ${key.api_key}:${key.api_secret}` };
      assert.equal(
        (await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: `by-reporter-${a.id}` }, headers, as: null })).statusCode,
        200,
      );
      dataOf(await update(a.id, { roles: ['Agent'] }));
      assertError(
        await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: `by-agent-${a.id}` }, headers, as: null }),
        403,
        'PermissionException',
      );
    });

    it('changes email (lowercased; 409 when taken), enabled, availability and password', async () => {
      const a = await newAgent();
      const other = await newAgent();
      const email = uniqueEmail('Moved');
      assert.equal(dataOf<Agent>(await update(a.id, { email })).email, email.toLowerCase());
      assert.equal(dataOf<Agent>(await update(a.id, { email: email.toUpperCase() })).email, email.toLowerCase());
      assertError(await update(a.id, { email: other.email.toUpperCase() }), 409, 'ConflictException');
      assert.equal(dataOf<Agent>(await update(a.id, { enabled: false })).enabled, false);
      assert.equal(dataOf<Agent>(await update(a.id, { enabled: true })).enabled, true);
      assert.equal(dataOf<Agent>(await update(a.id, { availability_status: 'busy' })).availability_status, 'busy');
      dataOf(await update(a.id, { password: 'set-by-an-admin' }));
      const login = await t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: 'set-by-an-admin' }, as: null });
      assert.equal(dataOf<Agent>(login).id, a.id);
    });

    it('refuses bad input (400), an unknown agent (404) and callers without users:manage', async () => {
      const a = await newAgent();
      for (const payload of [
        { roles: [] },
        { roles: ['Wizard'] },
        { teams: [987654] },
        { first_name: 5 },
        { first_name: '' },
        { email: 'nope' },
        { password: 'short' },
        { enabled: 'no' },
        { availability_status: 'sleeping' },
      ]) {
        assertError(await update(a.id, payload), 400, 'InputException');
      }
      assert.deepEqual(dataOf<Agent>(await get(a.id)), a);
      assertError(await update(987654, { last_name: 'x' }), 404, 'NotFoundException');
      assertError(await update(a.id, { last_name: 'x' }, agent), 403, 'PermissionException');
      assertError(await update(a.id, { last_name: 'x' }, null), 401, 'UnauthorizedException');
    });

    it('422 for disabling yourself and for removing the last Admin', async () => {
      assertError(await update(t.admin.id, { enabled: false }), 422, 'DataException');
      assertError(await update(t.admin.id, { roles: ['Agent'] }), 422, 'DataException');
      const self = dataOf<Agent>(await get(t.admin.id));
      assert.equal(self.enabled, true);
      assert.deepEqual(self.roles, ['Admin']);
      // with a second Admin, one may be demoted; then the remaining one is the last again
      const second = await newAgent({ roles: ['Admin'] });
      assert.deepEqual(dataOf<Agent>(await update(t.admin.id, { roles: ['Admin', 'Agent'] })).roles, ['Admin', 'Agent']);
      assert.deepEqual(dataOf<Agent>(await update(second.id, { roles: ['Agent'] })).roles, ['Agent']);
      assertError(await update(t.admin.id, { roles: ['Reporter'] }), 422, 'DataException');
      // a disabled Admin does not count as a remaining Admin
      const disabledAdmin = await newAgent({ roles: ['Admin'], enabled: false });
      assertError(await update(t.admin.id, { roles: ['Agent'] }), 422, 'DataException');
      dataOf(await update(disabledAdmin.id, { roles: ['Agent'] }));
      assert.deepEqual(dataOf<Agent>(await update(t.admin.id, { roles: ['Admin'] })).roles, ['Admin']);
    });
  });

  describe('DELETE /agents/{id}', () => {
    it('soft-deletes: the agent is gone from get, list and compact, and its email is reusable', async () => {
      const email = uniqueEmail('Gone');
      const a = await newAgent({ email, teams: [teamA.id] });
      assert.equal(dataOf<boolean>(await t.call({ method: 'DELETE', url: `/api/v1/agents/${a.id}` })), true);
      assertError(await get(a.id), 404, 'NotFoundException');
      assertError(await update(a.id, { last_name: 'x' }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/agents/${a.id}` }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'POST', url: `/api/v1/agents/${a.id}/api-key` }), 404, 'NotFoundException');
      assert.ok(!dataOf<Paged<Agent>>(await list('?page_size=100')).results.some((x) => x.id === a.id));
      assert.ok(!dataOf<Array<{ id: number }>>(await t.call({ method: 'GET', url: '/api/v1/agents/compact' })).some((x) => x.id === a.id));
      const members = dataOf<Array<{ id: number }>>(await t.call({ method: 'GET', url: `/api/v1/teams/${teamA.id}/members` }));
      assert.ok(!members.some((m) => m.id === a.id));
      // the row stays (soft delete) so history can point to it
      const row = await t.deps.db.selectFrom('users').where('id', '=', a.id).select(['deleted_at']).executeTakeFirst();
      assert.ok(row?.deleted_at);
      const again = dataOf<Agent>(await create({ first_name: 'Again', email: email.toUpperCase(), roles: ['Agent'] }));
      assert.notEqual(again.id, a.id);
      assert.equal(again.email, email.toLowerCase());
    });

    it('a non-Admin with users:manage cannot delete or disable itself either (422), but can others', async () => {
      const manager = await t.makeAgent({ roles: ['UserManager'] });
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/agents/${manager.id}`, as: manager }), 422, 'DataException');
      assertError(await update(manager.id, { enabled: false }, manager), 422, 'DataException');
      assert.equal(dataOf<Agent>(await get(manager.id)).enabled, true);
      // and it cannot remove the last Admin
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/agents/${t.admin.id}`, as: manager }), 422, 'DataException');
      assertError(await update(t.admin.id, { enabled: false }, manager), 422, 'DataException');
      const a = await newAgent();
      assert.equal(dataOf<boolean>(await t.call({ method: 'DELETE', url: `/api/v1/agents/${a.id}`, as: manager })), true);
    });

    it('422 for deleting yourself, 404 for unknown, 403/401 for others', async () => {
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/agents/${t.admin.id}` }), 422, 'DataException');
      assert.equal(dataOf<Agent>(await get(t.admin.id)).id, t.admin.id);
      assertError(await t.call({ method: 'DELETE', url: '/api/v1/agents/987654' }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'DELETE', url: '/api/v1/agents/abc' }), 404, 'NotFoundException');
      const a = await newAgent();
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/agents/${a.id}`, as: agent }), 403, 'PermissionException');
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/agents/${a.id}`, as: null }), 401, 'UnauthorizedException');
      assert.equal(dataOf<Agent>(await get(a.id)).id, a.id);
    });
  });

  describe('API key endpoints', () => {
    it('generate and revoke: 404 for unknown, 403 for an Agent (even on itself)', async () => {
      assertError(await t.call({ method: 'POST', url: '/api/v1/agents/987654/api-key' }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'DELETE', url: '/api/v1/agents/987654/api-key' }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/api-key`, as: agent }), 403, 'PermissionException');
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/agents/${agent.id}/api-key`, as: agent }), 403, 'PermissionException');
      assert.equal(dataOf<Agent>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent })).id, agent.id);
    });
  });

  describe('an agent with users:manage alone', () => {
    it('cannot take over an agent holding more than it: minting their key, setting their password or email are 403 and change nothing', async () => {
      const manager = await agentWith(t, ['users:manage']);
      const adminId = t.admin.id;
      const before = dataOf<Agent>(await t.call({ method: 'GET', url: `/api/v1/agents/${adminId}` }));
      const attempts = [
        await t.call({ method: 'POST', url: `/api/v1/agents/${adminId}/api-key`, as: manager }),
        await t.call({ method: 'PUT', url: `/api/v1/agents/${adminId}`, payload: { password: 'taken-over-123' }, as: manager }),
        await t.call({ method: 'PUT', url: `/api/v1/agents/${adminId}`, payload: { email: 'mine@example.com' }, as: manager }),
      ];
      for (const res of attempts) assert.match(assertError(res, 403, 'PermissionException').message, /holds permissions you do not/);
      assert.deepEqual(dataOf<Agent>(await t.call({ method: 'GET', url: `/api/v1/agents/${adminId}` })), before);
      assert.equal((await t.call({ method: 'GET', url: '/api/v1/agents/me' })).statusCode, 200, "the admin's key still works");
      // An agent holding nothing the manager lacks stays manageable.
      const plain = await agentWith(t, []);
      const pair = dataOf<{ api_key: string }>(await t.call({ method: 'POST', url: `/api/v1/agents/${plain.id}/api-key`, as: manager }));
      assert.equal(pair.api_key.length, 32);
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${plain.id}`, payload: { first_name: 'Renamed' }, as: manager }));
      assertError(await t.call({ method: 'POST', url: '/api/v1/agents/987654/api-key', as: manager }), 404, 'NotFoundException');
    });
  });

  describe('/agents/me', () => {
    it('GET returns the caller', async () => {
      const me = dataOf<Agent>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent }));
      assertAgentShape(me);
      assert.equal(me.id, agent.id);
      assertError(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: null }), 401, 'UnauthorizedException');
    });

    it('PUT updates the name; other fields keep their value and roles cannot be changed here', async () => {
      const before = dataOf<Agent>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent }));
      const after = dataOf<Agent>(
        await t.call({
          method: 'PUT',
          url: '/api/v1/agents/me',
          payload: { first_name: ' Renamed ', phone_number: '555-0100' },
          as: agent,
        }),
      );
      assert.equal(after.first_name, 'Renamed');
      assert.equal(after.phone_number, '555-0100');
      assert.equal(after.last_name, before.last_name);
      assert.equal(after.email, before.email);
      const escalate = await t.call({
        method: 'PUT',
        url: '/api/v1/agents/me',
        payload: { roles: ['Admin'], enabled: false, email: 'x@example.com' },
        as: agent,
      });
      if (escalate.statusCode !== 400) dataOf(escalate);
      const now = dataOf<Agent>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent }));
      assert.deepEqual(now.roles, ['Agent']);
      assert.equal(now.enabled, true);
      assert.equal(now.email, before.email);
      for (const payload of [{ first_name: '' }, { first_name: 7 }, { new_password: 'short', current_password: 'whatever-long' }]) {
        assertError(await t.call({ method: 'PUT', url: '/api/v1/agents/me', payload, as: agent }), 400, 'InputException');
      }
    });

    it('changing the password needs the correct current_password (400 otherwise)', async () => {
      const user = await t.makeAgent({ password: 'original-password' });
      const put = (payload: Record<string, unknown>) => t.call({ method: 'PUT', url: '/api/v1/agents/me', payload, as: user });
      const wrong = assertError(await put({ current_password: 'not-the-password', new_password: 'replacement-pw' }), 400, 'InputException');
      assert.match(wrong.message, /current_password/);
      assertError(await put({ new_password: 'replacement-pw' }), 400, 'InputException');
      const login = (password: string) =>
        t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email: user.email, password }, as: null });
      assert.equal((await login('replacement-pw')).statusCode, 401);
      dataOf(await put({ current_password: 'original-password', new_password: 'replacement-pw' }));
      assert.equal(dataOf<Agent>(await login('replacement-pw')).id, user.id);
      assertError(await login('original-password'), 401, 'UnauthorizedException');
    });
  });

  describe('PUT /agents/me/availability (docs/api.md: Agents and availability)', () => {
    const set = (who: Caller, payload: Record<string, unknown>) =>
      t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload, as: who });
    const status = async (who: Caller, payload: Record<string, unknown>) => {
      const a = dataOf<Agent>(await set(who, payload));
      assertAgentShape(a);
      assert.equal(a.id, who.id);
      return a.availability_status;
    };

    it('a user change (the default source) applies any status and returns the agent', async () => {
      const who = await t.makeAgent();
      for (const s of ['available', 'busy', 'away', 'offline', 'available']) assert.equal(await status(who, { status: s }), s);
      assert.equal(await status(who, { status: 'busy', source: 'user' }), 'busy');
      assert.equal(dataOf<Agent>(await get(who.id)).availability_status, 'busy');
    });

    it('refuses a bad status or source with 400', async () => {
      const who = await t.makeAgent();
      const bodies = [
        {},
        { status: 'sleeping' },
        { status: 'AVAILABLE' },
        { status: 5 },
        { status: 'away', source: 'robot' },
        { status: 'away', source: 5 },
        { availability_status: 'away' },
      ];
      for (const payload of bodies) assertError(await set(who, payload), 400, 'InputException');
      assertError(await set(who, { status: 'busy', source: 'idle' }), 400, 'InputException');
      assertError(await set(who, { status: 'offline', source: 'idle' }), 400, 'InputException');
      assertError(
        await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload: { status: 'away' }, as: null }),
        401,
        'UnauthorizedException',
      );
    });

    it('idle does not overwrite a manual away, busy or offline: the agent comes back unchanged', async () => {
      const who = await t.makeAgent();
      for (const manual of ['away', 'busy', 'offline']) {
        const before = dataOf<Agent>(await set(who, { status: manual }));
        for (const requested of ['available', 'away']) {
          const after = dataOf<Agent>(await set(who, { status: requested, source: 'idle' }));
          assert.deepEqual(after, before, `idle ${requested} over manual ${manual}`);
        }
      }
    });

    it('idle moves available to away and back; a manual away after that is protected again', async () => {
      const who = await t.makeAgent();
      assert.equal(await status(who, { status: 'available' }), 'available');
      assert.equal(await status(who, { status: 'away', source: 'idle' }), 'away');
      assert.equal(await status(who, { status: 'away', source: 'idle' }), 'away');
      assert.equal(await status(who, { status: 'available', source: 'idle' }), 'available');
      assert.equal(await status(who, { status: 'available', source: 'idle' }), 'available');
      // idle-away, then the user confirms away by hand: idle may no longer bring it back
      assert.equal(await status(who, { status: 'away', source: 'idle' }), 'away');
      assert.equal(await status(who, { status: 'away' }), 'away');
      assert.equal(await status(who, { status: 'available', source: 'idle' }), 'away');
      // the user can always leave it
      assert.equal(await status(who, { status: 'available' }), 'available');
    });
  });
});
