// docs/api.md, "Authentication": the login limits (per account and address, per account), the limit on failed API authentications
// per address, and the client address behind proxies (TRUST_PROXY).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type Agent, PASSWORD, setCookies } from '../../test/auth.ts';
import { assertError, basicHeader, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

describe('auth: login limits', () => {
  const clock = fakeClock();
  let t: TestApp;
  // Each test its own accounts: the counts with Redis keep real time, whatever the fake clock says.
  let a: Caller;
  let b: Caller;
  before(async () => {
    t = await buildTestApp({ clock, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '3', LOGIN_ACCOUNT_FAILURES_PER_HOUR: '6' } });
  });
  beforeEach(async () => {
    a = await t.makeAgent({ password: PASSWORD });
    b = await t.makeAgent({ password: PASSWORD });
  });
  after(() => t.close());

  const attempt = (who: Caller, password: string, remoteAddress: string) =>
    t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email: who.email, password }, remoteAddress, as: null });

  it('refuses an account from an address with 429 and Retry-After once it failed there the limit, the right password too', async () => {
    const x = '203.0.113.7';
    for (let i = 0; i < 3; i++) assertError(await attempt(a, `wrong-${i}`, x), 401, 'UnauthorizedException');
    const limited = await attempt(a, 'wrong-3', x);
    assertError(limited, 429, 'RateLimitException');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60, `Retry-After: ${String(limited.headers['retry-after'])}`);
    const right = await attempt(a, PASSWORD, x);
    assertError(right, 429, 'RateLimitException');
    assert.equal(setCookies(right).length, 0);
    // Another account from the same address, and the same account from another, go on.
    assert.equal((await attempt(b, PASSWORD, x)).statusCode, 200);
    assert.equal((await attempt(a, PASSWORD, '198.51.100.9')).statusCode, 200);
  });

  it('many failures on account A from address X do not stop account B from X', async () => {
    const x = '203.0.113.8';
    for (let i = 0; i < 10; i++) await attempt(a, `wrong-${i}`, x);
    assertError(await attempt(b, 'wrong', x), 401, 'UnauthorizedException');
    assert.equal((await attempt(b, PASSWORD, x)).statusCode, 200);
  });

  it('failures on account A from many addresses throttle A, except where A holds a live session', async () => {
    // A logs in from its office first: a live session from that address.
    const office = '192.0.2.10';
    assert.equal((await attempt(a, PASSWORD, office)).statusCode, 200);
    for (let i = 0; i < 6; i++) assertError(await attempt(a, 'wrong', `198.51.100.${20 + i}`), 401, 'UnauthorizedException');
    const fresh = await attempt(a, PASSWORD, '198.51.100.99');
    assertError(fresh, 429, 'RateLimitException');
    assert.ok(Number(fresh.headers['retry-after']) > 60, 'the account waits for its hour');
    // B is not throttled; A from the office address (a live session there) still logs in.
    assert.equal((await attempt(b, PASSWORD, '198.51.100.99')).statusCode, 200);
    assert.equal((await attempt(a, PASSWORD, office)).statusCode, 200);
    if (!process.env['REDIS_URL']) {
      clock.advance(3_600_001);
      assert.equal((await attempt(a, PASSWORD, '198.51.100.99')).statusCode, 200, 'the hour over, A logs in anywhere');
    }
  });

  it('a successful login does not count as a failure, and leaves other routes alone', async () => {
    const x = '203.0.113.9';
    for (let i = 0; i < 5; i++) assert.equal((await attempt(a, PASSWORD, x)).statusCode, 200);
    assert.equal((await t.call({ method: 'GET', url: '/api/v1/agents/me', as: a, remoteAddress: x })).statusCode, 200);
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
