// /api/v1/agents/{id} and POST /api/v1/agents: create, read, update, delete, API keys, and what
// users:manage alone may not do (docs/api.md: Agents and availability).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Agent, agentCalls, agentsFixtures, assertAgentShape, type Paged, type Team, uniqueEmail } from '../../test/agents.ts';
import { agentWith } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { AGENT_ROLE_PERMISSIONS } from '../auth/permissions.ts';

describe('agents', () => {
  let t: TestApp;
  let agent: Caller;
  let teamA: Team;
  let teamB: Team;

  before(async () => {
    t = await buildTestApp();
    ({ agent, teamA, teamB } = await agentsFixtures(t));
  });
  after(() => t.close());

  const { create, get, update, list, newAgent } = agentCalls(() => t);

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
});
