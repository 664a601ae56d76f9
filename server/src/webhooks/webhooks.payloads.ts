// What a webhook receives (docs/api.md, "Webhooks" → "Delivery"): the body `{type, timestamp,
// data}` of each event a webhook may subscribe to, its `data` declared once here as a TypeBox
// schema (the OpenAPI document's `webhooks` section shows them), and built set-based for a
// batch of deliveries: one statement for every conversation record of the batch, one for every
// message record, whatever the batch holds.
//
// - conversation events: the event's payload plus `conversation` (the record GET
//   /conversations/{uuid} answers, as it is when the body is built);
// - message.created / message.updated: the payload plus `message` (the Message record, with
//   its attachments);
// - contact events, webhook.test: the payload as it is;
// - a conversation or message deleted meanwhile: the payload alone.
import type { OpenAPIV3_1 } from 'openapi-types';
import { IsObject, IsUnion, type TSchema, Type } from 'typebox';
import { Conversation } from '../conversations/conversations.schema.ts';
import { conversationRecordsByIds } from '../conversations/conversations.read.ts';
import type { AppDeps } from '../deps.ts';
import { DOMAIN_EVENTS } from '../events/events.schema.ts';
import { DateTime } from '../http/schemas.ts';
import { Message } from '../messages/messages.schema.ts';
import { messagesByIds } from '../messages/messages.service.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhooks.events.ts';

const Id = Type.Integer({ minimum: 1 });

/**
 * The event's payload schema with `key` (a record, absent when it no longer exists) added to
 * each of its object members.
 */
function withRecord(schema: TSchema, key: string, record: TSchema, description: string): TSchema {
  if (IsUnion(schema)) return Type.Union(schema.anyOf.map((member) => withRecord(member, key, record, description)));
  if (IsObject(schema)) {
    return Type.Object({ ...schema.properties, [key]: Type.Optional(record) }, { additionalProperties: false, description });
  }
  throw new TypeError(`webhook payloads: cannot add ${key} to a schema that is not an object`);
}

const CONVERSATION_NOTE =
  'The event payload, plus `conversation`: the record `GET /api/v1/conversations/{uuid}` answers, as it was when the body was built (absent when the conversation no longer exists).';
const MESSAGE_NOTE =
  'The event payload, plus `message`: the record `GET …/messages/{uuid}` answers, with its attachments, as it was when the body was built (absent when the message no longer exists).';

function conversationData(type: keyof typeof DOMAIN_EVENTS): TSchema {
  return withRecord(DOMAIN_EVENTS[type], 'conversation', Conversation, CONVERSATION_NOTE);
}

/** The `data` of each event a webhook may subscribe to. */
export const WEBHOOK_DATA: Record<WebhookEvent, TSchema> = {
  'conversation.created': conversationData('conversation.created'),
  'conversation.status_changed': conversationData('conversation.status_changed'),
  'conversation.assigned': conversationData('conversation.assigned'),
  'conversation.unassigned': conversationData('conversation.unassigned'),
  'conversation.priority_changed': conversationData('conversation.priority_changed'),
  'conversation.tags_changed': conversationData('conversation.tags_changed'),
  'conversation.sla_warning': conversationData('conversation.sla_warning'),
  'conversation.sla_breached': conversationData('conversation.sla_breached'),
  'message.created': withRecord(DOMAIN_EVENTS['message.created'], 'message', Message, MESSAGE_NOTE),
  'message.updated': withRecord(DOMAIN_EVENTS['message.updated'], 'message', Message, MESSAGE_NOTE),
  'contact.created': DOMAIN_EVENTS['contact.created'],
  'contact.enabled_changed': DOMAIN_EVENTS['contact.enabled_changed'],
  'contact.merged': DOMAIN_EVENTS['contact.merged'],
  'webhook.test': Type.Object({ webhook_id: Id, name: Type.String() }, { additionalProperties: false }),
};

const DESCRIPTIONS: Record<WebhookEvent, string> = {
  'conversation.created': 'A conversation started, on any channel.',
  'conversation.status_changed': 'A conversation changed status (snoozes and wake-ups included).',
  'conversation.assigned': 'An agent or a team was set on a conversation (`assignee_type`).',
  'conversation.unassigned': 'The agent or the team of a conversation was removed (`assignee_type`).',
  'conversation.priority_changed': 'A conversation changed priority.',
  'conversation.tags_changed': 'Tags were added to, removed from or replaced on a conversation (`tags`: all of them afterwards).',
  'conversation.sla_warning':
    'A deadline of the SLA applied to a conversation is `warning_minutes` away (`metric`, `deadline_at`); once per deadline.',
  'conversation.sla_breached': 'A deadline of the SLA applied to a conversation passed unmet (`metric`, `deadline_at`); once per deadline.',
  'message.created': 'A message or a private note was added to a conversation.',
  'message.updated': 'A message changed state (e.g. `pending` → `sent`).',
  'contact.created': 'A contact was created: `data` is the contact record.',
  'contact.enabled_changed': 'A contact was blocked (`enabled` false) or unblocked.',
  'contact.merged': 'A widget visitor (`merged_contact_id`) was merged into a verified contact (`contact_id`) with its conversations.',
  'webhook.test': 'Sent by `POST /api/v1/webhooks/{id}/test`, whatever the webhook subscribes to.',
};

function pascal(event: string): string {
  return event
    .split(/[._]/)
    .map((part) => (part[0]?.toUpperCase() ?? '') + part.slice(1))
    .join('');
}

/** The whole body of one event: what the receiver gets and the signature covers. */
export function webhookBodySchema(event: WebhookEvent): TSchema {
  return Type.Object(
    {
      type: Type.Literal(event),
      timestamp: { ...DateTime, description: 'When the event happened (RFC 3339), the same on every attempt' },
      data: WEBHOOK_DATA[event],
    },
    { additionalProperties: false, title: `Webhook${pascal(event)}` },
  );
}

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    description: 'The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat',
  },
  { name: 'webhook-timestamp', description: 'When this attempt was signed, in seconds since the Unix epoch' },
  {
    name: 'webhook-signature',
    description:
      '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library',
  },
];

/** The OpenAPI 3.1 `webhooks` section: one POST per event, its body and the signature headers. */
export function webhooksDocumentSection(): Record<string, OpenAPIV3_1.PathItemObject> {
  const section: Record<string, OpenAPIV3_1.PathItemObject> = {};
  for (const event of WEBHOOK_EVENTS) {
    section[event] = {
      post: {
        operationId: `webhook${pascal(event)}`,
        tags: ['Webhooks'],
        summary: `${event} (sent to your webhook)`,
        description: `${DESCRIPTIONS[event]} Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").`,
        parameters: SIGNATURE_HEADERS.map((header) => ({ in: 'header', required: true, schema: { type: 'string' as const }, ...header })),
        requestBody: { required: true, content: { 'application/json': { schema: webhookBodySchema(event) } } },
        responses: {
          '200': { description: 'Any 2xx answer: delivered, never sent again' },
          default: { description: 'Anything else (3xx included: redirects are not followed), or no answer in time: retried later' },
        },
      },
    };
  }
  return section;
}

function integerOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

const isConversationEvent = (type: string) => type.startsWith('conversation.');
const isMessageEvent = (type: string) => type === 'message.created' || type === 'message.updated';

/**
 * The `data` of each delivery, in the order given: two statements for the whole batch (the
 * conversation records, the message records), none per delivery.
 */
export async function buildEventData(
  deps: AppDeps,
  deliveries: ReadonlyArray<{ event_type: string; event_payload: Record<string, unknown> }>,
): Promise<Record<string, unknown>[]> {
  const conversationIds = new Set<number>();
  const messageIds = new Set<number>();
  for (const delivery of deliveries) {
    const p = delivery.event_payload;
    if (isConversationEvent(delivery.event_type)) {
      const id = integerOf(p['conversation_id']);
      if (id !== null) conversationIds.add(id);
    } else if (isMessageEvent(delivery.event_type)) {
      const id = integerOf(p['message_id']);
      if (id !== null) messageIds.add(id);
    }
  }
  const [conversations, messages] = await Promise.all([
    conversationRecordsByIds(deps, [...conversationIds]),
    messagesByIds(deps, [...messageIds]),
  ]);
  const conversationById = new Map(conversations.map((c) => [c.id, c]));
  const messageById = new Map(messages.map((m) => [m.id, m]));
  return deliveries.map(({ event_type: type, event_payload: p }) => {
    if (isConversationEvent(type)) {
      const conversation = conversationById.get(integerOf(p['conversation_id']) ?? 0);
      return conversation ? { ...p, conversation } : p;
    }
    if (isMessageEvent(type)) {
      const message = messageById.get(integerOf(p['message_id']) ?? 0);
      return message ? { ...p, message } : p;
    }
    return p;
  });
}

/** The exact body of a delivery: `{type, timestamp, data}`, serialised once (dates as RFC 3339). */
export function serializeBody(type: string, eventAt: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: eventAt.toISOString(), data });
}
