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
import { type Kysely, sql } from 'kysely';

const statements = [
  `alter table applied_sla_metrics add column started_at timestamptz`,
  `update applied_sla_metrics m set started_at = case when m.metric = 'next_response' then coalesce(m.deadline_at, a.applied_at) else a.applied_at end
     from applied_slas a where a.id = m.applied_sla_id`,
  `alter table applied_sla_metrics alter column started_at set not null`,

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
  `drop index sla_outcomes_key`,
  `create unique index sla_outcomes_key on sla_outcomes (applied_sla_id, metric, started_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
