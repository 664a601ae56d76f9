// Webhook records (CRUD, toggle, secret rotation) and the read side of the delivery log
// (docs/api.md, "Webhooks"). The delivery engine writes the log: webhooks.dispatcher.ts.
import type { AuditActor } from '../audit/audit.service.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictError, DataError, InputError, NotFoundError } from '../errors.ts';
import { type PageRequest, pagedResult } from '../http/schemas.ts';
import { SECRET_MASK } from '../security/encryption.ts';
import { cleanEvents, cleanHeaders, cleanName, isSubscribable, maskHeaders, restoreMaskedHeaders } from './webhooks.input.ts';
import { auditWebhook, webhookChanges } from './webhooks.audit.ts';
import * as q from './webhooks.queries.ts';
import {
  type CreateWebhookBody,
  type DeliveryListQuery,
  deliveryRecord,
  type UpdateWebhookBody,
  WEBHOOKS_MAX,
  type WebhookDeliveryDetail,
  type WebhookRecord,
} from './webhooks.schema.ts';
import { checkSecret, encryptWebhookSecret, generateSecret } from './webhooks.secret.ts';

export { deliveryRecord } from './webhooks.schema.ts';

type WebhookRow = NonNullable<Awaited<ReturnType<typeof q.findWebhook>>>;

const NOT_FOUND = 'Webhook not found';

/** `secret` is the mask unless this answer is the one that shows a new secret. */
function toRecord(row: WebhookRow, secret: string = SECRET_MASK): WebhookRecord {
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    name: row.name,
    url: row.url,
    enabled: row.enabled,
    // A name dropped from the catalogue since it was stored is not shown (docs/api.md, Enums).
    events: row.events.filter(isSubscribable),
    headers: maskHeaders(row.headers),
    secret,
    disabled_reason: row.disabled_reason,
    failing_since: row.failing_since,
  };
}

async function refuseTakenName(db: AppDeps['db'], name: string, id: number | null): Promise<void> {
  const taken = await q.findWebhookByName(db, name);
  if (taken && taken.id !== id) throw new ConflictError(`A webhook named "${taken.name}" already exists`);
}

export async function listWebhooks(deps: AppDeps): Promise<WebhookRecord[]> {
  return (await q.listWebhooks(deps.db, WEBHOOKS_MAX)).map((row) => toRecord(row));
}

export async function listWebhooksCompact(deps: AppDeps) {
  return q.listWebhooksCompact(deps.db, WEBHOOKS_MAX);
}

export async function getWebhook(deps: AppDeps, id: number): Promise<WebhookRecord> {
  const row = await q.findWebhook(deps.db, id);
  if (!row) throw new NotFoundError(NOT_FOUND);
  return toRecord(row);
}

/** A new webhook. A generated secret is shown in this answer, once; a given one is masked. */
export async function createWebhook(deps: AppDeps, actor: AuditActor, input: CreateWebhookBody): Promise<WebhookRecord> {
  const name = cleanName(input.name);
  const events = cleanEvents(input.events);
  const headers = cleanHeaders(input.headers ?? {});
  if (input.secret === SECRET_MASK)
    throw InputError.field('secret', 'no secret is stored yet: send one, or leave it out to have one generated');
  const given = input.secret === undefined ? null : checkSecret(input.secret);
  const secret = given ?? generateSecret();
  const row = await deps.db.transaction().execute(async (trx) => {
    await refuseTakenName(trx, name, null);
    if ((await q.countWebhooks(trx)) >= WEBHOOKS_MAX) throw new DataError(`An installation may have at most ${WEBHOOKS_MAX} webhooks`);
    const created = await q.insertWebhook(trx, {
      name,
      url: input.url,
      enabled: input.enabled ?? true,
      events,
      headers,
      secret: encryptWebhookSecret(deps, secret),
      created_at: deps.clock.now(),
    });
    await auditWebhook(trx, actor, 'webhook.created', created, webhookChanges(null, created), created.created_at);
    return created;
  });
  return toRecord(row, given === null ? secret : SECRET_MASK);
}

/** Enabling a disabled webhook gives it a fresh start: the dispatcher's reason and failure clock are cleared. */
function enablingValues(current: WebhookRow, enabled: boolean | undefined): q.WebhookValues {
  if (enabled === undefined) return {};
  if (enabled && !current.enabled) return { enabled, disabled_reason: null, failing_since: null };
  return { enabled };
}

/**
 * The spec's full-object update: name, url and events required; enabled, headers and secret kept
 * when absent. The mask keeps the secret (it signs, it is never sent) and a masked header's value
 * while the url is unchanged.
 */
export async function updateWebhook(deps: AppDeps, actor: AuditActor, id: number, input: UpdateWebhookBody): Promise<WebhookRecord> {
  const name = cleanName(input.name);
  const events = cleanEvents(input.events);
  const secret = input.secret === undefined || input.secret === SECRET_MASK ? undefined : checkSecret(input.secret);
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await q.findWebhookForUpdate(trx, id);
    if (!current) throw new NotFoundError(NOT_FOUND);
    await refuseTakenName(trx, name, id);
    const headers =
      input.headers === undefined
        ? undefined
        : cleanHeaders(restoreMaskedHeaders(input.headers, current.headers, input.url !== current.url));
    const updated = await q.updateWebhook(trx, id, {
      name,
      url: input.url,
      events,
      ...(headers !== undefined ? { headers } : {}),
      ...(secret !== undefined ? { secret: encryptWebhookSecret(deps, secret) } : {}),
      ...enablingValues(current, input.enabled),
      updated_at: deps.clock.now(),
    });
    if (!updated) throw new NotFoundError(NOT_FOUND);
    await auditWebhook(trx, actor, 'webhook.updated', updated, webhookChanges(current, updated, secret !== undefined), updated.updated_at);
    return updated;
  });
  return toRecord(row);
}

/** The spec's toggle. Disabling keeps pending deliveries: the dispatcher holds them until the webhook is enabled again. */
export async function toggleWebhook(deps: AppDeps, actor: AuditActor, id: number, enabled: boolean): Promise<WebhookRecord> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await q.findWebhookForUpdate(trx, id);
    if (!current) throw new NotFoundError(NOT_FOUND);
    const updated = await q.updateWebhook(trx, id, { ...enablingValues(current, enabled), updated_at: deps.clock.now() });
    if (!updated) throw new NotFoundError(NOT_FOUND);
    await auditWebhook(trx, actor, 'webhook.updated', updated, webhookChanges(current, updated), updated.updated_at);
    return updated;
  });
  return toRecord(row);
}

/** A new generated secret, shown in this answer once; the old one stops signing at once. */
export async function rotateWebhookSecret(deps: AppDeps, actor: AuditActor, id: number): Promise<WebhookRecord> {
  const secret = generateSecret();
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await q.findWebhookForUpdate(trx, id);
    const updated =
      current && (await q.updateWebhook(trx, id, { secret: encryptWebhookSecret(deps, secret), updated_at: deps.clock.now() }));
    if (!current || !updated) throw new NotFoundError(NOT_FOUND);
    await auditWebhook(trx, actor, 'webhook.secret_rotated', updated, webhookChanges(current, updated, true), updated.updated_at);
    return updated;
  });
  return toRecord(row, secret);
}

export async function deleteWebhook(deps: AppDeps, actor: AuditActor, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await q.findWebhookForUpdate(trx, id);
    if (!current || !(await q.deleteWebhook(trx, id))) throw new NotFoundError(NOT_FOUND);
    await auditWebhook(trx, actor, 'webhook.deleted', current, webhookChanges(current, null), deps.clock.now());
  });
}

// ---------------------------------------------------------------- the delivery log

/** `total` counts at most this many deliveries, so that the count stays cheap on a long log. */
export const DELIVERY_COUNT_CAP = 10_000;

export async function listDeliveries(deps: AppDeps, webhookId: number, page: PageRequest, query: DeliveryListQuery) {
  if (!(await q.webhookExists(deps.db, webhookId))) throw new NotFoundError(NOT_FOUND);
  const filter: q.DeliveryFilter = {
    webhookId,
    ...(query.status ? { statuses: [...new Set(query.status)] } : {}),
    ...(query.event_type ? { eventTypes: [...new Set(query.event_type)] } : {}),
  };
  const [rows, total] = await Promise.all([
    q.listDeliveries(deps.db, filter, { limit: page.pageSize, offset: page.offset }),
    q.countDeliveries(deps.db, filter, DELIVERY_COUNT_CAP),
  ]);
  return pagedResult(rows.map(deliveryRecord), total, page);
}

/** One delivery of the webhook with its frozen request body and its attempts; 404 for an unknown webhook or a delivery of another one. */
export async function getDelivery(deps: AppDeps, webhookId: number, deliveryId: number): Promise<WebhookDeliveryDetail> {
  const row = await q.findDelivery(deps.db, webhookId, deliveryId);
  if (!row) {
    if (!(await q.webhookExists(deps.db, webhookId))) throw new NotFoundError(NOT_FOUND);
    throw new NotFoundError('Webhook delivery not found');
  }
  const attempts = await q.listAttempts(deps.db, deliveryId);
  const { body, ...delivery } = row;
  return { ...deliveryRecord(delivery), request_body: body, attempts_log: attempts };
}
