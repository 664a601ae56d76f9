// Every SQL statement of the reports domain. Aggregates are computed by the database
// in one pass each; nothing loops per tag or per conversation.
import { sql } from 'kysely';
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
 * (migration 0008); the part of the window before its first UTC midnight from the rows
 * themselves, through the (window, tag, conversation) index of conversation tags (migration
 * 0007) and the (created_at, id) index of conversations (migration 0004).
 */
export async function tagDistribution(db: DB, since: Date, limit: number): Promise<TagDistributionRows> {
  const dayStart = nextUtcMidnight(since);
  const firstDay = dayStart.toISOString().slice(0, 10);
  const { rows } = await sql<{ total: number; tagged: number; top_tags: TagDistributionRows['topTags'] }>`
    with edge_tags as materialized (
      select tag_id, conversation_id from conversation_tags
       where conversation_created_at >= ${since} and conversation_created_at < ${dayStart}
    ), per_tag as (
      select tag_id, sum(count)::int as count
        from (
          select tag_id, count from report_daily_tags where day >= ${firstDay}::date
          union all
          select tag_id, count(*)::int from edge_tags group by tag_id
        ) parts
       group by tag_id
      having sum(count) > 0
    )
    select
      (select coalesce(sum(total), 0)::int from report_daily_conversations where day >= ${firstDay}::date)
        + (select count(*)::int from conversations where created_at >= ${since} and created_at < ${dayStart}) as total,
      (select coalesce(sum(tagged), 0)::int from report_daily_conversations where day >= ${firstDay}::date)
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

/** Conversations that are not resolved, counted four ways in one scan. */
export async function conversationCounts(db: DB): Promise<{ open: number; waiting: number; unassigned: number; awaiting_first_reply: number }> {
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
