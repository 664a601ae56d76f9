// The running dispatcher: woken by committed events (no polling needed), one slow receiver
// never delays another, several instances never send a succeeded delivery twice, and
// stopping gives unfinished deliveries back.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { createContact } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { insertWebhook, type Receiver, startReceiver, waitUntil } from '../../test/receiver.ts';
import { startWorkers } from '../workers.ts';
import { dispatchOnce, startWebhookDispatcher, type WebhookDispatcher } from './webhooks.dispatcher.ts';

describe('the webhook dispatcher', { timeout: 180_000 }, () => {
  let t: TestApp;
  const receivers: Receiver[] = [];
  const running: Array<{ stop(): Promise<void> }> = [];

  before(async () => {
    t = await buildTestApp({ env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  });
  after(async () => {
    await t?.close();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await t.deps.db.updateTable('webhooks').set({ enabled: false }).execute();
  });

  async function receiver(): Promise<Receiver> {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  }

  function dispatcher(deps = t.deps, options: Parameters<typeof startWebhookDispatcher>[1] = {}): WebhookDispatcher {
    const d = startWebhookDispatcher(deps, { pollIntervalMs: 60_000, ...options });
    running.push(d);
    return d;
  }

  it('is started by startWorkers and woken by a committed event at once, without waiting for its poll', async () => {
    const r = await receiver();
    await insertWebhook(t, { url: r.url, events: ['contact.created'] });
    // The next poll is an hour away: only the wake-up (the relay's publication of the event) can deliver it.
    running.push(startWorkers(t.deps, { webhooks: { pollIntervalMs: 3_600_000 } }));
    await createContact(t);
    const [request] = await r.waitFor(1, 60_000);
    assert.ok(request, 'delivered long before the next poll');
  });

  it('keeps delivering to a fast receiver while a slow one holds its own slots', async () => {
    const slow = await receiver();
    const fast = await receiver();
    slow.answer({ delayMs: 3000 });
    let slowMax = 0;
    slow.answer(() => {
      slowMax = Math.max(slowMax, slow.pending() + 1);
      return { delayMs: 3000 };
    });
    await insertWebhook(t, { url: slow.url, events: ['contact.created'] });
    await insertWebhook(t, { url: fast.url, events: ['contact.created'] });
    dispatcher(t.deps, { perWebhook: 4, concurrency: 8, pollIntervalMs: 200 });
    const count = 12;
    const created: number[] = [];
    for (let i = 0; i < count; i++) {
      created.push(performance.now());
      await createContact(t);
    }
    await fast.waitFor(count, 10_000);
    // Every fast delivery arrived while the slow receiver still had its first requests open.
    assert.ok(slow.pending() > 0, 'the slow receiver is still answering');
    assert.ok(slow.requests.length <= 8, `at most two rounds of the slow receiver (${slow.requests.length})`);
    const lags = fast.requests.map((request, i) => request.at - (created[i] ?? 0));
    assert.ok(Math.max(...lags) < 2500, `fast deliveries within 2.5 s (${lags.map((l) => l.toFixed(0)).join(', ')})`);
    assert.ok(slowMax <= 4, `at most 4 requests in flight to one webhook (${slowMax})`);
  });

  it('with two instances, sends each delivery once when the receiver answers 200', async () => {
    const r = await receiver();
    const hook = await insertWebhook(t, { url: r.url, events: ['contact.created'] });
    const second = await t.secondInstance();
    try {
      dispatcher(t.deps, { pollIntervalMs: 50 });
      dispatcher(second.deps, { pollIntervalMs: 50 });
      const count = 40;
      for (let i = 0; i < count; i++) await createContact(t);
      await r.waitFor(count, 20_000);
      // Nothing more comes: every delivery is recorded succeeded, once.
      await waitUntil('every delivery succeeded', async () => {
        const rows = await t.deps.db.selectFrom('webhook_deliveries').select('status').where('webhook_id', '=', hook.id).execute();
        return rows.length === count && rows.every((row) => row.status === 'succeeded');
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const ids = r.requests.map((request) => String(request.headers['webhook-id']));
      assert.equal(ids.length, count);
      assert.equal(new Set(ids).size, count);
      const rows = await t.deps.db
        .selectFrom('webhook_deliveries')
        .select(['attempts', 'locked_by'])
        .where('webhook_id', '=', hook.id)
        .execute();
      assert.ok(rows.every((row) => row.attempts === 1 && row.locked_by === null));
    } finally {
      await Promise.all(running.splice(0).map((d) => d.stop()));
      await second.close();
    }
  });

  it('gives unfinished deliveries back when it stops, and another dispatcher sends them', async () => {
    const r = await receiver();
    r.answer({ hang: true });
    const hook = await insertWebhook(t, { url: r.url, events: ['contact.created'] });
    const d = dispatcher(t.deps, { stopTimeoutMs: 100, pollIntervalMs: 50 });
    await createContact(t);
    await r.waitFor(1);
    const leased = await t.deps.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook.id).executeTakeFirstOrThrow();
    assert.ok(leased.locked_by !== null && leased.attempts === 1, 'claimed while the request runs');
    await d.stop();
    const released = await t.deps.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', hook.id)
      .executeTakeFirstOrThrow();
    assert.equal(released.locked_by, null);
    assert.equal(released.attempts, 0, 'the unfinished attempt is not counted');
    assert.equal(released.status, 'pending');
    const log = await t.deps.db.selectFrom('webhook_attempts').select('id').where('delivery_id', '=', released.id).execute();
    assert.equal(log.length, 0);
    r.answer({});
    const [result] = await dispatchOnce(t.deps);
    assert.equal(result?.record.outcome, 'succeeded');
    assert.equal(r.requests.length, 2, 'sent again: delivery is at least once until a success is recorded');
    assert.equal(r.requests[0]?.headers['webhook-id'], r.requests[1]?.headers['webhook-id']);
  });
});
