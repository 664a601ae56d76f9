// Frozen: never edit a migration once it has landed; add a new dated one.
// Daily rollups for the tag report: for each UTC day of a conversation's creation, how many
// conversations were created, how many of them carry at least one tag, and how many carry
// each tag. A report over a year then sums at most 366 rows per tag instead of reading every
// conversation tag of the year; only the part of the window before its first UTC midnight is
// counted from the rows themselves.
//
// Triggers only append to `report_pending` (+1/-1 per conversation or conversation tag), in
// the transaction of the change: appends never wait on each other, so no change queues behind
// another nor deadlocks on a shared counter. A periodic task folds the pending rows into the
// rollups, one fold at a time; reports add what is still pending, so they are exact at once.
// Conversation tags are inserted and deleted, never updated.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table report_daily_conversations (
     day date primary key,
     total integer not null default 0,
     tagged integer not null default 0
   )`,
  // No foreign key to tags: a tag deleted while a fold writes its rows would make the two wait
  // on each other (the cascade on the rollup rows, the fold's key check on the tag). Rows of a
  // deleted tag stay behind, ignored: reports and folds join tags.
  `create table report_daily_tags (
     day date not null,
     tag_id integer not null,
     count integer not null default 0,
     primary key (day, tag_id)
   )`,
  // No foreign keys: the conversation or tag of a pending row may be gone by the fold.
  `create table report_pending (
     id bigint generated always as identity primary key,
     day date not null,
     conversation_id integer not null,
     tag_id integer,
     delta smallint not null
   )`,

  `create function report_conversation_changed() returns trigger language plpgsql set search_path from current as $$
   begin
     if tg_op = 'INSERT' then
       insert into report_pending (day, conversation_id, tag_id, delta)
       values ((new.created_at at time zone 'UTC')::date, new.id, null, 1);
       return new;
     end if;
     insert into report_pending (day, conversation_id, tag_id, delta)
     values ((old.created_at at time zone 'UTC')::date, old.id, null, -1);
     return old;
   end
   $$`,
  `create trigger report_conversation_changed after insert or delete on conversations
   for each row execute function report_conversation_changed()`,

  `create function report_conversation_tag_changed() returns trigger language plpgsql set search_path from current as $$
   begin
     if tg_op = 'INSERT' then
       insert into report_pending (day, conversation_id, tag_id, delta)
       values ((new.conversation_created_at at time zone 'UTC')::date, new.conversation_id, new.tag_id, 1);
       return new;
     end if;
     insert into report_pending (day, conversation_id, tag_id, delta)
     values ((old.conversation_created_at at time zone 'UTC')::date, old.conversation_id, old.tag_id, -1);
     return old;
   end
   $$`,
  `create trigger report_conversation_tag_changed after insert or delete on conversation_tags
   for each row execute function report_conversation_tag_changed()`,
  `create function report_refuse_update() returns trigger language plpgsql as $$
   begin
     raise feature_not_supported using message = 'conversation tags are added and removed, never updated (the report rollups count them)';
   end
   $$`,
  `create trigger report_no_conversation_tag_update before update on conversation_tags
   for each row execute function report_refuse_update()`,

  // What exists already.
  `insert into report_daily_conversations (day, total, tagged)
   select (created_at at time zone 'UTC')::date, count(*),
          count(*) filter (where exists (select 1 from conversation_tags ct where ct.conversation_id = c.id))
     from conversations c group by 1`,
  `insert into report_daily_tags (day, tag_id, count)
   select (conversation_created_at at time zone 'UTC')::date, tag_id, count(*)
     from conversation_tags group by 1, 2`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
