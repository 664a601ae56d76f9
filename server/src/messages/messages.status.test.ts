// markMessagesStatus: many messages' status changes in one statement, each with its own status and
// meta, and `message.updated` for exactly the messages that moved; and the workers delivering a
// burst of live-chat replies by batches.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import { createConversation } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { waitUntil } from '../../test/receiver.ts';
import { BATCHED_JOB_KINDS, startWorkers } from '../workers.ts';
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

  it('delivers a burst of live-chat replies by batches: a claim, a status statement and a completion serve many', async () => {
    assert.ok(BATCHED_JOB_KINDS.includes('livechat.deliver'));
    const conversation = await createConversation(t);
    const url = `/api/v1/conversations/${conversation.uuid}/messages`;
    const replies: Message[] = [];
    for (let i = 0; i < 80; i++) replies.push(dataOf<Message>(await t.call({ method: 'POST', url, payload: { message: `reply ${i}` } })));
    const ids = replies.map((reply) => reply.id);
    const jobs = () =>
      t.deps.db
        .selectFrom('jobs')
        .where('kind', '=', 'livechat.deliver')
        .where(sql<boolean>`(payload->>'message_id')::bigint = any(${ids}::bigint[])`)
        .select(['completed_at'])
        .execute();
    const queued = await jobs();
    assert.equal(queued.length, 80, 'a job per reply, durable before any runs');
    assert.ok(
      queued.every((job) => job.completed_at === null),
      'none done before the workers start',
    );

    const workers = startWorkers(t.deps);
    try {
      await waitUntil('every delivery done', async () => (await jobs()).every((job) => job.completed_at !== null), 10_000);
    } finally {
      await workers.stop();
    }
    const statuses = await t.deps.db.selectFrom('messages').where('id', 'in', ids).select('status').execute();
    assert.deepEqual(new Set(statuses.map((row) => row.status)), new Set(['sent']));
    // The jobs a statement completes share its time: with JOB_CONCURRENCY's 4 at once (the other
    // kinds' runner) 80 jobs would take at least 20 completions.
    const completions = new Set((await jobs()).map((job) => job.completed_at?.getTime()));
    assert.ok(completions.size <= 8, `${completions.size} completion statements for 80 jobs`);
  });
});
