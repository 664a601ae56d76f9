// Frozen: never edit a migration once it has landed; add a new dated one.
// Realtime (docs/api.md, "Realtime"): a statement-level trigger wakes the event relay when
// domain events are recorded (PostgreSQL delivers NOTIFY at commit, never for a rolled-back
// transaction); the relay's cursor, so that a new relay resumes where the last one stopped and
// pruning knows what was passed; the index pruning reads; the last page visits of contacts;
// the last time an agent had a live agent socket (presence).
import { type Kysely, sql } from 'kysely';

const statements = [
  // The channel carries the schema: notifications are database-wide, schemas are not.
  `create function domain_events_notify() returns trigger language plpgsql as $$
   begin
     perform pg_notify('parley_events_' || current_schema(), '');
     return null;
   end
   $$`,
  `create trigger domain_events_notify after insert on domain_events
     for each statement execute function domain_events_notify()`,
  `create index domain_events_created_idx on domain_events (created_at)`,
  `create table realtime_cursor (
    name text primary key,
    last_id bigint not null,
    updated_at timestamptz not null default now()
  )`,
  `create table contact_page_visits (
    id bigserial primary key,
    contact_id integer not null references users (id) on delete cascade,
    url text not null,
    title text not null default '',
    visited_at timestamptz not null
  )`,
  `create index contact_page_visits_contact_idx on contact_page_visits (contact_id, id desc)`,
  `create table agent_presence (
    agent_id integer primary key references users (id) on delete cascade,
    last_seen_at timestamptz not null
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
