// markMessagesStatus: many messages' status changes in one statement, each with its own status and
// meta, and `message.updated` for exactly the messages that moved.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConversation } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { markMessagesStatus } from './messages.queries.ts';

type Message = { id: number; uuid: string; status: string; type: string };

describe('set-based message status changes', () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t.close();
  });

  /** A public reply: pending until a delivery job (none runs here) marks it. */
  async function pendingReply(conversationUuid: string, text: string): Promise<Message> {
    const url = `/api/v1/conversations/${conversationUuid}/messages`;
    return dataOf<Message>(await t.call({ method: 'POST', url, payload: { message: text } }));
  }

  async function rowOf(id: number) {
    return t.deps.db.selectFrom('messages').where('id', '=', id).select(['status', 'meta']).executeTakeFirstOrThrow();
  }

  async function updatesOf(uuid: string): Promise<string[]> {
    const rows = await t.deps.db.selectFrom('domain_events').where('type', '=', 'message.updated').select('payload').execute();
    return rows
      .map((row) => row.payload as Record<string, unknown>)
      .filter((p) => p['message_uuid'] === uuid)
      .map((p) => String(p['status']));
  }

  it('moves each pending message to its own status with its own meta; one left alone is not written', async () => {
    const conversation = await createConversation(t);
    const a = await pendingReply(conversation.uuid, 'first');
    const b = await pendingReply(conversation.uuid, 'second');
    const c = await pendingReply(conversation.uuid, 'third');
    await markMessagesStatus(t.deps.db, [{ id: c.id, to: 'sent' }], { from: ['pending'], now: new Date() });

    const moved = await markMessagesStatus(
      t.deps.db,
      [
        { id: a.id, to: 'sent', meta: { message_id: 'a@example.com' } },
        { id: b.id, to: 'failed', meta: { delivery_error: 'SMTP RCPT TO <x@example.com>: 550 No such user' } },
        // Already sent: not pending any more, so nothing happens to it.
        { id: c.id, to: 'failed', meta: { delivery_error: 'too late' } },
        // Unknown: nothing either.
        { id: 2_000_000_000, to: 'sent' },
      ],
      { from: ['pending'], now: new Date() },
    );

    assert.deepEqual(moved.map((row) => row.uuid).sort(), [a.uuid, b.uuid].sort());
    const [rowA, rowB, rowC] = await Promise.all([rowOf(a.id), rowOf(b.id), rowOf(c.id)]);
    assert.equal(rowA.status, 'sent');
    assert.equal((rowA.meta as Record<string, unknown>)['message_id'], 'a@example.com');
    assert.equal(rowB.status, 'failed');
    assert.match(String((rowB.meta as Record<string, unknown>)['delivery_error']), /550 No such user/);
    assert.equal(rowC.status, 'sent');
    assert.equal((rowC.meta as Record<string, unknown>)['delivery_error'], undefined, 'the meta of a message left alone is kept');
    assert.deepEqual(await updatesOf(a.uuid), ['sent']);
    assert.deepEqual(await updatesOf(b.uuid), ['failed']);
    assert.deepEqual(await updatesOf(c.uuid), ['sent'], 'one event for its one change');
  });

  it('keeps the stored meta and adds the given keys; without meta the meta is unchanged', async () => {
    const conversation = await createConversation(t);
    const reply = await pendingReply(conversation.uuid, 'hello');
    const before = (await rowOf(reply.id)).meta as Record<string, unknown>;
    await markMessagesStatus(t.deps.db, [{ id: reply.id, to: 'sent' }], { from: ['pending'], now: new Date() });
    assert.deepEqual((await rowOf(reply.id)).meta, before);
  });

  it('with outgoingOnly, an incoming message is never moved', async () => {
    const conversation = await createConversation(t);
    const first = await t.deps.db
      .selectFrom('messages')
      .where('conversation_id', '=', conversation.id)
      .where('type', '=', 'incoming')
      .select(['id', 'uuid', 'status'])
      .executeTakeFirst();
    if (!first) return assert.fail('the conversation starts with the contact’s message');
    const moved = await markMessagesStatus(t.deps.db, [{ id: first.id, to: 'failed' }], {
      from: ['received', 'pending', 'sent'],
      now: new Date(),
      outgoingOnly: true,
    });
    assert.deepEqual(moved, []);
    assert.equal((await rowOf(first.id)).status, first.status);
    assert.deepEqual(await updatesOf(first.uuid), []);
  });

  it('an empty list writes nothing', async () => {
    assert.deepEqual(await markMessagesStatus(t.deps.db, [], { from: ['pending'], now: new Date() }), []);
  });
});
