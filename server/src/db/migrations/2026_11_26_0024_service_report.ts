// Frozen: never edit a migration once it has landed; add a new dated one.
// The service report (docs/api.md, "Service report"): each move of a conversation into a
// resolved status, with who and which team had it at that moment, so that a reopen then a
// resolve counts twice and an agent is credited with what they resolved even after the
// conversation moved on. Conversations resolved before this migration get one row each, from
// their resolved_at and their assignee now. And the first replies of a date range, for the
// first-response times, and the CSAT surveys sent in a date range, read by their own indexes;
// and the outcome of every SLA deadline.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table conversation_resolutions (
    id bigint generated always as identity primary key,
    conversation_id bigint not null references conversations (id) on delete cascade,
    resolved_at timestamptz not null,
    conversation_created_at timestamptz not null,
    inbox_id integer not null,
    assignee_id integer,
    team_id integer
  )`,
  `create index conversation_resolutions_at_idx on conversation_resolutions (resolved_at)`,
  `create index conversation_resolutions_conversation_idx on conversation_resolutions (conversation_id)`,
  `insert into conversation_resolutions (conversation_id, resolved_at, conversation_created_at, inbox_id, assignee_id, team_id)
   select id, resolved_at, created_at, inbox_id, assigned_user_id, assigned_team_id
     from conversations where resolved_at is not null`,
  // Covering indexes: the report's counts and times read only the index (index-only scans),
  // not the wide conversation rows.
  `create index conversations_created_report_idx on conversations (created_at) include (assigned_team_id, inbox_id, assigned_user_id)`,
  `create index conversations_first_reply_idx on conversations (first_reply_at)
     include (created_at, assigned_user_id, assigned_team_id, inbox_id) where first_reply_at is not null`,
  `create index csat_surveys_created_idx on csat_surveys (created_at)`,

  // The fate of each SLA deadline, kept for reports: applied_sla_metrics holds only a metric's
  // current deadline (a next response owed again replaces the last one). One row per deadline
  // and outcome; a deadline met, then owed again by a reopen and breached, has both.
  `create table sla_outcomes (
    id bigint generated always as identity primary key,
    applied_sla_id integer not null references applied_slas (id) on delete cascade,
    conversation_id integer not null references conversations (id) on delete cascade,
    metric text not null check (metric in ('first_response', 'next_response', 'resolution')),
    deadline_at timestamptz not null,
    outcome text not null check (outcome in ('met', 'breached')),
    at timestamptz not null
  )`,
  `create unique index sla_outcomes_key on sla_outcomes
     (applied_sla_id, metric, deadline_at, outcome)`,
  `create index sla_outcomes_at_idx on sla_outcomes (at)`,
  `insert into sla_outcomes (applied_sla_id, conversation_id, metric, deadline_at, outcome, at)
   select m.applied_sla_id, a.conversation_id, m.metric, m.deadline_at, 'breached', m.breached_at
     from applied_sla_metrics m join applied_slas a on a.id = m.applied_sla_id where m.breached_at is not null and m.deadline_at is not null`,
  `insert into sla_outcomes (applied_sla_id, conversation_id, metric, deadline_at, outcome, at)
   select m.applied_sla_id, a.conversation_id, m.metric, m.deadline_at, 'met', m.met_at
     from applied_sla_metrics m join applied_slas a on a.id = m.applied_sla_id where m.met_at is not null and m.breached_at is null and m.deadline_at is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
