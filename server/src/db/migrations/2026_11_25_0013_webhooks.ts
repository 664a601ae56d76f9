// Frozen: never edit a migration once it has landed; add a new dated one.
// Webhooks (docs/api.md, "Webhooks"): the subscriptions, and the durable delivery log. A
// statement-level trigger on domain_events writes one delivery per subscribed, enabled
// webhook in the transaction that records the event, so a delivery exists if and only if
// its cause committed; the dispatcher (webhooks.dispatcher.ts) claims due deliveries with
// a lease. Attempts are kept per delivery for the delivery log.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table webhooks (
    id serial primary key,
    name text not null,
    url text not null,
    enabled boolean not null default true,
    events text[] not null default '{}',
    headers jsonb not null default '{}',
    -- whsec_…, encrypted at rest (security/encryption.ts)
    secret text not null,
    -- the first failed attempt since the last success: a webhook failing for a day is disabled
    failing_since timestamptz,
    -- why the dispatcher disabled it; cleared when an admin enables it again
    disabled_reason text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index webhooks_name_key on webhooks (lower(name))`,
  `create table webhook_deliveries (
    id bigserial primary key,
    -- the webhook-id header: the same on every attempt of this delivery
    uuid uuid not null default gen_random_uuid(),
    webhook_id integer not null references webhooks (id) on delete cascade,
    -- the domain event that caused it (no foreign key: events are pruned); null for webhook.test
    event_id bigint,
    event_type text not null,
    -- the event's payload, copied when the delivery is written
    event_payload jsonb not null,
    -- the exact request body, frozen at the first attempt so that every attempt sends the same bytes
    body text,
    status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed', 'dead', 'refused')),
    attempts integer not null default 0,
    max_attempts integer not null default 8,
    next_attempt_at timestamptz default now(),
    last_status_code integer,
    last_error text,
    last_latency_ms integer,
    locked_by text,
    locked_until timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index webhook_deliveries_uuid_key on webhook_deliveries (uuid)`,
  // One delivery per webhook and event, whatever happens.
  `create unique index webhook_deliveries_event_key on webhook_deliveries (webhook_id, event_id) where event_id is not null`,
  // The dispatcher's claim: due deliveries.
  `create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status in ('pending', 'failed')`,
  // The delivery log of one webhook, newest first.
  `create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, id desc)`,
  // Retention.
  `create index webhook_deliveries_created_idx on webhook_deliveries (created_at)`,
  `create table webhook_attempts (
    id bigserial primary key,
    delivery_id bigint not null references webhook_deliveries (id) on delete cascade,
    attempt integer not null,
    manual boolean not null default false,
    outcome text not null check (outcome in ('succeeded', 'failed', 'refused')),
    status_code integer,
    latency_ms integer not null,
    error text,
    -- at most 2 KB of the receiver's answer
    response_snippet text,
    started_at timestamptz not null
  )`,
  `create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, attempt)`,
  `create function domain_events_webhooks() returns trigger language plpgsql as $$
   begin
     insert into webhook_deliveries (webhook_id, event_id, event_type, event_payload)
       select w.id, e.id, e.type, e.payload
       from new_events e join webhooks w on w.enabled and e.type = any (w.events)
       order by e.id, w.id;
     return null;
   end
   $$`,
  `create trigger domain_events_webhooks after insert on domain_events
     referencing new table as new_events
     for each statement execute function domain_events_webhooks()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
