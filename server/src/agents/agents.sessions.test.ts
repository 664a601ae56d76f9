// docs/api.md, "Sessions": an agent's list of sessions, ending one or all the others, and what
// each writes to the audit log; last_seen_at written at most once a minute.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deviceOf } from '../auth/sessions.service.ts';
import { sha256 } from '../security/hashing.ts';
import { PASSWORD, setCookies } from '../../test/auth.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import {
  asSession,
  auditEntries,
  auditEntry,
  CHROME_LINUX,
  SAFARI_IPHONE,
  type SessionItem,
  type SignedIn,
  signIn,
} from '../../test/sessions.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FIELDS = ['created_at', 'current', 'device', 'id', 'ip', 'last_seen_at', 'user_agent'];
const ENV = { LOGIN_RATE_LIMIT_PER_MINUTE: '1000', AUTH_FAILURE_LIMIT_PER_MINUTE: '100000' };

describe('the device a user agent names', () => {
  it('reads the browser and the system, either null when unknown', () => {
    const cases: Array<[string | null, { browser: string | null; os: string | null }]> = [
      [CHROME_LINUX, { browser: 'Chrome', os: 'Linux' }],
      [SAFARI_IPHONE, { browser: 'Safari', os: 'iOS' }],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', { browser: 'Firefox', os: 'Windows' }],
      ['curl/8.5.0', { browser: null, os: null }],
      ['', { browser: null, os: null }],
      ['   ', { browser: null, os: null }],
      [null, { browser: null, os: null }],
      ['\u0000'.repeat(600), { browser: null, os: null }],
    ];
    for (const [userAgent, expected] of cases) assert.deepEqual(deviceOf(userAgent), expected, String(userAgent).slice(0, 40));
  });
});

describe('my sessions', () => {
  const clock = fakeClock();
  let t: TestApp;
  let n = 0;
  before(async () => {
    t = await buildTestApp({ clock, env: ENV });
  });
  after(() => t.close());

  /** A fresh agent with a password, so that each test starts with no session. */
  const newAgent = async (): Promise<Caller> => t.makeAgent({ password: PASSWORD, email: `sessions-${++n}-${Date.now()}@example.com` });
  const login = (agent: Caller, userAgent = CHROME_LINUX) => signIn(t.app, agent.email, PASSWORD, userAgent);
  const list = async (session: SignedIn) =>
    dataOf<SessionItem[]>(await asSession(t.app, session, { method: 'GET', url: '/api/v1/agents/me/sessions' }));
  const me = (session: SignedIn | null) => asSession(t.app, session, { method: 'GET', url: '/api/v1/agents/me' });
  const end = (session: SignedIn | null, id: string, headers: Record<string, string> = {}) =>
    asSession(t.app, session, { method: 'DELETE', url: `/api/v1/agents/me/sessions/${id}`, headers });
  const endOthers = (session: SignedIn | null, headers: Record<string, string> = {}) =>
    asSession(t.app, session, { method: 'DELETE', url: '/api/v1/agents/me/sessions', headers });
  const lastSeen = async (token: string) =>
    (await t.deps.db.selectFrom('sessions').where('id', '=', sha256(token)).select('last_seen_at').executeTakeFirstOrThrow()).last_seen_at;

  it('lists the live sessions, last seen first, with the device read from the user agent and the current one marked', async () => {
    const agent = await newAgent();
    const laptop = await login(agent, CHROME_LINUX);
    const phone = await login(agent, SAFARI_IPHONE);
    dataOf(await me(laptop));
    clock.advance(120_000);
    dataOf(await me(phone));
    const other = await login(await newAgent());
    // Listed with the agent's API credentials, which use no session (a session's own listing is a use of it).
    const listed = dataOf<SessionItem[]>(await t.call({ method: 'GET', url: '/api/v1/agents/me/sessions', as: agent }));
    assert.equal(listed.length, 2, 'only this agent’s sessions');
    for (const item of listed) {
      assert.deepEqual(Object.keys(item).sort(), FIELDS);
      assert.match(item.id, UUID);
      assert.equal(item.ip, '127.0.0.1');
      assert.equal(item.current, false, 'no session is current with API credentials');
    }
    const [first, second] = listed as [SessionItem, SessionItem];
    assert.equal(first.user_agent, SAFARI_IPHONE, 'the phone was seen last');
    assert.deepEqual(first.device, { browser: 'Safari', os: 'iOS' });
    assert.equal(first.last_seen_at, clock.now().toISOString());
    assert.equal(second.user_agent, CHROME_LINUX);
    assert.deepEqual(second.device, { browser: 'Chrome', os: 'Linux' });
    assert.equal(second.last_seen_at, new Date(clock.now().getTime() - 120_000).toISOString());
    // The public id is neither the cookie nor its hash (the primary key and credential-cache key).
    const body = JSON.stringify(listed);
    for (const secret of [laptop.token, phone.token, sha256(laptop.token), sha256(phone.token)]) assert.ok(!body.includes(secret));
    // Each session sees itself as the current one.
    clock.advance(1_000);
    const fromLaptop = await list(laptop);
    assert.deepEqual(
      fromLaptop.map((s) => [s.user_agent, s.current]),
      [
        [CHROME_LINUX, true],
        [SAFARI_IPHONE, false],
      ],
      'the laptop was just seen (listing is a use)',
    );
    assert.equal(fromLaptop.find((s) => s.current)?.id, second.id);
    assert.equal((await list(phone)).find((s) => s.current)?.id, first.id);
    assert.ok(!(await list(other)).some((s) => fromLaptop.some((mine) => mine.id === s.id)));
  });

  it('with API credentials no session is current, and DELETE /agents/me/sessions ends every one of them', async () => {
    const agent = await newAgent();
    const a = await login(agent);
    const b = await login(agent);
    const listed = dataOf<SessionItem[]>(await t.call({ method: 'GET', url: '/api/v1/agents/me/sessions', as: agent }));
    assert.equal(listed.length, 2);
    assert.ok(listed.every((s) => !s.current));
    assert.deepEqual(dataOf(await t.call({ method: 'DELETE', url: '/api/v1/agents/me/sessions', as: agent })), { ended: 2 });
    assertError(await me(a), 401, 'UnauthorizedException');
    assertError(await me(b), 401, 'UnauthorizedException');
    dataOf(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent }), 'the API credentials keep working');
    const entry = await auditEntry(t, 'auth.session_ended', agent.id);
    assert.equal(entry.actor_type, 'api_key');
    assert.equal(entry.actor_id, agent.id);
    assert.deepEqual(entry.changes, { sessions: [2, 0] });
  });

  it('ends another of my sessions: refused at once, the rest keep working, and an auth.session_ended entry is written', async () => {
    const agent = await newAgent();
    const laptop = await login(agent, CHROME_LINUX);
    const phone = await login(agent, SAFARI_IPHONE);
    dataOf(await me(phone)); // cached
    const phoneId = (await list(laptop)).find((s) => !s.current)?.id;
    assert.ok(phoneId);
    assert.equal(dataOf(await end(laptop, phoneId)), true);
    assertError(await me(phone), 401, 'UnauthorizedException');
    dataOf(await me(laptop));
    assert.deepEqual(
      (await list(laptop)).map((s) => s.current),
      [true],
    );
    assertError(await end(laptop, phoneId), 404, 'NotFoundException', 'already ended');
    const entry = await auditEntry(t, 'auth.session_ended', phoneId);
    assert.equal(entry.actor_type, 'agent');
    assert.equal(entry.actor_id, agent.id);
    assert.equal(entry.resource_type, 'session');
    assert.equal(entry.resource_name, 'Safari on iOS');
    assert.equal(entry.ip, '127.0.0.1');
    assert.equal(entry.user_agent, CHROME_LINUX, 'the request that ended it');
    assert.ok(entry.request_id);
  });

  it('ends the current session: a logout (cookies cleared, auth.logout written)', async () => {
    const agent = await newAgent();
    const session = await login(agent);
    const [mine] = await list(session);
    assert.ok(mine?.current);
    const res = await end(session, mine.id);
    assert.equal(dataOf(res), true);
    assert.ok(
      setCookies(res).some((c) => /^parley_session=;/.test(c)),
      'the session cookie is cleared',
    );
    assertError(await me(session), 401, 'UnauthorizedException');
    const entry = await auditEntry(t, 'auth.logout', mine.id);
    assert.equal(entry.actor_id, agent.id);
    assert.equal(entry.resource_name, 'Chrome on Linux');
  });

  it('ends every other session, keeping the current one', async () => {
    const agent = await newAgent();
    const keep = await login(agent);
    const others = [await login(agent), await login(agent, SAFARI_IPHONE), await login(agent)];
    for (const s of others) dataOf(await me(s));
    assert.deepEqual(dataOf(await endOthers(keep)), { ended: 3 });
    for (const s of others) assertError(await me(s), 401, 'UnauthorizedException');
    dataOf(await me(keep));
    assert.equal((await list(keep)).length, 1);
    assert.deepEqual(dataOf(await endOthers(keep)), { ended: 0 }, 'nothing left to end');
    const [entry, ...more] = await auditEntries(t, 'auth.session_ended', agent.id);
    assert.equal(more.length, 0, 'ending nothing writes nothing');
    assert.deepEqual(entry?.changes, { sessions: [3, 0] });
  });

  it('POST /auth/logout writes auth.logout', async () => {
    const agent = await newAgent();
    const session = await login(agent, SAFARI_IPHONE);
    const [mine] = await list(session);
    assert.equal(dataOf(await asSession(t.app, session, { method: 'POST', url: '/api/v1/auth/logout' })), true);
    const entry = await auditEntry(t, 'auth.logout', mine!.id);
    assert.equal(entry.actor_type, 'agent');
    assert.equal(entry.resource_name, 'Safari on iOS');
    // With API credentials there is no session to end: no entry.
    const before = (await auditEntries(t, 'auth.logout')).length;
    dataOf(await t.call({ method: 'POST', url: '/api/v1/auth/logout', as: agent }));
    assert.equal((await auditEntries(t, 'auth.logout')).length, before);
  });

  describe('refusals, which change nothing', () => {
    let agent: Caller;
    let session: SignedIn;
    let victim: SignedIn;
    let victimId: string;
    before(async () => {
      agent = await newAgent();
      session = await login(agent);
      victim = await login(await newAgent());
      victimId = (await list(victim))[0]!.id;
    });

    it('needs credentials (401) on every route', async () => {
      assertError(await asSession(t.app, null, { method: 'GET', url: '/api/v1/agents/me/sessions' }), 401, 'UnauthorizedException');
      assertError(await end(null, victimId), 401, 'UnauthorizedException');
      assertError(await endOthers(null), 401, 'UnauthorizedException');
      const stale = { ...session, headers: { ...session.headers, cookie: `parley_session=${'x'.repeat(43)}; csrf_token=${session.csrf}` } };
      assertError(await end(stale, victimId), 401, 'UnauthorizedException');
    });

    it('needs the CSRF token with a cookie (403) to end sessions', async () => {
      const other = await login(agent);
      const otherId = (await list(other)).find((s) => s.current)!.id;
      for (const headers of [{ 'x-csrf-token': 'wrong' }, { 'x-csrf-token': '' }]) {
        assertError(await end(session, otherId, headers), 403, 'PermissionException');
        assertError(await endOthers(session, headers), 403, 'PermissionException');
      }
      const bare = { ...session, headers: { cookie: session.headers['cookie'] as string } };
      assertError(await end(bare, otherId), 403, 'PermissionException');
      assertError(await endOthers(bare), 403, 'PermissionException');
      dataOf(await me(other), 'still signed in');
    });

    it('answers 404 for an unknown, malformed or huge id, and for another agent’s session (which keeps working)', async () => {
      const ids = ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '12', 'a'.repeat(5000), sha256(victim.token), victimId];
      for (const id of ids) assertError(await end(session, id), 404, 'NotFoundException', id.slice(0, 40));
      // A NUL byte in a path parameter is refused as input (docs/api.md, "Input rules").
      for (const id of ['%00', `${victimId.slice(0, -1)}%00`]) assertError(await end(session, id), 400, 'InputException', id);
      dataOf(await me(victim));
      assert.equal((await list(victim)).length, 1);
      assert.equal((await auditEntries(t, 'auth.session_ended', victimId)).length, 0);
    });
  });

  describe('last_seen_at', () => {
    it('is written on first use and then at most once a minute per session, however often it is used', async () => {
      const agent = await newAgent();
      const a = await login(agent);
      const b = await login(agent);
      assert.equal(await lastSeen(a.token), null, 'not used yet');
      const start = clock.now();
      dataOf(await me(a));
      assert.deepEqual(await lastSeen(a.token), start);
      // The other session of the same agent has its own pace: its first use is written although the agent's activity was just written.
      clock.advance(5_000);
      dataOf(await me(b));
      assert.deepEqual(await lastSeen(b.token), clock.now());
      // Used every 5 s (its cache entry renewed every 30 s meanwhile): unchanged for a minute.
      for (let elapsed = 10_000; elapsed < 60_000; elapsed += 5_000) {
        clock.set(new Date(start.getTime() + elapsed));
        dataOf(await me(a));
        assert.deepEqual(await lastSeen(a.token), start, `after ${elapsed} ms`);
      }
      clock.set(new Date(start.getTime() + 60_000));
      dataOf(await me(a));
      assert.deepEqual(await lastSeen(a.token), clock.now(), 'written again a minute after');
      const listed = (await list(a)).find((s) => s.current);
      assert.equal(listed?.last_seen_at, clock.now().toISOString());
      // A session unused for longer is written on its next use.
      clock.advance(300_000);
      dataOf(await me(b));
      assert.deepEqual(await lastSeen(b.token), clock.now());
    });
  });
});
