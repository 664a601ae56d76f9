// Webhook test helpers: a webhook through the API, the stored row, and delivery-log rows written
// directly, the way the delivery engine writes them, for the tests of the read side; and a test
// app that sends to a receiver on loopback, for the tests of the delivery.
import type { Insertable, Selectable } from 'kysely';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../src/db/types.ts';
import type { CreateWebhookBody, WebhookRecord } from '../src/webhooks/webhooks.schema.ts';
import type { Clock } from '../src/deps.ts';
import { buildTestApp, dataOf, type TestApp } from './helpers.ts';
import { uniqueNumber } from './factories.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/**
 * A webhook created by the test app's admin: a unique name, an address nothing listens on
 * (RFC 2606 example.com), subscribed to `conversation.created` unless overridden. The answer
 * carries the generated secret in clear when no `secret` was given.
 */
export async function createWebhook(t: TestApp, overrides: Partial<CreateWebhookBody> = {}): Promise<WebhookRecord> {
  const n = uniqueNumber();
  const payload = { name: `Webhook ${n}`, url: `https://hooks.example.com/${n}`, events: ['conversation.created'], ...overrides };
  return dataOf<WebhookRecord>(await t.call({ method: 'POST', url: '/api/v1/webhooks', payload }));
}

/** The stored row, secret column included (encrypted). */
export async function webhookRow(t: TestApp, id: number): Promise<Selectable<WebhooksTable> | undefined> {
  return t.deps.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every stored webhook row, by id: for "changes nothing" checks. */
export async function webhookRows(t: TestApp): Promise<Array<Selectable<WebhooksTable>>> {
  return t.deps.db.selectFrom('webhooks').selectAll().orderBy('id').execute();
}

/** The delivery rows of a webhook, oldest first. */
export async function deliveryRows(t: TestApp, webhookId: number): Promise<Array<Selectable<WebhookDeliveriesTable>>> {
  return t.deps.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('id').execute();
}

/** A delivery row written directly (as the trigger or the engine would), pending by default. */
export async function insertDelivery(
  t: TestApp,
  webhookId: number,
  overrides: Partial<Insertable<WebhookDeliveriesTable>> = {},
): Promise<Selectable<WebhookDeliveriesTable>> {
  return t.deps.db
    .insertInto('webhook_deliveries')
    .values({
      webhook_id: webhookId,
      event_id: null,
      event_type: 'conversation.created',
      event_payload: JSON.stringify({ conversation_id: uniqueNumber() }),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An attempt of a delivery, a failed one by default. */
export async function insertAttempt(
  t: TestApp,
  deliveryId: number,
  overrides: Partial<Insertable<WebhookAttemptsTable>> & { attempt: number },
): Promise<void> {
  await t.deps.db
    .insertInto('webhook_attempts')
    .values({
      delivery_id: deliveryId,
      outcome: 'failed',
      status_code: 500,
      latency_ms: 12,
      error: 'HTTP 500',
      response_snippet: 'Internal Server Error',
      started_at: new Date(),
      ...overrides,
    })
    .execute();
}

/**
 * A test app allowed to send webhooks to 127.0.0.1 (more settings in `env`), on `clock`, and a
 * receiver there. Close both with closeWebhookApp; resetWebhookApp between tests.
 */
export async function startWebhookApp(clock: Clock, env: Record<string, string> = {}): Promise<{ t: TestApp; receiver: Receiver }> {
  const t = await buildTestApp({ clock, env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', ...env } });
  try {
    return { t, receiver: await startReceiver() };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/** Closes what startWebhookApp started (either may be missing when it failed). */
export async function closeWebhookApp(t: TestApp | undefined, receiver: Receiver | undefined): Promise<void> {
  await receiver?.close();
  await t?.close();
}

/**
 * Between tests: every webhook disabled, so that whatever a test left due is never claimed by
 * the next one; the receiver's requests forgotten and its answer back to 200.
 */
export async function resetWebhookApp(t: TestApp, receiver: Receiver): Promise<void> {
  await t.deps.db.updateTable('webhooks').set({ enabled: false }).execute();
  receiver.requests.length = 0;
  receiver.answer({});
}
