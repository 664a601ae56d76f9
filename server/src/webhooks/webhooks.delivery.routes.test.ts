// POST /webhooks/{id}/test and POST …/deliveries/{delivery_id}/retry: a manual attempt within
// the request, answered with the delivery; never a second send after a success, never while the
// delivery is being sent; 404 for what is unknown or another webhook's; 401 and 403.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createContact } from '../../test/factories.ts';
import { assertError, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { newWebhookSecret, type Receiver } from '../../test/receiver.ts';
import { closeWebhookApp, createWebhook, resetWebhookApp, startWebhookApp } from '../../test/webhooks.ts';
import { dispatchOnce } from './webhooks.dispatcher.ts';
import type { WebhookDeliveryDetail } from './webhooks.schema.ts';

describe('webhook test and retry routes', { timeout: 120_000 }, () => {
  const clock = fakeClock(new Date(Date.now() + 60_000));
  let t: TestApp;
  let receiver: Receiver;
  let agent: Caller;

  before(async () => {
    ({ t, receiver } = await startWebhookApp(clock, { WEBHOOK_TIMEOUT_SECONDS: '1' }));
    agent = await t.makeAgent({ roles: ['Agent'] });
  });
  after(() => closeWebhookApp(t, receiver));
  afterEach(() => resetWebhookApp(t, receiver));

  const post = (url: string, as?: Caller | null) => t.call({ method: 'POST', url: `/api/v1${url}`, ...(as !== undefined ? { as } : {}) });
  const deliveryCount = async () => (await t.deps.db.selectFrom('webhook_deliveries').select('id').execute()).length;
  const attemptCount = async () => (await t.deps.db.selectFrom('webhook_attempts').select('id').execute()).length;

  it('test: sends a signed webhook.test now and answers the delivery with its attempt', async () => {
    const secret = newWebhookSecret();
    const hook = await createWebhook(t, { name: 'CRM', url: receiver.url, events: ['contact.created'], secret });
    const delivery = dataOf<WebhookDeliveryDetail>(await post(`/webhooks/${hook.id}/test`));
    assert.equal(delivery.webhook_id, hook.id);
    assert.equal(delivery.event_type, 'webhook.test');
    assert.equal(delivery.event_id, null);
    assert.equal(delivery.status, 'succeeded');
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.last_status_code, 200);
    assert.equal(delivery.attempts_log.length, 1);
    assert.equal(delivery.attempts_log[0]?.manual, true);
    assert.equal(delivery.attempts_log[0]?.outcome, 'succeeded');
    const [request] = receiver.requests;
    assert.ok(request);
    assert.equal(request.headers['webhook-id'], `msg_${delivery.uuid}`);
    const body = new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    assert.deepEqual(body, {
      type: 'webhook.test',
      timestamp: JSON.parse(request.body).timestamp,
      data: { webhook_id: hook.id, name: 'CRM' },
    });
    assert.equal(delivery.request_body, request.body);
    // The dispatcher never sends it again.
    assert.deepEqual(await dispatchOnce(t.deps), []);
    assert.equal(receiver.requests.length, 1);
  });

  it('test: works for a disabled webhook; a failed test is dead at once and never sent again', async () => {
    const hook = await createWebhook(t, { url: receiver.url, events: ['contact.created'], enabled: false });
    receiver.answer({ status: 500, body: 'boom' });
    const delivery = dataOf<WebhookDeliveryDetail>(await post(`/webhooks/${hook.id}/test`));
    assert.equal(delivery.status, 'dead');
    assert.equal(delivery.last_status_code, 500);
    assert.equal(delivery.last_error, 'the receiver answered 500');
    assert.equal(delivery.next_attempt_at, null);
    assert.equal(delivery.attempts_log[0]?.response_snippet, 'boom');
    clock.advance(3600_000);
    assert.deepEqual(await dispatchOnce(t.deps), []);
    assert.equal(receiver.requests.length, 1);
  });

  it('retry: one more attempt of a dead delivery, then 409 once it succeeded', async () => {
    const hook = await createWebhook(t, { url: receiver.url, events: ['contact.created'] });
    receiver.answer({ status: 503 });
    await createContact(t);
    await dispatchOnce(t.deps);
    await t.deps.db
      .updateTable('webhook_deliveries')
      .set({ status: 'dead', next_attempt_at: null })
      .where('webhook_id', '=', hook.id)
      .execute();
    const [row] = await t.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute();
    assert.ok(row);
    // Fails again: dead again, with one attempt more.
    let delivery = dataOf<WebhookDeliveryDetail>(await post(`/webhooks/${hook.id}/deliveries/${row.id}/retry`));
    assert.equal(delivery.status, 'dead');
    assert.equal(delivery.attempts, 2);
    assert.deepEqual(
      delivery.attempts_log.map((a) => [a.attempt, a.manual, a.outcome]),
      [
        [1, false, 'failed'],
        [2, true, 'failed'],
      ],
    );
    receiver.answer({});
    delivery = dataOf<WebhookDeliveryDetail>(await post(`/webhooks/${hook.id}/deliveries/${row.id}/retry`));
    assert.equal(delivery.status, 'succeeded');
    assert.equal(delivery.attempts, 3);
    assert.equal(delivery.last_status_code, 200);
    assert.equal(receiver.requests.length, 3);
    assert.equal(new Set(receiver.requests.map((r) => r.body)).size, 1, 'the same body every time');
    const before = await attemptCount();
    assertError(await post(`/webhooks/${hook.id}/deliveries/${row.id}/retry`), 409, 'ConflictException');
    assert.equal(receiver.requests.length, 3, 'never sent after its success');
    assert.equal(await attemptCount(), before);
  });

  it('retry: a failed delivery goes on with its schedule when the manual attempt fails too', async () => {
    const hook = await createWebhook(t, { url: receiver.url, events: ['contact.created'] });
    receiver.answer({ status: 500 });
    await createContact(t);
    await dispatchOnce(t.deps);
    const [row] = await t.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute();
    const delivery = dataOf<WebhookDeliveryDetail>(await post(`/webhooks/${hook.id}/deliveries/${row?.id}/retry`));
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attempts, 2);
    assert.ok(delivery.next_attempt_at !== null, 'the next scheduled attempt');
  });

  it('retry: a refused delivery gets one more attempt', async () => {
    const hook = await createWebhook(t, { url: receiver.url, events: ['contact.created'] });
    await createContact(t);
    await dispatchOnce(t.deps);
    const [row] = await t.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute();
    await t.deps.db.updateTable('webhook_deliveries').set({ status: 'refused' }).where('webhook_id', '=', hook.id).execute();
    const delivery = dataOf<WebhookDeliveryDetail>(await post(`/webhooks/${hook.id}/deliveries/${row?.id}/retry`));
    assert.equal(delivery.attempts, 2);
    assert.equal(delivery.status, 'succeeded');
  });

  it('retry: 409 while the delivery is being sent', async () => {
    const hook = await createWebhook(t, { url: receiver.url, events: ['contact.created'] });
    receiver.answer({ hang: true });
    await createContact(t);
    const [row] = await t.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute();
    const running = post(`/webhooks/${hook.id}/deliveries/${row?.id}/retry`);
    await receiver.waitFor(1);
    const busy = assertError(await post(`/webhooks/${hook.id}/deliveries/${row?.id}/retry`), 409, 'ConflictException');
    assert.match(busy.message, /being sent/);
    const first = dataOf<WebhookDeliveryDetail>(await running);
    assert.equal(first.status, 'failed');
    assert.match(first.last_error ?? '', /no answer within 1000 ms/);
    assert.equal(receiver.requests.length, 1);
  });

  it('404 for unknown, malformed or foreign ids, changing nothing', async () => {
    const hook = await createWebhook(t, { url: receiver.url, events: ['contact.created'] });
    const other = await createWebhook(t, { url: receiver.url, events: ['contact.created'] });
    await createContact(t);
    const [row] = await t.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute();
    const deliveries = await deliveryCount();
    const attempts = await attemptCount();
    for (const url of [
      '/webhooks/999999/test',
      '/webhooks/0/test',
      '/webhooks/abc/test',
      '/webhooks/1e3/test',
      '/webhooks/99999999999999999999/test',
      `/webhooks/${other.id}/deliveries/${row?.id}/retry`,
      `/webhooks/${hook.id}/deliveries/999999999/retry`,
      `/webhooks/${hook.id}/deliveries/x/retry`,
      `/webhooks/${hook.id}/deliveries/-1/retry`,
      `/webhooks/999999/deliveries/${row?.id}/retry`,
    ]) {
      assertError(await post(url), 404, 'NotFoundException', url);
    }
    assertError(await post(`/webhooks/${hook.id}%00/test`), 400, 'InputException', 'NUL in the path');
    assert.equal(await deliveryCount(), deliveries);
    assert.equal(await attemptCount(), attempts);
    assert.equal(receiver.requests.length, 0);
  });

  it('401 without or with wrong credentials, 403 for an Agent-role caller, changing nothing', async () => {
    const hook = await createWebhook(t, { url: receiver.url, events: ['contact.created'] });
    await createContact(t);
    const [row] = await t.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute();
    const deliveries = await deliveryCount();
    const wrong = { authorization: `Basic ${Buffer.from('nope:nope').toString('base64')}` };
    for (const url of [`/webhooks/${hook.id}/test`, `/webhooks/${hook.id}/deliveries/${row?.id}/retry`]) {
      assertError(await post(url, null), 401, 'UnauthorizedException', url);
      assertError(await t.call({ method: 'POST', url: `/api/v1${url}`, as: null, headers: wrong }), 401, 'UnauthorizedException', url);
      assertError(await post(url, agent), 403, 'PermissionException', url);
    }
    assert.equal(await deliveryCount(), deliveries);
    assert.equal(receiver.requests.length, 0);
  });
});
