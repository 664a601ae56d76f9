// docs/api.md, "Authentication": API credentials (Basic and token schemes), password login with a
// session cookie and CSRF, logout, and the login rate limit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AGENT_RECORD_FIELDS,
  assertError,
  basicHeader,
  buildTestApp,
  type Caller,
  dataOf,
  fakeClock,
  type TestApp,
} from '../../test/helpers.ts';
import { sha256 } from '../security/hashing.ts';

type Response = { statusCode: number; body: string; headers: Record<string, unknown>; json: () => unknown };
type Agent = Record<string, unknown> & { id: number; email: string; api_key: string | null; api_key_last_used_at: string | null };

const AGENT_FIELDS = AGENT_RECORD_FIELDS;
const PASSWORD = 'correct-horse-battery';

function setCookies(res: Response): string[] {
  const raw = res.headers['set-cookie'];
  if (raw === undefined) return [];
  return Array.isArray(raw) ? (raw as string[]) : [String(raw)];
}

function cookieValue(res: Response, name: string): string | undefined {
  const line = setCookies(res).find((c) => c.startsWith(`${name}=`));
  return line ? decodeURIComponent(line.slice(name.length + 1).split(';')[0] ?? '') : undefined;
}

interface Session {
  session: string;
  csrf: string;
  cookie: string;
  agent: Agent;
}

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

  async function login(email: string, password: string): Promise<Session> {
    const res = await t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, as: null });
    const agentRecord = dataOf<Agent>(res);
    const session = cookieValue(res, 'parley_session');
    const csrf = cookieValue(res, 'csrf_token');
    assert.ok(session && csrf, 'both cookies are set');
    return { session, csrf, cookie: `parley_session=${session}; csrf_token=${csrf}`, agent: agentRecord };
  }

  function asSession(s: Session, options: { csrf?: string | null } = {}) {
    const headers: Record<string, string> = { cookie: s.cookie };
    const csrf = options.csrf === undefined ? s.csrf : options.csrf;
    if (csrf !== null) headers['x-csrf-token'] = csrf;
    return { as: null, headers };
  }

  const me = (headers: Record<string, string>) => t.call({ method: 'GET', url: '/api/v1/agents/me', headers, as: null });
  const getAgent = async (id: number) => dataOf<Agent>(await t.call({ method: 'GET', url: `/api/v1/agents/${id}` }));

  describe('API credentials', () => {
    it('accepts the Basic scheme, with any case of the scheme name', async () => {
      for (const scheme of ['Basic', 'basic', 'BASIC', 'bAsIc']) {
        const encoded = Buffer.from(`${agent.apiKey}:${agent.apiSecret}`).toString('base64');
        const data = dataOf<Agent>(await me({ authorization: `${scheme} ${encoded}` }));
        assert.equal(data.id, agent.id, scheme);
      }
    });

    it('accepts the token scheme, with any case of the scheme name', async () => {
      for (const scheme of ['token', 'Token', 'TOKEN']) {
        const data = dataOf<Agent>(await me({ authorization: `${scheme} ${agent.apiKey}:${agent.apiSecret}` }));
        assert.equal(data.id, agent.id, scheme);
      }
    });

    it('needs no CSRF token for writes made with API credentials', async () => {
      const res = await t.call({ method: 'PUT', url: '/api/v1/agents/me', payload: { last_name: 'ViaKey' }, as: agent });
      assert.equal(dataOf<Agent>(res).last_name, 'ViaKey');
    });

    it('refuses a wrong secret with 401, even after the right one was used (and cached)', async () => {
      dataOf(await me(agent.headers));
      const wrong = agent.apiSecret.slice(0, -1) + (agent.apiSecret.endsWith('a') ? 'b' : 'a');
      const basic = assertError(await me({ authorization: basicHeader(agent.apiKey, wrong) }), 401, 'UnauthorizedException');
      const token = assertError(await me({ authorization: `token ${agent.apiKey}:${wrong}` }), 401, 'UnauthorizedException');
      assert.equal(basic.data, null);
      // An unknown key gets the very same answer as a wrong secret.
      const unknown = assertError(await me({ authorization: basicHeader('A'.repeat(32), agent.apiSecret) }), 401, 'UnauthorizedException');
      assert.equal(unknown.message, basic.message);
      assert.equal(token.message, basic.message);
      // the secret of one agent does not open another agent's key
      assertError(await me({ authorization: basicHeader(agent.apiKey, withPassword.apiSecret) }), 401, 'UnauthorizedException');
    });

    it('refuses malformed headers and other schemes with 401', async () => {
      const pair = `${agent.apiKey}:${agent.apiSecret}`;
      const headers = [
        `Bearer ${pair}`,
        `Bearer ${Buffer.from(pair).toString('base64')}`,
        `Digest ${pair}`,
        'Basic',
        'token',
        `Basic ${Buffer.from(agent.apiKey).toString('base64')}`,
        `Basic ${Buffer.from(`:${agent.apiSecret}`).toString('base64')}`,
        `Basic ${Buffer.from(`${agent.apiKey}:`).toString('base64')}`,
        `Basic ${pair}`,
        `token ${agent.apiKey}`,
        `token ${agent.apiKey}:`,
        `token :${agent.apiSecret}`,
        `token ${Buffer.from(pair).toString('base64')}`,
        pair,
        '!!!',
        // Decoded bytes that are not printable ASCII (a NUL, a stray byte) never reach the database.
        `Basic ${Buffer.from(`${agent.apiKey.slice(0, 8)}\u0000${agent.apiKey.slice(9)}:${agent.apiSecret}`).toString('base64')}`,
        `Basic ${Buffer.concat([Buffer.from([0xff, 0x00, 0x41]), Buffer.from(`:${agent.apiSecret}`)]).toString('base64')}`,
        `token ${agent.apiKey}:${agent.apiSecret.slice(0, 10)}\u00e9${agent.apiSecret.slice(11)}`,
      ];
      for (const authorization of headers) {
        assertError(await me({ authorization }), 401, 'UnauthorizedException');
      }
    });

    it('refuses a request without credentials with 401 UnauthorizedException', async () => {
      const body = assertError(await me({}), 401, 'UnauthorizedException');
      assert.equal(body.data, null);
      assertError(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'anon' }, as: null }), 401, 'UnauthorizedException');
      assertError(await me({ cookie: 'parley_session=not-a-real-session-token-value' }), 401, 'UnauthorizedException');
    });

    it('generates a 32/64 alphanumeric pair, shows the secret once and stores only a slow hash', async () => {
      const fresh = await t.makeAgent();
      const pair = dataOf<{ api_key: string; api_secret: string }>(
        await t.call({ method: 'POST', url: `/api/v1/agents/${fresh.id}/api-key` }),
      );
      assert.deepEqual(Object.keys(pair).sort(), ['api_key', 'api_secret']);
      assert.match(pair.api_key, /^[A-Za-z0-9]{32}$/);
      assert.match(pair.api_secret, /^[A-Za-z0-9]{64}$/);
      assert.equal((await getAgent(fresh.id)).api_key, pair.api_key);
      const row = await t.deps.db.selectFrom('users').where('id', '=', fresh.id).select(['api_secret_hash']).executeTakeFirstOrThrow();
      assert.ok(row.api_secret_hash && !row.api_secret_hash.includes(pair.api_secret));
      assert.match(row.api_secret_hash, /^scrypt\$/);
    });

    it('revoking the key (DELETE /agents/{id}/api-key) refuses it at once', async () => {
      const victim = await t.makeAgent();
      dataOf(await me(victim.headers)); // now cached
      const res = await t.call({ method: 'DELETE', url: `/api/v1/agents/${victim.id}/api-key` });
      assert.equal(dataOf<boolean>(res), true);
      assertError(await me(victim.headers), 401, 'UnauthorizedException');
      assertError(await me({ authorization: `token ${victim.apiKey}:${victim.apiSecret}` }), 401, 'UnauthorizedException');
      const record = await getAgent(victim.id);
      assert.equal(record.api_key, null);
      assert.equal(record.api_key_last_used_at, null);
    });

    it('regenerating replaces the pair: the old one is 401, the new one works', async () => {
      const holder = await t.makeAgent();
      dataOf(await me(holder.headers));
      const pair = dataOf<{ api_key: string; api_secret: string }>(
        await t.call({ method: 'POST', url: `/api/v1/agents/${holder.id}/api-key` }),
      );
      assert.notEqual(pair.api_key, holder.apiKey);
      assert.notEqual(pair.api_secret, holder.apiSecret);
      assertError(await me(holder.headers), 401, 'UnauthorizedException');
      // the old secret with the new key does not work either
      assertError(await me({ authorization: basicHeader(pair.api_key, holder.apiSecret) }), 401, 'UnauthorizedException');
      assert.equal(dataOf<Agent>(await me({ authorization: basicHeader(pair.api_key, pair.api_secret) })).id, holder.id);
    });

    it('a disabled agent cannot use its key (401), at once', async () => {
      const holder = await t.makeAgent();
      dataOf(await me(holder.headers));
      const res = await t.call({ method: 'PUT', url: `/api/v1/agents/${holder.id}`, payload: { enabled: false } });
      assert.equal(dataOf<Agent>(res).enabled, false);
      assertError(await me(holder.headers), 401, 'UnauthorizedException');
      assertError(await me({ authorization: `token ${holder.apiKey}:${holder.apiSecret}` }), 401, 'UnauthorizedException');
    });

    it('a deleted agent cannot use its key (401), at once', async () => {
      const holder = await t.makeAgent();
      dataOf(await me(holder.headers));
      assert.equal(dataOf<boolean>(await t.call({ method: 'DELETE', url: `/api/v1/agents/${holder.id}` })), true);
      assertError(await me(holder.headers), 401, 'UnauthorizedException');
    });

    it('sets api_key_last_used_at on use and updates it at most once a minute', async () => {
      const user = await t.makeAgent();
      assert.equal((await getAgent(user.id)).api_key_last_used_at, null);
      const first = clock.now();
      dataOf(await me(user.headers));
      assert.equal((await getAgent(user.id)).api_key_last_used_at, first.toISOString());

      clock.advance(10_000);
      dataOf(await me(user.headers)); // served from the cache
      assert.equal((await getAgent(user.id)).api_key_last_used_at, first.toISOString());

      clock.advance(35_000); // 45 s: the cache entry has expired, the key is verified again
      dataOf(await me({ authorization: `token ${user.apiKey}:${user.apiSecret}` }));
      assert.equal((await getAgent(user.id)).api_key_last_used_at, first.toISOString());

      clock.advance(20_000); // 65 s after the first use
      const later = clock.now();
      dataOf(await me(user.headers));
      assert.equal((await getAgent(user.id)).api_key_last_used_at, later.toISOString());

      // a failed attempt does not count as a use
      clock.advance(120_000);
      assertError(await me({ authorization: basicHeader(user.apiKey, 'x'.repeat(64)) }), 401, 'UnauthorizedException');
      assert.equal((await getAgent(user.id)).api_key_last_used_at, later.toISOString());
    });

    it('answers 20 concurrent first uses of a key, all 200', async () => {
      const user = await t.makeAgent();
      const answers = await Promise.all(Array.from({ length: 20 }, () => me(user.headers)));
      assert.deepEqual(
        answers.map((r) => dataOf<Agent>(r).id),
        Array.from({ length: 20 }, () => user.id),
      );
    });

    it('renews a cached key in its last seconds while it keeps answering, and drops it when the renewal finds it invalid', async () => {
      const cacheKey = (u: { apiKey: string; apiSecret: string }) => 'k:' + sha256(`${u.apiKey}:${u.apiSecret}`);
      // Stands for a change whose invalidation never reached this instance (a lost bus message):
      // the secret changes in the database behind the cache's back.
      const changeSecretBehindCache = (id: number) =>
        t.deps.db.updateTable('users').set({ api_secret_hash: 'scrypt$16384$8$1$AAAA$AAAA' }).where('id', '=', id).execute();
      const renewed = async (key: string, beyondMs: number) => {
        for (let i = 0; i < 200; i++) {
          const entry = t.deps.credentials.get(key, clock.now().getTime());
          if (entry && entry.expiresAt > beyondMs) return;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        assert.fail('the entry was not renewed');
      };

      const valid = await t.makeAgent();
      dataOf(await me(valid.headers)); // verified and cached for 30 s
      const firstEnd = clock.now().getTime() + 30_000;
      clock.advance(26_000); // in the last 5 s: answered from the cache, renewed in the background
      dataOf(await me(valid.headers));
      await renewed(cacheKey(valid), firstEnd);
      // The entry remembers the stored hash its secret was verified against: renewals compare it
      // instead of paying the slow hash again.
      const stored = await t.deps.db.selectFrom('users').select('api_secret_hash').where('id', '=', valid.id).executeTakeFirstOrThrow();
      assert.equal(t.deps.credentials.get(cacheKey(valid), clock.now().getTime())?.verifiedHash, stored.api_secret_hash);
      await changeSecretBehindCache(valid.id);
      clock.advance(10_000); // past the first entry's end: the renewed entry answers
      assert.equal(dataOf<Agent>(await me(valid.headers)).id, valid.id);

      const revoked = await t.makeAgent();
      dataOf(await me(revoked.headers));
      await changeSecretBehindCache(revoked.id);
      clock.advance(10_000);
      dataOf(await me(revoked.headers)); // still cached, not yet in its last seconds
      clock.advance(16_000);
      dataOf(await me(revoked.headers)); // still answered; the renewal finds the secret changed
      let answer = await me(revoked.headers);
      for (let i = 0; i < 200 && answer.statusCode === 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        answer = await me(revoked.headers);
      }
      assertError(answer, 401, 'UnauthorizedException');
      assert.equal(t.deps.credentials.get(cacheKey(revoked), clock.now().getTime()), undefined);
    });

    const twoInstances = { skip: process.env['REDIS_URL'] && process.env['DATABASE_URL'] ? false : 'needs DATABASE_URL and REDIS_URL' };
    /** A second instance on the same database and Redis, and a fresh agent whose key both instances have cached. */
    async function withTwoInstances(
      run: (context: {
        second: Awaited<ReturnType<TestApp['secondInstance']>>;
        holder: Caller;
        meOn: (app: TestApp['app']) => Promise<Response>;
        cacheKey: string;
      }) => Promise<void>,
    ): Promise<void> {
      const second = await t.secondInstance();
      try {
        const holder = await t.makeAgent();
        const meOn = (app: TestApp['app']) => app.inject({ method: 'GET', url: '/api/v1/agents/me', headers: holder.headers });
        dataOf(await meOn(t.app));
        dataOf(await meOn(second.app));
        await run({ second, holder, meOn, cacheKey: 'k:' + sha256(`${holder.apiKey}:${holder.apiSecret}`) });
      } finally {
        await second.close();
      }
    }

    it(
      'across two instances sharing Redis: a change made on one refuses the key on the other at once; its own echo drops nothing',
      twoInstances,
      async () => {
        await withTwoInstances(async ({ second, holder, meOn, cacheKey }) => {
          // A change on the first instance: its own entry goes at once, the other's when the bus delivers.
          dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${holder.id}`, payload: { first_name: 'Renamed' } }));
          assert.equal(dataOf<Agent>(await me(holder.headers)).first_name, 'Renamed');
          for (let i = 0; i < 200 && second.deps.credentials.get(cacheKey, clock.now().getTime()); i++)
            await new Promise((resolve) => setTimeout(resolve, 10));
          assert.equal(second.deps.credentials.get(cacheKey, clock.now().getTime()), undefined, 'the other instance dropped its entry');
          // The echo of the first instance's own invalidation has had time to come back: it kept the entry verified after the change.
          await new Promise((resolve) => setTimeout(resolve, 100));
          assert.equal(t.deps.credentials.get(cacheKey, clock.now().getTime())?.principal.firstName, 'Renamed');
          // Disabling on the first instance refuses the key on the second.
          dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${holder.id}`, payload: { enabled: false } }));
          let answer = await meOn(second.app);
          for (let i = 0; i < 200 && answer.statusCode === 200; i++) {
            await new Promise((resolve) => setTimeout(resolve, 10));
            answer = await meOn(second.app);
          }
          assertError(answer, 401, 'UnauthorizedException');
        });
      },
    );

    it('an agent generates its own pair with its current key (POST /agents/me/api-key): the old pair is 401 at once', async () => {
      const holder = await t.makeAgent(); // the Agent role: no users:manage
      dataOf(await me(holder.headers)); // cached
      const pair = dataOf<{ api_key: string; api_secret: string }>(
        await t.call({ method: 'POST', url: '/api/v1/agents/me/api-key', as: holder }),
      );
      assert.match(pair.api_key, /^[A-Za-z0-9]{32}$/);
      assert.match(pair.api_secret, /^[A-Za-z0-9]{64}$/);
      assertError(await me(holder.headers), 401, 'UnauthorizedException');
      const renewed = { authorization: basicHeader(pair.api_key, pair.api_secret) };
      assert.equal(dataOf<Agent>(await me(renewed)).api_key, pair.api_key);
      // It changed nobody else's pair.
      dataOf(await me(agent.headers));
    });

    it('an agent revokes its own pair (DELETE /agents/me/api-key): the next request with it is 401', async () => {
      const holder = await t.makeAgent();
      dataOf(await me(holder.headers));
      assert.equal(dataOf<boolean>(await t.call({ method: 'DELETE', url: '/api/v1/agents/me/api-key', as: holder })), true);
      assertError(await me(holder.headers), 401, 'UnauthorizedException');
      assertError(await t.call({ method: 'DELETE', url: '/api/v1/agents/me/api-key', as: holder }), 401, 'UnauthorizedException');
      const record = await getAgent(holder.id);
      assert.equal(record.api_key, null);
      assertError(await t.call({ method: 'POST', url: '/api/v1/agents/me/api-key', as: null }), 401, 'UnauthorizedException');
    });

    it('across two instances sharing Redis: revoking my own pair on one refuses it on the other at once', twoInstances, async () => {
      await withTwoInstances(async ({ second, holder, meOn, cacheKey }) => {
        assert.ok(second.deps.credentials.get(cacheKey, clock.now().getTime()));
        assert.equal(dataOf<boolean>(await t.call({ method: 'DELETE', url: '/api/v1/agents/me/api-key', as: holder })), true);
        for (let i = 0; i < 200 && second.deps.credentials.get(cacheKey, clock.now().getTime()); i++)
          await new Promise((resolve) => setTimeout(resolve, 10));
        assert.equal(second.deps.credentials.get(cacheKey, clock.now().getTime()), undefined, 'the other instance dropped its entry');
        assertError(await meOn(second.app), 401, 'UnauthorizedException');
      });
    });

    it('never shows the api_secret (or any hash) in an agent response', async () => {
      const holder = await t.makeAgent();
      const responses = [
        await t.call({ method: 'GET', url: `/api/v1/agents/${holder.id}` }),
        await t.call({ method: 'GET', url: '/api/v1/agents?page_size=100' }),
        await t.call({ method: 'GET', url: '/api/v1/agents/compact' }),
        await t.call({ method: 'GET', url: '/api/v1/agents/me', as: holder }),
        await t.call({ method: 'PUT', url: '/api/v1/agents/me', payload: { first_name: 'Secretive' }, as: holder }),
        await t.call({ method: 'PUT', url: `/api/v1/agents/${holder.id}`, payload: { last_name: 'Kept' } }),
        await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload: { status: 'busy' }, as: holder }),
      ];
      for (const res of responses) {
        assert.equal(res.statusCode, 200, res.body);
        assert.ok(!res.body.includes(holder.apiSecret), 'the secret leaked');
        assert.doesNotMatch(res.body, /api_secret|password|scrypt\$/);
      }
      const record = dataOf<Agent>(responses[0]!);
      assert.deepEqual(Object.keys(record).sort(), AGENT_FIELDS);
      assert.equal(record.api_key, holder.apiKey);
    });
  });

  describe('password login and sessions', () => {
    it('logs in: returns the agent record and sets the session and CSRF cookies', async () => {
      const res = await t.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: withPassword.email, password: PASSWORD },
        as: null,
      });
      const record = dataOf<Agent>(res);
      assert.deepEqual(Object.keys(record).sort(), AGENT_FIELDS);
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

describe('auth: login rate limit', () => {
  let t: TestApp;
  let user: Caller;
  before(async () => {
    t = await buildTestApp({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '3' } });
    user = await t.makeAgent({ password: PASSWORD });
  });
  after(() => t.close());

  const attempt = (password: string, remoteAddress = '203.0.113.7') =>
    t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email: user.email, password }, remoteAddress, as: null });

  it('answers 429 RateLimitException with Retry-After once the limit is used up', async () => {
    assert.equal((await attempt('wrong-password-1')).statusCode, 401);
    assert.equal((await attempt('wrong-password-2')).statusCode, 401);
    assert.equal((await attempt(PASSWORD)).statusCode, 200);
    const limited = await attempt('wrong-password-3');
    const body = assertError(limited, 429, 'RateLimitException');
    assert.equal(body.status, 'error');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60, `Retry-After: ${String(limited.headers['retry-after'])}`);
    // even the right password is refused while limited, and no cookie is set
    const right = await attempt(PASSWORD);
    assertError(right, 429, 'RateLimitException');
    assert.equal(setCookies(right).length, 0);
  });

  it('limits per client address and leaves other routes alone', async () => {
    assert.equal((await attempt(PASSWORD, '198.51.100.9')).statusCode, 200);
    assert.equal((await t.call({ method: 'GET', url: '/api/v1/agents/me', as: user, remoteAddress: '203.0.113.7' })).statusCode, 200);
  });
});

describe('auth: failed API authentications per address', () => {
  const clock = fakeClock();
  let t: TestApp;
  let user: Caller;
  let other: Caller;
  before(async () => {
    t = await buildTestApp({ clock, env: { AUTH_FAILURE_LIMIT_PER_MINUTE: '3' } });
    user = await t.makeAgent();
    other = await t.makeAgent();
  });
  after(() => t.close());

  const me = (headers: Record<string, string>, remoteAddress: string) =>
    t.call({ method: 'GET', url: '/api/v1/agents/me', headers, remoteAddress, as: null });
  const wrong = (caller: Caller) => ({ authorization: basicHeader(caller.apiKey, 'w'.repeat(64)) });

  it('refuses an address with 429 and Retry-After once it failed the limit, before any hashing; other addresses and verified credentials go on', async () => {
    const attacker = '203.0.113.50';
    dataOf(await me(user.headers, attacker)); // verified (and cached) before the attack
    for (let i = 0; i < 3; i++) assertError(await me(wrong(user), attacker), 401, 'UnauthorizedException');
    const limited = await me(wrong(user), attacker);
    assertError(limited, 429, 'RateLimitException');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60, `Retry-After: ${String(limited.headers['retry-after'])}`);
    // Credentials not yet verified are refused from that address too, even the right ones...
    assertError(await me(other.headers, attacker), 429, 'RateLimitException');
    // ...while those verified before keep working, and other addresses are not concerned.
    assert.equal(dataOf<Agent>(await me(user.headers, attacker)).id, user.id);
    assert.equal(dataOf<Agent>(await me(other.headers, '198.51.100.20')).id, other.id);
    assertError(await me(wrong(other), '198.51.100.20'), 401, 'UnauthorizedException');
    // Malformed headers cost nothing and are not counted; requests without credentials neither.
    assertError(await me({ authorization: 'token nocolon' }, '198.51.100.21'), 401, 'UnauthorizedException');
  });

  it('counts an attempt before its hash: a burst of wrong secrets from one address gets at most the limit verified', async () => {
    const address = '203.0.113.70';
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => me({ authorization: basicHeader(user.apiKey, `${i}`.padStart(64, 'x')) }, address)),
    );
    const codes = burst.map((r) => r.statusCode);
    assert.equal(codes.filter((c) => c === 401).length, 3, codes.join());
    assert.equal(codes.filter((c) => c === 429).length, 17, codes.join());
  });

  it('does not count successes: many first uses from one address, at once or one by one, all pass', async () => {
    const address = '203.0.113.80';
    const fresh = await t.makeAgent();
    const together = await Promise.all(Array.from({ length: 20 }, () => me(fresh.headers, address)));
    assert.ok(together.every((r) => r.statusCode === 200));
    for (let i = 0; i < 5; i++) dataOf(await me((await t.makeAgent()).headers, address));
    // Successes left the whole allowance for failures.
    for (let i = 0; i < 3; i++) assertError(await me(wrong(user), address), 401, 'UnauthorizedException');
    assertError(await me(wrong(user), address), 429, 'RateLimitException');
  });

  it(
    'lets the address try again once its minute is over (embedded limiter; Redis keeps real time)',
    { skip: process.env['REDIS_URL'] ? 'with Redis the window is a real minute' : false },
    async () => {
      const address = '203.0.113.60';
      for (let i = 0; i < 3; i++) assertError(await me(wrong(user), address), 401, 'UnauthorizedException');
      assertError(await me(wrong(user), address), 429, 'RateLimitException');
      clock.advance(61_000);
      assertError(await me(wrong(user), address), 401, 'UnauthorizedException');
      const fresh = await t.makeAgent();
      assert.equal(dataOf<Agent>(await me(fresh.headers, address)).id, fresh.id);
    },
  );

  it('AUTH_FAILURE_LIMIT_PER_MINUTE must be a whole number from 0 to 100000', async () => {
    const { loadConfig } = await import('../config.ts');
    assert.equal(loadConfig({ AUTH_FAILURE_LIMIT_PER_MINUTE: '0' }).authFailureLimitPerMinute, 0);
    assert.equal(loadConfig({}).authFailureLimitPerMinute, 60);
    assert.throws(() => loadConfig({ AUTH_FAILURE_LIMIT_PER_MINUTE: '-1' }), /AUTH_FAILURE_LIMIT_PER_MINUTE/);
    assert.throws(() => loadConfig({ AUTH_FAILURE_LIMIT_PER_MINUTE: 'many' }), /AUTH_FAILURE_LIMIT_PER_MINUTE/);
  });
});

describe('auth: client address behind proxies (TRUST_PROXY)', () => {
  it('parses false, true, a number of proxies, or proxy addresses and ranges; refuses anything else', async () => {
    const { loadConfig } = await import('../config.ts');
    const parse = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    assert.equal(parse(''), false);
    assert.equal(parse('false'), false);
    assert.equal(parse('true'), true);
    assert.equal(parse('2'), 2);
    assert.equal(parse('0'), false);
    assert.equal(parse(' true '), true);
    assert.deepEqual(parse('10.0.0.1, 192.168.0.0/16,::1,fd00::/8'), ['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8']);
    for (const bad of ['11', 'maybe', '10.0.0.300', '10.0.0.0/33', 'fd00::/129', 'proxy.example.com', '10.0.0.1/8/2']) {
      assert.throws(() => parse(bad), /TRUST_PROXY/, bad);
    }
  });

  it('with a number of proxies, a forged X-Forwarded-For cannot change the address the limit counts', async () => {
    const t = await buildTestApp({ env: { TRUST_PROXY: '1', AUTH_FAILURE_LIMIT_PER_MINUTE: '3' } });
    try {
      const user = await t.makeAgent();
      const attempt = (forged: string) =>
        t.call({
          method: 'GET',
          url: '/api/v1/agents/me',
          headers: { authorization: basicHeader(user.apiKey, 'q'.repeat(64)), 'x-forwarded-for': `${forged}, 203.0.113.99` },
          remoteAddress: '10.0.0.2', // the proxy
          as: null,
        });
      for (let i = 1; i <= 3; i++) assertError(await attempt(`198.51.100.${i}`), 401, 'UnauthorizedException');
      assertError(await attempt('198.51.100.4'), 429, 'RateLimitException');
      // Another client behind the same proxy is counted apart.
      const other = await t.call({
        method: 'GET',
        url: '/api/v1/agents/me',
        headers: { ...user.headers, 'x-forwarded-for': '203.0.113.100' },
        remoteAddress: '10.0.0.2',
        as: null,
      });
      assert.equal(other.statusCode, 200);
    } finally {
      await t.close();
    }
  });
});
