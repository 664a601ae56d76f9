// docs/api.md, "Sessions": ending sessions takes effect at once on every server instance, and
// closes the agent sockets of the sessions ended. Two instances share the database (and Redis,
// when REDIS_URL is set: the credential caches and socket hubs then hear each other over it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PASSWORD } from '../../test/auth.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { asSession, auditEntries, auditEntry, eventually, type SessionItem, type SignedIn, signIn } from '../../test/sessions.ts';
import { closeOf, listen, openSocket, type TestSocket } from '../../test/sockets.ts';

const ORIGIN = 'http://localhost:9000';
const OPEN = 1;

describe('ending sessions across instances', () => {
  let t: TestApp;
  let second: Awaited<ReturnType<TestApp['secondInstance']>>;
  let baseA: string;
  let baseB: string;
  let n = 0;
  const sockets: TestSocket[] = [];
  before(async () => {
    t = await buildTestApp({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '1000' } });
    second = await t.secondInstance();
    baseA = await listen(t.app);
    baseB = await listen(second.app);
  });
  after(async () => {
    for (const socket of sockets) await socket.close();
    await second.close();
    await t.close();
  });

  const newAgent = (): Promise<Caller> => t.makeAgent({ password: PASSWORD, email: `instances-${++n}-${Date.now()}@example.com` });
  const me = (app: TestApp['app'], session: SignedIn) => asSession(app, session, { method: 'GET', url: '/api/v1/agents/me' });
  const socketOf = async (base: string, session: SignedIn) => {
    const socket = await openSocket(`${base}/ws`, { cookie: session.headers['cookie'] as string, origin: ORIGIN });
    sockets.push(socket);
    return socket;
  };
  /** The socket's next frame answers: it is open and heard (a ping answered). */
  const pong = async (socket: TestSocket) => {
    socket.send({ type: 'ping' });
    for (let i = 0; i < 200 && !socket.frames.some((f) => f.type === 'pong'); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(
      socket.frames.some((f) => f.type === 'pong'),
      'the socket answers',
    );
    socket.frames.length = 0;
  };

  it('disabling an agent on A: its session is refused on B at once, and its socket on B is closed', async () => {
    const agent = await newAgent();
    const session = await signIn(t.app, agent.email, PASSWORD);
    dataOf(await me(second.app, session), 'cached on B');
    const socket = await socketOf(baseB, session);
    const socketOnA = await socketOf(baseA, session);
    await pong(socket);
    await pong(socketOnA);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${agent.id}`, payload: { enabled: false } }));
    assertError(await eventually(() => me(second.app, session), 401), 401, 'UnauthorizedException');
    assertError(await me(t.app, session), 401, 'UnauthorizedException');
    assert.equal((await closeOf(socket)).code, 1008);
    assert.equal((await closeOf(socketOnA)).code, 1008, 'and on A');
    // Enabled again, the ended session stays ended: disabling ended it, it did not just suspend it.
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${agent.id}`, payload: { enabled: true } }));
    assertError(await me(second.app, session), 401, 'UnauthorizedException');
    const entries = await auditEntries(t, 'agent.updated', agent.id);
    assert.deepEqual(
      entries.map((e) => e.changes),
      [{ enabled: [true, false] }, { enabled: [false, true] }],
    );
  });

  it('ending another session on A: refused on B at once and its socket on B closed; the current session and its socket stay', async () => {
    const agent = await newAgent();
    const laptop = await signIn(t.app, agent.email, PASSWORD);
    const phone = await signIn(second.app, agent.email, PASSWORD);
    dataOf(await me(second.app, phone));
    const phoneSocket = await socketOf(baseB, phone);
    const laptopSocket = await socketOf(baseB, laptop);
    await pong(phoneSocket);
    await pong(laptopSocket);
    const listed = dataOf<SessionItem[]>(await asSession(t.app, laptop, { method: 'GET', url: '/api/v1/agents/me/sessions' }));
    const phoneId = listed.find((s) => !s.current)?.id;
    assert.ok(phoneId);
    assert.equal(dataOf(await asSession(t.app, laptop, { method: 'DELETE', url: `/api/v1/agents/me/sessions/${phoneId}` })), true);
    assertError(await eventually(() => me(second.app, phone), 401), 401, 'UnauthorizedException');
    assert.equal((await closeOf(phoneSocket)).code, 1008);
    dataOf(await me(second.app, laptop));
    await pong(laptopSocket);
    assert.equal(laptopSocket.ws.readyState, OPEN);
  });

  it('a password change on A ends the other sessions at once on B (and closes their sockets); the session that changed it stays', async () => {
    const agent = await newAgent();
    const changer = await signIn(t.app, agent.email, PASSWORD);
    const other = await signIn(t.app, agent.email, PASSWORD);
    dataOf(await me(second.app, other), 'cached on B');
    const socket = await socketOf(baseB, other);
    await pong(socket);
    const changed = await asSession(t.app, changer, {
      method: 'PUT',
      url: '/api/v1/agents/me',
      payload: { current_password: PASSWORD, new_password: 'a-brand-new-password' },
    });
    dataOf(changed);
    assertError(await eventually(() => me(second.app, other), 401), 401, 'UnauthorizedException');
    assertError(await me(t.app, other), 401, 'UnauthorizedException');
    assert.equal((await closeOf(socket)).code, 1008);
    dataOf(await me(second.app, changer), 'the changing session works on B');
    dataOf(await me(t.app, changer));
    const entry = await auditEntry(t, 'auth.password_changed', agent.id);
    assert.deepEqual(entry.changes, { password: ['[redacted]', '[redacted]'] });
    assert.equal(entry.actor_id, agent.id);
    // The old password no longer signs in; the new one does.
    const old = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: agent.email, password: PASSWORD } });
    assert.equal(old.statusCode, 401);
    await signIn(second.app, agent.email, 'a-brand-new-password');
  });
});
