// Frozen: never edit a migration once it has landed; add a new dated one.
// SLA policies (docs/api.md, "SLA policies") and the SLAs applied to conversations. Teams'
// sla_policy_id (a column since 0001) now references a policy; until now the API refused every
// value, so any found is dangling and cleared. An applied SLA keeps a copy of its policy's
// targets, so deleting a policy (refused while a team uses it) leaves conversations their
// records. Each applied SLA has one row per metric with a target: its deadline, when it was
// met, warned about and breached, and the working time left while the conversation waits.
// The conversation row carries the deadlines the lists show and sort by (sla.deadlines.ts
// keeps them right).
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table sla_policies (
    id serial primary key,
    name text not null check (char_length(name) between 1 and 140),
    description text not null default '' check (char_length(description) <= 1000),
    first_response_minutes integer check (first_response_minutes > 0),
    next_response_minutes integer check (next_response_minutes > 0),
    resolution_minutes integer check (resolution_minutes > 0),
    warning_minutes integer check (warning_minutes >= 0),
    business_hours_only boolean not null default false,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index sla_policies_name_key on sla_policies (lower(name))`,

  `update teams set sla_policy_id = null where sla_policy_id is not null`,
  `alter table teams add constraint teams_sla_policy_id_fkey foreign key (sla_policy_id) references sla_policies (id)`,
  // The "in use" check before a delete.
  `create index teams_sla_policy_idx on teams (sla_policy_id) where sla_policy_id is not null`,

  `create table applied_slas (
    id serial primary key,
    conversation_id integer not null references conversations (id) on delete cascade,
    sla_policy_id integer references sla_policies (id) on delete set null,
    applied_at timestamptz not null,
    warning_minutes integer,
    business_hours_only boolean not null
  )`,
  `create index applied_slas_conversation_idx on applied_slas (conversation_id, id)`,
  `create index applied_slas_policy_idx on applied_slas (sla_policy_id) where sla_policy_id is not null`,

  `create table applied_sla_metrics (
    applied_sla_id integer not null references applied_slas (id) on delete cascade,
    metric text not null check (metric in ('first_response', 'next_response', 'resolution')),
    target_minutes integer not null check (target_minutes > 0),
    deadline_at timestamptz,
    warn_at timestamptz,
    met_at timestamptz,
    warned_at timestamptz,
    breached_at timestamptz,
    remaining_minutes double precision,
    primary key (applied_sla_id, metric)
  )`,
  // The periodic task's claims: deadlines due and not yet recorded.
  `create index applied_sla_metrics_due_idx on applied_sla_metrics (deadline_at)
    where deadline_at is not null and met_at is null and breached_at is null`,
  `create index applied_sla_metrics_warn_idx on applied_sla_metrics (warn_at)
    where warn_at is not null and warned_at is null and met_at is null and breached_at is null`,

  `alter table conversations
    add column sla_policy_id integer references sla_policies (id) on delete set null,
    add column applied_sla_id integer references applied_slas (id) on delete set null,
    add column first_response_deadline_at timestamptz,
    add column resolution_deadline_at timestamptz,
    add column next_response_deadline_at timestamptz,
    add column next_response_met_at timestamptz,
    add column next_sla_deadline_at timestamptz`,
  // order_by=next_sla_deadline_at: nulls last in both directions.
  `create index conversations_sla_deadline_asc_idx on conversations (next_sla_deadline_at asc nulls last, id asc)`,
  `create index conversations_sla_deadline_desc_idx on conversations (next_sla_deadline_at desc nulls last, id desc)`,
  `create index conversations_sla_policy_idx on conversations (sla_policy_id) where sla_policy_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
