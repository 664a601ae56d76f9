// Webhook test helpers: a webhook through the API, the stored row, and delivery-log rows written
// directly, the way the delivery engine writes them, for the tests of the read side.
import type { Insertable, Selectable } from 'kysely';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../src/db/types.ts';
import type { CreateWebhookBody, WebhookRecord } from '../src/webhooks/webhooks.schema.ts';
import { dataOf, type TestApp } from './helpers.ts';
import { uniqueNumber } from './factories.ts';

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
