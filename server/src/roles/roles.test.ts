import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { agentWith } from '../../test/factories.ts';
import { assertError as fails, basicHeader, buildTestApp, type Caller, type TestApp, dataOf as ok } from '../../test/helpers.ts';
import { up as giveAgentsConversationsWrite } from '../db/migrations/2026_11_23_0009_agent_role_starts_conversations.ts';

type Json = Record<string, unknown>;
interface Role {
  id: number;
  name: string;
  description: string;
  permissions: string[];
  is_builtin: boolean;
  created_at: string;
  updated_at: string;
}

const ROLE_KEYS = ['created_at', 'description', 'id', 'is_builtin', 'name', 'permissions', 'require_2fa', 'updated_at'];

// docs/api.md, "Permissions and access", written out here so that a change to the source cannot pass unnoticed.
const CATALOGUE = [
  'conversations:read_all',
  'conversations:read_assigned',
  'conversations:read_unassigned',
  'conversations:read_team_inbox',
  'conversations:read',
  'conversations:write',
  'conversations:update_user_assignee',
  'conversations:update_team_assignee',
  'conversations:update_status',
  'conversations:update_priority',
  'conversations:update_tags',
  'messages:read',
  'messages:write',
  'contacts:read_all',
  'contacts:read',
  'contacts:write',
  'contacts:block',
  'contact_notes:read',
  'contact_notes:write',
  'contact_notes:delete',
  ...[
    'tags',
    'status',
    'macros',
    'users',
    'teams',
    'inboxes',
    'roles',
    'webhooks',
    'reports',
    'oidc',
    'ai',
    'business_hours',
    'sla',
    'general_settings',
  ].map((r) => `${r}:manage`),
];
const AGENT_SET = [
  'conversations:read_assigned',
  'conversations:read_unassigned',
  'conversations:read_team_inbox',
  'conversations:read',
  'conversations:write',
  'conversations:update_user_assignee',
  'conversations:update_team_assignee',
  'conversations:update_status',
  'conversations:update_priority',
  'conversations:update_tags',
  'messages:read',
  'messages:write',
  'contacts:read',
  'contacts:write',
  'contact_notes:read',
  'contact_notes:write',
];
const sorted = (list: string[]) => [...list].sort();

describe('roles and permissions', () => {
  let t: TestApp;
  let agent: Caller;
  let admin: Role;
  let agentRole: Role;
  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent();
    const roles = ok<Role[]>(await t.call({ method: 'GET', url: '/api/v1/roles' }));
    admin = roles.find((r) => r.name === 'Admin')!;
    agentRole = roles.find((r) => r.name === 'Agent')!;
  });
  after(() => t.close());

  const createRole = (payload: unknown, as?: Caller | null) =>
    t.call({ method: 'POST', url: '/api/v1/roles', payload: payload as Json, ...(as !== undefined ? { as } : {}) });
  const putRole = (id: unknown, payload: unknown, as?: Caller) =>
    t.call({ method: 'PUT', url: `/api/v1/roles/${id}`, payload: payload as Json, ...(as ? { as } : {}) });

  /** An agent created through the API, with API credentials from the API. */
  async function apiAgent(roles: string[]): Promise<Caller & { record: Json }> {
    const email = `role-${Math.random().toString(36).slice(2)}@example.com`;
    const record = ok(await t.call({ method: 'POST', url: '/api/v1/agents', payload: { first_name: 'Roley', email, roles } }));
    const id = record['id'] as number;
    const pair = ok<{ api_key: string; api_secret: string }>(await t.call({ method: 'POST', url: `/api/v1/agents/${id}/api-key` }));
    return {
      id,
      email,
      apiKey: pair.api_key,
      apiSecret: pair.api_secret,
      headers: { authorization: basicHeader(pair.api_key, pair.api_secret) },
      record,
    };
  }
  const postTag = (as: Caller, name: string) => t.call({ method: 'POST', url: '/api/v1/tags', payload: { name }, as });
  const me = async (as: Caller) =>
    ok<{ roles: string[]; permissions: string[] }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as }));

  describe('catalogue and built-in roles', () => {
    it('GET /permissions lists the catalogue to any agent', async () => {
      const list = ok<string[]>(await t.call({ method: 'GET', url: '/api/v1/permissions', as: agent }));
      for (const p of CATALOGUE) assert.ok(list.includes(p), p);
      assert.equal(new Set(list).size, list.length, 'no duplicates');
      for (const p of list) assert.match(p, /^[a-z_]+:[a-z_]+$/);
      fails(await t.call({ method: 'GET', url: '/api/v1/permissions', as: null }), 401, 'UnauthorizedException');
    });

    it('GET /roles lists the seeded Admin and Agent roles; it needs roles:manage', async () => {
      const roles = ok<Role[]>(await t.call({ method: 'GET', url: '/api/v1/roles' }));
      for (const role of roles) assert.deepEqual(Object.keys(role).sort(), ROLE_KEYS);
      assert.ok(admin && agentRole);
      assert.equal(admin.is_builtin, true);
      assert.equal(agentRole.is_builtin, true);
      assert.match(admin.created_at, /^\d{4}-\d\d-\d\dT/);
      fails(await t.call({ method: 'GET', url: '/api/v1/roles', as: null }), 401, 'UnauthorizedException');
      fails(await t.call({ method: 'GET', url: '/api/v1/roles', as: agent }), 403, 'PermissionException');
    });

    it('Admin holds every permission in the catalogue; Agent holds the documented set; both sorted', async () => {
      const catalogue = ok<string[]>(await t.call({ method: 'GET', url: '/api/v1/permissions' }));
      assert.deepEqual(admin.permissions, sorted(catalogue));
      assert.deepEqual(agentRole.permissions, sorted(AGENT_SET));
      const record = ok<{ permissions: string[]; roles: string[] }>(await t.call({ method: 'GET', url: '/api/v1/agents/me' }));
      assert.deepEqual(record.roles, ['Admin']);
      assert.deepEqual(record.permissions, sorted(catalogue));
      assert.deepEqual((await me(agent)).permissions, sorted(AGENT_SET));
    });

    it('GET /roles/{id} needs roles:manage; unknown or malformed → 404', async () => {
      assert.deepEqual(ok<Role>(await t.call({ method: 'GET', url: `/api/v1/roles/${agentRole.id}` })), agentRole);
      fails(await t.call({ method: 'GET', url: `/api/v1/roles/${agentRole.id}`, as: agent }), 403, 'PermissionException');
      fails(await t.call({ method: 'GET', url: `/api/v1/roles/${agentRole.id}`, as: null }), 401, 'UnauthorizedException');
      fails(await t.call({ method: 'GET', url: '/api/v1/roles/999999' }), 404, 'NotFoundException');
      fails(await t.call({ method: 'GET', url: '/api/v1/roles/abc' }), 404, 'NotFoundException');
    });
  });

  describe('create', () => {
    it('creates a custom role with 200; permissions deduplicated and sorted', async () => {
      const role = ok<Role>(
        await createRole({
          name: '  Supervisor ',
          description: ' Watches ',
          permissions: ['reports:manage', 'conversations:read_all', 'reports:manage'],
        }),
      );
      assert.deepEqual(Object.keys(role).sort(), ROLE_KEYS);
      assert.equal(role.name, 'Supervisor');
      assert.equal(role.description, 'Watches');
      assert.equal(role.is_builtin, false);
      assert.deepEqual(role.permissions, ['conversations:read_all', 'reports:manage']);
      assert.deepEqual(ok<Role>(await t.call({ method: 'GET', url: `/api/v1/roles/${role.id}` })), role);
      const minimal = ok<Role>(await createRole({ name: 'Minimal', permissions: ['tags:manage'] }));
      assert.equal(minimal.description, '');
    });

    it('answers 400 naming each unknown permission, and creates nothing', async () => {
      for (const bad of ['tags:destroy', 'everything', 'Tags:Manage', 'tags:manage ']) {
        const body = fails(await createRole({ name: 'Bogus', permissions: ['tags:manage', bad] }), 400, 'InputException', bad);
        assert.ok(String(body['message']).includes(JSON.stringify(bad)), `${bad}: ${body['message']}`);
      }
      const roles = ok<Role[]>(await t.call({ method: 'GET', url: '/api/v1/roles' }));
      assert.ok(!roles.some((r) => r.name === 'Bogus'));
    });

    it('refuses missing or malformed fields with 400', async () => {
      const cases: unknown[] = [
        { name: 'Empty', permissions: [] },
        { name: 'NoPerms' },
        { name: 'NullPerms', permissions: null },
        { name: 'StringPerms', permissions: 'tags:manage' },
        { name: 'NumberPerm', permissions: [1] },
        { permissions: ['tags:manage'] },
        { name: '', permissions: ['tags:manage'] },
        { name: '   ', permissions: ['tags:manage'] },
        { name: 7, permissions: ['tags:manage'] },
        { name: 'x'.repeat(51), permissions: ['tags:manage'] },
        { name: 'Described', description: 5, permissions: ['tags:manage'] },
        [],
      ];
      for (const payload of cases) fails(await createRole(payload), 400, 'InputException', JSON.stringify(payload));
      const body = fails(await createRole({ permissions: ['tags:manage'] }), 400, 'InputException');
      assert.match(String(body['message']), /name/);
    });

    it('answers 409 for a taken name, case-insensitively', async () => {
      fails(await createRole({ name: 'supervisor', permissions: ['tags:manage'] }), 409, 'ConflictException');
      fails(await createRole({ name: ' ADMIN ', permissions: ['tags:manage'] }), 409, 'ConflictException');
    });

    it('answers 403 for an Agent-role caller and 401 anonymously', async () => {
      fails(await createRole({ name: 'Sneaky', permissions: ['roles:manage'] }, agent), 403, 'PermissionException');
      fails(await createRole({ name: 'Sneaky', permissions: ['roles:manage'] }, null), 401, 'UnauthorizedException');
    });
  });

  describe('update and delete', () => {
    let role: Role;
    before(async () => {
      role = ok<Role>(await createRole({ name: 'Editor', description: 'Edits', permissions: ['macros:manage', 'tags:manage'] }));
    });

    it('is partial: omitted fields keep their value', async () => {
      const described = ok<Role>(await putRole(role.id, { description: 'Edits things' }));
      assert.equal(described.name, 'Editor');
      assert.deepEqual(described.permissions, ['macros:manage', 'tags:manage']);
      assert.equal(described.description, 'Edits things');
      assert.equal(described.created_at, role.created_at);
      assert.ok(Date.parse(described.updated_at) >= Date.parse(role.updated_at));

      const renamed = ok<Role>(await putRole(role.id, { name: ' Content editor ' }));
      assert.equal(renamed.name, 'Content editor');
      assert.equal(renamed.description, 'Edits things');
      assert.deepEqual(renamed.permissions, ['macros:manage', 'tags:manage']);

      const repermitted = ok<Role>(await putRole(role.id, { permissions: ['status:manage', 'macros:manage'] }));
      assert.equal(repermitted.name, 'Content editor');
      assert.deepEqual(repermitted.permissions, ['macros:manage', 'status:manage']);
      assert.deepEqual(ok<Role>(await t.call({ method: 'GET', url: `/api/v1/roles/${role.id}` })), repermitted);
    });

    it('refuses a bad update with 400 / 409 / 404 / 403', async () => {
      fails(await putRole(role.id, { permissions: [] }), 400, 'InputException');
      const unknown = fails(await putRole(role.id, { permissions: ['macros:manage', 'macros:destroy'] }), 400, 'InputException');
      assert.match(String(unknown['message']), /macros:destroy/);
      fails(await putRole(role.id, { name: '' }), 400, 'InputException');
      fails(await putRole(role.id, { name: 'supervisor' }), 409, 'ConflictException');
      fails(await putRole(role.id, { name: 'agent' }), 409, 'ConflictException');
      fails(await putRole(999999, { description: 'x' }), 404, 'NotFoundException');
      fails(await putRole(role.id, { description: 'x' }, agent), 403, 'PermissionException');
      const got = ok<Role>(await t.call({ method: 'GET', url: `/api/v1/roles/${role.id}` }));
      assert.equal(got.name, 'Content editor');
      assert.deepEqual(got.permissions, ['macros:manage', 'status:manage']);
    });

    it('a built-in role cannot be renamed (422 DataException)', async () => {
      for (const [target, name] of [
        [admin, 'Root'],
        [admin, 'admin'],
        [agentRole, 'Staff'],
      ] as const) {
        fails(await putRole(target.id, { name }), 422, 'DataException', name);
      }
      const described = ok<Role>(await putRole(admin.id, { name: 'Admin', description: 'Everything, really' }));
      assert.equal(described.name, 'Admin');
      assert.equal(described.description, 'Everything, really');
    });

    it("the Admin role's permissions cannot change (422); the Agent role's can", async () => {
      fails(await putRole(admin.id, { permissions: ['tags:manage'] }), 422, 'DataException');
      const all = ok<string[]>(await t.call({ method: 'GET', url: '/api/v1/permissions' }));
      assert.deepEqual(ok<Role>(await putRole(admin.id, { permissions: [...all].reverse() })).permissions, sorted(all));

      fails(await postTag(agent, 'agent-tag'), 403, 'PermissionException');
      try {
        const widened = ok<Role>(await putRole(agentRole.id, { permissions: [...AGENT_SET, 'tags:manage'] }));
        assert.ok(widened.permissions.includes('tags:manage'));
        assert.equal(widened.name, 'Agent');
        // The existing agent's cached credentials pick up the change at once.
        ok(await postTag(agent, 'agent-tag'));
        assert.ok((await me(agent)).permissions.includes('tags:manage'));
      } finally {
        ok<Role>(await putRole(agentRole.id, { permissions: AGENT_SET }));
      }
      fails(await postTag(agent, 'agent-tag-2'), 403, 'PermissionException');
      assert.deepEqual((await me(agent)).permissions, sorted(AGENT_SET));
    });

    it('a built-in role cannot be deleted (422)', async () => {
      fails(await t.call({ method: 'DELETE', url: `/api/v1/roles/${admin.id}` }), 422, 'DataException');
      fails(await t.call({ method: 'DELETE', url: `/api/v1/roles/${agentRole.id}` }), 422, 'DataException');
      assert.equal(ok<Role>(await t.call({ method: 'GET', url: `/api/v1/roles/${agentRole.id}` })).name, 'Agent');
    });

    it('deletes a custom role (true), then 404', async () => {
      const doomed = ok<Role>(await createRole({ name: 'Doomed', permissions: ['ai:manage'] }));
      fails(await t.call({ method: 'DELETE', url: `/api/v1/roles/${doomed.id}`, as: agent }), 403, 'PermissionException');
      assert.equal(ok<boolean>(await t.call({ method: 'DELETE', url: `/api/v1/roles/${doomed.id}` })), true);
      fails(await t.call({ method: 'GET', url: `/api/v1/roles/${doomed.id}` }), 404, 'NotFoundException');
      fails(await t.call({ method: 'DELETE', url: `/api/v1/roles/${doomed.id}` }), 404, 'NotFoundException');
      fails(await putRole(doomed.id, { description: 'x' }), 404, 'NotFoundException');
      fails(await t.call({ method: 'DELETE', url: '/api/v1/roles/999999' }), 404, 'NotFoundException');
      // The name is free again.
      ok(await createRole({ name: 'doomed', permissions: ['ai:manage'] }));
    });
  });

  describe('permissions take effect at once', () => {
    it('removing tags:manage from a role turns the next request into 403', async () => {
      const role = ok<Role>(await createRole({ name: 'Taggers', permissions: ['tags:manage'] }));
      const tagger = await apiAgent(['taggers']);
      assert.deepEqual(tagger.record['roles'], ['Taggers']);
      assert.deepEqual(tagger.record['permissions'], ['tags:manage']);

      ok(await postTag(tagger, 'first-tag'));
      fails(await t.call({ method: 'GET', url: '/api/v1/roles', as: tagger }), 403, 'PermissionException');

      ok<Role>(await putRole(role.id, { permissions: ['reports:manage'] }));
      fails(await postTag(tagger, 'second-tag'), 403, 'PermissionException');
      assert.deepEqual((await me(tagger)).permissions, ['reports:manage']);

      ok<Role>(await putRole(role.id, { permissions: ['tags:manage', 'reports:manage'] }));
      ok(await postTag(tagger, 'third-tag'));
    });

    it('deleting a role that agents hold is refused (422 naming how many); soft-deleted agents do not count', async () => {
      const role = ok<Role>(await createRole({ name: 'Temp taggers', permissions: ['tags:manage'] }));
      const tagger = await apiAgent(['Agent', 'Temp taggers']);
      const disabled = await apiAgent(['Temp taggers']);
      const gone = await apiAgent(['Temp taggers']);
      ok(await t.call({ method: 'PUT', url: `/api/v1/agents/${disabled.id}`, payload: { enabled: false } }));
      ok(await t.call({ method: 'DELETE', url: `/api/v1/agents/${gone.id}` }));

      const refused = fails(await t.call({ method: 'DELETE', url: `/api/v1/roles/${role.id}` }), 422, 'DataException');
      // A disabled agent holds it (it may be enabled again); a deleted one never signs in again.
      assert.match(String(refused['message']), /Temp taggers.* 2 agents/);
      assert.equal(ok<Role>(await t.call({ method: 'GET', url: `/api/v1/roles/${role.id}` })).name, 'Temp taggers');
      ok(await postTag(tagger, 'temp-tag'));

      ok(await t.call({ method: 'PUT', url: `/api/v1/agents/${tagger.id}`, payload: { roles: ['Agent'] } }));
      const one = fails(await t.call({ method: 'DELETE', url: `/api/v1/roles/${role.id}` }), 422, 'DataException');
      assert.match(String(one['message']), / 1 agent;/);
      ok(await t.call({ method: 'PUT', url: `/api/v1/agents/${disabled.id}`, payload: { roles: ['Agent'] } }));
      assert.equal(ok<boolean>(await t.call({ method: 'DELETE', url: `/api/v1/roles/${role.id}` })), true);
      fails(await postTag(tagger, 'temp-tag-2'), 403, 'PermissionException');
      assert.deepEqual((await me(tagger)).permissions, sorted(AGENT_SET));
    });

    it('an agent with the seeded Agent role can start a conversation', async () => {
      const inbox = ok<{ id: number }>(
        await t.call({ method: 'POST', url: '/api/v1/inboxes', payload: { name: 'Role inbox', channel: 'livechat', config: {} } }),
      );
      const payload = { inbox_id: inbox.id, contact_email: 'started-by-agent@example.com', subject: 'Hello', content: 'First words' };
      const started = ok<{ uuid: string }>(await t.call({ method: 'POST', url: '/api/v1/conversations', payload, as: agent }));
      assert.match(started.uuid, /^[0-9a-f-]{36}$/);
    });

    it('migration 0009 gives an existing built-in Agent role conversations:write, once, and leaves custom roles alone', async () => {
      const before = sorted(AGENT_SET.filter((p) => p !== 'conversations:write'));
      const custom = ok<Role>(await createRole({ name: 'Agent-like', permissions: before }));
      // An installation from before the change: its Agent role lacks the permission.
      await t.deps.db.updateTable('roles').set({ permissions: before }).where('id', '=', agentRole.id).execute();
      assert.deepEqual((await me(agent)).permissions, before);
      // Migrations see an untyped database, as the migrator gives them.
      const untyped = t.deps.db as unknown as Kysely<unknown>;
      await giveAgentsConversationsWrite(untyped);
      await giveAgentsConversationsWrite(untyped);
      const migrated = await t.deps.db
        .selectFrom('roles')
        .where('id', 'in', [agentRole.id, custom.id])
        .select(['id', 'permissions'])
        .execute();
      assert.deepEqual(migrated.find((r) => r.id === agentRole.id)?.permissions, sorted(AGENT_SET));
      assert.deepEqual(migrated.find((r) => r.id === custom.id)?.permissions, before);
    });

    it('a renamed role shows its new name on its agents', async () => {
      const role = ok<Role>(await createRole({ name: 'Old name', permissions: ['oidc:manage'] }));
      const holder = await apiAgent(['Old name']);
      ok<Role>(await putRole(role.id, { name: 'New name' }));
      assert.deepEqual((await me(holder)).roles, ['New name']);
    });

    it("an agent's permissions are the sorted union over its roles", async () => {
      ok<Role>(await createRole({ name: 'Union A', permissions: ['webhooks:manage', 'tags:manage', 'conversations:read'] }));
      ok<Role>(await createRole({ name: 'Union B', permissions: ['ai:manage', 'tags:manage', 'contacts:block'] }));
      const both = await apiAgent(['Union B', 'Agent', 'union a']);
      const expected = sorted([
        ...new Set([...AGENT_SET, 'webhooks:manage', 'tags:manage', 'conversations:read', 'ai:manage', 'contacts:block']),
      ]);
      assert.deepEqual(both.record['permissions'], expected);
      assert.deepEqual(both.record['roles'], ['Agent', 'Union A', 'Union B']);
      const viaAdmin = ok<{ permissions: string[] }>(await t.call({ method: 'GET', url: `/api/v1/agents/${both.id}` }));
      assert.deepEqual(viaAdmin.permissions, expected);
      assert.deepEqual((await me(both)).permissions, expected);
      // What the record claims is what the server enforces.
      ok(await postTag(both, 'union-tag'));
    });

    it('nobody grants a permission they do not hold', async () => {
      ok<Role>(await createRole({ name: 'People manager', permissions: ['users:manage', 'tags:manage'] }));
      ok<Role>(await createRole({ name: 'Role editor', permissions: ['roles:manage', 'tags:manage'] }));
      const manager = await apiAgent(['People manager']);
      const editor = await apiAgent(['Role editor']);
      // A users:manage holder cannot make anybody (itself included) an Admin.
      const escalate = fails(
        await t.call({ method: 'PUT', url: `/api/v1/agents/${manager.id}`, payload: { roles: ['Admin'] }, as: manager }),
        403,
        'PermissionException',
      );
      assert.match(String(escalate['message']), /reports:manage/);
      fails(
        await t.call({
          method: 'POST',
          url: '/api/v1/agents',
          payload: { first_name: 'Boss', email: 'boss-grant@example.com', roles: ['Admin'] },
          as: manager,
        }),
        403,
        'PermissionException',
      );
      assert.deepEqual(ok<{ roles: string[] }>(await t.call({ method: 'GET', url: `/api/v1/agents/${manager.id}` })).roles, [
        'People manager',
      ]);
      // Within its own permissions it may grant.
      ok(
        await t.call({
          method: 'POST',
          url: '/api/v1/agents',
          payload: { first_name: 'Peer', email: 'peer-grant@example.com', roles: ['People manager'] },
          as: manager,
        }),
      );
      // A roles:manage holder cannot mint or widen a role beyond its own permissions.
      fails(
        await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name: 'Wide', permissions: ['users:manage'] }, as: editor }),
        403,
        'PermissionException',
      );
      const narrow = ok<Role>(
        await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name: 'Narrow', permissions: ['tags:manage'] }, as: editor }),
      );
      fails(
        await t.call({
          method: 'PUT',
          url: `/api/v1/roles/${narrow.id}`,
          payload: { permissions: ['tags:manage', 'ai:manage'] },
          as: editor,
        }),
        403,
        'PermissionException',
      );
      assert.deepEqual(ok<Role>(await t.call({ method: 'GET', url: `/api/v1/roles/${narrow.id}` })).permissions, ['tags:manage']);
    });

    it('an unknown role name on agent creation is a 400 naming it', async () => {
      const body = fails(
        await t.call({
          method: 'POST',
          url: '/api/v1/agents',
          payload: { first_name: 'X', email: 'nobody-role@example.com', roles: ['Ghost role'] },
        }),
        400,
        'InputException',
      );
      assert.match(String(body['message']), /Ghost role/);
    });
  });
});

describe('requiring two-factor sign-in of a role', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('only an agent holding every permission of the role may change it (403, unchanged); the Admin role included', async () => {
    const lead = await agentWith(t, ['roles:manage', 'tags:manage']);
    const roles = ok<Array<{ id: number; name: string; require_2fa: boolean }>>(await t.call({ method: 'GET', url: '/api/v1/roles' }));
    const admin = roles.find((r) => r.name === 'Admin')!;
    const small = ok<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name: 'Taggers', permissions: ['tags:manage'] } }),
    );
    ok(await t.call({ method: 'PUT', url: `/api/v1/roles/${admin.id}`, payload: { require_2fa: true } }));
    const refused = fails(
      await t.call({ method: 'PUT', url: `/api/v1/roles/${admin.id}`, payload: { require_2fa: false }, as: lead }),
      403,
      'PermissionException',
    );
    assert.match(refused.message, /two-factor/);
    assert.equal(ok<{ require_2fa: boolean }>(await t.call({ method: 'GET', url: `/api/v1/roles/${admin.id}` })).require_2fa, true);
    assert.equal(
      ok<{ require_2fa: boolean }>(
        await t.call({ method: 'PUT', url: `/api/v1/roles/${small.id}`, payload: { require_2fa: true }, as: lead }),
      ).require_2fa,
      true,
      'a role whose permissions the caller all holds',
    );
    ok(
      await t.call({ method: 'PUT', url: `/api/v1/roles/${admin.id}`, payload: { name: 'Admin', require_2fa: true }, as: lead }),
      'sending it unchanged is no change',
    );
  });
});
