// Frozen: never edit a migration once it has landed; add a new dated one.
// An SLA deadline's fate is recorded once per cycle, not once per deadline instant. A cycle is
// what one deadline measures: the first response and the resolution have one per applied SLA
// (it starts when the policy applies), a next response one per contact message that owes it
// (it starts with that message). The deadline itself moves within its cycle: each wait in a
// waiting status pushes it back. Keyed by the deadline, a resolution met, reopened, snoozed,
// woken and then breached counted twice in the service report (met and breached); keyed by the
// cycle it is one deadline whose outcome became breached.
//
// `started_at` is set when a cycle starts and never moved by a wait. Earlier rows: the first
// response's and resolution's cycle starts when their SLA applied; a next response's start
// is not kept, so its current deadline stands for it (what the outcomes were keyed by until
// now). Two outcomes already recorded for one cycle are merged into the one the report should
// have counted: breached if either was, else the later one; the deletes go through the rollups'
// triggers, which take them out of the report's sums.
//
// A rolling upgrade: the previous version's instances keep working on the migrated database
// (docs/operations.md): two triggers fill `started_at` when they leave it out and fold their
// second outcome of a cycle into the first, and their unique key on the deadline stays until
// a later release drops it with the triggers.
import { type Kysely, sql } from 'kysely';

const statements = [
  `alter table applied_sla_metrics add column started_at timestamptz`,
  `update applied_sla_metrics m set started_at = case when m.metric = 'next_response' then coalesce(m.deadline_at, a.applied_at) else a.applied_at end
     from applied_slas a where a.id = m.applied_sla_id`,
  `alter table applied_sla_metrics alter column started_at set not null`,
  // Instances of the previous version (a rolling upgrade) insert metrics without it: filled as above.
  `create function sla_metric_started_at() returns trigger language plpgsql set search_path from current as $$
   begin
     if new.started_at is null then
       new.started_at := case when new.metric = 'next_response' and new.deadline_at is not null then new.deadline_at
                              else (select a.applied_at from applied_slas a where a.id = new.applied_sla_id) end;
     end if;
     return new;
   end
   $$`,
  `create trigger sla_metric_started_at before insert on applied_sla_metrics
   for each row execute function sla_metric_started_at()`,

  `alter table sla_outcomes add column started_at timestamptz`,
  `delete from sla_outcomes o where o.metric <> 'next_response' and exists (
     select 1 from sla_outcomes b where b.applied_sla_id = o.applied_sla_id and b.metric = o.metric and b.id <> o.id
        and (b.outcome = 'breached') >= (o.outcome = 'breached')
        and ((b.outcome = 'breached') > (o.outcome = 'breached') or (b.at, b.id) > (o.at, o.id)))`,
  // started_at does not enter the report's sums: the rollups' triggers need not see this update.
  `select set_config('parley.service_rollups', 'off', true)`,
  `update sla_outcomes o set started_at = case when o.metric = 'next_response' then o.deadline_at else a.applied_at end
     from applied_slas a where a.id = o.applied_sla_id`,
  `select set_config('parley.service_rollups', 'on', true)`,
  `alter table sla_outcomes alter column started_at set not null`,
  `create unique index sla_outcomes_cycle_key on sla_outcomes (applied_sla_id, metric, started_at)`,
  // The previous version's key stays for this release (its instances upsert on it during a
  // rolling upgrade), and so does their way of writing: an outcome without started_at gets its
  // cycle's start, and a second outcome of a cycle they would have added as a new row (its
  // deadline moved by a wait) becomes the cycle's one row instead, breached winning.
  `create function sla_outcome_cycle() returns trigger language plpgsql set search_path from current as $$
   begin
     if new.started_at is null then
       new.started_at := case when new.metric = 'next_response' then new.deadline_at
                              else (select a.applied_at from applied_slas a where a.id = new.applied_sla_id) end;
     end if;
     if new.outcome = 'breached' then
       update sla_outcomes o set outcome = 'breached', at = new.at, deadline_at = new.deadline_at
        where o.applied_sla_id = new.applied_sla_id and o.metric = new.metric and o.started_at = new.started_at
          and o.outcome = 'met';
     end if;
     if exists (select 1 from sla_outcomes o where o.applied_sla_id = new.applied_sla_id and o.metric = new.metric
                                              and o.started_at = new.started_at) then
       return null;
     end if;
     return new;
   end
   $$`,
  `create trigger sla_outcome_cycle before insert on sla_outcomes for each row execute function sla_outcome_cycle()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
