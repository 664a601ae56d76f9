// Frozen: never edit a migration once it has landed; add a new dated one.
// Conversation counts for the lists' true totals (contract: `total` is the true total). A list
// counted its rows on every page: for an agent with 19,000 conversations that count was most of
// the page's cost, and for the "all" view of a million conversations about 100 ms.
//
// conversation_counts holds how many conversations there are per key (assignee, team, status,
// inbox; none = 0). A list whose filters are among these (its scope, statuses, teams, assignees,
// inboxes: countedTotal in conversations/records.queries.ts) sums a few rows instead of counting
// conversations.
//
// As for the report rollups (migrations 0008, 0028): triggers only append ±1 rows to
// conversation_count_pending in the change's transaction, so that no change waits on another
// for a shared counter nor deadlocks on one; a periodic fold moves them into the counts, one
// fold at a time; a total adds what is still pending, so it is exact at once, in the snapshot of
// the statement that reads the page. conversation_counts_rebuild() is the one owner of the
// backfill: this migration and the benchmark's seed (which sets parley.conversation_counts =
// 'off' on its bulk sessions, so that the triggers note nothing row by row) call it.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table conversation_counts (
     assignee_id integer not null,
     team_id integer not null,
     status_id integer not null,
     inbox_id integer not null,
     n integer not null,
     primary key (assignee_id, team_id, status_id, inbox_id) include (n)
   )`,
  // No key: the fold deletes every row it sees.
  `create table conversation_count_pending (
     assignee_id integer not null,
     team_id integer not null,
     status_id integer not null,
     inbox_id integer not null,
     delta smallint not null
   )`,
  `create index conversation_count_pending_assignee_idx on conversation_count_pending (assignee_id)`,

  `create function conversation_counts_note() returns trigger language plpgsql set search_path from current as $$
   begin
     if current_setting('parley.conversation_counts', true) = 'off' then return null; end if;
     if tg_op = 'UPDATE' then
       insert into conversation_count_pending (assignee_id, team_id, status_id, inbox_id, delta)
       values (coalesce(old.assigned_user_id, 0), coalesce(old.assigned_team_id, 0), old.status_id, old.inbox_id, -1),
              (coalesce(new.assigned_user_id, 0), coalesce(new.assigned_team_id, 0), new.status_id, new.inbox_id, 1);
     elsif tg_op = 'INSERT' then
       insert into conversation_count_pending (assignee_id, team_id, status_id, inbox_id, delta)
       values (coalesce(new.assigned_user_id, 0), coalesce(new.assigned_team_id, 0), new.status_id, new.inbox_id, 1);
     else
       insert into conversation_count_pending (assignee_id, team_id, status_id, inbox_id, delta)
       values (coalesce(old.assigned_user_id, 0), coalesce(old.assigned_team_id, 0), old.status_id, old.inbox_id, -1);
     end if;
     return null;
   end
   $$`,
  `create trigger conversation_counts_inserted_deleted after insert or delete on conversations
   for each row execute function conversation_counts_note()`,
  // Only when a counted column really changes: a reply's update of the conversation costs nothing here.
  // A team or agent deleted sets the column to null through its foreign key: an update like any other.
  `create trigger conversation_counts_updated after update of assigned_user_id, assigned_team_id, status_id, inbox_id on conversations
   for each row when ((old.assigned_user_id, old.assigned_team_id, old.status_id, old.inbox_id)
                      is distinct from (new.assigned_user_id, new.assigned_team_id, new.status_id, new.inbox_id))
   execute function conversation_counts_note()`,
  `create function conversation_counts_cleared() returns trigger language plpgsql set search_path from current as $$
   begin
     delete from conversation_count_pending;
     delete from conversation_counts;
     return null;
   end
   $$`,
  `create trigger conversation_counts_truncated after truncate on conversations
   for each statement execute function conversation_counts_cleared()`,

  // The fold: pending rows summed per key into the counts, in one statement (one snapshot: it
  // deletes exactly what it adds), written in key order. Keys whose count falls to 0 stay: one
  // row per combination of assignee, team, status and inbox that ever held a conversation.
  `create function conversation_counts_fold() returns integer language sql set search_path from current as $$
     with moved as (
       delete from conversation_count_pending returning assignee_id, team_id, status_id, inbox_id, delta
     ), written as (
       insert into conversation_counts as k (assignee_id, team_id, status_id, inbox_id, n)
       select assignee_id, team_id, status_id, inbox_id, sum(delta)
         from moved group by 1, 2, 3, 4 having sum(delta) <> 0
        order by 1, 2, 3, 4
       on conflict (assignee_id, team_id, status_id, inbox_id) do update set n = k.n + excluded.n
       returning 1
     )
     select count(*)::int from moved
   $$`,

  // Everything again from the conversations: holds their writers off meanwhile (a share lock), so
  // that no change falls between the rebuild's snapshot and the pending rows it clears, and the
  // fold too (its lock, conversations/counts.queries.ts), whose rows would collide with its own.
  `create function conversation_counts_rebuild() returns void language plpgsql set search_path from current as $$
   begin
     perform pg_advisory_xact_lock(727276, hashtext(current_schema()));
     lock table conversations in share row exclusive mode;
     delete from conversation_count_pending;
     delete from conversation_counts;
     insert into conversation_counts (assignee_id, team_id, status_id, inbox_id, n)
     select coalesce(assigned_user_id, 0), coalesce(assigned_team_id, 0), status_id, inbox_id, count(*)
       from conversations group by 1, 2, 3, 4 order by 1, 2, 3, 4;
   end
   $$`,
  `select conversation_counts_rebuild()`,
  `analyze conversation_counts`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
