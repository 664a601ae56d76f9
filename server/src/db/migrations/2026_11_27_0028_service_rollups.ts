// Frozen: never edit a migration once it has landed; add a new dated one.
// Rollups for the service report (docs/performance.md, "Service report"): counts per LOCAL day
// of the report's time zone, so that a report over whole local days (all it ever asks for)
// reads rollup rows only, in any zone (half-hour ones too), with no edges read from rows. The
// zone they are keyed in is recorded (service_rollup_state); when the settings' zone differs,
// the report reads the rows (exact, slower) until the periodic fold rebuilds them in the new zone.
//
// One table of counts, service_rollups (size, block, metric, inbox_id, team_id, assignee_id, bin, n):
//   metric 1 created     by conversation creation day, its inbox, team and assignee now
//   metric 2 resolved    by resolution day, the inbox, team and assignee of that moment
//   metric 3 first reply by first-reply day, the conversation's now; bin = log bin of the seconds
//   metric 4 resolution  like 2; bin = log bin of the seconds from creation
//   metric 5 SLA outcome by decision day, the conversation's now; bin = 2 × metric index + breached
//   metric 6 CSAT        by sending day, the survey's own inbox, team, assignee; bin 0 = sent, 1..5 = answers by rating
// Log bins: bin 0 = under 1 s, bin b ≥ 1 = [1.04^(b-1), 1.04^b) s, read as 1.04^(b-½): within 2%.
// Blocks: days are days since 1970-01-01 (local); each count is kept in blocks of 1, 4, 16, 64
// and 256 days (block = first day), so a year decomposes into a dozen blocks or so. And in four
// projections: the row itself (inbox, team, assignee; none = 0), all (-1, -1, -1), per team
// (-1, team, -1; metrics 1 and 2), per assignee (-1, -1, assignee; metrics 2, 3 and 6): an
// unfiltered report reads few rows.
//
// As for the tag report (migration 0008), triggers only append to service_pending in the
// change's transaction; the periodic fold moves pending rows into the rollups; reports add
// what is still pending. service_rollups_rebuild(zone) is the one owner of the backfill SQL:
// this migration, a zone change and the benchmark's seed call it.
// A bulk load (the benchmark's seed) may set parley.service_rollups = 'off' on its session:
// the triggers then note nothing, and it calls service_rollups_rebuild once done.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table service_rollup_state (
     id boolean primary key default true check (id),
     timezone text not null
   )`,
  `create table service_pending (
     id bigint generated always as identity primary key,
     day integer not null,
     metric smallint not null,
     inbox_id integer not null,
     team_id integer not null,
     assignee_id integer not null,
     bin smallint not null,
     delta integer not null
   )`,
  `create index service_pending_day_idx on service_pending (day)`,
  `create table service_rollups (
     size smallint not null,
     block integer not null,
     metric smallint not null,
     inbox_id integer not null,
     team_id integer not null,
     assignee_id integer not null,
     bin smallint not null,
     n integer not null,
     -- n included: a report's reads are index-only scans.
     primary key (size, block, inbox_id, metric, team_id, assignee_id, bin) include (n)
   )`,
  // A filtered report's days: created and resolved per day, whatever the filter (the key above
  // serves the projections, by block).
  `create index service_rollups_days_idx on service_rollups (block, metric, inbox_id, team_id, assignee_id) include (n)
     where size = 1 and metric in (1, 2) and inbox_id >= 0`,

  `create function service_bin(seconds double precision) returns smallint language sql immutable parallel safe as $$
     select case when seconds is null then null when seconds < 1 then 0 else least(1 + floor(ln(seconds) / ln(1.04)), 32000) end::smallint
   $$`,
  `create function service_day(at timestamptz) returns integer language sql stable set search_path from current as $$
     select ((at at time zone (select timezone from service_rollup_state))::date - date '1970-01-01')
   $$`,
  `create function service_note(day integer, metric integer, inbox_id integer, team_id integer, assignee_id integer, bin integer, delta integer)
   returns void language sql set search_path from current as $$
     insert into service_pending (day, metric, inbox_id, team_id, assignee_id, bin, delta)
     select day, metric, coalesce(inbox_id, 0), coalesce(team_id, 0), coalesce(assignee_id, 0), bin, delta where day is not null
   $$`,
  // An SLA outcome's bin: 2 × metric index + 1 when breached.
  `create function service_sla_bin(metric text, outcome text) returns smallint language sql immutable as $$
     select ((case metric when 'first_response' then 0 when 'next_response' then 1 else 2 end) * 2 + (case when outcome = 'breached' then 1 else 0 end))::smallint
   $$`,

  // A conversation: its creation, its first reply, and (when its inbox, team or assignee change,
  // or it goes) the SLA outcomes that follow its inbox, team and assignee now. Deleting: before
  // the row goes (its outcomes go by cascade after, and their trigger then finds no conversation
  // and leaves them to this one).
  `create function service_conversation_note(c conversations, sign integer, outcomes boolean) returns void
   language plpgsql set search_path from current as $$
   begin
     perform service_note(service_day(c.created_at), 1, c.inbox_id, c.assigned_team_id, c.assigned_user_id, 0, sign);
     if c.first_reply_at is not null then
       perform service_note(service_day(c.first_reply_at), 3, c.inbox_id, c.assigned_team_id, c.assigned_user_id,
                            service_bin(date_part('epoch', c.first_reply_at - c.created_at)), sign);
     end if;
     if outcomes then
       perform service_note(service_day(o.at), 5, c.inbox_id, c.assigned_team_id, c.assigned_user_id, service_sla_bin(o.metric, o.outcome), sign)
          from sla_outcomes o where o.conversation_id = c.id;
     end if;
   end
   $$`,
  `create function service_conversation_changed() returns trigger language plpgsql set search_path from current as $$
   declare moved boolean := tg_op = 'UPDATE' and (old.inbox_id, old.assigned_team_id, old.assigned_user_id)
                                                  is distinct from (new.inbox_id, new.assigned_team_id, new.assigned_user_id);
   begin
     if current_setting('parley.service_rollups', true) = 'off' then return case when tg_op = 'DELETE' then old else new end; end if;
     if tg_op = 'DELETE' then
       perform service_conversation_note(old, -1, true);
       return old;
     end if;
     if tg_op = 'UPDATE' then perform service_conversation_note(old, -1, moved); end if;
     perform service_conversation_note(new, 1, moved);
     return new;
   end
   $$`,
  `create trigger service_conversation_inserted after insert on conversations
   for each row execute function service_conversation_changed()`,
  `create trigger service_conversation_updated after update on conversations
   for each row when ((old.inbox_id, old.assigned_team_id, old.assigned_user_id, old.created_at, old.first_reply_at)
                      is distinct from (new.inbox_id, new.assigned_team_id, new.assigned_user_id, new.created_at, new.first_reply_at))
   execute function service_conversation_changed()`,
  `create trigger service_conversation_deleted before delete on conversations
   for each row execute function service_conversation_changed()`,

  `create function service_resolution_note(r conversation_resolutions, sign integer) returns void language sql set search_path from current as $$
     select service_note(service_day(r.resolved_at), 2, r.inbox_id, r.team_id, r.assignee_id, 0, sign);
     select service_note(service_day(r.resolved_at), 4, r.inbox_id, r.team_id, r.assignee_id,
                         service_bin(date_part('epoch', r.resolved_at - r.conversation_created_at)), sign);
   $$`,
  `create function service_resolution_changed() returns trigger language plpgsql set search_path from current as $$
   begin
     if current_setting('parley.service_rollups', true) = 'off' then return null; end if;
     if tg_op <> 'INSERT' then perform service_resolution_note(old, -1); end if;
     if tg_op <> 'DELETE' then perform service_resolution_note(new, 1); end if;
     return null;
   end
   $$`,
  `create trigger service_resolution_changed after insert or update or delete on conversation_resolutions
   for each row execute function service_resolution_changed()`,

  `create function service_sla_outcome_note(o sla_outcomes, sign integer) returns void language sql set search_path from current as $$
     select service_note(service_day(o.at), 5, c.inbox_id, c.assigned_team_id, c.assigned_user_id, service_sla_bin(o.metric, o.outcome), sign)
       from conversations c where c.id = o.conversation_id;
   $$`,
  `create function service_sla_outcome_changed() returns trigger language plpgsql set search_path from current as $$
   begin
     if current_setting('parley.service_rollups', true) = 'off' then return null; end if;
     if tg_op <> 'INSERT' then perform service_sla_outcome_note(old, -1); end if;
     if tg_op <> 'DELETE' then perform service_sla_outcome_note(new, 1); end if;
     return null;
   end
   $$`,
  `create trigger service_sla_outcome_changed after insert or update or delete on sla_outcomes
   for each row execute function service_sla_outcome_changed()`,

  `create function service_csat_note(s csat_surveys, sign integer) returns void language sql set search_path from current as $$
     select service_note(service_day(s.created_at), 6, s.inbox_id, s.team_id, s.assignee_id, b.bin, sign)
       from (select 0 as bin union all select s.rating where s.rating is not null) b;
   $$`,
  `create function service_csat_changed() returns trigger language plpgsql set search_path from current as $$
   begin
     if current_setting('parley.service_rollups', true) = 'off' then return null; end if;
     if tg_op <> 'INSERT' then perform service_csat_note(old, -1); end if;
     if tg_op <> 'DELETE' then perform service_csat_note(new, 1); end if;
     return null;
   end
   $$`,
  `create trigger service_csat_changed after insert or update of created_at, rating, inbox_id, team_id, assignee_id or delete on csat_surveys
   for each row execute function service_csat_changed()`,

  // The fold: pending rows, summed per day and key, into every projection and block size, in
  // one statement (one snapshot: it deletes exactly what it adds). The per-team projection
  // keeps only what the report shows per team (created, resolved), the per-assignee one only
  // resolved, first replies and CSAT. Each block size is summed from the one below it.
  `create function service_rollups_fold() returns integer language sql set search_path from current as $$
     with moved as (
       delete from service_pending returning day, metric, inbox_id, team_id, assignee_id, bin, delta
     ), base as (
       select day, metric, inbox_id, team_id, assignee_id, bin, sum(delta) as n
         from moved group by 1, 2, 3, 4, 5, 6 having sum(delta) <> 0
     ), s1 as (
       select day as block, metric, inbox_id, team_id, assignee_id, bin, sum(n) as n
         from (select day, metric, inbox_id, team_id, assignee_id, bin, n from base
               union all select day, metric, -1, -1, -1, bin, n from base
               union all select day, metric, -1, team_id, -1, bin, n from base where metric in (1, 2)
               union all select day, metric, -1, -1, assignee_id, bin, n from base where metric in (2, 3, 6)) p
        group by 1, 2, 3, 4, 5, 6
     ), s4 as (
       select block - block % 4 as block, metric, inbox_id, team_id, assignee_id, bin, sum(n) as n from s1 group by 1, 2, 3, 4, 5, 6
     ), s16 as (
       select block - block % 16 as block, metric, inbox_id, team_id, assignee_id, bin, sum(n) as n from s4 group by 1, 2, 3, 4, 5, 6
     ), s64 as (
       select block - block % 64 as block, metric, inbox_id, team_id, assignee_id, bin, sum(n) as n from s16 group by 1, 2, 3, 4, 5, 6
     ), s256 as (
       select block - block % 256 as block, metric, inbox_id, team_id, assignee_id, bin, sum(n) as n from s64 group by 1, 2, 3, 4, 5, 6
     ), written as (
       insert into service_rollups as r (size, block, metric, inbox_id, team_id, assignee_id, bin, n)
       select size, block, metric, inbox_id, team_id, assignee_id, bin, n
         from (select 1 as size, * from s1 union all select 4, * from s4 union all select 16, * from s16
               union all select 64, * from s64 union all select 256, * from s256) x
        where n <> 0
        order by size, block, inbox_id, metric, team_id, assignee_id, bin
       on conflict (size, block, inbox_id, metric, team_id, assignee_id, bin) do update set n = r.n + excluded.n
       returning 1
     )
     select (select count(*)::int from moved)
   $$`,

  // Everything again, keyed in the given zone: waits for the writers of the rows it reads and
  // holds them off meanwhile (share locks), so that no change falls between the rebuild's
  // snapshot and pending rows of the old zone. One set-based statement per source table.
  `create function service_rollups_rebuild(zone text) returns void language plpgsql set search_path from current as $$
   begin
     lock table conversations, conversation_resolutions, sla_outcomes, csat_surveys in share row exclusive mode;
     truncate service_pending;
     delete from service_rollups;
     insert into service_rollup_state (id, timezone) values (true, zone) on conflict (id) do update set timezone = excluded.timezone;
     insert into service_pending (day, metric, inbox_id, team_id, assignee_id, bin, delta)
     select service_day(created_at), 1, inbox_id, coalesce(assigned_team_id, 0), coalesce(assigned_user_id, 0), 0, count(*)
       from conversations group by 1, 3, 4, 5;
     insert into service_pending (day, metric, inbox_id, team_id, assignee_id, bin, delta)
     select service_day(first_reply_at), 3, inbox_id, coalesce(assigned_team_id, 0), coalesce(assigned_user_id, 0),
            service_bin(date_part('epoch', first_reply_at - created_at)), count(*)
       from conversations where first_reply_at is not null group by 1, 3, 4, 5, 6;
     insert into service_pending (day, metric, inbox_id, team_id, assignee_id, bin, delta)
     select day, m.metric, inbox_id, team_id, assignee_id, case m.metric when 2 then 0 else bin end, count(*)
       from (select service_day(resolved_at) as day, inbox_id, coalesce(team_id, 0) as team_id, coalesce(assignee_id, 0) as assignee_id,
                    service_bin(date_part('epoch', resolved_at - conversation_created_at)) as bin
               from conversation_resolutions) r
       cross join (values (2), (4)) as m (metric)
      group by 1, 2, 3, 4, 5, 6;
     insert into service_pending (day, metric, inbox_id, team_id, assignee_id, bin, delta)
     select service_day(o.at), 5, c.inbox_id, coalesce(c.assigned_team_id, 0), coalesce(c.assigned_user_id, 0),
            service_sla_bin(o.metric, o.outcome), count(*)
       from sla_outcomes o join conversations c on c.id = o.conversation_id group by 1, 3, 4, 5, 6;
     insert into service_pending (day, metric, inbox_id, team_id, assignee_id, bin, delta)
     select service_day(s.created_at), 6, s.inbox_id, coalesce(s.team_id, 0), coalesce(s.assignee_id, 0), b.bin, count(*)
       from csat_surveys s cross join lateral (select 0 as bin union all select s.rating where s.rating is not null) b
      group by 1, 3, 4, 5, 6;
     perform service_rollups_fold();
     -- The staged rows are gone; truncating leaves no dead rows behind for reports to step over.
     truncate service_pending;
   end
   $$`,
  // Upgraded installations: in the zone of the settings if one is set; else UTC, and the first
  // fold rebuilds them if the installation's TIMEZONE says otherwise.
  `select service_rollups_rebuild(coalesce((select timezone from general_settings where timezone is not null limit 1), 'UTC'))`,
  // Statistics now (the first reports' plans need them); autovacuum sets the visibility map
  // the index-only scans rely on shortly after.
  `analyze service_rollups`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
