// Two-factor sign-in at its edges: every route's bad input, missing credentials and CSRF; the
// audit entries of sign-ins; and no secret (the TOTP secret, a recovery code, the password) in
// any audit entry, log line or error body.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { cookieValue } from '../../test/auth.ts';
import { encryptSecret } from '../security/encryption.ts';
import { assertError, buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import {
  auditEntries,
  challengeFor,
  codeAt,
  enrol,
  mfa,
  passwordLogin,
  sessionOf,
  STEP_MS,
  TWO_FACTOR_PASSWORD,
} from '../../test/two-factor.ts';

const HUGE = 'x'.repeat(100_000);

describe('two-factor sign-in: edges, audit and secrets', () => {
  const clock = fakeClock();
  const logLines: string[] = [];
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock, logLines });
  });
  after(() => t.close());

  it('a secret the server key no longer opens: a code is a 422 naming the way out, a recovery code still signs in', async () => {
    const vera = await t.makeAgent({ password: TWO_FACTOR_PASSWORD });
    const { secret, recoveryCodes } = await enrol(t, vera);
    // As after SECRET_KEY was changed: the stored secret was sealed with another key.
    const sealed = encryptSecret(randomBytes(32), secret);
    await t.deps.db.updateTable('users').set({ two_factor_secret: sealed }).where('id', '=', vera.id).execute();
    clock.advance(STEP_MS);
    const refused = assertError(await mfa(t, await challengeFor(t, vera.email), codeAt(t, secret)), 422, 'DataException');
    assert.match(refused.message, /recovery code/);
    sessionOf(await mfa(t, await challengeFor(t, vera.email), recoveryCodes[0]));
  });

  it('refuses bad bodies on every route with 400, changing nothing', async () => {
    const ana = await t.makeAgent({ password: TWO_FACTOR_PASSWORD });
    const { secret } = dataOf<{ secret: string }>(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', as: ana }));
    const bodies: unknown[] = [
      {},
      { code: 123456 },
      { code: null },
      { code: 'abc\u0000def' },
      { code: HUGE },
      { code: '12 34 56', extra: 1 },
      { code: '<script>' },
    ];
    for (const payload of bodies) {
      const res = await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: payload as object, as: ana });
      assertError(res, 400, 'InputException', `enable ${JSON.stringify(payload).slice(0, 40)}`);
    }
    const row = await t.deps.db.selectFrom('users').where('id', '=', ana.id).select('two_factor_enabled').executeTakeFirstOrThrow();
    assert.equal(row.two_factor_enabled, false);
    dataOf(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: { code: codeAt(t, secret) }, as: ana }));
    for (const payload of [
      {},
      { password: TWO_FACTOR_PASSWORD },
      { password: 5, code: '123456' },
      { password: `a\u0000b`, code: '123456' },
      { password: HUGE, code: '123456' },
      { password: TWO_FACTOR_PASSWORD, code: HUGE },
    ]) {
      const res = await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/disable', payload, as: ana });
      assertError(res, 400, 'InputException', `disable ${JSON.stringify(payload).slice(0, 40)}`);
    }
    for (const payload of [
      {},
      { challenge: 'abc' },
      { code: '123456' },
      { challenge: 5, code: '123456' },
      { challenge: 'a\u0000b', code: '123456' },
      { challenge: HUGE, code: '123456' },
      { challenge: 'abc', code: HUGE },
      { challenge: 'abc', code: [] },
    ]) {
      assertError(
        await t.call({ method: 'POST', url: '/api/v1/auth/mfa', payload, as: null }),
        400,
        'InputException',
        `mfa ${JSON.stringify(payload).slice(0, 40)}`,
      );
    }
    // An unknown challenge is a 401, like a wrong password.
    assertError(await mfa(t, 'A'.repeat(43), '123456'), 401, 'UnauthorizedException');
    for (const id of ['abc', '0', '-1', '99999999999999999999']) {
      assert.ok([400, 404].includes((await t.call({ method: 'DELETE', url: `/api/v1/agents/${id}/2fa` })).statusCode), id);
    }
    const still = await t.deps.db.selectFrom('users').where('id', '=', ana.id).select('two_factor_enabled').executeTakeFirstOrThrow();
    assert.equal(still.two_factor_enabled, true);
  });

  it('needs credentials (401) and, with a session cookie, the CSRF token (403)', async () => {
    const ben = await t.makeAgent({ password: TWO_FACTOR_PASSWORD });
    const routes = [
      ['POST', '/api/v1/agents/me/2fa/setup', undefined],
      ['POST', '/api/v1/agents/me/2fa/enable', { code: '123456' }],
      ['POST', '/api/v1/agents/me/2fa/disable', { password: TWO_FACTOR_PASSWORD, code: '123456' }],
      ['DELETE', `/api/v1/agents/${ben.id}/2fa`, undefined],
    ] as const;
    const session = sessionOf(await passwordLogin(t, ben.email));
    for (const [method, url, payload] of routes) {
      assertError(await t.call({ method, url, as: null, ...(payload ? { payload } : {}) }), 401, 'UnauthorizedException', url);
      const noCsrf = { cookie: session.headers['cookie'] ?? '' };
      assertError(
        await t.call({ method, url, as: null, headers: noCsrf, ...(payload ? { payload } : {}) }),
        403,
        'PermissionException',
        url,
      );
      const wrongCsrf = { ...noCsrf, 'x-csrf-token': 'not-the-token' };
      assertError(
        await t.call({ method, url, as: null, headers: wrongCsrf, ...(payload ? { payload } : {}) }),
        403,
        'PermissionException',
        url,
      );
    }
    // With the token, setup works from the session (the route is the web app's).
    dataOf(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', ...session }));
  });

  it('audits sign-ins: the method on success; on failure the attempted email, never the password', async () => {
    const cleo = await t.makeAgent({ password: TWO_FACTOR_PASSWORD });
    const origin = { 'user-agent': 'audit-test-agent' };
    sessionOf(await passwordLogin(t, cleo.email, TWO_FACTOR_PASSWORD, origin));
    const login = (await auditEntries(t, 'auth.login')).filter((e) => e.actor_id === cleo.id);
    assert.equal(login.length, 1);
    assert.equal(login[0]?.actor_type, 'agent');
    assert.equal(login[0]?.resource_id, String(cleo.id));
    assert.equal(login[0]?.resource_name, cleo.email);
    assert.deepEqual(login[0]?.changes, { method: [null, 'password'] });
    assert.equal(typeof login[0]?.request_id, 'string');

    assertError(await passwordLogin(t, cleo.email, 'Wrong-password-xyz'), 401, 'UnauthorizedException');
    assertError(await passwordLogin(t, 'nobody-here@example.com', 'Wrong-password-abc'), 401, 'UnauthorizedException');
    const failed = await auditEntries(t, 'auth.login_failed');
    const wrong = failed.find((e) => e.resource_name === cleo.email);
    assert.deepEqual([wrong?.resource_id, wrong?.changes], [String(cleo.id), { reason: [null, 'wrong_password'] }]);
    assert.equal(wrong?.actor_type, 'system');
    assert.equal(wrong?.actor_id, null);
    const unknown = failed.find((e) => e.resource_name === 'nobody-here@example.com');
    assert.deepEqual([unknown?.resource_id, unknown?.changes], [null, { reason: [null, 'unknown_email'] }]);

    const { secret, recoveryCodes } = await enrol(t, cleo);
    assert.equal((await auditEntries(t, 'auth.2fa_enabled')).filter((e) => e.resource_id === String(cleo.id)).length, 1);
    clock.advance(STEP_MS);
    assertError(await mfa(t, await challengeFor(t, cleo.email), '000000'), 401, 'UnauthorizedException');
    const wrongCode = (await auditEntries(t, 'auth.login_failed')).at(-1);
    assert.deepEqual([wrongCode?.resource_id, wrongCode?.changes], [String(cleo.id), { reason: [null, 'wrong_code'] }]);
    sessionOf(await mfa(t, await challengeFor(t, cleo.email), codeAt(t, secret)));
    sessionOf(await mfa(t, await challengeFor(t, cleo.email), recoveryCodes[0]));
    const methods = (await auditEntries(t, 'auth.login')).filter((e) => e.actor_id === cleo.id).map((e) => e.changes);
    assert.deepEqual(methods.slice(-2), [{ method: [null, 'password_totp'] }, { method: [null, 'password_recovery_code'] }]);
  });

  it('writes no TOTP secret, recovery code or password in an audit entry, a log line or an error body', async () => {
    const password = 'Leak-check-password-42';
    const dan = await t.makeAgent({ password });
    const bodies: string[] = [];
    const keep = <R extends { body: string }>(res: R): R => {
      bodies.push(res.body);
      return res;
    };
    const setup = dataOf<{ secret: string }>(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', as: dan }));
    const secret = setup.secret;
    keep(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: { code: '000000' }, as: dan }));
    const recoveryCodes = dataOf<{ recovery_codes: string[] }>(
      await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: { code: codeAt(t, secret) }, as: dan }),
    ).recovery_codes;
    keep(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', as: dan }));
    keep(await passwordLogin(t, dan.email, `${password}-wrong`));
    const challenge = dataOf<{ challenge: string }>(keep(await passwordLogin(t, dan.email, password))).challenge;
    keep(await mfa(t, challenge, 'zzzzz-zzzzz'));
    clock.advance(STEP_MS);
    const signedIn = keep(await mfa(t, challenge, recoveryCodes[0]));
    keep(await mfa(t, challenge, recoveryCodes[0]));
    const session = cookieValue(signedIn, 'parley_session') ?? '';
    keep(
      await t.call({
        method: 'POST',
        url: '/api/v1/agents/me/2fa/disable',
        payload: { password: `${password}-no`, code: recoveryCodes[1] },
        as: dan,
      }),
    );
    keep(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/disable', payload: { password, code: '111111' }, as: dan }));
    keep(await t.call({ method: 'DELETE', url: `/api/v1/agents/${dan.id}/2fa` }));
    keep(await t.call({ method: 'GET', url: `/api/v1/agents/${dan.id}` }));

    const audit = JSON.stringify(await t.deps.db.selectFrom('audit_log').selectAll().execute());
    const everything = { audit, log: logLines.join('\n'), bodies: bodies.join('\n') };
    assert.ok(logLines.length > 0, 'the log was captured');
    const secrets = [secret, password, session, ...recoveryCodes, ...recoveryCodes.map((c) => c.replace('-', ''))];
    for (const [where, text] of Object.entries(everything)) {
      for (const value of secrets) assert.ok(!text.includes(value), `${where} holds a secret (${value.slice(0, 4)}…)`);
    }
    // The challenge is the login's answer; it is in no audit entry or log line.
    assert.ok(!audit.includes(challenge) && !everything.log.includes(challenge));
    // The stored secret is encrypted, not the base32 text.
    const stored = JSON.stringify(await t.deps.db.selectFrom('users').where('id', '=', dan.id).selectAll().execute());
    assert.ok(!stored.includes(secret));
  });
});
