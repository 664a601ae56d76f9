// The delivery log's read side (the rows are written here the way the engine writes them), and
// the trigger of migration 0013 that writes a pending delivery in the event's transaction.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createContact } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { createWebhook, deliveryRows, insertAttempt, insertDelivery } from '../../test/webhooks.ts';
import type { WebhookDelivery, WebhookDeliveryDetail, WebhookRecord } from './webhooks.schema.ts';
import { DELIVERY_COUNT_CAP } from './webhooks.service.ts';

const DELIVERY_FIELDS = [
  'attempts',
  'created_at',
  'event_id',
  'event_type',
  'id',
  'last_error',
  'last_latency_ms',
  'last_status_code',
  'next_attempt_at',
  'status',
  'updated_at',
  'uuid',
  'webhook_id',
];
const ATTEMPT_FIELDS = ['attempt', 'error', 'latency_ms', 'manual', 'outcome', 'response_snippet', 'started_at', 'status_code'];

interface Page<T> {
  results: T[];
  total: number;
  per_page: number;
  total_pages: number;
  page: number;
}

const STATUSES = ['pending', 'succeeded', 'failed', 'dead', 'refused'] as const;
const TYPES = ['conversation.created', 'message.created', 'contact.created'] as const;

describe('webhooks: the delivery log', () => {
  let t: TestApp;
  let agent: Caller;
  let hook: WebhookRecord;
  let otherHook: WebhookRecord;
  /** The 35 deliveries of `hook`, oldest first: status STATUSES[i % 5], type TYPES[i % 3]. */
  const ids: number[] = [];
  let otherDeliveryId: number;

  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent({ roles: ['Agent'] });
    hook = await createWebhook(t);
    otherHook = await createWebhook(t);
    for (let i = 0; i < 35; i += 1) {
      const row = await insertDelivery(t, hook.id, {
        status: STATUSES[i % 5],
        event_type: TYPES[i % 3],
        event_id: 1000 + i,
        attempts: i % 4,
      });
      ids.push(row.id);
    }
    otherDeliveryId = (await insertDelivery(t, otherHook.id)).id;
  });
  after(() => t.close());

  const list = async (query = '', id = hook.id) =>
    dataOf<Page<WebhookDelivery>>(await t.call({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries${query}` }));

  it('pages newest first with the paged wrapper; total is true past the last page', async () => {
    const first = await list();
    assert.deepEqual(Object.keys(first).sort(), ['page', 'per_page', 'results', 'total', 'total_pages']);
    assert.equal(first.total, 35);
    assert.equal(first.per_page, 30);
    assert.equal(first.total_pages, 2);
    assert.equal(first.page, 1);
    assert.deepEqual(
      first.results.map((d) => d.id),
      [...ids].reverse().slice(0, 30),
    );
    for (const delivery of first.results) {
      assert.deepEqual(Object.keys(delivery).sort(), DELIVERY_FIELDS);
      assert.equal(delivery.webhook_id, hook.id);
    }
    const newest = first.results[0];
    assert.ok(newest);
    assert.equal(newest.status, STATUSES[34 % 5]);
    assert.equal(newest.event_type, TYPES[34 % 3]);
    assert.equal(newest.event_id, 1034);
    assert.equal(newest.attempts, 34 % 4);
    assert.match(newest.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.match(String(newest.created_at), /^\d{4}-\d\d-\d\dT/);

    const second = await list('?page=2');
    assert.deepEqual(
      second.results.map((d) => d.id),
      [...ids].reverse().slice(30),
    );
    const past = await list('?page=9');
    assert.deepEqual(past.results, []);
    assert.equal(past.total, 35);
    assert.equal(past.page, 9);
  });

  it('clamps page_size into 1..100', async () => {
    const big = await list('?page_size=1000');
    assert.equal(big.per_page, 100);
    assert.equal(big.results.length, 35);
    const small = await list('?page_size=0');
    assert.equal(small.per_page, 1);
    assert.equal(small.total_pages, 35);
    assert.equal(small.results[0]?.id, ids[34]);
  });

  it('filters by status and event type, repeatable and combined', async () => {
    const dead = await list('?status=dead');
    assert.equal(dead.total, 7);
    assert.ok(dead.results.every((d) => d.status === 'dead'));
    const two = await list('?status=dead&status=refused&page_size=100');
    assert.equal(two.total, 14);
    assert.deepEqual(new Set(two.results.map((d) => d.status)), new Set(['dead', 'refused']));
    const contacts = await list('?event_type=contact.created');
    assert.equal(contacts.total, ids.filter((_, i) => TYPES[i % 3] === 'contact.created').length);
    const both = await list('?event_type=contact.created&status=pending&page_size=100');
    const expected = ids.filter((_, i) => TYPES[i % 3] === 'contact.created' && STATUSES[i % 5] === 'pending').reverse();
    assert.deepEqual(
      both.results.map((d) => d.id),
      expected,
    );
    assert.equal(both.total, expected.length);
    const none = await list('?event_type=webhook.test');
    assert.equal(none.total, 0);
  });

  it('shows only the webhook’s own deliveries', async () => {
    const other = await list('', otherHook.id);
    assert.deepEqual(
      other.results.map((d) => d.id),
      [otherDeliveryId],
    );
  });

  it('refuses bad query values with 400 naming them', async () => {
    const cases: Array<[string, string]> = [
      ['?status=lost', 'status'],
      ['?event_type=contact.exploded', 'event_type'],
      ['?page=abc', 'page'],
      ['?page_size=1e2', 'page_size'],
      ['?status=pending%00', 'status'],
      ['?order=asc', 'order'],
    ];
    for (const [query, field] of cases) {
      const res = await t.call({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries${query}` });
      const error = assertError(res, 400, 'InputException', query);
      assert.ok(error.message.includes(field), `${query}: ${error.message}`);
    }
  });

  it('answers one delivery with its request body and attempts, oldest first', async () => {
    const body = JSON.stringify({ type: 'contact.created', timestamp: '2026-01-01T00:00:00Z', data: { id: 1 } });
    const row = await insertDelivery(t, hook.id, {
      status: 'succeeded',
      attempts: 3,
      body,
      last_status_code: 200,
      last_latency_ms: 40,
      next_attempt_at: null,
    });
    const started = new Date('2026-01-01T00:00:00Z');
    await insertAttempt(t, row.id, {
      attempt: 2,
      status_code: null,
      error: 'timeout after 10 s',
      response_snippet: null,
      started_at: new Date(started.getTime() + 60_000),
    });
    await insertAttempt(t, row.id, { attempt: 1, started_at: started });
    await insertAttempt(t, row.id, {
      attempt: 3,
      manual: true,
      outcome: 'succeeded',
      status_code: 200,
      latency_ms: 40,
      error: null,
      response_snippet: 'ok',
      started_at: new Date(started.getTime() + 120_000),
    });
    const detail = dataOf<WebhookDeliveryDetail>(await t.call({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries/${row.id}` }));
    assert.deepEqual(Object.keys(detail).sort(), [...DELIVERY_FIELDS, 'attempts_log', 'request_body'].sort());
    assert.equal(detail.id, row.id);
    assert.equal(detail.uuid, row.uuid);
    assert.equal(detail.status, 'succeeded');
    assert.equal(detail.last_status_code, 200);
    assert.equal(detail.next_attempt_at, null);
    assert.equal(detail.request_body, body);
    assert.deepEqual(
      detail.attempts_log.map((a) => a.attempt),
      [1, 2, 3],
    );
    for (const attempt of detail.attempts_log) assert.deepEqual(Object.keys(attempt).sort(), ATTEMPT_FIELDS);
    assert.deepEqual(detail.attempts_log[0], {
      attempt: 1,
      manual: false,
      outcome: 'failed',
      status_code: 500,
      latency_ms: 12,
      error: 'HTTP 500',
      response_snippet: 'Internal Server Error',
      started_at: started.toISOString(),
    });
    assert.equal(detail.attempts_log[1]?.status_code, null);
    assert.equal(detail.attempts_log[2]?.manual, true);

    // Not yet attempted: no body, no attempts.
    const fresh = dataOf<WebhookDeliveryDetail>(await t.call({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries/${ids[0]}` }));
    assert.equal(fresh.request_body, null);
    assert.deepEqual(fresh.attempts_log, []);
  });

  it('answers 404 for a delivery of another webhook, an unknown one and a malformed id', async () => {
    const urls = [
      `/api/v1/webhooks/${hook.id}/deliveries/${otherDeliveryId}`,
      `/api/v1/webhooks/${otherHook.id}/deliveries/${ids[0]}`,
      `/api/v1/webhooks/${hook.id}/deliveries/${Number.MAX_SAFE_INTEGER}`,
      `/api/v1/webhooks/${hook.id}/deliveries/0`,
      `/api/v1/webhooks/${hook.id}/deliveries/abc`,
      `/api/v1/webhooks/${hook.id}/deliveries/${'9'.repeat(20)}`,
      `/api/v1/webhooks/2147483647/deliveries/${ids[0]}`,
    ];
    for (const url of urls) assertError(await t.call({ method: 'GET', url }), 404, 'NotFoundException', url);
  });

  it('is for webhooks:manage only', async () => {
    const urls = [`/api/v1/webhooks/${hook.id}/deliveries`, `/api/v1/webhooks/${hook.id}/deliveries/${ids[0]}`];
    for (const url of urls) {
      assertError(await t.call({ method: 'GET', url, as: agent }), 403, 'PermissionException', url);
      assertError(await t.call({ method: 'GET', url, as: null }), 401, 'UnauthorizedException', url);
    }
  });

  it(`counts at most ${DELIVERY_COUNT_CAP} deliveries`, async () => {
    const busy = await createWebhook(t);
    await sql`insert into webhook_deliveries (webhook_id, event_type, event_payload)
      select ${busy.id}, 'contact.created', '{}'::jsonb from generate_series(1, ${DELIVERY_COUNT_CAP + 5})`.execute(t.deps.db);
    const page = await list('?page_size=100', busy.id);
    assert.equal(page.total, DELIVERY_COUNT_CAP);
    assert.equal(page.total_pages, DELIVERY_COUNT_CAP / 100);
    assert.equal(page.results.length, 100);
    // Past the counted pages, deliveries still answer.
    assert.equal((await list(`?page_size=100&page=${DELIVERY_COUNT_CAP / 100 + 1}`, busy.id)).results.length, 5);
  });

  it('deleting the webhook deletes its deliveries and their attempts', async () => {
    const doomed = await createWebhook(t);
    const delivery = await insertDelivery(t, doomed.id);
    await insertAttempt(t, delivery.id, { attempt: 1 });
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/webhooks/${doomed.id}` }));
    assert.deepEqual(await deliveryRows(t, doomed.id), []);
    const attempts = await t.deps.db.selectFrom('webhook_attempts').where('delivery_id', '=', delivery.id).select('id').execute();
    assert.deepEqual(attempts, []);
  });
});

describe('webhooks: the trigger writes a pending delivery with the event', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('for every enabled webhook subscribed to the event, and no other', async () => {
    const subscribed = await createWebhook(t, { events: ['conversation.created', 'contact.created'] });
    const disabled = await createWebhook(t, { events: ['contact.created'], enabled: false });
    const elsewhere = await createWebhook(t, { events: ['message.created'] });

    const contact = await createContact(t);
    const event = await t.deps.db
      .selectFrom('domain_events')
      .where('type', '=', 'contact.created')
      .select(['id', 'payload'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

    const rows = await deliveryRows(t, subscribed.id);
    assert.equal(rows.length, 1);
    const [row] = rows;
    assert.ok(row);
    assert.equal(row.status, 'pending');
    assert.equal(row.event_type, 'contact.created');
    assert.equal(row.event_id, event.id);
    assert.deepEqual(row.event_payload, event.payload);
    assert.equal((row.event_payload as { id?: number }).id, contact.id);
    assert.equal(row.attempts, 0);
    assert.equal(row.body, null);
    assert.deepEqual(await deliveryRows(t, disabled.id), []);
    assert.deepEqual(await deliveryRows(t, elsewhere.id), []);

    // And the log shows it.
    const page = dataOf<Page<WebhookDelivery>>(await t.call({ method: 'GET', url: `/api/v1/webhooks/${subscribed.id}/deliveries` }));
    assert.equal(page.total, 1);
    assert.equal(page.results[0]?.event_id, event.id);
    assert.equal(page.results[0]?.status, 'pending');

    // A webhook disabled after subscribing gets nothing more; enabled again, it does.
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/webhooks/${subscribed.id}/toggle`, payload: { enabled: false } }));
    await createContact(t);
    assert.equal((await deliveryRows(t, subscribed.id)).length, 1);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/webhooks/${subscribed.id}/toggle`, payload: { enabled: true } }));
    await createContact(t);
    assert.equal((await deliveryRows(t, subscribed.id)).length, 2);
  });
});
