import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueWidgetSession } from '../widget/widget.sessions.ts';
import { createConversation, createInbox, type Conversation, type Inbox } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { closeOf, type Frame, listen, nextFrame, noFrame, openSocket, refusedUpgrade, type TestSocket } from '../../test/sockets.ts';

const is = (type: string) => (f: Frame) => f.type === type;

describe('widget socket /widget/ws', () => {
  let t: TestApp;
  let base: string;
  let inbox: Inbox;
  let conversation: Conversation;
  let token: string;
  const open: TestSocket[] = [];
  const connect = async (url = base) => {
    const socket = await openSocket(`${url}/widget/ws`);
    open.push(socket);
    return socket;
  };
  const joined = async (url = base) => {
    const socket = await connect(url);
    socket.send({ type: 'join', token, data: { inbox_id: inbox.uuid } });
    assert.deepEqual(await nextFrame(socket), { type: 'joined', data: { message: 'Joined' } });
    return socket;
  };
  const reply = async (text: string, extra: Record<string, unknown> = {}, app = t) =>
    dataOf(
      await app.call({ method: 'POST', url: `/api/v1/conversations/${conversation.uuid}/messages`, payload: { message: text, ...extra } }),
    );

  before(async () => {
    t = await buildTestApp();
    base = await listen(t.app);
    inbox = await createInbox(t);
    conversation = await createConversation(t, { inbox_id: inbox.id });
    token = await issueWidgetSession(
      t.deps.db,
      { userId: conversation.contact.id, inboxId: inbox.id, isVisitor: true, lifetimeMs: 3600_000 },
      t.deps.clock.now(),
    );
  });
  after(async () => {
    for (const socket of open) await socket.close();
    await t.close();
  });

  it('answers ping before join, refuses other frames until joined, and reports join failures with the socket open', async () => {
    const socket = await connect();
    socket.send({ type: 'ping' });
    assert.deepEqual(await nextFrame(socket), { type: 'pong' });
    socket.send({ type: 'typing', data: { conversation_uuid: conversation.uuid, is_typing: true } });
    assert.equal((await nextFrame(socket)).type, 'error');
    const failures: unknown[] = [
      { type: 'join' },
      { type: 'join', token, data: {} },
      { type: 'join', token, data: { inbox_id: 'nope' } },
      { type: 'join', token, data: { inbox_id: '00000000-0000-4000-8000-000000000000' } },
      { type: 'join', token: 'x'.repeat(43), data: { inbox_id: inbox.uuid } },
    ];
    for (const join of failures) {
      socket.send(join);
      const answer = await nextFrame(socket);
      assert.equal(answer.type, 'error', JSON.stringify(join));
      assert.equal((answer.data as { code: string }).code, 'join_failed');
    }
    socket.send('not json');
    assert.equal((await nextFrame(socket)).type, 'error');
    socket.send({ type: 'join', token, data: { inbox_id: inbox.uuid } });
    assert.equal((await nextFrame(socket)).type, 'joined');
    socket.send({ type: 'join', token, data: { inbox_id: inbox.uuid } });
    assert.equal((await nextFrame(socket)).type, 'error');
  });

  it('refuses a session of another inbox and a blocked contact', async () => {
    const other = await createInbox(t);
    const socket = await connect();
    socket.send({ type: 'join', token, data: { inbox_id: other.uuid } });
    assert.equal(((await nextFrame(socket)).data as { code: string }).code, 'join_failed');
    const blockedConversation = await createConversation(t, { inbox_id: inbox.id });
    const blockedToken = await issueWidgetSession(
      t.deps.db,
      { userId: blockedConversation.contact.id, inboxId: inbox.id, isVisitor: true, lifetimeMs: 3600_000 },
      t.deps.clock.now(),
    );
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/contacts/${blockedConversation.contact.id}/block`, payload: { enabled: false } }));
    socket.send({ type: 'join', token: blockedToken, data: { inbox_id: inbox.uuid } });
    assert.equal(((await nextFrame(socket)).data as { code: string }).code, 'join_failed');
  });

  it('receives agent replies as ChatMessages, never private notes; status changes as conversation_update', async () => {
    const socket = await joined();
    await reply('<p>A private note</p>', { private: true });
    await reply('<p>Hello from support</p>');
    const message = await nextFrame(socket, is('new_message'));
    const data = message.data as { conversation_uuid: string; content: string; author: { type: string; email: unknown } };
    assert.equal(data.conversation_uuid, conversation.uuid);
    assert.match(data.content, /Hello from support/);
    assert.equal(data.author.type, 'agent');
    assert.equal(data.author.email, null);
    await noFrame(socket, (f) => JSON.stringify(f).includes('private note'), 300);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/status`, payload: { status: 'Resolved' } }));
    const update = await nextFrame(socket, is('conversation_update'));
    assert.equal((update.data as { uuid: string }).uuid, conversation.uuid);
    assert.equal((update.data as { status: string }).status, 'Resolved');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/status`, payload: { status: 'Open' } }));
    assert.equal(((await nextFrame(socket, is('conversation_update'))).data as { status: string }).status, 'Open');
  });

  it('gets agent typing on public replies only, and sends its own typing to subscribed agents', async () => {
    const socket = await joined();
    const agent = await openSocket(`${base}/ws`, t.admin.headers);
    open.push(agent);
    agent.send({ type: 'subscribe', data: { conversation_uuid: conversation.uuid } });
    await nextFrame(agent, is('subscribed'));
    agent.send({ type: 'typing', data: { conversation_uuid: conversation.uuid, is_typing: true, is_private: true } });
    await noFrame(socket, is('typing'), 300);
    agent.send({ type: 'typing', data: { conversation_uuid: conversation.uuid, is_typing: true } });
    assert.deepEqual((await nextFrame(socket, is('typing'))).data, { conversation_uuid: conversation.uuid, is_typing: true });
    socket.send({ type: 'typing', data: { conversation_uuid: conversation.uuid, is_typing: true } });
    const typing = await nextFrame(agent, is('typing'));
    assert.deepEqual(typing.data, { conversation_uuid: conversation.uuid, is_typing: true, contact_id: conversation.contact.id });
    const someoneElses = await createConversation(t, { inbox_id: inbox.id });
    socket.send({ type: 'typing', data: { conversation_uuid: someoneElses.uuid, is_typing: true } });
    assert.equal((await nextFrame(socket)).type, 'error');
    socket.send({ type: 'typing', data: { conversation_uuid: conversation.uuid } });
    assert.equal((await nextFrame(socket)).type, 'error');
  });

  it('records page visits (http/https, bounded, last 20) and tells agents; presence online/offline', async () => {
    const agent = await openSocket(`${base}/ws`, t.admin.headers);
    open.push(agent);
    // A contact of its own, with no socket yet.
    const visitor = await createConversation(t, { inbox_id: inbox.id });
    const visitorToken = await issueWidgetSession(
      t.deps.db,
      { userId: visitor.contact.id, inboxId: inbox.id, isVisitor: true, lifetimeMs: 3600_000 },
      t.deps.clock.now(),
    );
    const socket = await connect();
    socket.send({ type: 'join', token: visitorToken, data: { inbox_id: inbox.uuid } });
    assert.equal((await nextFrame(socket)).type, 'joined');
    const online = await nextFrame(agent, is('contact_update'));
    assert.deepEqual(online.data, { contact_id: visitor.contact.id, presence: 'online' });
    for (const bad of [
      { url: 'javascript:alert(1)' },
      { url: 'ftp://example.com/' },
      { url: `https://example.com/${'a'.repeat(2048)}` },
      { url: 'https://example.com/', title: 'x'.repeat(257) },
      { url: 5 },
    ]) {
      socket.send({ type: 'page_visit', data: bad });
      assert.equal((await nextFrame(socket)).type, 'error', JSON.stringify(bad));
    }
    socket.send({ type: 'page_visit', data: { url: 'https://shop.example.com/pricing', title: 'Pricing' } });
    const update = await nextFrame(agent, (f) => f.type === 'contact_update' && JSON.stringify(f.data).includes('page_visits'));
    const visits = (update.data as { page_visits: Array<{ url: string; title: string }> }).page_visits;
    assert.equal(visits[0]?.url, 'https://shop.example.com/pricing');
    socket.send({ type: 'page_visit', data: { url: 'https://shop.example.com/too-soon', title: 'Soon' } });
    assert.equal(((await nextFrame(socket)).data as { code: string }).code, 'rate_limited');
    const listed = dataOf<Array<{ url: string }>>(
      await t.call({ method: 'GET', url: `/api/v1/contacts/${visitor.contact.id}/page-visits` }),
    );
    assert.equal(listed[0]?.url, 'https://shop.example.com/pricing');
    const limited = await t.makeAgent({ roles: [] });
    assert.equal((await t.call({ method: 'GET', url: `/api/v1/contacts/${visitor.contact.id}/page-visits`, as: limited })).statusCode, 403);
    assert.equal((await t.call({ method: 'GET', url: '/api/v1/contacts/999999/page-visits' })).statusCode, 404);
    await socket.close();
    const offline = await nextFrame(agent, (f) => f.type === 'contact_update' && JSON.stringify(f.data).includes('offline'));
    assert.deepEqual(offline.data, { contact_id: visitor.contact.id, presence: 'offline' });
  });

  it('closes the socket on a frame over 64 KiB', async () => {
    const socket = await connect();
    socket.send(JSON.stringify({ type: 'ping', pad: 'x'.repeat(70 * 1024) }));
    assert.equal((await closeOf(socket)).code, 1009);
  });

  it('crosses instances: a reply through A reaches the widget on B; a contact message through B reaches the agent on A', async () => {
    const second = await t.secondInstance();
    try {
      const baseB = await listen(second.app);
      const widgetOnB = await joined(baseB);
      const agentOnA = await openSocket(`${base}/ws`, t.admin.headers);
      open.push(agentOnA);
      await reply('<p>Across instances</p>');
      const message = await nextFrame(widgetOnB, is('new_message'));
      assert.match((message.data as { content: string }).content, /Across instances/);
      const res = await second.app.inject({
        method: 'POST',
        url: '/api/v1/conversations',
        headers: t.admin.headers,
        payload: { inbox_id: inbox.id, contact_id: conversation.contact.id, content: 'From the contact, via B', initiator: 'contact' },
      });
      const created = dataOf<Conversation>({ statusCode: res.statusCode, body: res.body, json: () => res.json() });
      const incoming = await nextFrame(agentOnA, (f) => f.type === 'new_message' && JSON.stringify(f.data).includes(created.uuid));
      assert.match((incoming.data as { content: string }).content, /via B/);
      await nextFrame(agentOnA, (f) => f.type === 'new_conversation' && JSON.stringify(f.data).includes(created.uuid));
      for (const socket of [widgetOnB, agentOnA]) await socket.close();
    } finally {
      await second.close();
    }
  });
  it('limits upgrades per client address (429 before the upgrade)', async () => {
    let refused: { status: number; body: Record<string, unknown> } | null = null;
    for (let i = 0; i <= 130 && !refused; i++) {
      try {
        refused = await refusedUpgrade(`${base}/widget/ws`);
      } catch (error) {
        assert.match(String(error), /accepted/);
      }
    }
    assert.ok(refused, 'an upgrade was refused within 131 attempts');
    assert.equal(refused.status, 429);
    assert.equal(refused.body['error_type'], 'RateLimitException');
  });
});
