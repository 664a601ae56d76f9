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
 * `limit` most used tags among them (count desc, then name). Both statements read the same
 * snapshot, so the totals and the per-tag counts agree. The window comes from the index on
 * (created_at, id) without touching the table (migration 0004).
 */
export async function tagDistribution(db: DB, since: Date, limit: number): Promise<TagDistributionRows> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const totals = await trx
        .selectNoFrom([
          sql<number>`(select count(*)::int from conversations c where c.created_at >= ${since})`.as('total'),
          sql<number>`(select count(*)::int from conversations c where c.created_at >= ${since} and exists (select 1 from conversation_tags ct where ct.conversation_id = c.id))`.as(
            'tagged',
          ),
        ])
        .executeTakeFirstOrThrow();
      const perTag = trx
        .selectFrom('conversation_tags as ct')
        .innerJoin('conversations as c', 'c.id', 'ct.conversation_id')
        .where('c.created_at', '>=', since)
        .groupBy('ct.tag_id')
        .select(['ct.tag_id', sql<number>`count(*)::int`.as('count')])
        .as('p');
      const topTags = await trx
        .selectFrom(perTag)
        .innerJoin('tags as t', 't.id', 'p.tag_id')
        .select(['t.id as tag_id', 't.name as tag_name', 'p.count'])
        .orderBy('p.count', 'desc')
        .orderBy(sql`lower(t.name)`)
        .orderBy('t.name')
        .orderBy('t.id')
        .limit(limit)
        .execute();
      return { totals, topTags };
    });
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
