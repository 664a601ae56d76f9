// /api/v1/agents/me: the caller's own record and password, and the availability rules of PUT
// /agents/me/availability (docs/api.md: Agents and availability).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Agent, agentCalls, agentsFixtures, assertAgentShape } from '../../test/agents.ts';
import { assertError, buildTestApp, type Caller, dataOf, MY_AGENT_RECORD_FIELDS, type TestApp } from '../../test/helpers.ts';

describe('agents', () => {
  let t: TestApp;
  let agent: Caller;

  before(async () => {
    t = await buildTestApp();
    ({ agent } = await agentsFixtures(t));
  });
  after(() => t.close());

  const { get } = agentCalls(() => t);

  describe('/agents/me', () => {
    it('GET returns the caller', async () => {
      const me = dataOf<Agent>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent }));
      assertAgentShape(me, MY_AGENT_RECORD_FIELDS);
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
