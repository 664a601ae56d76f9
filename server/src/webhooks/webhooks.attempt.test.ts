// One attempt and its consequences, driven step by step with dispatchOnce and a fake clock:
// signatures any Standard Webhooks library verifies, the body frozen at the first attempt, the
// headers, the retry schedule, dead after 8 attempts, a webhook failing for a day disabled with
// an event, refused addresses, timeouts, redirects, and nothing secret in the log.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { createContact, createConversation } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { insertWebhook, type Receiver } from '../../test/receiver.ts';
import { closeWebhookApp, resetWebhookApp, startWebhookApp } from '../../test/webhooks.ts';
import { FAILING_LIMIT_MS, RETRY_JITTER, RETRY_SCHEDULE_MS, retryDelayMs } from './webhooks.attempt.ts';
import { dispatchOnce } from './webhooks.dispatcher.ts';
import { USER_AGENT } from './webhooks.signing.ts';

const HOUR = 3600_000;

describe('the retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after failures 1 to 7, each within ±20 %', () => {
    assert.deepEqual(RETRY_SCHEDULE_MS, [5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    RETRY_SCHEDULE_MS.forEach((base, i) => {
      assert.equal(
        retryDelayMs(i + 1, () => 0),
        Math.round(base * (1 - RETRY_JITTER)),
      );
      assert.equal(
        retryDelayMs(i + 1, () => 0.5),
        base,
      );
      assert.equal(
        retryDelayMs(i + 1, () => 0.999999),
        Math.round(base * (1 + RETRY_JITTER * 0.999998)),
      );
    });
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs(3);
      assert.ok(delay >= 0.8 * 1_800_000 && delay <= 1.2 * 1_800_000, `${delay}`);
    }
    // Past the schedule (a retried dead delivery), the last wait again.
    assert.equal(
      retryDelayMs(12, () => 0.5),
      10 * HOUR,
    );
    // 8 attempts spread over about a day, whatever the jitter.
    const total = RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    assert.ok(total * 0.8 > 22 * HOUR && total * 1.2 < 34 * HOUR, `${total / HOUR} h`);
  });
});

describe('webhook attempts', { timeout: 180_000 }, () => {
  // Ahead of the real time by two minutes: the fake clock is "now" for the database queries
  // (the later of the two), and still within a receiver's five-minute signature tolerance.
  const clock = fakeClock(new Date(Date.now() + 120_000));
  let t: TestApp;
  let receiver: Receiver;

  before(async () => {
    ({ t, receiver } = await startWebhookApp(clock));
  });
  after(() => closeWebhookApp(t, receiver));
  afterEach(() => resetWebhookApp(t, receiver));

  const deliveries = (webhookId: number) =>
    t.deps.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('id').execute();
  const attempts = (deliveryId: number) =>
    t.deps.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
  const webhook = (id: number) => t.deps.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const headersOf = (i: number) => receiver.requests[i]?.headers as Record<string, string>;

  it('signs each request so that a Standard Webhooks library verifies it, with the body {type, timestamp, data} and its headers', async () => {
    const hook = await insertWebhook(t, { url: receiver.url, events: ['contact.created'] });
    const contact = await createContact(t, { first_name: 'Ada' });
    const [result] = await dispatchOnce(t.deps);
    assert.equal(result?.record.outcome, 'succeeded');
    const [request] = await receiver.waitFor(1);
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/hook');
    const verified = new Webhook(hook.secret).verify(request.body, headersOf(0));
    const body = JSON.parse(request.body) as { type: string; timestamp: string; data: { id: number; first_name: string } };
    assert.deepEqual(verified, body);
    assert.deepEqual(Object.keys(body), ['type', 'timestamp', 'data']);
    assert.equal(body.type, 'contact.created');
    assert.equal(body.data.id, contact.id);
    assert.equal(body.data.first_name, 'Ada');
    const event = await t.deps.db
      .selectFrom('domain_events')
      .select('created_at')
      .where('type', '=', 'contact.created')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(body.timestamp, event.created_at.toISOString(), "the event's own time");
    const [delivery] = await deliveries(hook.id);
    assert.ok(delivery);
    const headers = headersOf(0);
    assert.equal(headers['webhook-id'], `msg_${delivery.uuid}`);
    assert.equal(headers['webhook-timestamp'], String(Math.floor(clock.now().getTime() / 1000)));
    assert.match(headers['webhook-signature'] ?? '', /^v1,[A-Za-z0-9+/]+=*$/);
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['user-agent'], USER_AGENT);
    assert.match(USER_AGENT, /^Parley-Webhooks\/\d+\.\d+\.\d+/);
    // A wrong secret does not verify.
    assert.throws(() => new Webhook(`whsec_${Buffer.from('another secret, 24 bytes!').toString('base64')}`).verify(request.body, headers));
    assert.equal(delivery.status, 'succeeded');
    assert.equal(delivery.body, request.body, 'the body stored is the body sent');
    assert.equal(delivery.last_status_code, 200);
    assert.equal((await attempts(delivery.id)).length, 1);
  });

  it("sends the webhook's custom headers, never in place of Parley's own", async () => {
    const hook = await insertWebhook(t, {
      url: receiver.url,
      events: ['contact.created'],
      headers: {
        'X-Api-Key': 'abc123',
        'Content-Type': 'text/plain',
        'Webhook-Id': 'forged',
        'user-agent': 'curl',
        'webhook-signature': 'v1,x',
      },
    });
    await createContact(t);
    await dispatchOnce(t.deps);
    await receiver.waitFor(1);
    const headers = headersOf(0);
    assert.equal(headers['x-api-key'], 'abc123');
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(headers['user-agent'], USER_AGENT);
    assert.match(headers['webhook-id'] ?? '', /^msg_[0-9a-f-]{36}$/);
    new Webhook(hook.secret).verify(receiver.requests[0]?.body ?? '', headers);
  });

  it('retries on the schedule with the same webhook-id and body, a new timestamp and signature each time; dead after 8 attempts', async () => {
    receiver.answer({ status: 500, body: 'down for maintenance' });
    const hook = await insertWebhook(t, { url: receiver.url, events: ['conversation.created'] });
    const conversation = await createConversation(t);
    const half = () => 0.5;
    const started = clock.now().getTime();
    for (let attempt = 1; attempt <= 8; attempt++) {
      const results = await dispatchOnce(t.deps, { random: half });
      assert.equal(results.length, 1, `attempt ${attempt} is due`);
      assert.equal(results[0]?.record.outcome, 'failed');
      const [delivery] = await deliveries(hook.id);
      assert.ok(delivery);
      assert.equal(delivery.attempts, attempt);
      assert.equal(delivery.last_status_code, 500);
      assert.equal(delivery.last_error, 'the receiver answered 500');
      if (attempt < 8) {
        assert.equal(delivery.status, 'failed');
        const wait = RETRY_SCHEDULE_MS[attempt - 1] ?? 0;
        assert.equal(delivery.next_attempt_at?.getTime(), clock.now().getTime() + wait, `the wait after failure ${attempt}`);
        assert.deepEqual(await dispatchOnce(t.deps), [], 'not due before its time');
        clock.advance(wait);
        // The conversation changes between attempts: the frozen body does not.
        if (attempt === 1) {
          dataOf(
            await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/priority`, payload: { priority: 'High' } }),
          );
        }
      } else {
        assert.equal(delivery.status, 'dead');
        assert.equal(delivery.next_attempt_at, null);
      }
    }
    assert.equal(receiver.requests.length, 8);
    const ids = new Set(receiver.requests.map((r) => r.headers['webhook-id']));
    const bodies = new Set(receiver.requests.map((r) => r.body));
    const stamps = new Set(receiver.requests.map((r) => r.headers['webhook-timestamp']));
    const signatures = new Set(receiver.requests.map((r) => r.headers['webhook-signature']));
    assert.equal(ids.size, 1);
    assert.equal(bodies.size, 1);
    assert.equal(stamps.size, 8);
    assert.equal(signatures.size, 8);
    assert.equal(
      (JSON.parse([...bodies][0] ?? '{}') as { data: { conversation: { priority: unknown } } }).data.conversation.priority,
      null,
    );
    // Every signature is right for its own timestamp (the later ones are past a receiver's tolerance).
    const signer = new Webhook(hook.secret);
    for (const request of receiver.requests) {
      const at = new Date(Number(request.headers['webhook-timestamp']) * 1000);
      assert.equal(request.headers['webhook-signature'], signer.sign(String(request.headers['webhook-id']), at, request.body));
    }
    const [delivery] = await deliveries(hook.id);
    const log = await attempts(delivery?.id ?? 0);
    assert.deepEqual(
      log.map((a) => [a.attempt, a.outcome, a.status_code, a.manual, a.response_snippet]),
      Array.from({ length: 8 }, (_, i) => [i + 1, 'failed', 500, false, 'down for maintenance']),
    );
    // 27 h 35 min of failures: the webhook was disabled on the way.
    assert.ok(clock.now().getTime() - started > FAILING_LIMIT_MS);
    assert.equal((await webhook(hook.id)).enabled, false);
  });

  it('disables a webhook that failed for a day (an event says why, its waiting deliveries die); a success clears failing_since', async () => {
    const hook = await insertWebhook(t, { url: receiver.url, events: ['contact.created'] });
    receiver.answer({ status: 503 });
    await createContact(t);
    await dispatchOnce(t.deps);
    const since = (await webhook(hook.id)).failing_since;
    assert.equal(since?.getTime(), clock.now().getTime(), 'set by the first failure');
    // A success clears it.
    clock.advance(6 * HOUR);
    receiver.answer({});
    assert.equal((await dispatchOnce(t.deps))[0]?.record.outcome, 'succeeded');
    assert.equal((await webhook(hook.id)).failing_since, null);
    // Failing again: counted from the new first failure.
    receiver.answer({ status: 503 });
    await createContact(t);
    await dispatchOnce(t.deps);
    const restarted = (await webhook(hook.id)).failing_since;
    assert.equal(restarted?.getTime(), clock.now().getTime());
    clock.advance(FAILING_LIMIT_MS - 60_000);
    await createContact(t);
    const beforeLimit = await dispatchOnce(t.deps);
    assert.equal(beforeLimit.length, 2, 'the retry and the new delivery');
    assert.ok(beforeLimit.every((r) => r.record.outcome === 'failed' && !r.disabledWebhook));
    assert.equal((await webhook(hook.id)).enabled, true, 'not a whole day yet');
    clock.advance(2 * 60_000);
    await createContact(t);
    const eventsBefore = await t.deps.db.selectFrom('domain_events').select('id').where('type', '=', 'webhook.disabled').execute();
    const results = await dispatchOnce(t.deps);
    assert.ok(results.some((r) => r.disabledWebhook));
    const row = await webhook(hook.id);
    assert.equal(row.enabled, false);
    assert.match(row.disabled_reason ?? '', /failing for 24 hours.*last error: the receiver answered 503/);
    const events = await t.deps.db
      .selectFrom('domain_events')
      .select(['type', 'payload'])
      .where('type', '=', 'webhook.disabled')
      .orderBy('id')
      .execute();
    assert.equal(events.length, eventsBefore.length + 1);
    assert.deepEqual(events.at(-1)?.payload, { webhook_id: hook.id, reason: row.disabled_reason });
    // What was still waiting is dead, with the reason; nothing of it is claimed any more.
    const rows = await deliveries(hook.id);
    assert.ok(rows.every((d) => d.status === 'succeeded' || d.status === 'dead' || d.status === 'failed'));
    const waiting = rows.filter((d) => d.status === 'pending' || d.status === 'failed');
    assert.deepEqual(waiting, [], 'no delivery left waiting');
    const dead = rows.filter((d) => d.status === 'dead');
    assert.ok(dead.length >= 2, 'the delivery failing then, and the one waiting for its retry');
    // The one waiting says why; one whose attempt was running keeps its own error.
    assert.ok(dead.some((d) => d.last_error === row.disabled_reason));
    assert.ok(dead.every((d) => d.last_error === row.disabled_reason || d.last_error === 'the receiver answered 503'));
    // A disabled webhook gets no new deliveries.
    await createContact(t);
    assert.equal((await deliveries(hook.id)).length, rows.length);
  });

  it('refuses a loopback address without the allow-list: refused, never retried, the receiver gets nothing', async () => {
    const guarded = await buildTestApp({ clock });
    try {
      const hook = await insertWebhook(guarded, { url: `http://127.0.0.1:${receiver.port}/hook`, events: ['contact.created'] });
      dataOf(await guarded.call({ method: 'POST', url: '/api/v1/contacts', payload: { first_name: 'Guard', email: 'guard@example.com' } }));
      const [result] = await dispatchOnce(guarded.deps);
      assert.equal(result?.record.outcome, 'refused');
      const delivery = await guarded.deps.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', hook.id)
        .executeTakeFirstOrThrow();
      assert.equal(delivery.status, 'refused');
      assert.equal(delivery.next_attempt_at, null);
      assert.match(delivery.last_error ?? '', /127\.0\.0\.1/);
      assert.equal(delivery.last_status_code, null);
      const log = await guarded.deps.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', delivery.id).execute();
      assert.deepEqual(
        log.map((a) => a.outcome),
        ['refused'],
      );
      clock.advance(HOUR);
      assert.deepEqual(await dispatchOnce(guarded.deps), [], 'not retried');
      assert.equal(receiver.requests.length, 0);
    } finally {
      await guarded.close();
    }
  });

  it('gives up on a receiver that does not answer within the timeout, and retries later', async () => {
    receiver.answer({ hang: true });
    const hook = await insertWebhook(t, { url: receiver.url, events: ['contact.created'] });
    await createContact(t);
    const started = performance.now();
    const [result] = await dispatchOnce(t.deps, { timeoutMs: 300 });
    const elapsed = performance.now() - started;
    assert.equal(result?.record.outcome, 'failed');
    assert.ok(elapsed >= 290 && elapsed < 5000, `${elapsed} ms`);
    const [delivery] = await deliveries(hook.id);
    assert.equal(delivery?.status, 'failed');
    assert.match(delivery?.last_error ?? '', /no answer within 300 ms/);
    assert.equal(delivery?.last_status_code, null);
    assert.ok((delivery?.last_latency_ms ?? 0) >= 290);
    assert.equal(receiver.requests.length, 1);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    receiver.answer({ status: 302, headers: { location: `${receiver.url}/elsewhere` } });
    const hook = await insertWebhook(t, { url: receiver.url, events: ['contact.created'] });
    await createContact(t);
    await dispatchOnce(t.deps);
    const [delivery] = await deliveries(hook.id);
    assert.equal(delivery?.status, 'failed');
    assert.equal(delivery?.last_status_code, 302);
    assert.equal(delivery?.last_error, 'the receiver answered 302 (redirects are not followed)');
    assert.equal(receiver.requests.length, 1, 'the location was not requested');
  });

  it('keeps the secret and the signature out of the log, even when the receiver echoes them', async () => {
    const hook = await insertWebhook(t, { url: receiver.url, events: ['contact.created'] });
    receiver.answer((request) => ({
      status: 400,
      body: `bad: ${String(request.headers['webhook-signature'])} ${hook.secret} ${hook.secret.slice('whsec_'.length)}`,
    }));
    await createContact(t);
    await dispatchOnce(t.deps);
    const [delivery] = await deliveries(hook.id);
    const [attempt] = await attempts(delivery?.id ?? 0);
    const signature = String(receiver.requests[0]?.headers['webhook-signature']).slice(3);
    const stored = JSON.stringify({ delivery, attempt });
    assert.ok(!stored.includes(signature), 'no signature');
    assert.ok(!stored.includes(hook.secret.slice('whsec_'.length)), 'no secret');
    assert.match(attempt?.response_snippet ?? '', /^bad: v1,\[redacted\] \[redacted\] \[redacted\]$/);
  });

  it("sends a deleted conversation's event with its payload alone, and a delivery whose event was pruned with its own time", async () => {
    const hook = await insertWebhook(t, { url: receiver.url, events: ['conversation.created'] });
    const conversation = await createConversation(t);
    await sql`delete from domain_events where type = 'conversation.created'`.execute(t.deps.db);
    await sql`delete from conversations where id = ${conversation.id}`.execute(t.deps.db);
    await dispatchOnce(t.deps);
    const [request] = await receiver.waitFor(1);
    const body = JSON.parse(request?.body ?? '{}') as { timestamp: string; data: Record<string, unknown> };
    assert.equal(body.data['conversation_id'], conversation.id);
    assert.equal('conversation' in body.data, false);
    const [delivery] = await deliveries(hook.id);
    assert.equal(body.timestamp, delivery?.created_at.toISOString());
  });
});
