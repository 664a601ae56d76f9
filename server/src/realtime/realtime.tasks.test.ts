import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { closeOf, listen, nextFrame, noFrame, openSocket } from '../../test/sockets.ts';
import { returnFromAbsence } from '../agents/agents.service.ts';
import { markAbsentAgentsOffline } from './presence.ts';
import { pruneDomainEvents } from './pruning.ts';
import { readCursor } from './realtime.queries.ts';

const MINUTE = 60_000;

describe('realtime periodic tasks and timers', () => {
  const clock = fakeClock(new Date());
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp({ clock });
    base = await listen(t.app);
  });
  after(() => t.close());

  const eventCount = async () =>
    Number((await sql<{ n: number }>`select count(*)::int as n from domain_events`.execute(t.deps.db)).rows[0]?.n ?? 0);

  it('prunes events older than 3 days that the relay has passed, and keeps the rest', async () => {
    const observer = await openSocket(`${base}/ws`, t.admin.headers);
    const conversation = await createConversation(t);
    await nextFrame(observer, (f) => f.type === 'new_message' && JSON.stringify(f.data).includes(conversation.uuid));
    // The relay stored its cursor past these events.
    for (let i = 0; i < 50 && ((await readCursor(t.deps.db, 'relay')) ?? 0) < 1; i++) await new Promise((r) => setTimeout(r, 50));
    const before = await eventCount();
    assert.ok(before > 0);
    assert.equal(await pruneDomainEvents(t.deps), 0, 'nothing is old enough yet');
    // Moving the clock makes a socket opened before look silent for 3 days (the heartbeat
    // would end it at its next tick): the fresh event is watched on a socket opened after.
    await observer.close();
    clock.advance(3 * 24 * 60 * MINUTE + MINUTE);
    const later = await openSocket(`${base}/ws`, t.admin.headers);
    const fresh = await createConversation(t);
    await nextFrame(later, (f) => f.type === 'new_message' && JSON.stringify(f.data).includes(fresh.uuid));
    const pruned = await pruneDomainEvents(t.deps);
    assert.ok(pruned > 0 && pruned < before + 10, `pruned ${pruned}`);
    const left = await eventCount();
    assert.ok(left > 0 && left < before + 10 - pruned + 1);
    await later.close();
  });

  it('closes a socket silent for 60 s', async () => {
    const socket = await openSocket(`${base}/ws`, t.admin.headers);
    socket.send({ type: 'ping' });
    await nextFrame(socket, (f) => f.type === 'pong');
    clock.advance(61_000);
    const { code } = await closeOf(socket, 5000);
    assert.equal(code, 1006, 'terminated');
  });

  it('puts an agent with no live agent socket for 5 minutes offline, and tells the other agents', async () => {
    const agent = await t.makeAgent();
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', as: agent, payload: { status: 'available' } }));
    const socket = await openSocket(`${base}/ws`, agent.headers);
    await socket.close();
    await new Promise((r) => setTimeout(r, 100));
    await markAbsentAgentsOffline(t.deps);
    const still = dataOf<{ availability_status: string }>(await t.call({ method: 'GET', url: `/api/v1/agents/${agent.id}` }));
    assert.equal(still.availability_status, 'available', 'gone for less than 5 minutes');
    clock.advance(5 * MINUTE + 1000);
    const observer = await openSocket(`${base}/ws`, t.admin.headers);
    assert.ok((await markAbsentAgentsOffline(t.deps)) >= 1);
    const after = dataOf<{ availability_status: string }>(await t.call({ method: 'GET', url: `/api/v1/agents/${agent.id}` }));
    assert.equal(after.availability_status, 'offline');
    const frame = await nextFrame(
      observer,
      (f) => f.type === 'agent_availability_update' && (f.data as { agent_id: number }).agent_id === agent.id,
    );
    assert.deepEqual(frame.data, { agent_id: agent.id, availability_status: 'offline' });
    await observer.close();
  });

  it('brings an agent back from an absence when its signed-in socket opens: as it was before, or available; a chosen offline stays', async () => {
    let observer = await openSocket(`${base}/ws`, t.admin.headers);
    const status = async (id: number) =>
      dataOf<{ availability_status: string }>(await t.call({ method: 'GET', url: `/api/v1/agents/${id}` })).availability_status;
    const update = (id: number, to: string) =>
      nextFrame(observer, (f) => {
        const data = f.data as { agent_id: number; availability_status: string };
        return f.type === 'agent_availability_update' && data.agent_id === id && data.availability_status === to;
      });
    const password = 'agent-password-123';
    const agent = await t.makeAgent({ password });
    const login = await t.call({ method: 'POST', url: '/api/v1/auth/login', as: null, payload: { email: agent.email, password } });
    const session = (login.cookies as Array<{ name: string; value: string }>).find((c) => c.name === 'parley_session');
    assert.ok(session);
    const signedIn = { cookie: `parley_session=${session.value}`, origin: new URL(t.deps.config.baseUrl).origin };

    // An integration's API key opens a socket: the agent stays offline (no round robin for a bot).
    assert.equal(await status(agent.id), 'offline');
    let socket = await openSocket(`${base}/ws`, agent.headers);
    socket.send({ type: 'ping' });
    await nextFrame(socket, (f) => f.type === 'pong');
    assert.equal(await returnFromAbsence(t.deps, agent.id), true, 'a new agent: offline nobody chose');
    await update(agent.id, 'available');
    await socket.close();

    // Busy by choice, then gone 5 minutes: offline by the absence rule; the signed-in socket brings busy back.
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', as: agent, payload: { status: 'busy' } }));
    await update(agent.id, 'busy');
    clock.advance(5 * MINUTE + 1000);
    // The heartbeat ends a socket that looks silent for 5 minutes: the observer starts again.
    await observer.close();
    observer = await openSocket(`${base}/ws`, t.admin.headers);
    assert.ok((await markAbsentAgentsOffline(t.deps)) >= 1);
    assert.equal(await status(agent.id), 'offline');
    await update(agent.id, 'offline');
    const back = update(agent.id, 'busy');
    socket = await openSocket(`${base}/ws`, signedIn);
    await back;
    assert.equal(await status(agent.id), 'busy');
    await socket.close();

    // Offline by choice: nothing brings it back.
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', as: agent, payload: { status: 'offline' } }));
    await update(agent.id, 'offline');
    assert.equal(await returnFromAbsence(t.deps, agent.id), false);
    socket = await openSocket(`${base}/ws`, signedIn);
    await noFrame(observer, (f) => {
      const data = f.data as { agent_id: number; availability_status: string };
      return f.type === 'agent_availability_update' && data.agent_id === agent.id && data.availability_status !== 'offline';
    });
    assert.equal(await status(agent.id), 'offline');
    await socket.close();
    await observer.close();
  });

  it('closes every socket with 1001 when the app closes', async () => {
    const other = await buildTestApp();
    const url = await listen(other.app);
    const socket = await openSocket(`${url}/ws`, other.admin.headers);
    const closing = closeOf(socket);
    await other.close();
    const { code } = await closing;
    assert.equal(code, 1001);
  });
});
