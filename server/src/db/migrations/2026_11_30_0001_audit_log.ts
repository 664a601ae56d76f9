// Frozen: never edit a migration once it has landed; add a new dated one.
// The audit log: who changed what, written in the transaction of the change (audit/audit.service.ts).
// Append-only: the database refuses UPDATE, DELETE and TRUNCATE on it, except the retention purge,
// which deletes entries older than its cutoff inside a transaction that set
// `parley.audit_purge_before` (audit_log_purge below). Nothing else can remove or rewrite history.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table audit_log (
    id bigserial primary key,
    created_at timestamptz not null default now(),
    actor_type text not null check (actor_type in ('agent', 'api_key', 'system', 'automation')),
    actor_id integer,
    actor_name text not null default '',
    ip text,
    user_agent text,
    request_id text,
    action text not null,
    resource_type text not null,
    resource_id text,
    resource_name text not null default '',
    changes jsonb not null default '{}'::jsonb
  )`,
  `create index audit_log_created_idx on audit_log (created_at desc, id desc)`,
  `create index audit_log_actor_idx on audit_log (actor_id, created_at desc, id desc) where actor_id is not null`,
  `create index audit_log_action_idx on audit_log (action, created_at desc, id desc)`,
  `create index audit_log_resource_idx on audit_log (resource_type, created_at desc, id desc)`,
  `create function audit_log_append_only() returns trigger language plpgsql as $$
  declare
    cutoff text := current_setting('parley.audit_purge_before', true);
  begin
    if tg_op = 'DELETE' and cutoff is not null and cutoff <> '' and old.created_at < cutoff::timestamptz then
      return old;
    end if;
    raise exception 'the audit log is append-only' using errcode = 'insufficient_privilege';
  end
  $$`,
  `create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function audit_log_append_only()`,
  `create function audit_log_no_truncate() returns trigger language plpgsql as $$
  begin
    raise exception 'the audit log is append-only' using errcode = 'insufficient_privilege';
  end
  $$`,
  `create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_no_truncate()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
