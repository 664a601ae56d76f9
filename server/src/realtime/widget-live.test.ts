// A live chat end to end over the public widget API and both sockets: a visitor starts a
// conversation over HTTP, the agent socket hears it, the widget socket hears the reply, the
// agent hears "seen", a message to a resolved conversation reopens it and the widget is told,
// and blocking the contact closes its widget socket.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { closeOf, type Frame, listen, nextFrame, openSocket, type TestSocket } from '../../test/sockets.ts';
import { createWidgetInbox, startVisitor, type WidgetInboxFixture, widgetCall } from '../../test/widget.ts';

const statusOf = (uuid: string) => (f: Frame) =>
  f.type === 'conversation_update' && JSON.stringify(f.data).includes(uuid) && 'status' in (f.data as object);
const is =
  (type: string, uuid?: string) =>
  (f: Frame): boolean =>
    f.type === type && (uuid === undefined || JSON.stringify(f.data).includes(uuid));

describe('live chat over the widget API and the sockets', () => {
  let t: TestApp;
  let base: string;
  let chat: WidgetInboxFixture;
  const open: TestSocket[] = [];
  before(async () => {
    t = await buildTestApp();
    base = await listen(t.app);
    chat = await createWidgetInbox(t);
  });
  after(async () => {
    for (const socket of open) await socket.close();
    await t.close();
  });

  it('carries a conversation both ways, tells the widget of a reopen, and closes the socket of a blocked contact', async () => {
    const agent = await openSocket(`${base}/ws`, t.admin.headers);
    open.push(agent);
    const visitor = await startVisitor(t, chat.uuid, 'Is anyone there?');
    const uuid = visitor.conversationUuid;
    await nextFrame(agent, is('new_conversation', uuid));
    const incoming = await nextFrame(agent, is('new_message', uuid));
    assert.match(JSON.stringify(incoming.data), /Is anyone there\?/);

    const widget = await openSocket(`${base}/widget/ws`);
    open.push(widget);
    widget.send({ type: 'join', token: visitor.token, data: { inbox_id: chat.uuid } });
    assert.equal((await nextFrame(widget)).type, 'joined');

    dataOf(
      await t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload: { message: '<p>Yes, how can I help?</p>' } }),
    );
    const reply = await nextFrame(widget, is('new_message', uuid));
    assert.match((reply.data as { content: string }).content, /how can I help/);

    dataOf(
      await widgetCall(t, { method: 'POST', url: `chat/conversations/${uuid}/update-last-seen`, inbox: chat.uuid, token: visitor.token }),
    );
    const seen = await nextFrame(agent, (f) => is('conversation_update', uuid)(f) && 'contact_last_seen_at' in (f.data as object));
    assert.ok((seen.data as { contact_last_seen_at: string }).contact_last_seen_at);

    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/status`, payload: { status: 'Resolved' } }));
    assert.equal(((await nextFrame(widget, statusOf(uuid))).data as { status: string }).status, 'Resolved');
    dataOf(
      await widgetCall(t, {
        method: 'POST',
        url: `chat/conversations/${uuid}/message`,
        inbox: chat.uuid,
        token: visitor.token,
        payload: { message: 'One more thing' },
      }),
    );
    assert.equal(((await nextFrame(widget, statusOf(uuid))).data as { status: string }).status, 'Open', 'the widget is told of the reopen');
    await nextFrame(agent, (f) => is('new_message', uuid)(f) && JSON.stringify(f.data).includes('One more thing'));

    dataOf(await t.call({ method: 'PUT', url: `/api/v1/contacts/${visitor.userId}/block`, payload: { enabled: false } }));
    assert.equal((await closeOf(widget)).code, 1008, 'a blocked contact loses its socket');
  });
});
