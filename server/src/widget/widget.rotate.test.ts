// Rotating a live-chat inbox's JWT secret (docs/api.md, "Live chat"): without `end_sessions` the
// widget sessions already issued keep working; with it every session of the inbox ends, its
// bearer tokens get 401 and its joined sockets are closed, other inboxes untouched.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { closeOf, listen, nextFrame, openSocket, type TestSocket } from '../../test/sockets.ts';
import { createWidgetInbox, signIdentity, startVisitor, type WidgetInboxFixture, widgetCall } from '../../test/widget.ts';

describe('rotating the JWT secret of a live-chat inbox', () => {
  let t: TestApp;
  let base: string;
  let chat: WidgetInboxFixture;
  let other: WidgetInboxFixture;
  const open: TestSocket[] = [];
  before(async () => {
    t = await buildTestApp();
    base = await listen(t.app);
    chat = await createWidgetInbox(t);
    other = await createWidgetInbox(t);
  });
  after(async () => {
    for (const socket of open) await socket.close();
    await t.close();
  });

  const me = (inbox: string, token: string) => widgetCall(t, { url: 'chat/auth/me', inbox, token });
  const rotate = (payload?: Record<string, unknown>) =>
    t.call({ method: 'POST', url: `/api/v1/inboxes/${chat.inbox.id}/secret/rotate`, ...(payload ? { payload } : {}) });
  const joined = async (inbox: string, token: string) => {
    const socket = await openSocket(`${base}/widget/ws`);
    open.push(socket);
    socket.send({ type: 'join', token, data: { inbox_id: inbox } });
    assert.equal((await nextFrame(socket, (f) => f.type === 'joined' || f.type === 'error')).type, 'joined');
    return socket;
  };

  it('keeps the sessions without end_sessions, and ends them all with it', async () => {
    const visitor = await startVisitor(t, chat.uuid);
    const jwt = await signIdentity(chat.secret, { external_user_id: 'rotate-1', email: 'rotate@example.com' });
    const contact = dataOf<{ session_token: string }>(
      await widgetCall(t, { method: 'POST', url: 'chat/auth/exchange', inbox: chat.uuid, payload: { jwt } }),
    );
    const elsewhere = await startVisitor(t, other.uuid);

    const kept = dataOf<{ secret: string; sessions_ended: number }>(await rotate());
    assert.equal(kept.sessions_ended, 0);
    assert.notEqual(kept.secret, chat.secret);
    dataOf(await me(chat.uuid, visitor.token));
    dataOf(await me(chat.uuid, contact.session_token));
    const socket = await joined(chat.uuid, contact.session_token);
    const otherSocket = await joined(other.uuid, elsewhere.token);

    const ended = dataOf<{ secret: string; sessions_ended: number }>(await rotate({ end_sessions: true }));
    assert.equal(ended.sessions_ended, 2);
    assertError(await me(chat.uuid, visitor.token), 401, 'UnauthorizedException');
    assertError(await me(chat.uuid, contact.session_token), 401, 'UnauthorizedException');
    assert.equal((await closeOf(socket)).code, 1008);
    // Another inbox's sessions and sockets are untouched.
    dataOf(await me(other.uuid, elsewhere.token));
    otherSocket.send({ type: 'ping' });
    assert.equal((await nextFrame(otherSocket, (f) => f.type === 'pong')).type, 'pong');
    // The new secret signs identities again.
    const again = await signIdentity(ended.secret, { external_user_id: 'rotate-1', email: 'rotate@example.com' });
    dataOf(await widgetCall(t, { method: 'POST', url: 'chat/auth/exchange', inbox: chat.uuid, payload: { jwt: again } }));
  });

  it('refuses a bad body and changes nothing', async () => {
    const visitor = await startVisitor(t, chat.uuid);
    for (const payload of [{ end_sessions: 'yes' }, { end_sessions: true, extra: 1 }]) {
      assertError(await rotate(payload), 400, 'InputException');
    }
    dataOf(await me(chat.uuid, visitor.token));
  });
});
