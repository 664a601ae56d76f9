// The survey of a live chat reaches the visitor's open widget socket as a `new_message` with
// meta.csat_uuid, like an agent's reply, so the widget can show its rating control at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { type Frame, listen, nextFrame, openSocket, type TestSocket } from '../../test/sockets.ts';
import { startVisitor } from '../../test/widget.ts';
import { createInbox } from '../../test/factories.ts';

describe('CSAT over the widget socket', () => {
  let t: TestApp;
  let base: string;
  const open: TestSocket[] = [];
  before(async () => {
    t = await buildTestApp();
    base = await listen(t.app);
  });
  after(async () => {
    for (const socket of open) await socket.close();
    await t.close();
  });

  it('the widget hears the survey message with its csat_uuid', async () => {
    const inbox = await createInbox(t, { csat_enabled: true });
    const visitor = await startVisitor(t, inbox.uuid, 'Help please');
    const widget = await openSocket(`${base}/widget/ws`);
    open.push(widget);
    widget.send({ type: 'join', token: visitor.token, data: { inbox_id: inbox.uuid } });
    assert.equal((await nextFrame(widget)).type, 'joined');

    const resolved = dataOf<{ csat: { uuid: string } }>(
      await t.call({ method: 'PUT', url: `/api/v1/conversations/${visitor.conversationUuid}/status`, payload: { status: 'Resolved' } }),
    );
    const survey = await nextFrame(widget, (f: Frame) => f.type === 'new_message');
    const message = survey.data as { conversation_uuid: string; meta: Record<string, unknown>; content: string };
    assert.equal(message.conversation_uuid, visitor.conversationUuid);
    assert.deepEqual(message.meta, { csat_uuid: resolved.csat.uuid });
    assert.match(message.content, new RegExp(`/csat/${resolved.csat.uuid}`));
  });
});
