// Every SQL statement of the reports domain. Aggregates are computed by the database
// in one pass each; nothing loops per tag or per conversation.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { Availability } from '../db/types.ts';

export interface TagDistributionRows {
  totals: { total: number; tagged: number };
  topTags: Array<{ tag_id: number; tag_name: string; count: number }>;
}

/**
 * Conversations created since `since`: how many there are, how many carry a tag, and the
 * `limit` most used tags among them (count desc, then name), in one statement (one snapshot,
 * so the totals and the per-tag counts agree). The window's tags come from an index-only
 * scan of (conversation_created_at, tag_id, conversation_id) (migration 0007), the total
 * from the index on conversations (created_at, id) (migration 0004): no join of the two.
 */
export async function tagDistribution(db: DB, since: Date, limit: number): Promise<TagDistributionRows> {
  const { rows } = await sql<{ total: number; tagged: number; top_tags: TagDistributionRows['topTags'] }>`
    with window_tags as materialized (
      select tag_id, conversation_id from conversation_tags where conversation_created_at >= ${since}
    ), per_tag as (
      select tag_id, count(*)::int as count from window_tags group by tag_id
    )
    select
      (select count(*)::int from conversations where created_at >= ${since}) as total,
      (select count(*)::int from (select distinct conversation_id from window_tags) tagged) as tagged,
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
