// Two-factor sign-in (docs/api.md, "Two-factor sign-in"): enrolment, the second step of a
// password sign-in, the window and single use of codes, challenges, recovery codes, disabling,
// an admin's reset, and the audit entries of sign-ins.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, MY_AGENT_RECORD_FIELDS, type TestApp } from '../../test/helpers.ts';
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
import { agentWith } from '../../test/factories.ts';

describe('two-factor sign-in', () => {
  const clock = fakeClock();
  const logLines: string[] = [];
  let t: TestApp;
  const agent = () => t.makeAgent({ password: TWO_FACTOR_PASSWORD });
  before(async () => {
    t = await buildTestApp({ clock, logLines });
  });
  after(() => t.close());

  describe('enrolment', () => {
    it('sets up a pending secret, stored encrypted, replaced by a second setup, refused once enabled', async () => {
      const ana = await agent();
      const first = dataOf<{ secret: string; otpauth_url: string }>(
        await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', as: ana }),
      );
      assert.match(first.secret, /^[A-Z2-7]{32}$/);
      assert.equal(new URL(first.otpauth_url).searchParams.get('secret'), first.secret);
      const row = await t.deps.db
        .selectFrom('users')
        .where('id', '=', ana.id)
        .select(['two_factor_pending_secret', 'two_factor_enabled'])
        .executeTakeFirstOrThrow();
      assert.match(row.two_factor_pending_secret ?? '', /^enc:v1:/);
      assert.ok(!row.two_factor_pending_secret?.includes(first.secret));
      assert.equal(row.two_factor_enabled, false);

      const second = dataOf<{ secret: string }>(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', as: ana }));
      assert.notEqual(second.secret, first.secret);
      // The replaced secret's code no longer enables.
      const stale = await t.call({
        method: 'POST',
        url: '/api/v1/agents/me/2fa/enable',
        payload: { code: codeAt(t, first.secret) },
        as: ana,
      });
      assertError(stale, 400, 'InputException');
      const me = dataOf<{ two_factor_enabled: boolean }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: ana }));
      assert.equal(me.two_factor_enabled, false);

      const codes = dataOf<{ recovery_codes: string[] }>(
        await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: { code: codeAt(t, second.secret) }, as: ana }),
      ).recovery_codes;
      assert.equal(codes.length, 10);
      assert.equal(new Set(codes).size, 10);
      for (const code of codes) assert.match(code, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
      const enabled = await t.deps.db
        .selectFrom('users')
        .where('id', '=', ana.id)
        .select(['two_factor_secret', 'two_factor_pending_secret'])
        .executeTakeFirstOrThrow();
      assert.match(enabled.two_factor_secret ?? '', /^enc:v1:/);
      assert.equal(enabled.two_factor_pending_secret, null);
      const stored = await t.deps.db.selectFrom('two_factor_recovery_codes').where('user_id', '=', ana.id).select('code_hash').execute();
      assert.equal(stored.length, 10);
      for (const { code_hash } of stored) assert.ok(!codes.some((c) => code_hash.includes(c.replace('-', ''))));

      const me2 = dataOf<{ two_factor_enabled: boolean }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: ana }));
      assert.equal(me2.two_factor_enabled, true);
      assertError(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', as: ana }), 422, 'DataException');
      const again = await t.call({
        method: 'POST',
        url: '/api/v1/agents/me/2fa/enable',
        payload: { code: codeAt(t, second.secret) },
        as: ana,
      });
      assertError(again, 422, 'DataException');
    });

    it('refuses enabling without a pending secret (422) and a wrong code (400)', async () => {
      const ben = await agent();
      assertError(
        await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: { code: '123456' }, as: ben }),
        422,
        'DataException',
      );
      const { secret } = dataOf<{ secret: string }>(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', as: ben }));
      const wrong = String((Number(codeAt(t, secret)) + 1) % 1_000_000).padStart(6, '0');
      const res = await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: { code: wrong }, as: ben });
      assert.equal(assertError(res, 400, 'InputException').message, 'code: is not the current code of this secret');
    });
  });

  describe('signing in', () => {
    it('asks for a code after the password, then opens the session; a code is accepted once', async () => {
      const cleo = await agent();
      const { secret } = await enrol(t, cleo);
      // The code that enabled it (this step) is spent.
      const spent = await mfa(t, await challengeFor(t, cleo.email), codeAt(t, secret));
      assert.equal(assertError(spent, 401, 'UnauthorizedException').message, 'Invalid code');
      clock.advance(STEP_MS);
      const challenge = await challengeFor(t, cleo.email);
      const res = await mfa(t, challenge, codeAt(t, secret));
      const record = dataOf<Record<string, unknown>>(res);
      assert.deepEqual(Object.keys(record).sort(), MY_AGENT_RECORD_FIELDS);
      assert.equal(record['id'], cleo.id);
      assert.equal(record['mfa_setup_required'], false);
      const session = sessionOf(res);
      assert.equal(dataOf<{ id: number }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', ...session })).id, cleo.id);
      // The challenge is spent, and the same code is refused with a new one.
      assertError(await mfa(t, challenge, codeAt(t, secret)), 401, 'UnauthorizedException');
      assertError(await mfa(t, await challengeFor(t, cleo.email), codeAt(t, secret)), 401, 'UnauthorizedException');
      // API credentials are unaffected.
      assert.equal(dataOf<{ id: number }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: cleo })).id, cleo.id);
      // A wrong password still gets the usual 401, no challenge.
      assertError(await passwordLogin(t, cleo.email, 'not-the-password'), 401, 'UnauthorizedException');
    });

    it('accepts a code one step early or late, and refuses two steps away', async () => {
      const dora = await agent();
      const { secret } = await enrol(t, dora);
      clock.advance(10 * STEP_MS);
      assertError(await mfa(t, await challengeFor(t, dora.email), codeAt(t, secret, -2)), 401, 'UnauthorizedException');
      dataOf(await mfa(t, await challengeFor(t, dora.email), codeAt(t, secret, -1)));
      assertError(await mfa(t, await challengeFor(t, dora.email), codeAt(t, secret, 2)), 401, 'UnauthorizedException');
      dataOf(await mfa(t, await challengeFor(t, dora.email), codeAt(t, secret, 1)));
      // The current step is before the last one used (+1): refused too.
      assertError(await mfa(t, await challengeFor(t, dora.email), codeAt(t, secret)), 401, 'UnauthorizedException');
    });

    it('lets a challenge live 5 minutes', async () => {
      const emil = await agent();
      const { secret } = await enrol(t, emil);
      const challenge = await challengeFor(t, emil.email);
      clock.advance(5 * 60_000 + 1000);
      const res = await mfa(t, challenge, codeAt(t, secret));
      assert.match(assertError(res, 401, 'UnauthorizedException').message, /challenge/);
    });

    it('kills a challenge at the fifth wrong code', async () => {
      const fay = await agent();
      const { secret } = await enrol(t, fay);
      clock.advance(STEP_MS);
      const challenge = await challengeFor(t, fay.email);
      for (let i = 0; i < 5; i++) assertError(await mfa(t, challenge, '000000'), 401, 'UnauthorizedException', `wrong code ${i + 1}`);
      const res = await mfa(t, challenge, codeAt(t, secret));
      assert.match(assertError(res, 401, 'UnauthorizedException').message, /challenge/);
      // A new sign-in works.
      dataOf(await mfa(t, await challengeFor(t, fay.email), codeAt(t, secret)));
    });

    it('accepts each recovery code once, as typed or without its dash', async () => {
      const gus = await agent();
      const { recoveryCodes } = await enrol(t, gus);
      const [first, second] = recoveryCodes as [string, string];
      sessionOf(await mfa(t, await challengeFor(t, gus.email), first));
      assertError(await mfa(t, await challengeFor(t, gus.email), first), 401, 'UnauthorizedException');
      sessionOf(await mfa(t, await challengeFor(t, gus.email), second.replace('-', '').toUpperCase()));
      const used = await t.deps.db
        .selectFrom('two_factor_recovery_codes')
        .where('user_id', '=', gus.id)
        .where('used_at', 'is not', null)
        .select('id')
        .execute();
      assert.equal(used.length, 2);
    });

    it('counts wrong codes on the login limits of the account (429)', async () => {
      const limited = await buildTestApp({ clock, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '3' } });
      try {
        const hal = await limited.makeAgent({ password: TWO_FACTOR_PASSWORD });
        const { secret } = await enrol(limited, hal);
        clock.advance(STEP_MS);
        const challenges = [];
        for (let i = 0; i < 4; i++) challenges.push(await challengeFor(limited, hal.email));
        for (const challenge of challenges.slice(0, 3)) assertError(await mfa(limited, challenge, '000000'), 401, 'UnauthorizedException');
        assertError(await mfa(limited, challenges[3], codeAt(limited, secret)), 429, 'RateLimitException');
        // And so is the password step: the account's failures are one count.
        assertError(await passwordLogin(limited, hal.email), 429, 'RateLimitException');
        // Turning it off is limited alike.
        const ivy = await limited.makeAgent({ password: TWO_FACTOR_PASSWORD });
        await enrol(limited, ivy);
        const disable = (code: string) =>
          limited.call({ method: 'POST', url: '/api/v1/agents/me/2fa/disable', payload: { password: TWO_FACTOR_PASSWORD, code }, as: ivy });
        for (let i = 0; i < 3; i++) assertError(await disable('000000'), 400, 'InputException');
        assertError(await disable('000000'), 429, 'RateLimitException');
      } finally {
        await limited.close();
      }
    });
  });

  describe('disabling and resetting', () => {
    it('disables with the password and a code; sign-in then needs the password only', async () => {
      const ida = await agent();
      const { secret, recoveryCodes } = await enrol(t, ida);
      const disable = (payload: Record<string, unknown>) =>
        t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/disable', payload, as: ida });
      assertError(await disable({ code: recoveryCodes[0] }), 400, 'InputException');
      assertError(await disable({ password: 'wrong-password-1', code: recoveryCodes[0] }), 400, 'InputException');
      assertError(await disable({ password: TWO_FACTOR_PASSWORD, code: '000000' }), 400, 'InputException');
      assertError(
        await disable({ password: TWO_FACTOR_PASSWORD, code: codeAt(t, secret) }),
        400,
        'InputException',
        'the enabling code is spent',
      );
      clock.advance(STEP_MS);
      assert.equal(dataOf(await disable({ password: TWO_FACTOR_PASSWORD, code: codeAt(t, secret) })), true);
      assertError(await disable({ password: TWO_FACTOR_PASSWORD, code: recoveryCodes[1] }), 422, 'DataException');
      const row = await t.deps.db
        .selectFrom('users')
        .where('id', '=', ida.id)
        .select(['two_factor_enabled', 'two_factor_secret'])
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { two_factor_enabled: false, two_factor_secret: null });
      sessionOf(await passwordLogin(t, ida.email));
      const entries = await auditEntries(t, 'auth.2fa_disabled');
      assert.ok(entries.some((e) => e.resource_id === String(ida.id) && e.actor_id === ida.id));
    });

    it("lets an admin reset another agent's two-factor sign-in, within the may-manage rule", async () => {
      const jo = await agent();
      await enrol(t, jo);
      const plain = await agent();
      const reset = (id: number, as: Caller) => t.call({ method: 'DELETE', url: `/api/v1/agents/${id}/2fa`, as });
      assertError(await reset(jo.id, plain), 403, 'PermissionException');
      assertError(await reset(999_999, t.admin), 404, 'NotFoundException');
      assertError(await reset(t.admin.id, t.admin), 422, 'DataException');
      const manager = await agentWith(t, ['users:manage']);
      // The Admin holds permissions the manager does not: its two-factor sign-in is not the manager's to strip.
      await enrol(t, t.admin);
      assertError(await reset(t.admin.id, manager), 403, 'PermissionException');
      const record = dataOf<{ two_factor_enabled: boolean }>(await reset(jo.id, t.admin));
      assert.equal(record.two_factor_enabled, false);
      sessionOf(await passwordLogin(t, jo.email));
      const entry = (await auditEntries(t, 'auth.2fa_reset')).at(-1);
      assert.equal(entry?.actor_id, t.admin.id);
      assert.equal(entry?.resource_id, String(jo.id));
      assert.equal(entry?.resource_name, jo.email);
      // The Admin's own stays on (reset by the may-manage check, not by accident).
      const admin = await t.deps.db.selectFrom('users').where('id', '=', t.admin.id).select('two_factor_enabled').executeTakeFirstOrThrow();
      assert.equal(admin.two_factor_enabled, true);
    });
  });
});
