// Every SQL statement of webhook records and of the delivery log's read side. The delivery
// engine's statements (claims, attempts, purge) are in webhooks.dispatch.queries.ts.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { WebhookDeliveryStatus } from '../db/types.ts';
import { ATTEMPT_COLUMNS, DELIVERY_COLUMNS } from './webhooks.schema.ts';

/** Every column but the encrypted secret: a record never needs it (it is masked). */
const RECORD_COLUMNS = [
  'id',
  'created_at',
  'updated_at',
  'name',
  'url',
  'enabled',
  'events',
  'headers',
  'failing_since',
  'disabled_reason',
] as const;

export interface WebhookValues {
  name?: string;
  url?: string;
  enabled?: boolean;
  events?: string[];
  headers?: Record<string, string>;
  /** Encrypted. */
  secret?: string;
  failing_since?: null;
  disabled_reason?: null;
}

export async function listWebhooks(db: DB, limit: number) {
  return db.selectFrom('webhooks').select(RECORD_COLUMNS).orderBy(sql`lower(name)`).orderBy('id').limit(limit).execute();
}

export async function listWebhooksCompact(db: DB, limit: number) {
  return db.selectFrom('webhooks').select(['id', 'name']).orderBy(sql`lower(name)`).orderBy('id').limit(limit).execute();
}

export async function countWebhooks(db: DB): Promise<number> {
  const row = await db.selectFrom('webhooks').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return row.n;
}

export async function findWebhook(db: DB, id: number) {
  return db.selectFrom('webhooks').where('id', '=', id).select(RECORD_COLUMNS).executeTakeFirst();
}

/** The row, locked until the transaction ends, so that two changes of one webhook do not interleave. */
export async function findWebhookForUpdate(db: DB, id: number) {
  return db.selectFrom('webhooks').where('id', '=', id).select(RECORD_COLUMNS).forUpdate().executeTakeFirst();
}

/** Names are matched case-insensitively (the unique index on lower(name)). */
export async function findWebhookByName(db: DB, name: string) {
  return db.selectFrom('webhooks').where(sql`lower(name)`, '=', name.toLowerCase()).select(['id', 'name']).executeTakeFirst();
}

export async function insertWebhook(
  db: DB,
  values: Required<Pick<WebhookValues, 'name' | 'url' | 'enabled' | 'events' | 'headers' | 'secret'>> & { created_at: Date },
) {
  const { headers, created_at, ...rest } = values;
  return db
    .insertInto('webhooks')
    .values({ ...rest, headers: JSON.stringify(headers), created_at, updated_at: created_at })
    .returning(RECORD_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function updateWebhook(db: DB, id: number, values: WebhookValues & { updated_at: Date }) {
  const { headers, ...rest } = values;
  return db
    .updateTable('webhooks')
    .set({ ...rest, ...(headers !== undefined ? { headers: JSON.stringify(headers) } : {}) })
    .where('id', '=', id)
    .returning(RECORD_COLUMNS)
    .executeTakeFirst();
}

/** Deletes the webhook; its deliveries and their attempts go with it (on delete cascade). */
export async function deleteWebhook(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function webhookExists(db: DB, id: number): Promise<boolean> {
  return (await db.selectFrom('webhooks').where('id', '=', id).select('id').executeTakeFirst()) !== undefined;
}

// ---------------------------------------------------------------- the delivery log

export interface DeliveryFilter {
  webhookId: number;
  statuses?: readonly WebhookDeliveryStatus[];
  eventTypes?: readonly string[];
}

function filteredDeliveries(db: DB, filter: DeliveryFilter) {
  let query = db.selectFrom('webhook_deliveries').where('webhook_id', '=', filter.webhookId);
  // `= any(array)`: one statement text whatever the number of values (prepared statements).
  if (filter.statuses?.length) query = query.where('status', '=', sql<WebhookDeliveryStatus>`any(${filter.statuses}::text[])`);
  if (filter.eventTypes?.length) query = query.where('event_type', '=', sql<string>`any(${filter.eventTypes}::text[])`);
  return query;
}

/** One page, newest first (index webhook_deliveries_webhook_idx on (webhook_id, id desc)). */
export async function listDeliveries(db: DB, filter: DeliveryFilter, page: { limit: number; offset: number }) {
  return filteredDeliveries(db, filter).select(DELIVERY_COLUMNS).orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

/** How many deliveries match, counting at most `cap` of them (the count stays cheap on a long log). */
export async function countDeliveries(db: DB, filter: DeliveryFilter, cap: number): Promise<number> {
  const capped = filteredDeliveries(db, filter).select(sql`1`.as('one')).limit(cap);
  const row = await db.selectFrom(capped.as('capped')).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return row.n;
}

/** One delivery of one webhook (undefined for a delivery of another webhook), with its frozen body. */
export async function findDelivery(db: DB, webhookId: number, deliveryId: number) {
  return db
    .selectFrom('webhook_deliveries')
    .where('id', '=', deliveryId)
    .where('webhook_id', '=', webhookId)
    .select([...DELIVERY_COLUMNS, 'body'])
    .executeTakeFirst();
}

/** The attempts of a delivery, oldest first. */
export async function listAttempts(db: DB, deliveryId: number) {
  return db
    .selectFrom('webhook_attempts')
    .where('delivery_id', '=', deliveryId)
    .select(ATTEMPT_COLUMNS)
    .orderBy('attempt')
    .orderBy('id')
    .execute();
}
