import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordEvent } from '../events/events.service.ts';
import { agentWith, createConversation, createInbox } from '../../test/factories.ts';
import { buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { closeOf, listen, nextFrame, noFrame, openSocket, refusedUpgrade, type Frame, type TestSocket } from '../../test/sockets.ts';

const ORIGIN = 'http://localhost:9000';
const is = (type: string, uuid?: string) => (f: Frame) => f.type === type && (uuid === undefined || JSON.stringify(f.data).includes(uuid));

describe('agent socket /ws', () => {
  let t: TestApp;
  let base: string;
  const open: TestSocket[] = [];
  const connect = async (caller: Caller | null, headers: Record<string, string> = {}) => {
    const socket = await openSocket(`${base}/ws`, { ...(caller ? caller.headers : {}), ...headers });
    open.push(socket);
    return socket;
  };
  before(async () => {
    t = await buildTestApp();
    base = await listen(t.app);
  });
  after(async () => {
    for (const socket of open) await socket.close();
    await t.close();
  });

  describe('authentication, before the upgrade', () => {
    it('refuses no credentials and bad credentials with 401, in the envelope', async () => {
      const none = await refusedUpgrade(`${base}/ws`);
      assert.equal(none.status, 401);
      assert.equal(none.body['error_type'], 'UnauthorizedException');
      const bad = await refusedUpgrade(`${base}/ws`, { authorization: 'token nope:nope' });
      assert.equal(bad.status, 401);
      const cookie = await refusedUpgrade(`${base}/ws`, { cookie: 'parley_session=not-a-session', origin: ORIGIN });
      assert.equal(cookie.status, 401);
    });

    it('accepts a session cookie only from the server origin (403 otherwise)', async () => {
      const agent = await t.makeAgent({ password: 'agent-password-123' });
      const login = await t.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        as: null,
        payload: { email: agent.email, password: 'agent-password-123' },
      });
      dataOf(login);
      const session = (login.cookies as Array<{ name: string; value: string }>).find((c) => c.name === 'parley_session');
      assert.ok(session);
      const cookie = `parley_session=${session.value}`;
      const foreign = await refusedUpgrade(`${base}/ws`, { cookie, origin: 'https://evil.example' });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.body['error_type'], 'PermissionException');
      const none = await refusedUpgrade(`${base}/ws`, { cookie });
      assert.equal(none.status, 403);
      const socket = await connect(null, { cookie, origin: ORIGIN });
      socket.send({ type: 'ping' });
      assert.deepEqual(await nextFrame(socket), { type: 'pong' });
    });

    it('accepts API credentials without an Origin', async () => {
      const socket = await connect(t.admin);
      socket.send({ type: 'ping' });
      assert.equal((await nextFrame(socket)).type, 'pong');
    });

    it('answers a plain GET (no upgrade) with 400', async () => {
      const res = await t.call({ method: 'GET', url: '/ws' });
      assert.equal(res.statusCode, 400);
    });
  });

  describe('client frames', () => {
    it('answers malformed and unknown frames with error, and stays open', async () => {
      const socket = await connect(t.admin);
      for (const bad of ['not json', '[]', '{"type":5}', '{"type":"dance"}', '{"type":"subscribe"}', '{"type":"subscribe","data":[]}']) {
        socket.send(bad);
        assert.equal((await nextFrame(socket)).type, 'error', bad);
      }
      socket.send({ type: 'subscribe', data: { conversation_uuid: '00000000-0000-4000-8000-000000000000' } });
      const unknown = await nextFrame(socket);
      assert.equal(unknown.type, 'error');
      socket.send({ type: 'typing', data: { conversation_uuid: '00000000-0000-4000-8000-000000000000', is_typing: 'yes' } });
      assert.equal((await nextFrame(socket)).type, 'error');
      socket.send({ type: 'ping' });
      assert.equal((await nextFrame(socket)).type, 'pong');
    });

    it('closes the socket on a frame over 64 KiB', async () => {
      const socket = await connect(t.admin);
      socket.send(JSON.stringify({ type: 'ping', data: { pad: 'x'.repeat(70 * 1024) } }));
      const { code } = await closeOf(socket);
      assert.equal(code, 1009);
    });

    it('subscribes only to conversations the agent may read', async () => {
      const own = await agentWith(t, ['conversations:read', 'conversations:read_assigned']);
      const conversation = await createConversation(t);
      const socket = await connect(own);
      socket.send({ type: 'subscribe', data: { conversation_uuid: conversation.uuid } });
      const refused = await nextFrame(socket);
      assert.equal(refused.type, 'error');
      const admin = await connect(t.admin);
      admin.send({ type: 'subscribe', data: { conversation_uuid: conversation.uuid } });
      assert.deepEqual(await nextFrame(admin), { type: 'subscribed', data: { conversation_uuid: conversation.uuid } });
      admin.send({ type: 'unsubscribe', data: { conversation_uuid: conversation.uuid } });
      assert.equal((await nextFrame(admin)).type, 'unsubscribed');
    });

    it('forwards typing to other subscribed agents', async () => {
      const conversation = await createConversation(t);
      const other = await t.makeAgent({ roles: ['Admin'] });
      const watcher = await connect(t.admin);
      watcher.send({ type: 'subscribe', data: { conversation_uuid: conversation.uuid } });
      await nextFrame(watcher, is('subscribed'));
      const typist = await connect(other);
      typist.send({ type: 'typing', data: { conversation_uuid: conversation.uuid, is_typing: true } });
      const typing = await nextFrame(watcher, is('typing'));
      assert.deepEqual(typing.data, { conversation_uuid: conversation.uuid, is_typing: true, is_private: false, agent_id: other.id });
      await noFrame(typist, is('typing'), 200);
    });
  });

  describe('events', () => {
    it('sends new_conversation, new_message and conversation_update only to agents allowed to see the conversation', async () => {
      const mine = await agentWith(t, ['conversations:read', 'conversations:read_assigned']);
      const theirs = await agentWith(t, ['conversations:read', 'conversations:read_assigned']);
      const mineSocket = await connect(mine);
      const theirSocket = await connect(theirs);
      const adminSocket = await connect(t.admin);
      const inbox = await createInbox(t);
      const conversation = await createConversation(t, { inbox_id: inbox.id, assignee_id: mine.id });
      const created = await nextFrame(mineSocket, is('new_conversation', conversation.uuid));
      assert.equal((created.data as { uuid: string }).uuid, conversation.uuid);
      assert.ok(created.event && created.event.id > 0 && typeof created.event.created_at === 'string');
      const message = await nextFrame(mineSocket, is('new_message', conversation.uuid));
      assert.equal((message.data as { conversation_uuid: string }).conversation_uuid, conversation.uuid);
      assert.ok((message.data as { meta: unknown }).meta, 'the full message record');
      await nextFrame(adminSocket, is('new_message', conversation.uuid));
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/priority`, payload: { priority: 'High' } }));
      const high = (f: Frame) => is('conversation_update', conversation.uuid)(f) && (f.data as { priority?: string }).priority === 'High';
      await nextFrame(mineSocket, high);
      await nextFrame(adminSocket, high);
      await noFrame(theirSocket, (f) => JSON.stringify(f).includes(conversation.uuid), 300);
    });

    it('tells the agent who loses an assignment, and then nothing more', async () => {
      const first = await agentWith(t, ['conversations:read', 'conversations:read_assigned']);
      const second = await t.makeAgent({ roles: ['Agent'] });
      const conversation = await createConversation(t, { assignee_id: first.id });
      const socket = await connect(first);
      dataOf(
        await t.call({
          method: 'PUT',
          url: `/api/v1/conversations/${conversation.uuid}/assignee/user`,
          payload: { assignee_id: second.id },
        }),
      );
      const lost = await nextFrame(socket, is('conversation_update', conversation.uuid));
      assert.equal((lost.data as { assigned_user_id: number }).assigned_user_id, second.id);
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/priority`, payload: { priority: 'Low' } }));
      await noFrame(socket, is('conversation_update', conversation.uuid), 400);
    });

    it('sends nothing for a rolled-back change, and events of a conversation in order', async () => {
      const conversation = await createConversation(t);
      const socket = await connect(t.admin);
      await assert.rejects(
        t.deps.db.transaction().execute(async (trx) => {
          await recordEvent(
            trx,
            'conversation.priority_changed',
            {
              conversation_id: conversation.id,
              conversation_uuid: conversation.uuid,
              actor_id: null,
              previous_priority: null,
              priority: 'Rolled back',
            },
            t.deps.clock.now(),
          );
          throw new Error('roll back');
        }),
      );
      for (const priority of ['Low', 'Medium', 'High', 'Urgent']) {
        dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/priority`, payload: { priority } }));
      }
      const seen: string[] = [];
      let lastId = 0;
      for (let i = 0; i < 4; i++) {
        const f = await nextFrame(socket, is('conversation_update', conversation.uuid));
        seen.push((f.data as { priority: string }).priority);
        assert.ok(f.event && f.event.id > lastId);
        lastId = f.event?.id ?? 0;
      }
      assert.deepEqual(seen, ['Low', 'Medium', 'High', 'Urgent']);
      await noFrame(socket, (f) => JSON.stringify(f).includes('Rolled back'), 300);
    });

    it('broadcasts availability changes to every agent', async () => {
      const listener = await agentWith(t, []);
      const socket = await connect(listener);
      const agent = await t.makeAgent();
      dataOf(await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', as: agent, payload: { status: 'busy' } }));
      const frame = await nextFrame(
        socket,
        (f) => f.type === 'agent_availability_update' && (f.data as { agent_id: number }).agent_id === agent.id,
      );
      assert.deepEqual(frame.data, { agent_id: agent.id, availability_status: 'busy' });
    });

    it('closes the sockets of a revoked key and of a disabled agent; a role change narrows what a socket sees', async () => {
      const revoked = await t.makeAgent();
      const socket = await connect(revoked);
      dataOf(await t.call({ method: 'DELETE', url: `/api/v1/agents/${revoked.id}/api-key` }));
      assert.equal((await closeOf(socket)).code, 1008);
      const disabled = await t.makeAgent();
      const second = await connect(disabled);
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${disabled.id}`, payload: { enabled: false } }));
      assert.equal((await closeOf(second)).code, 1008);
    });
  });
});
