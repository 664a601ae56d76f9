// Webhook records and the delivery log as the API shows them (docs/api.md, "Webhooks").
// `WebhookDelivery` and `deliveryRecord` are shared with the delivery engine's routes (retry),
// so that every answer carrying a delivery has one shape.
import type { Selectable } from 'kysely';
import { type Static, type TSchema, Type } from 'typebox';
import {
  WEBHOOK_ATTEMPT_OUTCOMES,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookAttemptsTable,
  type WebhookDeliveriesTable,
} from '../db/types.ts';
import { DateTime, HttpUrl, Nullable, NullableDateTime, PutBody, StringEnum } from '../http/schemas.ts';
import { SECRET_MASK } from '../security/encryption.ts';
import { WEBHOOK_EVENTS } from './webhooks.events.ts';

const strict = { additionalProperties: false } as const;

export const WEBHOOK_NAME_MAX = 100;
export const WEBHOOK_HEADERS_MAX = 20;
export const WEBHOOK_HEADER_NAME_MAX = 100;
export const WEBHOOK_HEADER_VALUE_MAX = 1000;
/** An installation has few webhooks: creation stops here, and the list answers them all. */
export const WEBHOOKS_MAX = 500;

const SECRET_TEXT = `Standard Webhooks secret: "whsec_" followed by the base64 of 24 to 64 random bytes. Stored encrypted; answered as "${SECRET_MASK}" except once, when Parley generated it (creation) or rotated it.`;

const HEADERS_TEXT = `Extra HTTP headers sent with every delivery: at most ${WEBHOOK_HEADERS_MAX}; names are RFC 7230 tokens of at most ${WEBHOOK_HEADER_NAME_MAX} characters, unique case-insensitively; values at most ${WEBHOOK_HEADER_VALUE_MAX} characters of printable ASCII (trimmed). Parley's own headers cannot be set: Content-Type, Content-Length, Content-Encoding, Transfer-Encoding, Host, Connection, Keep-Alive, Upgrade, TE, Trailer, Expect, User-Agent, Proxy-*, and every webhook-* header (the signature headers). Values of headers whose name holds auth, token, key, secret, passw, cookie, signature, credential or session are answered as the mask.`;
const Headers = (description: string) =>
  Type.Unsafe<Record<string, string>>({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: WEBHOOK_HEADER_VALUE_MAX },
    maxProperties: WEBHOOK_HEADERS_MAX,
    description,
  });

const eventsDescription = (what: string) =>
  `${what} One of: ${WEBHOOK_EVENTS.join(', ')} (\`webhook.test\` may be listed, but only the test endpoint sends it).`;

export const WebhookRecord = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    name: Type.String(),
    url: Type.String({ description: 'Where deliveries are POSTed' }),
    enabled: Type.Boolean(),
    events: Type.Array(StringEnum(WEBHOOK_EVENTS), { description: 'The events this webhook receives' }),
    headers: Type.Record(Type.String(), Type.String(), { description: 'Extra HTTP headers sent with every delivery' }),
    secret: Type.String({ description: SECRET_TEXT }),
    disabled_reason: Nullable(
      Type.String({ description: 'Why Parley disabled it (failing for a day); null when enabled, or disabled by an admin' }),
    ),
    failing_since: Nullable(
      Type.Unsafe<Date | string>({
        type: 'string',
        format: 'date-time',
        description: 'The first failed attempt since the last success; null when healthy',
      }),
    ),
  },
  { title: 'Webhook' },
);
export type WebhookRecord = Static<typeof WebhookRecord>;

export const WebhookCompact = Type.Object({ id: Type.Integer(), name: Type.String() }, { title: 'WebhookCompact' });

const Name = Type.String({
  maxLength: 400,
  pattern: '\\S',
  description: `Trimmed, then 1..${WEBHOOK_NAME_MAX} characters; unique case-insensitively`,
});
const Url = HttpUrl({ description: 'Absolute http(s) URL, at most 2048 characters, without user name or password' });
/** Events are checked by the service (its 400 names an unknown event); the document shows them as an enum. */
const Events = <T extends TSchema>(item: T) =>
  Type.Array(item, {
    minItems: 1,
    maxItems: 50,
    description: eventsDescription('The events to receive: at least one, each once.'),
  });
const EventText = Type.String({ maxLength: 100 });
const EventEnum = StringEnum(WEBHOOK_EVENTS);
const Secret = Type.String({ maxLength: 200, description: SECRET_TEXT });

function createBody<T extends TSchema>(events: T, options: Record<string, unknown> = {}) {
  return Type.Object(
    {
      name: Name,
      url: Url,
      events: Events(events),
      enabled: Type.Optional(Type.Boolean({ default: true })),
      headers: Type.Optional(Headers(HEADERS_TEXT)),
      secret: Type.Optional(Type.String({ ...Secret, description: `${SECRET_TEXT} Generated when absent.` })),
    },
    { ...strict, ...options },
  );
}

export const CreateWebhookBody = createBody(EventText);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;
export const DocumentedCreateWebhookBody = createBody(EventEnum, { title: 'CreateWebhook' });

function updateBody<T extends TSchema>(events: T, options: Record<string, unknown> = {}) {
  return Type.Object(
    {
      name: Name,
      url: Url,
      events: Events(events),
      enabled: Type.Optional(Type.Boolean({ description: 'Absent: unchanged. Enabling clears disabled_reason and failing_since.' })),
      headers: Type.Optional(
        Headers(
          `${HEADERS_TEXT} Absent: unchanged; {} removes them all. A masked value sent back keeps the stored one, unless url changes (then it must be sent again).`,
        ),
      ),
      secret: Type.Optional(
        Type.String({ ...Secret, description: `${SECRET_TEXT} Absent or the mask: the stored secret is kept; a new value replaces it.` }),
      ),
    },
    {
      ...strict,
      description:
        'The whole webhook, as GET answers it (read-only fields are ignored): name, url and events are required; enabled, headers and secret keep their stored value when absent.',
      ...options,
    },
  );
}

// The record's read-only fields (id, timestamps, disabled_reason, failing_since) are accepted and ignored (PutBody).
export const UpdateWebhookBody = PutBody(updateBody(EventText), WebhookRecord);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;
export const DocumentedUpdateWebhookBody = PutBody(updateBody(EventEnum), WebhookRecord, { title: 'UpdateWebhook' });

export const ToggleWebhookBody = Type.Object({ enabled: Type.Boolean() }, strict);

// ---------------------------------------------------------------- the delivery log

export const DeliveryStatus = StringEnum(WEBHOOK_DELIVERY_STATUSES, {
  description:
    'pending (not delivered yet) | succeeded (a receiver answered 2xx) | failed (the last attempt failed; the next is due at next_attempt_at) | dead (no attempt left) | refused (the address is not allowed: see WEBHOOK_ALLOW_HOSTS)',
});

export const WebhookDelivery = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String({ format: 'uuid', description: 'The `webhook-id` header: the same on every attempt of this delivery' }),
    webhook_id: Type.Integer(),
    event_type: Type.String({ description: `The event sent: ${WEBHOOK_EVENTS.join(', ')}` }),
    event_id: Nullable(Type.Integer({ description: 'The domain event that caused it; null for webhook.test' })),
    status: DeliveryStatus,
    attempts: Type.Integer({ description: 'Attempts made so far' }),
    last_status_code: Nullable(Type.Integer({ description: "The last attempt's HTTP status; null when no answer came" })),
    last_error: Nullable(Type.String()),
    last_latency_ms: Nullable(Type.Integer()),
    next_attempt_at: NullableDateTime,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { title: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookAttempt = Type.Object(
  {
    attempt: Type.Integer({ description: '1 for the first attempt' }),
    manual: Type.Boolean({ description: 'Asked for by an admin (retry), not scheduled' }),
    outcome: StringEnum(WEBHOOK_ATTEMPT_OUTCOMES),
    status_code: Nullable(Type.Integer()),
    latency_ms: Type.Integer(),
    error: Nullable(Type.String()),
    response_snippet: Nullable(Type.String({ description: "The start of the receiver's answer, at most 2 KB" })),
    started_at: DateTime,
  },
  { title: 'WebhookAttempt' },
);

export const WebhookDeliveryDetail = Type.Object(
  {
    ...WebhookDelivery.properties,
    request_body: Nullable(Type.String({ description: 'The exact body sent on every attempt; null before the first attempt' })),
    attempts_log: Type.Array(WebhookAttempt, { description: 'Every attempt, oldest first' }),
  },
  { title: 'WebhookDeliveryDetail' },
);
export type WebhookDeliveryDetail = Static<typeof WebhookDeliveryDetail>;

/** The columns of a delivery row that its record shows (the queries select these). */
export const DELIVERY_COLUMNS = [
  'id',
  'uuid',
  'webhook_id',
  'event_type',
  'event_id',
  'status',
  'attempts',
  'last_status_code',
  'last_error',
  'last_latency_ms',
  'next_attempt_at',
  'created_at',
  'updated_at',
] as const;
export type DeliveryRow = Pick<Selectable<WebhookDeliveriesTable>, (typeof DELIVERY_COLUMNS)[number]>;

/** A delivery row as the API shows it. */
export function deliveryRecord(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    uuid: row.uuid,
    webhook_id: row.webhook_id,
    event_type: row.event_type,
    event_id: row.event_id,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_latency_ms: row.last_latency_ms,
    next_attempt_at: row.next_attempt_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const ATTEMPT_COLUMNS = [
  'attempt',
  'manual',
  'outcome',
  'status_code',
  'latency_ms',
  'error',
  'response_snippet',
  'started_at',
] as const;
export type AttemptRow = Pick<Selectable<WebhookAttemptsTable>, (typeof ATTEMPT_COLUMNS)[number]>;

export const DeliveryListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ default: 1, description: 'Page number, from 1; larger values are clamped.' })),
  page_size: Type.Optional(Type.Integer({ default: 30, description: 'Items per page, 1..100; values outside are clamped.' })),
  status: Type.Optional(Type.Array(DeliveryStatus, { maxItems: 10, description: 'Only these statuses (repeat for several)' })),
  event_type: Type.Optional(
    Type.Array(StringEnum(WEBHOOK_EVENTS), { maxItems: 50, description: 'Only these event types (repeat for several)' }),
  ),
});
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;

export const DeliveryParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Webhook id' }),
  delivery_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Delivery id' }),
});
