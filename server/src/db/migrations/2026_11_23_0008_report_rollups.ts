// Frozen: never edit a migration once it has landed; add a new dated one.
// Daily rollups for the tag report, kept by triggers in the same transaction as each change:
// per UTC day of a conversation's creation, how many conversations were created, how many of
// them carry at least one tag, and how many carry each tag. A report over a year then sums at
// most 366 rows per tag instead of reading every conversation tag of the year; only the part
// of the window before its first UTC midnight is counted from the rows themselves.
//
// Each conversation keeps its number of tags (`tag_count`), updated row by row, so a statement
// that adds or removes several tags of one conversation moves it between tagged and untagged
// exactly once, and concurrent changes of one conversation are serialised by its row lock.
// Conversation tags are inserted and deleted, never updated.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table report_daily_conversations (
     day date primary key,
     total integer not null default 0,
     tagged integer not null default 0
   )`,
  `create table report_daily_tags (
     day date not null,
     tag_id integer not null references tags (id) on delete cascade,
     count integer not null default 0,
     primary key (day, tag_id)
   )`,
  `alter table conversations add column tag_count integer not null default 0`,

  // Conversations: counted on their creation day.
  `create function report_conversation_changed() returns trigger language plpgsql set search_path from current as $$
   begin
     if tg_op = 'INSERT' then
       insert into report_daily_conversations as r (day, total, tagged)
       values ((new.created_at at time zone 'UTC')::date, 1, case when new.tag_count > 0 then 1 else 0 end)
       on conflict (day) do update set total = r.total + 1, tagged = r.tagged + excluded.tagged;
       return new;
     end if;
     update report_daily_conversations
        set total = total - 1, tagged = tagged - case when old.tag_count > 0 then 1 else 0 end
      where day = (old.created_at at time zone 'UTC')::date;
     return old;
   end
   $$`,
  `create trigger report_conversation_changed after insert or delete on conversations
   for each row execute function report_conversation_changed()`,

  // Conversation tags: the tag's daily count, the conversation's tag count, and the day's
  // tagged conversations when the conversation goes from no tag to one or from one to none.
  `create function report_conversation_tag_changed() returns trigger language plpgsql set search_path from current as $$
   declare
     remaining integer;
   begin
     if tg_op = 'INSERT' then
       insert into report_daily_tags as r (day, tag_id, count)
       values ((new.conversation_created_at at time zone 'UTC')::date, new.tag_id, 1)
       on conflict (day, tag_id) do update set count = r.count + 1;
       update conversations set tag_count = tag_count + 1 where id = new.conversation_id returning tag_count into remaining;
       if remaining = 1 then
         update report_daily_conversations set tagged = tagged + 1 where day = (new.conversation_created_at at time zone 'UTC')::date;
       end if;
       return new;
     end if;
     -- (A deleted tag's own rows are already gone: this update then finds nothing.)
     update report_daily_tags set count = count - 1
      where day = (old.conversation_created_at at time zone 'UTC')::date and tag_id = old.tag_id;
     -- (A deleted conversation is gone too: its own trigger took it out of the day's counts.)
     update conversations set tag_count = tag_count - 1 where id = old.conversation_id returning tag_count into remaining;
     if found and remaining = 0 then
       update report_daily_conversations set tagged = tagged - 1 where day = (old.conversation_created_at at time zone 'UTC')::date;
     end if;
     return old;
   end
   $$`,
  `create trigger report_conversation_tag_changed after insert or delete on conversation_tags
   for each row execute function report_conversation_tag_changed()`,

  // What exists already.
  `update conversations c set tag_count = t.n
     from (select conversation_id, count(*)::int as n from conversation_tags group by conversation_id) t
    where t.conversation_id = c.id`,
  `insert into report_daily_conversations (day, total, tagged)
   select (created_at at time zone 'UTC')::date, count(*), count(*) filter (where tag_count > 0)
     from conversations group by 1`,
  `insert into report_daily_tags (day, tag_id, count)
   select (conversation_created_at at time zone 'UTC')::date, tag_id, count(*)
     from conversation_tags group by 1, 2`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
