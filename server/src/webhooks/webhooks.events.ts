// The events a webhook may subscribe to, declared once: the request schemas (unknown names
// are refused), the OpenAPI document's `webhooks` section and the dispatcher read this list.
// Every name but `webhook.test` is a domain event type (events/events.schema.ts): the trigger
// of migration 0013 writes a delivery for each recorded event a webhook subscribes to.
export const WEBHOOK_EVENTS = [
  'conversation.created',
  'conversation.status_changed',
  'conversation.assigned',
  'conversation.unassigned',
  'conversation.priority_changed',
  'conversation.tags_changed',
  'conversation.sla_warning',
  'conversation.sla_breached',
  'message.created',
  'message.updated',
  'contact.created',
  'contact.enabled_changed',
  'contact.merged',
  'webhook.test',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
