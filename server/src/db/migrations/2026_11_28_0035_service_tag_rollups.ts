// Frozen: never edit a migration once it has landed; add a new dated one.
// The service report's rollups by tag (docs/performance.md, "The service report by tag from
// rollups"): the same counts as service_rollups (migration 0028: metrics, log bins, local days
// of the zone in service_rollup_state, blocks of 1, 4, 16, 64 and 256 days), once per tag a
// conversation has, full rows only (tag, inbox, team, assignee; no projections): a tag-filtered
// report reads one tag's rows, with or without a team, inbox or agent filter besides.
//
// A conversation's facts (its creation, first reply, resolutions, SLA outcomes and survey, each
// keyed as in 0028) are one view, service_facts. Triggers append to service_tag_pending in the
// change's transaction:
//   - a fact that changes notes itself (−old, +new) once per tag of its conversation;
//   - tagging a conversation notes all its facts for that tag (+1); untagging takes them out (−1),
//     so a tag added later carries the conversation's whole history;
//   - deleting a conversation takes all its facts out of every tag before the row goes; the rows
//     that go with it by cascade then find no conversation and note nothing;
//   - deleting a tag drops its rollup and pending rows; its conversation_tags rows go by cascade,
//     find no tag and note nothing.
// The periodic fold (service_tag_rollups_fold, beside service_rollups_fold) moves pending rows
// into the rollups; reports add what is still pending. service_rollups_rebuild(zone), the one
// rebuild the code calls (zone change, the benchmark's seed), now rebuilds both: the previous
// function is kept as service_rollups_rebuild_counts. parley.service_rollups = 'off' silences
// these triggers too.
import { type Kysely, sql } from 'kysely';

/** True when the bulk load's switch is off: the trigger returns at once. */
const OFF = `current_setting('parley.service_rollups', true) = 'off'`;

const statements = [
  `create table service_tag_pending (
     id bigint generated always as identity primary key,
     day integer not null,
     metric smallint not null,
     tag_id integer not null,
     inbox_id integer not null,
     team_id integer not null,
     assignee_id integer not null,
     bin smallint not null,
     delta integer not null
   )`,
  `create index service_tag_pending_tag_idx on service_tag_pending (tag_id, day)`,
  `create table service_tag_rollups (
     tag_id integer not null,
     size smallint not null,
     block integer not null,
     metric smallint not null,
     inbox_id integer not null,
     team_id integer not null,
     assignee_id integer not null,
     bin smallint not null,
     n integer not null,
     -- A report reads one tag's blocks: tag first; n included for index-only scans.
     primary key (tag_id, size, block, metric, inbox_id, team_id, assignee_id, bin) include (n)
   )`,
  // Facts by conversation: the outcomes had no such index (the tagging trigger and the rebuild's join read it).
  `create index sla_outcomes_conversation_idx on sla_outcomes (conversation_id)`,

  // Every fact of every conversation as 0028 keys it (none = 0); filtered by conversation_id,
  // each branch reads its own index.
  `create view service_facts as
     select c.id as conversation_id, service_day(c.created_at) as day, 1::smallint as metric, c.inbox_id,
            coalesce(c.assigned_team_id, 0) as team_id, coalesce(c.assigned_user_id, 0) as assignee_id, 0::smallint as bin
       from conversations c
     union all
     select c.id, service_day(c.first_reply_at), 3::smallint, c.inbox_id, coalesce(c.assigned_team_id, 0), coalesce(c.assigned_user_id, 0),
            service_bin(date_part('epoch', c.first_reply_at - c.created_at))
       from conversations c where c.first_reply_at is not null
     union all
     select r.conversation_id::integer, service_day(r.resolved_at), m.metric::smallint, r.inbox_id, coalesce(r.team_id, 0), coalesce(r.assignee_id, 0),
            case m.metric when 2 then 0::smallint else service_bin(date_part('epoch', r.resolved_at - r.conversation_created_at)) end
       from conversation_resolutions r cross join (values (2), (4)) as m (metric)
     union all
     select o.conversation_id, service_day(o.at), 5::smallint, c.inbox_id, coalesce(c.assigned_team_id, 0), coalesce(c.assigned_user_id, 0),
            service_sla_bin(o.metric, o.outcome)
       from sla_outcomes o join conversations c on c.id = o.conversation_id
     union all
     select s.conversation_id, service_day(s.created_at), 6::smallint, s.inbox_id, coalesce(s.team_id, 0), coalesce(s.assignee_id, 0), b.bin::smallint
       from csat_surveys s cross join lateral (select 0 as bin union all select s.rating where s.rating is not null) b`,

  // One fact of a conversation, once per tag it has.
  `create function service_tag_note(conversation_id integer, day integer, metric integer, inbox_id integer, team_id integer,
                                    assignee_id integer, bin integer, delta integer)
   returns void language sql set search_path from current as $$
     insert into service_tag_pending (day, metric, tag_id, inbox_id, team_id, assignee_id, bin, delta)
     select day, metric, ct.tag_id, coalesce(inbox_id, 0), coalesce(team_id, 0), coalesce(assignee_id, 0), bin, delta
       from conversation_tags ct where ct.conversation_id = service_tag_note.conversation_id and day is not null
   $$`,
  // All facts of a conversation for one tag (null: for every tag it has now; a tag given need
  // not be on it any more: untagging notes after the row went).
  `create function service_tag_note_all(cid integer, tag integer, sign integer) returns void language sql set search_path from current as $$
     insert into service_tag_pending (day, metric, tag_id, inbox_id, team_id, assignee_id, bin, delta)
     select f.day, f.metric, t.tag_id, f.inbox_id, f.team_id, f.assignee_id, f.bin, sign * count(*)::integer
       from service_facts f
       cross join (select tag as tag_id where tag is not null
                   union all select ct.tag_id from conversation_tags ct where tag is null and ct.conversation_id = cid) t
      where f.conversation_id = cid and f.day is not null
      group by 1, 2, 3, 4, 5, 6, 7
   $$`,

  // A conversation changed (the columns 0028's update trigger watches) or goes.
  `create function service_tag_conversation_note(c conversations, sign integer, outcomes boolean) returns void
   language plpgsql set search_path from current as $$
   begin
     perform service_tag_note(c.id, service_day(c.created_at), 1, c.inbox_id, c.assigned_team_id, c.assigned_user_id, 0, sign);
     if c.first_reply_at is not null then
       perform service_tag_note(c.id, service_day(c.first_reply_at), 3, c.inbox_id, c.assigned_team_id, c.assigned_user_id,
                                service_bin(date_part('epoch', c.first_reply_at - c.created_at)), sign);
     end if;
     if outcomes then
       perform service_tag_note(c.id, service_day(o.at), 5, c.inbox_id, c.assigned_team_id, c.assigned_user_id,
                                service_sla_bin(o.metric, o.outcome), sign)
          from sla_outcomes o where o.conversation_id = c.id;
     end if;
   end
   $$`,
  `create function service_tag_conversation_changed() returns trigger language plpgsql set search_path from current as $$
   declare moved boolean;
   begin
     if ${OFF} then return case when tg_op = 'DELETE' then old else new end; end if;
     if tg_op = 'DELETE' then
       perform service_tag_note_all(old.id, null, -1);
       return old;
     end if;
     moved := (old.inbox_id, old.assigned_team_id, old.assigned_user_id) is distinct from (new.inbox_id, new.assigned_team_id, new.assigned_user_id);
     perform service_tag_conversation_note(old, -1, moved);
     perform service_tag_conversation_note(new, 1, moved);
     return new;
   end
   $$`,
  // A new conversation has no tags yet: updates and deletes only.
  `create trigger service_tag_conversation_updated after update on conversations
   for each row when ((old.inbox_id, old.assigned_team_id, old.assigned_user_id, old.created_at, old.first_reply_at)
                      is distinct from (new.inbox_id, new.assigned_team_id, new.assigned_user_id, new.created_at, new.first_reply_at))
   execute function service_tag_conversation_changed()`,
  `create trigger service_tag_conversation_deleted before delete on conversations
   for each row execute function service_tag_conversation_changed()`,

  `create function service_tag_resolution_note(r conversation_resolutions, sign integer) returns void language sql set search_path from current as $$
     select service_tag_note(r.conversation_id::integer, service_day(r.resolved_at), 2, r.inbox_id, r.team_id, r.assignee_id, 0, sign);
     select service_tag_note(r.conversation_id::integer, service_day(r.resolved_at), 4, r.inbox_id, r.team_id, r.assignee_id,
                             service_bin(date_part('epoch', r.resolved_at - r.conversation_created_at)), sign);
   $$`,
  `create function service_tag_resolution_changed() returns trigger language plpgsql set search_path from current as $$
   begin
     if ${OFF} then return null; end if;
     if tg_op <> 'INSERT' then perform service_tag_resolution_note(old, -1); end if;
     if tg_op <> 'DELETE' then perform service_tag_resolution_note(new, 1); end if;
     return null;
   end
   $$`,
  `create trigger service_tag_resolution_changed after insert or update or delete on conversation_resolutions
   for each row execute function service_tag_resolution_changed()`,

  // Keyed by the conversation's inbox, team and assignee now: none once the conversation is gone.
  `create function service_tag_sla_outcome_note(o sla_outcomes, sign integer) returns void language sql set search_path from current as $$
     select service_tag_note(c.id, service_day(o.at), 5, c.inbox_id, c.assigned_team_id, c.assigned_user_id, service_sla_bin(o.metric, o.outcome), sign)
       from conversations c where c.id = o.conversation_id;
   $$`,
  `create function service_tag_sla_outcome_changed() returns trigger language plpgsql set search_path from current as $$
   begin
     if ${OFF} then return null; end if;
     if tg_op <> 'INSERT' then perform service_tag_sla_outcome_note(old, -1); end if;
     if tg_op <> 'DELETE' then perform service_tag_sla_outcome_note(new, 1); end if;
     return null;
   end
   $$`,
  `create trigger service_tag_sla_outcome_changed after insert or update or delete on sla_outcomes
   for each row execute function service_tag_sla_outcome_changed()`,

  `create function service_tag_csat_note(s csat_surveys, sign integer) returns void language sql set search_path from current as $$
     select service_tag_note(s.conversation_id, service_day(s.created_at), 6, s.inbox_id, s.team_id, s.assignee_id, b.bin, sign)
       from (select 0 as bin union all select s.rating where s.rating is not null) b;
   $$`,
  `create function service_tag_csat_changed() returns trigger language plpgsql set search_path from current as $$
   begin
     if ${OFF} then return null; end if;
     if tg_op <> 'INSERT' then perform service_tag_csat_note(old, -1); end if;
     if tg_op <> 'DELETE' then perform service_tag_csat_note(new, 1); end if;
     return null;
   end
   $$`,
  `create trigger service_tag_csat_changed after insert or update of created_at, rating, inbox_id, team_id, assignee_id, conversation_id
   or delete on csat_surveys for each row execute function service_tag_csat_changed()`,

  // Tagging moves the conversation's whole history into the tag; untagging takes it out. A row
  // that goes with its conversation or its tag (cascade) notes nothing: the conversation's
  // delete trigger, or the tag's, has dealt with it.
  `create function service_tag_tagging_changed() returns trigger language plpgsql set search_path from current as $$
   begin
     if ${OFF} then return null; end if;
     if tg_op <> 'INSERT' and exists (select 1 from conversations where id = old.conversation_id)
                          and exists (select 1 from tags where id = old.tag_id) then
       perform service_tag_note_all(old.conversation_id, old.tag_id, -1);
     end if;
     if tg_op <> 'DELETE' then perform service_tag_note_all(new.conversation_id, new.tag_id, 1); end if;
     return null;
   end
   $$`,
  `create trigger service_tag_tagging_changed after insert or update or delete on conversation_tags
   for each row execute function service_tag_tagging_changed()`,
  `create function service_tag_deleted() returns trigger language plpgsql set search_path from current as $$
   begin
     delete from service_tag_pending where tag_id = old.id;
     delete from service_tag_rollups where tag_id = old.id;
     return null;
   end
   $$`,
  `create trigger service_tag_deleted after delete on tags for each row execute function service_tag_deleted()`,

  // The fold, as 0028's: pending rows summed per day and key into every block size, in one statement.
  `create function service_tag_rollups_fold() returns integer language sql set search_path from current as $$
     with moved as (
       delete from service_tag_pending returning day, metric, tag_id, inbox_id, team_id, assignee_id, bin, delta
     ), s1 as (
       select day as block, metric, tag_id, inbox_id, team_id, assignee_id, bin, sum(delta) as n
         from moved group by 1, 2, 3, 4, 5, 6, 7 having sum(delta) <> 0
     ), s4 as (
       select block - block % 4 as block, metric, tag_id, inbox_id, team_id, assignee_id, bin, sum(n) as n from s1 group by 1, 2, 3, 4, 5, 6, 7
     ), s16 as (
       select block - block % 16 as block, metric, tag_id, inbox_id, team_id, assignee_id, bin, sum(n) as n from s4 group by 1, 2, 3, 4, 5, 6, 7
     ), s64 as (
       select block - block % 64 as block, metric, tag_id, inbox_id, team_id, assignee_id, bin, sum(n) as n from s16 group by 1, 2, 3, 4, 5, 6, 7
     ), s256 as (
       select block - block % 256 as block, metric, tag_id, inbox_id, team_id, assignee_id, bin, sum(n) as n from s64 group by 1, 2, 3, 4, 5, 6, 7
     ), written as (
       insert into service_tag_rollups as r (tag_id, size, block, metric, inbox_id, team_id, assignee_id, bin, n)
       select tag_id, size, block, metric, inbox_id, team_id, assignee_id, bin, n
         from (select 1 as size, * from s1 union all select 4, * from s4 union all select 16, * from s16
               union all select 64, * from s64 union all select 256, * from s256) x
        where n <> 0
        order by tag_id, size, block, metric, inbox_id, team_id, assignee_id, bin
       on conflict (tag_id, size, block, metric, inbox_id, team_id, assignee_id, bin) do update set n = r.n + excluded.n
       returning 1
     )
     select (select count(*)::int from moved)
   $$`,
  // Everything again in the zone service_rollup_state holds, holding off the writers of what it reads.
  `create function service_tag_rollups_rebuild() returns void language plpgsql set search_path from current as $$
   begin
     lock table conversations, conversation_resolutions, sla_outcomes, csat_surveys, conversation_tags in share row exclusive mode;
     truncate service_tag_pending;
     delete from service_tag_rollups;
     insert into service_tag_pending (day, metric, tag_id, inbox_id, team_id, assignee_id, bin, delta)
     select f.day, f.metric, ct.tag_id, f.inbox_id, f.team_id, f.assignee_id, f.bin, count(*)
       from service_facts f join conversation_tags ct on ct.conversation_id = f.conversation_id
      where f.day is not null
      group by 1, 2, 3, 4, 5, 6, 7;
     perform service_tag_rollups_fold();
     truncate service_tag_pending;
   end
   $$`,
  `alter function service_rollups_rebuild(text) rename to service_rollups_rebuild_counts`,
  // Every table either rebuild reads, locked at once first: taken one rebuild after the other, a
  // tag change holding conversation_tags and waiting for conversations would deadlock with it.
  `create function service_rollups_rebuild(zone text) returns void language plpgsql set search_path from current as $$
   begin
     lock table conversations, conversation_resolutions, sla_outcomes, csat_surveys, conversation_tags in share row exclusive mode;
     perform service_rollups_rebuild_counts(zone);
     perform service_tag_rollups_rebuild();
   end
   $$`,
  // The backfill, in the zone the rollups are keyed in now.
  `select service_tag_rollups_rebuild()`,
  `analyze service_tag_rollups`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
