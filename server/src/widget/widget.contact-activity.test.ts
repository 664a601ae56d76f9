// What a contact leaves behind as it goes: its page visits follow a visitor merged into a
// verified contact, and its `last_active_at` (the web app's "Last active") is set when it is
// active (a widget request or socket, a page visit, a mail it wrote), at most once a minute.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contactCalls } from '../../test/contacts.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { buildMail, emailInbox, nextSource } from '../../test/mail.ts';
import { listen, nextFrame, openSocket } from '../../test/sockets.ts';
import { createWidgetInbox, startVisitor, verifiedSession, type WidgetInboxFixture, widgetCall } from '../../test/widget.ts';
import { ingestMail } from '../email/email.ingest.ts';
import { recordPageVisit } from '../realtime/page-visits.ts';

describe('contact activity', () => {
  const clock = fakeClock(new Date());
  let t: TestApp;
  let chat: WidgetInboxFixture;
  before(async () => {
    t = await buildTestApp({ clock });
    chat = await createWidgetInbox(t, { session_duration: '1h' });
  });
  after(() => t.close());

  const { get } = contactCalls(() => t, clock);
  const lastActive = async (id: number) => dataOf<{ last_active_at: string | null }>(await get(id)).last_active_at;
  const visitsOf = async (id: number) =>
    dataOf<Array<{ url: string }>>(await t.call({ method: 'GET', url: `/api/v1/contacts/${id}/page-visits` })).map((v) => v.url);

  it("a visitor's page visits move to the contact it is merged into; the contact keeps its newest 20", async () => {
    const visitor = await startVisitor(t, chat.uuid, 'Before signing in');
    const session = await verifiedSession(t, chat, {}, clock.now());
    const contactId = session.user.user_id;
    for (let i = 0; i < 15; i += 1) {
      clock.advance(1000);
      await recordPageVisit(t.deps, contactId, `https://shop.example.com/contact/${i}`, `Contact ${i}`);
    }
    for (let i = 0; i < 8; i += 1) {
      clock.advance(1000);
      await recordPageVisit(t.deps, visitor.userId, `https://shop.example.com/visitor/${i}`, `Visitor ${i}`);
    }
    const merged = await widgetCall(t, {
      url: 'chat/conversations',
      inbox: chat.uuid,
      token: session.session_token,
      headers: { 'x-service-visitor-token': visitor.token },
    });
    assert.equal(merged.headers['x-service-clear-visitor'], 'true');
    const visits = await visitsOf(contactId);
    assert.equal(visits.length, 20);
    // The newest first: the visitor's 8, then the contact's newest 12.
    assert.deepEqual(
      visits.slice(0, 8),
      [7, 6, 5, 4, 3, 2, 1, 0].map((i) => `https://shop.example.com/visitor/${i}`),
    );
    assert.deepEqual(
      visits.slice(8),
      [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((i) => `https://shop.example.com/contact/${i}`),
    );
    const left = await t.deps.db.selectFrom('contact_page_visits').where('contact_id', '=', visitor.userId).select('id').execute();
    assert.deepEqual(left, []);
  });

  it('last active is set by the widget: a first message, the identity exchange, later requests at most once a minute', async () => {
    const visitor = await startVisitor(t, chat.uuid);
    assert.equal(await lastActive(visitor.userId), clock.now().toISOString());
    const session = await verifiedSession(t, chat, {}, clock.now());
    const contactId = session.user.user_id;
    const exchangedAt = clock.now().toISOString();
    assert.equal(await lastActive(contactId), exchangedAt);
    const me = () => widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, token: session.session_token });
    clock.advance(30_000);
    dataOf(await me());
    assert.equal(await lastActive(contactId), exchangedAt, 'written at most once a minute');
    clock.advance(40_000);
    dataOf(await me());
    assert.equal(await lastActive(contactId), clock.now().toISOString());
  });

  it('last active is set by a widget socket joining and by page visits', async () => {
    const session = await verifiedSession(t, chat, {}, clock.now());
    const contactId = session.user.user_id;
    clock.advance(5 * 60_000);
    const base = await listen(t.app);
    const socket = await openSocket(`${base}/widget/ws`);
    try {
      socket.send({ type: 'join', token: session.session_token, data: { inbox_id: chat.uuid } });
      assert.equal((await nextFrame(socket)).type, 'joined');
      assert.equal(await lastActive(contactId), clock.now().toISOString());
      clock.advance(5 * 60_000);
      socket.send({ type: 'page_visit', data: { url: 'https://shop.example.com/pricing' } });
      for (let i = 0; i < 50 && (await lastActive(contactId)) !== clock.now().toISOString(); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(await lastActive(contactId), clock.now().toISOString());
    } finally {
      await socket.close();
    }
  });

  it('last active is set by a mail the contact writes', async () => {
    const inbox = await emailInbox(t);
    const from = `writer-${Date.now()}@example.org`;
    const first = await ingestMail(t.deps, inbox, await buildMail({ from, to: 'support@example.com' }), nextSource());
    assert.equal(first.kind, 'stored');
    const contact = await t.deps.db
      .selectFrom('users')
      .where('email', '=', from)
      .select(['id', 'last_active_at'])
      .executeTakeFirstOrThrow();
    assert.equal(contact.last_active_at?.toISOString(), clock.now().toISOString());
  });
});
