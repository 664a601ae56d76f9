// The widget socket against abuse: failed joins and floods close the socket, a site outside the
// inbox's trusted domains cannot join, page visits are cleaned or refused, frames are handled in
// order, and a shutdown closes sockets that never joined.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConversation, createInbox, type Inbox } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { closeOf, type Frame, listen, nextFrame, openSocket, type TestSocket } from '../../test/sockets.ts';
import { issueWidgetSession } from '../widget/widget.sessions.ts';
import { FRAMES_PER_SECOND } from './socket-frames.ts';
import { MAX_FAILED_JOINS } from './widget-socket.ts';

describe('widget socket under abuse', () => {
  let t: TestApp;
  let base: string;
  let inbox: Inbox;
  let contactId: number;
  let token: string;
  const open: TestSocket[] = [];
  const connect = async (headers: Record<string, string> = {}) => {
    const socket = await openSocket(`${base}/widget/ws`, headers);
    open.push(socket);
    return socket;
  };
  before(async () => {
    t = await buildTestApp();
    base = await listen(t.app);
    inbox = await createInbox(t, { channel: 'livechat', config: { trusted_domains: ['shop.example.com', '*.example.org'] } });
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    contactId = conversation.contact.id;
    token = await issueWidgetSession(
      t.deps.db,
      { userId: contactId, inboxId: inbox.id, isVisitor: true, lifetimeMs: 3600_000 },
      t.deps.clock.now(),
    );
  });
  after(async () => {
    for (const socket of open) await socket.close();
    await t.close();
  });

  it(`closes a socket after ${MAX_FAILED_JOINS} failed joins (1008)`, async () => {
    const socket = await connect();
    for (let i = 0; i < MAX_FAILED_JOINS; i++) socket.send({ type: 'join', token: 'x'.repeat(43), data: { inbox_id: inbox.uuid } });
    assert.equal((await closeOf(socket)).code, 1008);
  });

  it(`closes a socket sending far more than ${FRAMES_PER_SECOND} frames a second (1008)`, async () => {
    const socket = await connect();
    for (let i = 0; i < 200; i++) socket.send({ type: 'ping' });
    assert.equal((await closeOf(socket)).code, 1008);
  });

  it("refuses a join from a page outside the inbox's trusted domains", async () => {
    const evil = await connect({ origin: 'https://evil.example' });
    evil.send({ type: 'join', token, data: { inbox_id: inbox.uuid } });
    assert.equal(((await nextFrame(evil)).data as { code: string }).code, 'join_failed');
    for (const origin of ['https://shop.example.com', 'https://www.example.org']) {
      const good = await connect({ origin });
      good.send({ type: 'join', token, data: { inbox_id: inbox.uuid } });
      assert.equal((await nextFrame(good)).type, 'joined', origin);
      await good.close();
    }
  });

  it('cleans page visits (no user, password or fragment) and refuses control characters', async () => {
    const socket = await connect({ origin: 'https://shop.example.com' });
    socket.send({ type: 'join', token, data: { inbox_id: inbox.uuid } });
    assert.equal((await nextFrame(socket)).type, 'joined');
    for (const bad of [
      { url: 'https://shop.example.com/a\u0000b' },
      { url: 'https://shop.example.com/', title: 'a\u0000b' },
      { url: 'https://shop.example.com/\u0007' },
    ]) {
      socket.send({ type: 'page_visit', data: bad });
      assert.equal((await nextFrame(socket)).type, 'error', JSON.stringify(bad));
    }
    socket.send({ type: 'page_visit', data: { url: 'https://user:secret@shop.example.com/cart?id=1#token=abc', title: 'Cart' } });
    const deadline = Date.now() + 5000;
    let visits: Array<{ url: string }> = [];
    while (Date.now() < deadline) {
      visits = dataOf<Array<{ url: string }>>(await t.call({ method: 'GET', url: `/api/v1/contacts/${contactId}/page-visits` }));
      if (visits.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(visits[0]?.url, 'https://shop.example.com/cart?id=1');
  });

  it('handles frames in order: a subscribe answered before the unsubscribe sent after it', async () => {
    const agent = await openSocket(`${base}/ws`, t.admin.headers);
    open.push(agent);
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    agent.send({ type: 'subscribe', data: { conversation_uuid: conversation.uuid } });
    agent.send({ type: 'unsubscribe', data: { conversation_uuid: conversation.uuid } });
    const answers: Frame[] = [];
    while (answers.length < 2) answers.push(await nextFrame(agent, (f) => f.type === 'subscribed' || f.type === 'unsubscribed'));
    assert.deepEqual(
      answers.map((f) => f.type),
      ['subscribed', 'unsubscribed'],
    );
  });

  it('an inbox that blocks the address, or is disabled, closes its joined sockets (1008)', async () => {
    const chat = await createInbox(t, { channel: 'livechat', config: {} });
    const conversation = await createConversation(t, { inbox_id: chat.id });
    const session = await issueWidgetSession(
      t.deps.db,
      { userId: conversation.contact.id, inboxId: chat.id, isVisitor: true, lifetimeMs: 3600_000 },
      t.deps.clock.now(),
    );
    const join = async () => {
      const socket = await connect();
      socket.send({ type: 'join', token: session, data: { inbox_id: chat.uuid } });
      assert.equal((await nextFrame(socket)).type, 'joined');
      return socket;
    };
    const blocked = await join();
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${chat.id}`, payload: { config: { blocked_ips: ['127.0.0.0/8'] } } }));
    assert.equal((await closeOf(blocked)).code, 1008, 'the address is blocked now');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${chat.id}`, payload: { config: { blocked_ips: [] } } }));
    const disabled = await join();
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${chat.id}/toggle`, payload: { enabled: false } }));
    assert.equal((await closeOf(disabled)).code, 1008, 'the inbox is disabled now');
  });

  it('a shutdown closes sockets that never joined, at once (1001)', async () => {
    const other = await buildTestApp();
    const url = await listen(other.app);
    const idle = await openSocket(`${url}/widget/ws`);
    const started = Date.now();
    await other.close();
    assert.equal((await closeOf(idle)).code, 1001);
    assert.ok(Date.now() - started < 5000, 'the shutdown did not wait on the client');
  });
});
