// docs/api.md, "Authentication": API credentials (Basic and token schemes), the key pair
// (generated, revoked, regenerated), its cache, and the same across two instances sharing Redis.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AGENT_FIELDS, type Agent, authCalls, PASSWORD, type Response } from '../../test/auth.ts';
import { assertError, basicHeader, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { sha256 } from '../security/hashing.ts';

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

  const { me, getAgent } = authCalls(() => t);

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
});
