// Roles that require two-factor sign-in (docs/api.md, "Two-factor sign-in"): a password session
// of an agent without it is held at enrolment (every route but its profile, the 2FA routes and
// logout answers 403; the socket is refused) and freed the moment it enrols.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { listen, openSocket, refusedUpgrade } from '../../test/sockets.ts';
import { codeAt, passwordLogin, sessionOf, TWO_FACTOR_PASSWORD } from '../../test/two-factor.ts';

const ORIGIN = 'http://localhost:9000';

describe('roles requiring two-factor sign-in', () => {
  const clock = fakeClock();
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp({ clock });
    base = await listen(t.app);
  });
  after(() => t.close());

  /** A custom role requiring two factors, set through a PUT of the role as GET answered it. */
  async function strictRole(): Promise<string> {
    const name = `Strict ${Math.random().toString(36).slice(2, 8)}`;
    const created = dataOf<Record<string, unknown> & { id: number; require_2fa: boolean }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/roles',
        payload: { name, permissions: ['conversations:read', 'conversations:read_all'] },
      }),
    );
    assert.equal(created.require_2fa, false);
    const read = dataOf<Record<string, unknown>>(await t.call({ method: 'GET', url: `/api/v1/roles/${created.id}` }));
    const put = await t.call({ method: 'PUT', url: `/api/v1/roles/${created.id}`, payload: { ...read, require_2fa: true } });
    assert.equal(dataOf<{ require_2fa: boolean }>(put).require_2fa, true);
    assert.equal(dataOf<{ require_2fa: boolean }>(await t.call({ method: 'GET', url: `/api/v1/roles/${created.id}` })).require_2fa, true);
    return name;
  }

  it('refuses a require_2fa that is not a boolean', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/v1/roles',
      payload: { name: 'Bad', permissions: ['conversations:read'], require_2fa: 'yes' },
    });
    assertError(res, 400, 'InputException');
  });

  it('holds a password session at enrolment until the agent enrols, then frees it at once', async () => {
    const role = await strictRole();
    const kim = await t.makeAgent({ roles: [role], password: TWO_FACTOR_PASSWORD });
    const login = await passwordLogin(t, kim.email);
    assert.equal(dataOf<{ mfa_setup_required: boolean }>(login).mfa_setup_required, true);
    const session = sessionOf(login);
    const me = dataOf<{ mfa_setup_required: boolean }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', ...session }));
    assert.equal(me.mfa_setup_required, true);

    for (const [method, url] of [
      ['GET', '/api/v1/conversations/counts'],
      ['GET', '/api/v1/agents/compact'],
      ['POST', '/api/v1/agents/me/api-key'],
      ['PUT', '/api/v1/agents/me/availability'],
    ] as const) {
      const res = await t.call({ method, url, ...session, ...(method === 'PUT' ? { payload: { status: 'busy' } } : {}) });
      assert.match(assertError(res, 403, 'PermissionException', `${method} ${url}`).message, /2FA setup is required/);
    }
    // The socket is refused too.
    const socket = await refusedUpgrade(`${base}/ws`, { cookie: session.headers['cookie'] ?? '', origin: ORIGIN });
    assert.equal(socket.status, 403);
    assert.match(String(socket.body['message']), /2FA setup is required/);

    // What it may do: its profile, and setting up two-factor sign-in.
    const renamed = await t.call({ method: 'PUT', url: '/api/v1/agents/me', payload: { first_name: 'Kim' }, ...session });
    assert.equal(dataOf<{ first_name: string }>(renamed).first_name, 'Kim');
    // API credentials are not held.
    dataOf(await t.call({ method: 'GET', url: '/api/v1/conversations/counts', as: kim }));

    const { secret } = dataOf<{ secret: string }>(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', ...session }));
    dataOf(await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: { code: codeAt(t, secret) }, ...session }));
    // Freed at once, in the same session.
    dataOf(await t.call({ method: 'GET', url: '/api/v1/conversations/counts', ...session }));
    const after = dataOf<{ mfa_setup_required: boolean; two_factor_enabled: boolean }>(
      await t.call({ method: 'GET', url: '/api/v1/agents/me', ...session }),
    );
    assert.deepEqual([after.mfa_setup_required, after.two_factor_enabled], [false, true]);
    const ws = await openSocket(`${base}/ws`, { cookie: session.headers['cookie'] ?? '', origin: ORIGIN });
    await ws.close();
  });

  it('lets a held session sign out', async () => {
    const role = await strictRole();
    const lea = await t.makeAgent({ roles: [role], password: TWO_FACTOR_PASSWORD });
    const session = sessionOf(await passwordLogin(t, lea.email));
    assert.equal(dataOf(await t.call({ method: 'POST', url: '/api/v1/auth/logout', ...session })), true);
    assertError(await t.call({ method: 'GET', url: '/api/v1/agents/me', ...session }), 401, 'UnauthorizedException');
  });

  it('holds the sessions already open when a role comes to require two factors', async () => {
    const name = `Later ${Math.random().toString(36).slice(2, 8)}`;
    const role = dataOf<Record<string, unknown> & { id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name, permissions: ['conversations:read'] } }),
    );
    const max = await t.makeAgent({ roles: [name], password: TWO_FACTOR_PASSWORD });
    const session = sessionOf(await passwordLogin(t, max.email));
    dataOf(await t.call({ method: 'GET', url: '/api/v1/agents/compact', ...session }));
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/roles/${role.id}`, payload: { require_2fa: true } }));
    assertError(await t.call({ method: 'GET', url: '/api/v1/agents/compact', ...session }), 403, 'PermissionException');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/roles/${role.id}`, payload: { require_2fa: false } }));
    dataOf(await t.call({ method: 'GET', url: '/api/v1/agents/compact', ...session }));
  });
});
