import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError as fails, buildTestApp, type Caller, type TestApp, dataOf as ok } from '../../test/helpers.ts';
import { sha256 } from '../security/hashing.ts';

type Json = Record<string, unknown>;

const TEAM_KEYS = [
  'business_hours_id',
  'conversation_assignment_type',
  'created_at',
  'emoji',
  'id',
  'max_auto_assigned_conversations',
  'name',
  'sla_policy_id',
  'timezone',
  'updated_at',
];
const MEMBER_KEYS = ['availability_status', 'avatar_url', 'email', 'enabled', 'first_name', 'id', 'last_name'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

describe('teams', () => {
  let t: TestApp;
  let agent: Caller;
  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent();
  });
  after(() => t.close());

  const create = (payload: unknown, as?: Caller | null) =>
    t.call({ method: 'POST', url: '/api/v1/teams', payload: payload as Json, ...(as !== undefined ? { as } : {}) });
  const members = (id: number) => t.call({ method: 'GET', url: `/api/v1/teams/${id}/members` });
  const agentTeams = async (id: number) =>
    ok<{ teams: Array<{ id: number; name: string; emoji: string }> }>(await t.call({ method: 'GET', url: `/api/v1/agents/${id}` })).teams;

  describe('create', () => {
    it('creates a team with 200, exactly the spec record and the defaults', async () => {
      const team = ok(await create({ name: '  Support  ' }));
      assert.deepEqual(Object.keys(team).sort(), TEAM_KEYS);
      assert.equal(typeof team['id'], 'number');
      assert.equal(team['name'], 'Support');
      assert.equal(team['emoji'], '');
      assert.equal(team['conversation_assignment_type'], 'manual');
      assert.equal(team['timezone'], 'UTC');
      assert.equal(team['max_auto_assigned_conversations'], 0);
      assert.equal(team['business_hours_id'], null);
      assert.equal(team['sla_policy_id'], null);
      assert.match(String(team['created_at']), ISO);
      assert.match(String(team['updated_at']), ISO);
    });

    it('accepts round_robin, a time zone, an emoji, a cap and members', async () => {
      const member = await t.makeAgent();
      const team = ok(
        await create({
          name: 'Billing',
          emoji: '💰',
          conversation_assignment_type: 'round_robin',
          timezone: 'Europe/Paris',
          max_auto_assigned_conversations: 5,
          business_hours_id: null,
          members: [member.id, member.id],
        }),
      );
      assert.equal(team['conversation_assignment_type'], 'round_robin');
      assert.equal(team['timezone'], 'Europe/Paris');
      assert.equal(team['emoji'], '💰');
      assert.equal(team['max_auto_assigned_conversations'], 5);
      const list = ok<Json[]>(await members(team['id'] as number));
      assert.deepEqual(
        list.map((m) => m['id']),
        [member.id],
      );
      assert.deepEqual(Object.keys(list[0]!).sort(), MEMBER_KEYS);
      assert.deepEqual(await agentTeams(member.id), [{ id: team['id'], name: 'Billing', emoji: '💰' }]);
    });

    it('stores a time zone in its canonical spelling', async () => {
      const team = ok(await create({ name: 'Zoned', timezone: 'europe/paris', emoji: ' 🌍 ' }));
      assert.equal(team['emoji'], '🌍');
      assert.equal(team['timezone'], 'Europe/Paris');
      const utc = ok(await create({ name: 'Zoned UTC', timezone: 'utc' }));
      assert.equal(utc['timezone'], 'UTC');
    });

    it('refuses invalid values with 400 InputException', async () => {
      const cases: unknown[] = [
        { name: 'X1', conversation_assignment_type: 'random' },
        { name: 'X2', conversation_assignment_type: 'ROUND_ROBIN' },
        { name: 'X3', timezone: 'Mars/Olympus' },
        { name: 'X4', timezone: '' },
        { name: 'X5', timezone: '+01:00' },
        { name: 'X6', max_auto_assigned_conversations: -1 },
        { name: 'X7', max_auto_assigned_conversations: 1.5 },
        { name: 'X8', max_auto_assigned_conversations: '5' },
        { name: 'X9', timezone: 5 },
        { name: 'X10', emoji: 5 },
        { name: 'X11', emoji: null },
        { name: 'X12', conversation_assignment_type: null },
        { name: 'X13', members: 'all' },
        { name: 'X14', members: ['1'] },
        { name: 'X15', members: [0] },
        { name: 'X16', business_hours_id: 'x' },
        { name: 'X17', business_hours_id: 1 },
        { name: 'X18', sla_policy_id: 1 },
        { name: 42 },
        { name: null },
        { name: '' },
        { name: '   ' },
        { name: 'x'.repeat(141) },
        {},
        [],
      ];
      for (const payload of cases) fails(await create(payload), 400, 'InputException', JSON.stringify(payload));
      const json = (payload: string) =>
        t.call({ method: 'POST', url: '/api/v1/teams', payload, headers: { 'content-type': 'application/json' } });
      fails(await json('"Support"'), 400, 'InputException', 'a JSON string');
      fails(await json('{"name": '), 400, 'InputException', 'malformed JSON');
      fails(await t.call({ method: 'POST', url: '/api/v1/teams' }), 400, 'InputException', 'no body');
      const list = ok<Json[]>(await t.call({ method: 'GET', url: '/api/v1/teams' }));
      assert.ok(!list.some((team) => /^X\d+$/.test(String(team['name']))), 'nothing was created');
    });

    it('names the offending field', async () => {
      const body = fails(await create({ name: 'Tz', timezone: 'Mars/Olympus' }), 400, 'InputException');
      assert.match(String(body['message']), /timezone/);
      const cap = fails(await create({ name: 'Cap', max_auto_assigned_conversations: -1 }), 400, 'InputException');
      assert.match(String(cap['message']), /max_auto_assigned_conversations/);
    });

    it('answers 409 ConflictException for a duplicate name, case-insensitively', async () => {
      fails(await create({ name: 'SUPPORT' }), 409, 'ConflictException');
      fails(await create({ name: ' support ' }), 409, 'ConflictException');
    });

    it('answers 400 for a member that is not an agent, and creates nothing', async () => {
      const body = fails(await create({ name: 'Ghosts', members: [agent.id, 999999] }), 400, 'InputException');
      assert.match(String(body['message']), /999999/);
      const list = ok<Json[]>(await t.call({ method: 'GET', url: '/api/v1/teams/compact' }));
      assert.ok(!list.some((team) => team['name'] === 'Ghosts'));
      assert.deepEqual(await agentTeams(agent.id), []);
    });

    it('answers 401 without credentials and 403 without teams:manage', async () => {
      fails(await create({ name: 'Anon' }, null), 401, 'UnauthorizedException');
      const bad = await t.call({
        method: 'POST',
        url: '/api/v1/teams',
        payload: { name: 'Bad' },
        as: null,
        headers: { authorization: 'token nope:nope' },
      });
      fails(bad, 401, 'UnauthorizedException');
      fails(await create({ name: 'Denied' }, agent), 403, 'PermissionException');
    });
  });

  describe('read', () => {
    let team: Json;
    before(async () => {
      team = ok(await create({ name: 'Readable', emoji: '📖', timezone: 'America/New_York' }));
    });

    it('GET /teams/{id} returns exactly the spec record, to any agent', async () => {
      for (const as of [t.admin, agent]) {
        const got = ok(await t.call({ method: 'GET', url: `/api/v1/teams/${team['id']}`, as }));
        assert.deepEqual(Object.keys(got).sort(), TEAM_KEYS);
        assert.deepEqual(got, team);
      }
    });

    it('GET /teams/{id} answers 401 without credentials', async () => {
      fails(await t.call({ method: 'GET', url: `/api/v1/teams/${team['id']}`, as: null }), 401, 'UnauthorizedException');
    });

    it('answers 404 NotFoundException for an unknown id', async () => {
      fails(await t.call({ method: 'GET', url: '/api/v1/teams/999999' }), 404, 'NotFoundException');
    });

    it('answers a malformed id with 404 NotFoundException (docs/api.md: Envelope and errors), never 500', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '99999999999', '1e3']) {
        fails(await t.call({ method: 'GET', url: `/api/v1/teams/${id}` }), 404, 'NotFoundException', id);
      }
      fails(await t.call({ method: 'PUT', url: '/api/v1/teams/abc', payload: { name: 'x' } }), 404, 'NotFoundException', 'PUT abc');
      fails(await t.call({ method: 'DELETE', url: '/api/v1/teams/1/members/abc' }), 404, 'NotFoundException', 'DELETE member abc');
    });

    it('GET /teams/compact gives id, name and emoji to any agent', async () => {
      const list = ok<Json[]>(await t.call({ method: 'GET', url: '/api/v1/teams/compact', as: agent }));
      const mine = list.find((x) => x['id'] === team['id']);
      assert.deepEqual(mine, { id: team['id'], name: 'Readable', emoji: '📖' });
      for (const item of list) assert.deepEqual(Object.keys(item).sort(), ['emoji', 'id', 'name']);
      const names = list.map((x) => String(x['name']));
      assert.deepEqual(names, [...names].sort());
      fails(await t.call({ method: 'GET', url: '/api/v1/teams/compact', as: null }), 401, 'UnauthorizedException');
    });

    it('GET /teams lists full records to any agent (reading teams needs no permission)', async () => {
      const list = ok<Json[]>(await t.call({ method: 'GET', url: '/api/v1/teams', as: agent }));
      assert.ok(list.length >= 2);
      for (const item of list) assert.deepEqual(Object.keys(item).sort(), TEAM_KEYS);
      assert.deepEqual(
        list.find((x) => x['id'] === team['id']),
        team,
      );
      assert.deepEqual(ok<Json[]>(await t.call({ method: 'GET', url: '/api/v1/teams' })), list);
      fails(await t.call({ method: 'GET', url: '/api/v1/teams', as: null }), 401, 'UnauthorizedException');
    });
  });

  describe('update', () => {
    let team: Json;
    before(async () => {
      team = ok(
        await create({
          name: 'Sales',
          emoji: '📈',
          conversation_assignment_type: 'round_robin',
          timezone: 'Asia/Tokyo',
          max_auto_assigned_conversations: 7,
        }),
      );
    });
    const put = (id: unknown, payload: unknown, as?: Caller) =>
      t.call({ method: 'PUT', url: `/api/v1/teams/${id}`, payload: payload as Json, ...(as ? { as } : {}) });

    it('is partial: omitted fields keep their value', async () => {
      const renamed = ok(await put(team['id'], { name: ' Sales EMEA ' }));
      assert.deepEqual(Object.keys(renamed).sort(), TEAM_KEYS);
      assert.equal(renamed['name'], 'Sales EMEA');
      for (const key of [
        'id',
        'emoji',
        'conversation_assignment_type',
        'timezone',
        'max_auto_assigned_conversations',
        'created_at',
        'business_hours_id',
        'sla_policy_id',
      ]) {
        assert.deepEqual(renamed[key], team[key], key);
      }
      assert.ok(Date.parse(String(renamed['updated_at'])) >= Date.parse(String(team['updated_at'])));

      const changed = ok(
        await put(team['id'], { conversation_assignment_type: 'manual', max_auto_assigned_conversations: 0, timezone: 'Europe/London' }),
      );
      assert.equal(changed['name'], 'Sales EMEA');
      assert.equal(changed['emoji'], '📈');
      assert.equal(changed['conversation_assignment_type'], 'manual');
      assert.equal(changed['max_auto_assigned_conversations'], 0);
      assert.equal(changed['timezone'], 'Europe/London');

      const emoji = ok(await put(team['id'], { emoji: ' 🚀 ' }));
      assert.equal(emoji['emoji'], '🚀', 'trimmed like on create');
      ok(await put(team['id'], { emoji: '📈' }));

      const same = ok(await put(team['id'], {}));
      assert.equal(same['name'], 'Sales EMEA');
      assert.equal(same['timezone'], 'Europe/London');
      const got = ok(await t.call({ method: 'GET', url: `/api/v1/teams/${team['id']}` }));
      assert.deepEqual(got, same);
      team = got;
    });

    it('may change the case of its own name', async () => {
      const renamed = ok(await put(team['id'], { name: 'SALES emea' }));
      assert.equal(renamed['name'], 'SALES emea');
    });

    it('answers 409 when renaming onto another team, case-insensitively', async () => {
      fails(await put(team['id'], { name: 'support' }), 409, 'ConflictException');
      const got = ok(await t.call({ method: 'GET', url: `/api/v1/teams/${team['id']}` }));
      assert.equal(got['name'], 'SALES emea');
    });

    it('refuses invalid values with 400 and changes nothing', async () => {
      for (const payload of [
        { name: '' },
        { name: '  ' },
        { name: 5 },
        { conversation_assignment_type: 'auto' },
        { timezone: 'Nowhere/Land' },
        { timezone: '-05:30' },
        { max_auto_assigned_conversations: -3 },
        { max_auto_assigned_conversations: '3' },
        { business_hours_id: 3 },
      ]) {
        fails(await put(team['id'], payload), 400, 'InputException', JSON.stringify(payload));
      }
      const got = ok(await t.call({ method: 'GET', url: `/api/v1/teams/${team['id']}` }));
      assert.equal(got['timezone'], 'Europe/London');
      assert.equal(got['conversation_assignment_type'], 'manual');
    });

    it('answers 404 for an unknown team, 403 for an agent and 401 anonymously', async () => {
      fails(await put(999999, { name: 'Nobody' }), 404, 'NotFoundException');
      fails(await put(team['id'], { name: 'Mine' }, agent), 403, 'PermissionException');
      fails(
        await t.call({ method: 'PUT', url: `/api/v1/teams/${team['id']}`, payload: { name: 'Anon' }, as: null }),
        401,
        'UnauthorizedException',
      );
    });
  });

  describe('delete', () => {
    it('deletes a team (true), then it is gone; members lose it', async () => {
      const member = await t.makeAgent();
      const team = ok(await create({ name: 'Temporary', members: [member.id] }));
      assert.equal((await agentTeams(member.id)).length, 1);
      fails(await t.call({ method: 'DELETE', url: `/api/v1/teams/${team['id']}`, as: agent }), 403, 'PermissionException');
      assert.equal(ok<boolean>(await t.call({ method: 'DELETE', url: `/api/v1/teams/${team['id']}` })), true);
      fails(await t.call({ method: 'GET', url: `/api/v1/teams/${team['id']}` }), 404, 'NotFoundException');
      fails(await t.call({ method: 'DELETE', url: `/api/v1/teams/${team['id']}` }), 404, 'NotFoundException');
      fails(await members(team['id'] as number), 404, 'NotFoundException');
      assert.deepEqual(await agentTeams(member.id), []);
      // The name is free again.
      ok(await create({ name: 'temporary' }));
    });

    it('answers 404 for an unknown team', async () => {
      fails(await t.call({ method: 'DELETE', url: '/api/v1/teams/999999' }), 404, 'NotFoundException');
    });
  });

  describe('members', () => {
    let team: Json;
    let a: Caller;
    let b: Caller;
    let c: Caller;
    before(async () => {
      team = ok(await create({ name: 'Escalations', emoji: '🔥' }));
      a = await t.makeAgent({ first_name: 'Alice' });
      b = await t.makeAgent({ first_name: 'Bob' });
      c = await t.makeAgent({ first_name: 'Carol' });
    });
    const url = () => `/api/v1/teams/${team['id']}/members`;
    const ids = (list: Json[]) => list.map((m) => m['id']);

    it('starts empty; any agent may list the members', async () => {
      assert.deepEqual(ok<Json[]>(await t.call({ method: 'GET', url: url(), as: agent })), []);
      fails(await t.call({ method: 'GET', url: url(), as: null }), 401, 'UnauthorizedException');
    });

    it('adds a member (POST), idempotently; the agent record shows the team', async () => {
      const list = ok<Json[]>(await t.call({ method: 'POST', url: url(), payload: { user_id: a.id } }));
      assert.deepEqual(ids(list), [a.id]);
      assert.deepEqual(Object.keys(list[0]!).sort(), MEMBER_KEYS);
      assert.equal(list[0]!['first_name'], 'Alice');
      assert.equal(list[0]!['email'], a.email);
      const again = ok<Json[]>(await t.call({ method: 'POST', url: url(), payload: { user_id: a.id } }));
      assert.deepEqual(ids(again), [a.id]);
      assert.deepEqual(await agentTeams(a.id), [{ id: team['id'], name: 'Escalations', emoji: '🔥' }]);
    });

    it("shows the new team in the member's own /agents/me at once, and in its cached credentials", async () => {
      const cacheKey = 'k:' + sha256(`${b.apiKey}:${b.apiSecret}`);
      const before = ok<{ teams: unknown[] }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: b }));
      assert.deepEqual(before.teams, []);
      assert.deepEqual(t.deps.credentials.get(cacheKey, t.deps.clock.now().getTime())?.principal.teamIds, []);
      ok(await t.call({ method: 'POST', url: url(), payload: { user_id: b.id } }));
      const me = ok<{ teams: Json[] }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: b }));
      assert.deepEqual(me.teams, [{ id: team['id'], name: 'Escalations', emoji: '🔥' }]);
      assert.deepEqual(t.deps.credentials.get(cacheKey, t.deps.clock.now().getTime())?.principal.teamIds, [team['id']]);

      const removed = await t.call({ method: 'DELETE', url: `${url()}/${b.id}` });
      assert.equal(ok<boolean>(removed), true);
      const after = ok<{ teams: Json[] }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: b }));
      assert.deepEqual(after.teams, []);
      assert.deepEqual(t.deps.credentials.get(cacheKey, t.deps.clock.now().getTime())?.principal.teamIds, []);
    });

    it('replaces the member list (PUT), ignoring duplicates', async () => {
      const list = ok<Json[]>(await t.call({ method: 'PUT', url: url(), payload: { user_ids: [c.id, b.id, b.id] } }));
      assert.deepEqual(ids(list).sort(), [b.id, c.id].sort());
      assert.deepEqual(ids(ok<Json[]>(await members(team['id'] as number))).sort(), [b.id, c.id].sort());
      assert.deepEqual(await agentTeams(a.id), []);
      assert.equal((await agentTeams(c.id)).length, 1);
      // Members are ordered by first name.
      assert.deepEqual(
        list.map((m) => m['first_name']),
        ['Bob', 'Carol'],
      );
    });

    it('a failed replacement changes nothing', async () => {
      const body = fails(await t.call({ method: 'PUT', url: url(), payload: { user_ids: [a.id, 888888] } }), 400, 'InputException');
      assert.match(String(body['message']), /888888/);
      assert.deepEqual(ids(ok<Json[]>(await members(team['id'] as number))).sort(), [b.id, c.id].sort());
      for (const payload of [{}, { user_ids: 'x' }, { user_ids: [0] }, { user_ids: [String(a.id)] }]) {
        fails(await t.call({ method: 'PUT', url: url(), payload }), 400, 'InputException', JSON.stringify(payload));
      }
    });

    it('replacing with an empty list empties the team', async () => {
      assert.deepEqual(ok<Json[]>(await t.call({ method: 'PUT', url: url(), payload: { user_ids: [] } })), []);
      assert.deepEqual(await agentTeams(b.id), []);
      ok(await t.call({ method: 'PUT', url: url(), payload: { user_ids: [a.id, b.id] } }));
    });

    it('answers 400 for an unknown agent on add', async () => {
      fails(await t.call({ method: 'POST', url: url(), payload: { user_id: 777777 } }), 400, 'InputException');
      for (const payload of [{}, { user_id: 'x' }, { user_id: 0 }, { user_id: null }]) {
        fails(await t.call({ method: 'POST', url: url(), payload }), 400, 'InputException', JSON.stringify(payload));
      }
    });

    it('removes a member (DELETE), then removing again is 404', async () => {
      assert.equal(ok<boolean>(await t.call({ method: 'DELETE', url: `${url()}/${a.id}` })), true);
      assert.deepEqual(ids(ok<Json[]>(await members(team['id'] as number))), [b.id]);
      assert.deepEqual(await agentTeams(a.id), []);
      fails(await t.call({ method: 'DELETE', url: `${url()}/${a.id}` }), 404, 'NotFoundException');
      fails(await t.call({ method: 'DELETE', url: `${url()}/${c.id}` }), 404, 'NotFoundException');
      fails(await t.call({ method: 'DELETE', url: `${url()}/999999` }), 404, 'NotFoundException');
    });

    it('answers 404 for an unknown team on every member route', async () => {
      const base = '/api/v1/teams/999999/members';
      fails(await t.call({ method: 'GET', url: base }), 404, 'NotFoundException');
      fails(await t.call({ method: 'PUT', url: base, payload: { user_ids: [a.id] } }), 404, 'NotFoundException');
      fails(await t.call({ method: 'POST', url: base, payload: { user_id: a.id } }), 404, 'NotFoundException');
      fails(await t.call({ method: 'DELETE', url: `${base}/${a.id}` }), 404, 'NotFoundException');
    });

    it('changing members needs teams:manage', async () => {
      fails(await t.call({ method: 'POST', url: url(), payload: { user_id: agent.id }, as: agent }), 403, 'PermissionException');
      fails(await t.call({ method: 'PUT', url: url(), payload: { user_ids: [agent.id] }, as: agent }), 403, 'PermissionException');
      fails(await t.call({ method: 'DELETE', url: `${url()}/${b.id}`, as: agent }), 403, 'PermissionException');
      fails(await t.call({ method: 'POST', url: url(), payload: { user_id: agent.id }, as: null }), 401, 'UnauthorizedException');
      assert.deepEqual(ids(ok<Json[]>(await members(team['id'] as number))), [b.id]);
    });

    it('a deleted agent cannot be added and is not listed', async () => {
      const gone = await t.makeAgent();
      ok(await t.call({ method: 'POST', url: url(), payload: { user_id: gone.id } }));
      assert.equal(ok<boolean>(await t.call({ method: 'DELETE', url: `/api/v1/agents/${gone.id}` })), true);
      assert.deepEqual(ids(ok<Json[]>(await members(team['id'] as number))), [b.id]);
      fails(await t.call({ method: 'POST', url: url(), payload: { user_id: gone.id } }), 400, 'InputException');
    });
  });
});
