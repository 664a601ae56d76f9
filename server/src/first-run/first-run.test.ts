// docs/api.md, "First run": the setup state, and the first admin created with the one-time token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { sha256 } from '../security/hashing.ts';
import { issueSetupToken, SETUP_TOKEN_TTL_MS } from './first-run.service.ts';

const clock = fakeClock();

/** The test app's own admin is soft-deleted: the installation then has no agent, as on a first start. */
async function withoutAgents(t: TestApp): Promise<void> {
  await t.deps.db.updateTable('users').set({ deleted_at: clock.now() }).where('type', '=', 'agent').execute();
}

function account(overrides: Record<string, unknown> = {}) {
  return { email: 'first@example.com', password: 'a long passphrase', first_name: 'Fran', last_name: 'First', ...overrides };
}

async function setupState(t: TestApp): Promise<boolean> {
  return dataOf<{ needed: boolean }>(await t.call({ method: 'GET', url: '/api/v1/setup', as: null })).needed;
}

describe('first run', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  after(() => t.close());

  it("tells anyone the server's BASE_URL (where live updates accept a session)", async () => {
    const state = dataOf<{ needed: boolean; base_url: string }>(await t.call({ method: 'GET', url: '/api/v1/setup', as: null }));
    assert.deepEqual(state, { needed: false, base_url: t.deps.config.baseUrl });
  });

  it('answers needed: false and issues no token while an agent exists; POST is a 409', async () => {
    assert.equal(await setupState(t), false);
    assert.equal(await issueSetupToken(t.deps), null);
    const res = await t.call({ method: 'POST', url: '/api/v1/setup', payload: { token: 'x'.repeat(43), ...account() }, as: null });
    assertError(res, 409, 'ConflictException');
  });

  describe('with no agent', () => {
    let fresh: TestApp;
    before(async () => {
      fresh = await buildTestApp({ clock, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '1000' } });
      await withoutAgents(fresh);
    });
    after(() => fresh.close());

    it('refuses a wrong, an expired, a missing token and bad input, creating nothing', async () => {
      assert.equal(await setupState(fresh), true);
      const token = await issueSetupToken(fresh.deps);
      assert.ok(token && token.length >= 43, 'at least 32 random bytes');
      const stored = await fresh.deps.db.selectFrom('setup_tokens').select('token_hash').execute();
      assert.deepEqual(
        stored.map((row) => row.token_hash),
        [sha256(token)],
        'only the hash is kept',
      );

      const post = (payload: unknown) => fresh.call({ method: 'POST', url: '/api/v1/setup', payload: payload as object, as: null });
      // One character changed (whatever the last one is: a token ending in A must not be its own wrong token).
      const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      assertError(await post({ token: wrong, ...account() }), 403, 'PermissionException', 'wrong token');
      assertError(await post({ token: 'short', ...account() }), 403, 'PermissionException', 'another wrong token');
      assertError(await post(account()), 400, 'InputException', 'no token');
      assertError(await post({ token, ...account({ password: 'short' }) }), 400, 'InputException', 'short password');
      assertError(await post({ token, ...account({ email: 'not an email' }) }), 400, 'InputException', 'bad email');
      assertError(await post({ token, ...account({ first_name: '  ' }) }), 400, 'InputException', 'blank name');
      assertError(await post({ token, ...account({ roles: ['Admin'] }) }), 400, 'InputException', 'unknown property');

      clock.advance(SETUP_TOKEN_TTL_MS + 1000);
      assertError(await post({ token, ...account() }), 403, 'PermissionException', 'expired token');
      assert.equal(await setupState(fresh), true, 'still no agent');
    });

    it('voids the older tokens when it issues a new one', async () => {
      const older = await issueSetupToken(fresh.deps);
      const newer = await issueSetupToken(fresh.deps);
      assert.ok(older && newer && older !== newer);
      const stored = await fresh.deps.db.selectFrom('setup_tokens').select('token_hash').execute();
      assert.deepEqual(
        stored.map((row) => row.token_hash),
        [sha256(newer)],
      );
      const res = await fresh.call({ method: 'POST', url: '/api/v1/setup', payload: { token: older, ...account() }, as: null });
      assertError(res, 403, 'PermissionException', 'the older token no longer works');
      assert.equal(await setupState(fresh), true);
    });

    it('rolls the claim back when creating the admin fails: the same token works again', async () => {
      const token = await issueSetupToken(fresh.deps);
      // The Admin role is missing: creating the admin fails after the tokens were claimed.
      await fresh.deps.db.updateTable('roles').set({ name: 'Renamed' }).where('name', '=', 'Admin').execute();
      try {
        const res = await fresh.call({ method: 'POST', url: '/api/v1/setup', payload: { token, ...account() }, as: null });
        assertError(res, 400, 'InputException');
      } finally {
        await fresh.deps.db.updateTable('roles').set({ name: 'Admin' }).where('name', '=', 'Renamed').execute();
      }
      assert.equal((await fresh.deps.db.selectFrom('setup_tokens').select('token_hash').execute()).length, 1, 'token kept');
      assert.equal(await setupState(fresh), true, 'no agent');
    });

    it('creates the admin with a live token, signs them in, and burns every token', async () => {
      const first = await issueSetupToken(fresh.deps);
      const second = await issueSetupToken(fresh.deps);
      assert.ok(first && second && first !== second);
      // The first one back, as when another instance stored it between this start's delete and insert.
      await fresh.deps.db
        .insertInto('setup_tokens')
        .values({ token_hash: sha256(first), created_at: clock.now(), expires_at: new Date(clock.now().getTime() + SETUP_TOKEN_TTL_MS) })
        .execute();
      const res = await fresh.call({ method: 'POST', url: '/api/v1/setup', payload: { token: second, ...account() }, as: null });
      const admin = dataOf<{ id: number; email: string; roles: string[]; first_name: string }>(res);
      assert.equal(admin.email, 'first@example.com');
      assert.deepEqual(admin.roles, ['Admin']);
      assert.equal(admin.first_name, 'Fran');
      // The audit log says the system created it, for the address that asked (agents.audit.ts).
      const created = await fresh.deps.db
        .selectFrom('audit_log')
        .where('action', '=', 'agent.created')
        .where('resource_id', '=', String(admin.id))
        .select(['actor_type', 'actor_id', 'ip'])
        .execute();
      assert.deepEqual(created, [{ actor_type: 'system', actor_id: null, ip: '127.0.0.1' }]);

      // The answer carries the same cookies as a login, and they work.
      const session = res.cookies.find((c) => c.name === 'parley_session');
      const csrf = res.cookies.find((c) => c.name === 'csrf_token');
      assert.ok(session?.httpOnly && csrf && !csrf.httpOnly);
      const cookie = `parley_session=${session.value}; csrf_token=${csrf.value}`;
      const me = dataOf<{ id: number }>(await fresh.call({ method: 'GET', url: '/api/v1/agents/me', headers: { cookie }, as: null }));
      assert.equal(me.id, admin.id);

      assert.equal(await setupState(fresh), false);
      assert.equal((await fresh.deps.db.selectFrom('setup_tokens').select('token_hash').execute()).length, 0, 'every token burnt');
      for (const token of [first, second]) {
        const again = await fresh.call({
          method: 'POST',
          url: '/api/v1/setup',
          payload: { token, ...account({ email: 'x@example.com' }) },
          as: null,
        });
        assertError(again, 409, 'ConflictException');
      }
      // The password works at the login too.
      const login = await fresh.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'first@example.com', password: 'a long passphrase' },
        as: null,
      });
      assert.equal(login.statusCode, 200);
    });
  });

  it('two setups at once with two instances’ tokens create one admin', async () => {
    const race = await buildTestApp({ clock, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '1000' } });
    try {
      await withoutAgents(race);
      const a = await issueSetupToken(race.deps);
      const b = await issueSetupToken(race.deps);
      assert.ok(a && b);
      // Both live, as when two instances start together (each deletes, then inserts).
      await race.deps.db
        .insertInto('setup_tokens')
        .values({ token_hash: sha256(a), created_at: clock.now(), expires_at: new Date(clock.now().getTime() + SETUP_TOKEN_TTL_MS) })
        .execute();
      const answers = await Promise.all(
        [a, b].map((token, i) =>
          race.call({ method: 'POST', url: '/api/v1/setup', payload: { token, ...account({ email: `racer${i}@example.com` }) }, as: null }),
        ),
      );
      const codes = answers.map((r) => r.statusCode).sort();
      assert.equal(codes[0], 200, answers.map((r) => r.body).join('\n'));
      assert.ok([403, 409].includes(codes[1] ?? 0), `the other is refused: ${codes}`);
      const agents = await race.deps.db
        .selectFrom('users')
        .select('id')
        .where('type', '=', 'agent')
        .where('deleted_at', 'is', null)
        .execute();
      assert.equal(agents.length, 1);
    } finally {
      await race.close();
    }
  });

  it('is rate limited per address like the login', async () => {
    const limited = await buildTestApp({ clock, env: { LOGIN_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      await withoutAgents(limited);
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await limited.call({ method: 'POST', url: '/api/v1/setup', payload: { token: `guess-${i}`, ...account() }, as: null });
        codes.push(res.statusCode);
        if (res.statusCode === 429) assertError(res, 429, 'RateLimitException');
      }
      assert.deepEqual(codes, [403, 403, 403, 429]);
    } finally {
      await limited.close();
    }
  });
});
