// Every SQL statement of the reports domain. Aggregates are computed by the database
// in one pass each; nothing loops per tag or per conversation.
import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { Availability } from '../db/types.ts';

export interface TagDistributionRows {
  totals: { total: number; tagged: number };
  topTags: Array<{ tag_id: number; tag_name: string; count: number }>;
}

/** The first UTC midnight at or after the instant. */
export function nextUtcMidnight(instant: Date): Date {
  const midnight = new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()));
  return midnight.getTime() === instant.getTime() ? midnight : new Date(midnight.getTime() + 24 * 60 * 60 * 1000);
}

/**
 * Conversations created since `since`: how many there are, how many carry a tag, and the
 * `limit` most used tags among them (count desc, then name), in one statement (one snapshot,
 * so the totals and the per-tag counts agree). Whole UTC days come from the daily rollups
 * plus what is pending for them (migration 0008); the part of the window before its first
 * UTC midnight from the rows themselves, through the (window, tag, conversation) index of
 * conversation tags (migration 0007) and the (created_at, id) index of conversations.
 */
export async function tagDistribution(db: DB, since: Date, limit: number): Promise<TagDistributionRows> {
  const dayStart = nextUtcMidnight(since);
  const firstDay = dayStart.toISOString().slice(0, 10);
  const { rows } = await sql<{ total: number; tagged: number; top_tags: TagDistributionRows['topTags'] }>`
    with edge_tags as materialized (
      select tag_id, conversation_id from conversation_tags
       where conversation_created_at >= ${since} and conversation_created_at < ${dayStart}
    ), pending as materialized (
      select day, conversation_id, tag_id, delta from report_pending where day >= ${firstDay}::date
    ), per_tag as (
      select tag_id, sum(count)::int as count
        from (
          select tag_id, count from report_daily_tags where day >= ${firstDay}::date
          union all
          select tag_id, sum(delta)::int from pending where tag_id is not null group by tag_id
          union all
          select tag_id, count(*)::int from edge_tags group by tag_id
        ) parts
       group by tag_id
      having sum(count) > 0
    )
    select
      (select coalesce(sum(total), 0)::int from report_daily_conversations where day >= ${firstDay}::date)
        + (select coalesce(sum(delta), 0)::int from pending where tag_id is null)
        + (select count(*)::int from conversations where created_at >= ${since} and created_at < ${dayStart}) as total,
      (select coalesce(sum(tagged), 0)::int from report_daily_conversations where day >= ${firstDay}::date)
        + (select coalesce(sum(change), 0)::int from (${taggedChanges(sql`pending`)}) changes)
        + (select count(distinct conversation_id)::int from edge_tags) as tagged,
      (select coalesce(json_agg(json_build_object('tag_id', top.tag_id, 'tag_name', top.tag_name, 'count', top.count) order by top.rank), '[]'::json)
         from (
           select t.id as tag_id, t.name as tag_name, p.count,
                  row_number() over (order by p.count desc, lower(t.name), t.name, t.id) as rank
           from per_tag p join tags t on t.id = p.tag_id
           order by rank
           limit ${limit}
         ) top) as top_tags
  `.execute(db);
  const row = rows[0];
  if (!row) throw new Error('the tag distribution query returned no row');
  return { totals: { total: row.total, tagged: row.tagged }, topTags: row.top_tags };
}

/**
 * Per day, how the number of tagged conversations changes with the given pending rows: a
 * conversation whose net tag change brought it from no tag to some counts +1, from some to
 * none -1. Its tags now are read in the same snapshot as the pending rows (a change writes both
 * in one transaction), so now − net is what it had before them.
 */
function taggedChanges(pending: RawBuilder<unknown>) {
  return sql`
    select touched.day,
           case when now_tags.n > 0 and now_tags.n - touched.net = 0 then 1
                when now_tags.n = 0 and now_tags.n - touched.net > 0 then -1
                else 0 end as change
      from (select day, conversation_id, sum(delta) as net from ${pending} where tag_id is not null group by day, conversation_id) touched
      cross join lateral (select count(*) as n from conversation_tags ct where ct.conversation_id = touched.conversation_id) now_tags`;
}

/**
 * Moves the pending rows into the daily rollups, in one statement (one snapshot): the rows it
 * deletes are exactly the changes it sees. Rollup rows are written in (day, tag) order. Rows of
 * tags deleted since carry no per-tag count any more (the join with tags drops them) but still
 * move their conversations' tagged state. Returns how many pending rows were folded.
 */
/** Inside a transaction: true when this transaction may fold (one fold at a time across instances). */
export async function tryLockFold(db: DB): Promise<boolean> {
  // Keyed by schema too: installations (or tests) sharing one database in separate schemas fold independently.
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(727275, hashtext(current_schema())) as locked`.execute(
    db,
  );
  return rows[0]?.locked === true;
}

export async function foldPendingRollups(db: DB): Promise<number> {
  const { rows } = await sql<{ folded: number }>`
    with moved as (
      delete from report_pending returning day, conversation_id, tag_id, delta
    ), per_day as (
      select day, sum(total)::int as total, sum(tagged)::int as tagged
        from (
          select day, sum(delta) as total, 0 as tagged from moved where tag_id is null group by day
          union all
          select day, 0, sum(change) from (${taggedChanges(sql`moved`)}) changes group by day
        ) parts
       group by day
    ), days as (
      insert into report_daily_conversations as r (day, total, tagged)
      select day, total, tagged from per_day where total <> 0 or tagged <> 0 order by day
      on conflict (day) do update set total = r.total + excluded.total, tagged = r.tagged + excluded.tagged
      returning 1
    ), tags_written as (
      insert into report_daily_tags as r (day, tag_id, count)
      select m.day, m.tag_id, sum(m.delta)::int from moved m join tags t on t.id = m.tag_id
       group by m.day, m.tag_id having sum(m.delta) <> 0 order by m.day, m.tag_id
      on conflict (day, tag_id) do update set count = r.count + excluded.count
      returning 1
    )
    select (select count(*)::int from moved) as folded
  `.execute(db);
  return rows[0]?.folded ?? 0;
}

/** Conversations that are not resolved, counted four ways in one scan. */
export async function conversationCounts(
  db: DB,
): Promise<{ open: number; waiting: number; unassigned: number; awaiting_first_reply: number }> {
  return db
    .selectFrom('conversations as c')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .where('s.category', '<>', 'resolved')
    .select([
      sql<number>`(count(*) filter (where s.category = 'open'))::int`.as('open'),
      sql<number>`(count(*) filter (where s.category = 'waiting'))::int`.as('waiting'),
      sql<number>`(count(*) filter (where c.assigned_user_id is null))::int`.as('unassigned'),
      sql<number>`(count(*) filter (where c.first_reply_at is null))::int`.as('awaiting_first_reply'),
    ])
    .executeTakeFirstOrThrow();
}

/** Live, enabled agents per availability status (statuses with nobody are absent). */
export async function agentAvailability(db: DB): Promise<Array<{ availability_status: Availability; count: number }>> {
  return db
    .selectFrom('users as u')
    .where('u.type', '=', 'agent')
    .where('u.deleted_at', 'is', null)
    .where('u.enabled', '=', true)
    .groupBy('u.availability_status')
    .select(['u.availability_status', sql<number>`count(*)::int`.as('count')])
    .execute();
}
