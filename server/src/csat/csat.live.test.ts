// The survey of a live chat reaches the visitor's open widget socket as a `new_message` with
// meta.csat_uuid, like an agent's reply, so the widget can show its rating control at once; the
// contact's answer reaches the agents' sockets as a `conversation_update` carrying `csat`.
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

  it("the agents hear the contact's answer (conversation_update with csat), the record carries it", async () => {
    const inbox = await createInbox(t, { csat_enabled: true });
    const visitor = await startVisitor(t, inbox.uuid, 'Help please');
    const agent = await openSocket(`${base}/ws`, t.admin.headers);
    open.push(agent);
    const resolved = dataOf<{ csat: { uuid: string } }>(
      await t.call({ method: 'PUT', url: `/api/v1/conversations/${visitor.conversationUuid}/status`, payload: { status: 'Resolved' } }),
    );
    const answer = { rating: 2, feedback: 'Slow to answer' };
    dataOf(await t.call({ method: 'POST', url: `/api/v1/csat/${resolved.csat.uuid}/response`, payload: answer, as: null }));
    const frame = await nextFrame(agent, (f: Frame) => f.type === 'conversation_update' && 'csat' in (f.data as object));
    const data = frame.data as { uuid: string; csat: Record<string, unknown> };
    assert.equal(data.uuid, visitor.conversationUuid);
    const record = dataOf<{ csat: Record<string, unknown> }>(await t.call({ url: `/api/v1/conversations/${visitor.conversationUuid}` }));
    assert.deepEqual(data.csat, { uuid: resolved.csat.uuid, ...answer, submitted_at: record.csat['submitted_at'] });
    assert.equal(record.csat['rating'], 2);
    assert.equal(record.csat['feedback'], 'Slow to answer');
  });
});
