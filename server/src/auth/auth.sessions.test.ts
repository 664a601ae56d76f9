// docs/api.md, "Authentication": password login with a session cookie and CSRF, logout, a
// changed password, last activity and the session lifetime.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MY_AGENT_FIELDS, type Agent, authCalls, cookieValue, PASSWORD, setCookies } from '../../test/auth.ts';
import { assertError, basicHeader, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

describe('auth', () => {
  const clock = fakeClock();
  let t: TestApp;
  let agent: Caller;
  let withPassword: Caller;

  before(async () => {
    // These tests make many failed attempts on purpose; the limits have tests of their own below.
    // (With Redis the failure window is a real minute: the default 60 was reached on a fast run.)
    t = await buildTestApp({ clock, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '1000', AUTH_FAILURE_LIMIT_PER_MINUTE: '100000' } });
    agent = await t.makeAgent();
    withPassword = await t.makeAgent({ password: PASSWORD, email: `pw-${Date.now()}@example.com` });
  });
  after(() => t.close());

  const { login, asSession, me, getAgent } = authCalls(() => t);

  describe('password login and sessions', () => {
    it('logs in: returns the agent record and sets the session and CSRF cookies', async () => {
      const res = await t.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: withPassword.email, password: PASSWORD },
        as: null,
      });
      const record = dataOf<Agent>(res);
      assert.deepEqual(Object.keys(record).sort(), MY_AGENT_FIELDS);
      assert.equal(record.id, withPassword.id);
      assert.equal(record.email, withPassword.email);
      assert.equal(record.type, 'agent');
      assert.equal(record['last_login_at'], clock.now().toISOString());
      assert.doesNotMatch(res.body, /password|api_secret/);

      const cookies = setCookies(res);
      const session = cookies.find((c) => c.startsWith('parley_session='));
      const csrf = cookies.find((c) => c.startsWith('csrf_token='));
      assert.ok(session, 'parley_session cookie');
      assert.ok(csrf, 'csrf_token cookie');
      assert.match(session, /;\s*HttpOnly/i);
      assert.match(session, /;\s*SameSite=Lax/i);
      assert.match(session, /;\s*Path=\//i);
      assert.doesNotMatch(csrf, /HttpOnly/i, 'the CSRF cookie must be readable by the page');
      assert.match(csrf, /;\s*SameSite=Lax/i);
      assert.ok((cookieValue(res, 'parley_session') ?? '').length >= 20);
      assert.ok((cookieValue(res, 'csrf_token') ?? '').length >= 16);
    });

    it('matches the email case-insensitively (and ignores surrounding spaces)', async () => {
      const s = await login(withPassword.email.toUpperCase(), PASSWORD);
      assert.equal(s.agent.id, withPassword.id);
      const s2 = await login(`  ${withPassword.email} `, PASSWORD);
      assert.equal(s2.agent.id, withPassword.id);
    });

    it('answers a wrong password and an unknown email with the same 401', async () => {
      const wrong = await t.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: withPassword.email, password: 'not-the-password' },
        as: null,
      });
      const unknown = await t.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'nobody@example.com', password: PASSWORD },
        as: null,
      });
      const a = assertError(wrong, 401, 'UnauthorizedException');
      const b = assertError(unknown, 401, 'UnauthorizedException');
      assert.equal(a.message, b.message);
      assert.deepEqual(a.data, b.data);
      assert.equal(setCookies(wrong).length, 0);
      assert.equal(setCookies(unknown).length, 0);
    });

    it('refuses an agent without a password, a disabled agent and a deleted agent (401)', async () => {
      const noPassword = await t.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: agent.email, password: PASSWORD },
        as: null,
      });
      assertError(noPassword, 401, 'UnauthorizedException');

      const disabled = await t.makeAgent({ password: PASSWORD });
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${disabled.id}`, payload: { enabled: false } }));
      const res = await t.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: disabled.email, password: PASSWORD },
        as: null,
      });
      assert.equal(assertError(res, 401, 'UnauthorizedException').message, assertError(noPassword, 401, 'UnauthorizedException').message);

      const deleted = await t.makeAgent({ password: PASSWORD });
      dataOf(await t.call({ method: 'DELETE', url: `/api/v1/agents/${deleted.id}` }));
      assertError(
        await t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email: deleted.email, password: PASSWORD }, as: null }),
        401,
        'UnauthorizedException',
      );
    });

    it('answers missing or mistyped fields with 400 InputException', async () => {
      const bodies: unknown[] = [
        {},
        { email: withPassword.email },
        { password: PASSWORD },
        { email: '', password: PASSWORD },
        { email: withPassword.email, password: '' },
        { email: 5, password: PASSWORD },
        { email: withPassword.email, password: 12345678901 },
      ];
      for (const payload of bodies) {
        const res = await t.call({ method: 'POST', url: '/api/v1/auth/login', payload: payload as Record<string, unknown>, as: null });
        assertError(res, 400, 'InputException');
      }
      const malformed = await t.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: '{"email":',
        headers: { 'content-type': 'application/json' },
        as: null,
      });
      assertError(malformed, 400, 'InputException');
    });

    it('a session cookie authenticates GET requests without a CSRF token', async () => {
      const s = await login(withPassword.email, PASSWORD);
      const res = await me({ cookie: s.cookie });
      assert.equal(dataOf<Agent>(res).id, withPassword.id);
      // the session cookie alone (without the csrf cookie) is enough for a read
      assert.equal(dataOf<Agent>(await me({ cookie: `parley_session=${s.session}` })).id, withPassword.id);
    });

    it('cookie-authenticated writes need X-CSRF-Token equal to the csrf_token cookie (403 otherwise)', async () => {
      const s = await login(withPassword.email, PASSWORD);
      const write = (extra: { csrf?: string | null; cookie?: string }) =>
        t.call({
          method: 'PUT',
          url: '/api/v1/agents/me',
          payload: { first_name: 'Csrf' },
          ...asSession(extra.cookie ? { ...s, cookie: extra.cookie } : s, { csrf: extra.csrf }),
        });
      assertError(await write({ csrf: null }), 403, 'PermissionException');
      assertError(await write({ csrf: 'wrong-token' }), 403, 'PermissionException');
      assertError(await write({ csrf: '' }), 403, 'PermissionException');
      assertError(await write({ csrf: s.csrf + 'x' }), 403, 'PermissionException');
      // the header must match the cookie: without the csrf_token cookie it is refused too
      assertError(await write({ cookie: `parley_session=${s.session}` }), 403, 'PermissionException');
      assert.notEqual(dataOf<Agent>(await me({ cookie: s.cookie })).first_name, 'Csrf');
      assert.equal(dataOf<Agent>(await write({})).first_name, 'Csrf');
    });

    it('CSRF applies to POST and DELETE too, and a matching token lets them through', async () => {
      const adminSession = await login(t.admin.email, 'admin-password-123');
      const victim = await t.makeAgent();
      const post = (csrf?: string | null) =>
        t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: `csrf-${String(csrf)}` }, ...asSession(adminSession, { csrf }) });
      assertError(await post(null), 403, 'PermissionException');
      assertError(await post('nope'), 403, 'PermissionException');
      assert.equal(dataOf<{ name: string }>(await post()).name, 'csrf-undefined');
      const names = dataOf<Array<{ name: string }>>(await t.call({ method: 'GET', url: '/api/v1/tags' })).map((tag) => tag.name);
      assert.ok(!names.includes('csrf-null') && !names.includes('csrf-nope'), 'refused writes created nothing');

      const del = (csrf?: string | null) =>
        t.call({ method: 'DELETE', url: `/api/v1/agents/${victim.id}/api-key`, ...asSession(adminSession, { csrf }) });
      assertError(await del(null), 403, 'PermissionException');
      assertError(await del('nope'), 403, 'PermissionException');
      dataOf(await me(victim.headers)); // the refused DELETE changed nothing
      assert.equal(dataOf<boolean>(await del()), true);
      assertError(await me(victim.headers), 401, 'UnauthorizedException');
    });

    it('a session of a disabled agent stops working at once', async () => {
      const user = await t.makeAgent({ password: PASSWORD });
      const s = await login(user.email, PASSWORD);
      dataOf(await me({ cookie: s.cookie }));
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${user.id}`, payload: { enabled: false } }));
      assertError(await me({ cookie: s.cookie }), 401, 'UnauthorizedException');
    });

    it('logout ends the session: the next request with the cookie is 401', async () => {
      const s = await login(withPassword.email, PASSWORD);
      const other = await login(withPassword.email, PASSWORD);
      dataOf(await me({ cookie: s.cookie }));
      // logout is a write: without the CSRF token it is refused and the session lives on
      assertError(
        await t.call({ method: 'POST', url: '/api/v1/auth/logout', ...asSession(s, { csrf: null }) }),
        403,
        'PermissionException',
      );
      dataOf(await me({ cookie: s.cookie }));

      const res = await t.call({ method: 'POST', url: '/api/v1/auth/logout', ...asSession(s) });
      assert.equal(dataOf<boolean>(res), true);
      const cleared = setCookies(res).find((c) => c.startsWith('parley_session='));
      assert.ok(cleared, 'the session cookie is cleared');
      assert.match(cleared, /^parley_session=;|Expires=Thu, 01 Jan 1970|Max-Age=0/i);
      assertError(await me({ cookie: s.cookie }), 401, 'UnauthorizedException');
      assertError(await t.call({ method: 'POST', url: '/api/v1/auth/logout', ...asSession(s) }), 401, 'UnauthorizedException');
      // only that session ended
      assert.equal(dataOf<Agent>(await me({ cookie: other.cookie })).id, withPassword.id);
    });

    it('logout without any credentials is 401; with API credentials it is harmless', async () => {
      assertError(await t.call({ method: 'POST', url: '/api/v1/auth/logout', as: null }), 401, 'UnauthorizedException');
      assert.equal(dataOf<boolean>(await t.call({ method: 'POST', url: '/api/v1/auth/logout', as: agent })), true);
      dataOf(await me(agent.headers));
    });

    it('changing my password ends my other sessions, keeps this one, and the new password works', async () => {
      const user = await t.makeAgent({ password: PASSWORD });
      const current = await login(user.email, PASSWORD);
      const other = await login(user.email, PASSWORD);
      const res = await t.call({
        method: 'PUT',
        url: '/api/v1/agents/me',
        payload: { current_password: PASSWORD, new_password: 'a-brand-new-password' },
        ...asSession(current),
      });
      dataOf(res);
      assertError(await me({ cookie: other.cookie }), 401, 'UnauthorizedException');
      assert.equal(dataOf<Agent>(await me({ cookie: current.cookie })).id, user.id);
      assertError(
        await t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email: user.email, password: PASSWORD }, as: null }),
        401,
        'UnauthorizedException',
      );
      assert.equal((await login(user.email, 'a-brand-new-password')).agent.id, user.id);
      // API credentials are not sessions: they keep working
      dataOf(await me(user.headers));
    });

    it('with a session, an agent generates and revokes its own pair (CSRF token required); the session lives on', async () => {
      const user = await t.makeAgent({ password: PASSWORD });
      const s = await login(user.email, PASSWORD);
      const generate = (csrf?: string | null) => t.call({ method: 'POST', url: '/api/v1/agents/me/api-key', ...asSession(s, { csrf }) });
      assertError(await generate(null), 403, 'PermissionException');
      dataOf(await me(user.headers)); // the refused request changed nothing
      const pair = dataOf<{ api_key: string; api_secret: string }>(await generate());
      assertError(await me(user.headers), 401, 'UnauthorizedException');
      const renewed = { authorization: `token ${pair.api_key}:${pair.api_secret}` };
      dataOf(await me(renewed));

      const revoke = (csrf?: string | null) => t.call({ method: 'DELETE', url: '/api/v1/agents/me/api-key', ...asSession(s, { csrf }) });
      assertError(await revoke('wrong'), 403, 'PermissionException');
      dataOf(await me(renewed));
      assert.equal(dataOf<boolean>(await revoke()), true);
      assertError(await me(renewed), 401, 'UnauthorizedException');
      assert.equal(dataOf<Agent>(await me({ cookie: s.cookie })).api_key, null);
    });

    it('every authenticated request sets last_active_at, API key or session, at most once a minute per agent', async () => {
      const user = await t.makeAgent({ password: PASSWORD });
      const s = await login(user.email, PASSWORD);
      const lastActive = async () => (await getAgent(user.id))['last_active_at'];
      assert.equal(await lastActive(), null, 'creating the agent and logging in are not its requests');

      const first = clock.now();
      dataOf(await me({ cookie: s.cookie })); // a session
      assert.equal(await lastActive(), first.toISOString());
      clock.advance(20_000);
      dataOf(await me(user.headers)); // its key, within the minute: not written again
      assert.equal(await lastActive(), first.toISOString());
      assert.equal((await getAgent(user.id)).api_key_last_used_at, clock.now().toISOString(), 'the key has its own minute');
      clock.advance(35_000); // 55 s
      dataOf(await me({ cookie: s.cookie })); // the session, verified again: not yet due
      assert.equal(await lastActive(), first.toISOString());

      clock.advance(10_000); // 65 s: due, from the cached session
      const second = clock.now();
      dataOf(await me({ cookie: s.cookie }));
      assert.equal(await lastActive(), second.toISOString());
      clock.advance(61_000); // due, from the key whose cache entry has expired
      const third = clock.now();
      dataOf(await me({ authorization: `token ${user.apiKey}:${user.apiSecret}` }));
      assert.equal(await lastActive(), third.toISOString());

      // A refused request is not activity.
      clock.advance(120_000);
      assertError(await me({ authorization: basicHeader(user.apiKey, 'x'.repeat(64)) }), 401, 'UnauthorizedException');
      assert.equal(await lastActive(), third.toISOString());
    });

    it('a session expires after its lifetime', async () => {
      const user = await t.makeAgent({ password: PASSWORD });
      const s = await login(user.email, PASSWORD);
      dataOf(await me({ cookie: s.cookie }));
      clock.advance(7 * 24 * 3600 * 1000 + 1000);
      assertError(await me({ cookie: s.cookie }), 401, 'UnauthorizedException');
    });
  });
});
