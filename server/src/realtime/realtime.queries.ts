// Every statement of the realtime domain: the relay's reads of the outbox and its cursor,
// pruning, contact page visits and agent presence.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

export interface StoredEvent {
  id: number;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/** Events after `afterId`, in id order. */
export async function eventsAfter(db: DB, afterId: number, limit: number): Promise<StoredEvent[]> {
  const rows = await db
    .selectFrom('domain_events')
    .where('id', '>', String(afterId))
    .orderBy('id')
    .limit(limit)
    .select(['id', 'type', 'payload', 'created_at'])
    .execute();
  return rows.map((row) => ({ id: Number(row.id), type: row.type, payload: row.payload, created_at: row.created_at }));
}

/** The events among these ids that exist now (the relay's ids waited for). */
export async function eventsByIds(db: DB, ids: readonly number[]): Promise<StoredEvent[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('domain_events')
    .where('id', '=', sql<string>`any(${ids.map(String)}::bigint[])`)
    .orderBy('id')
    .select(['id', 'type', 'payload', 'created_at'])
    .execute();
  return rows.map((row) => ({ id: Number(row.id), type: row.type, payload: row.payload, created_at: row.created_at }));
}

export async function maxEventId(db: DB): Promise<number> {
  const row = await db.selectFrom('domain_events').select(sql<number | null>`max(id)`.as('max')).executeTakeFirst();
  return Number(row?.max ?? 0);
}

export async function readCursor(db: DB, name: string): Promise<number | null> {
  const row = await db.selectFrom('realtime_cursor').where('name', '=', name).select('last_id').executeTakeFirst();
  return row ? Number(row.last_id) : null;
}

/** The cursor only moves forward. */
export async function writeCursor(db: DB, name: string, lastId: number, now: Date): Promise<void> {
  await db
    .insertInto('realtime_cursor')
    .values({ name, last_id: lastId, updated_at: now })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({
        last_id: sql<number>`greatest(realtime_cursor.last_id, excluded.last_id)`,
        updated_at: sql<Date>`excluded.updated_at`,
      }),
    )
    .execute();
}

/** Deletes up to `batch` events older than `before` and at or below `throughId` (index domain_events_created_idx). */
export async function deleteEventsBefore(db: DB, before: Date, throughId: number, batch: number): Promise<number> {
  const result = await sql<{ n: number }>`
    with gone as (
      delete from domain_events
      where id in (select id from domain_events where created_at < ${before} and id <= ${throughId} order by created_at limit ${batch})
      returning 1
    )
    select count(*)::int as n from gone
  `.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

// Page visits: the last few per contact.

export async function insertPageVisit(db: DB, visit: { contactId: number; url: string; title: string; at: Date }, keep: number) {
  await db
    .insertInto('contact_page_visits')
    .values({ contact_id: visit.contactId, url: visit.url, title: visit.title, visited_at: visit.at })
    .execute();
  await db
    .deleteFrom('contact_page_visits')
    .where('contact_id', '=', visit.contactId)
    .where(
      'id',
      'not in',
      db.selectFrom('contact_page_visits').where('contact_id', '=', visit.contactId).orderBy('id', 'desc').limit(keep).select('id'),
    )
    .execute();
}

export async function pageVisitsOf(db: DB, contactId: number, limit: number) {
  return db
    .selectFrom('contact_page_visits')
    .where('contact_id', '=', contactId)
    .orderBy('id', 'desc')
    .limit(limit)
    .select(['url', 'title', 'visited_at'])
    .execute();
}

// Agent presence: when each agent last had a live agent socket.

export async function touchPresence(db: DB, agentIds: readonly number[], now: Date): Promise<void> {
  if (agentIds.length === 0) return;
  await sql`
    insert into agent_presence (agent_id, last_seen_at)
    select id, ${now}::timestamptz from unnest(${[...agentIds]}::int[]) as ids(id)
    on conflict (agent_id) do update set last_seen_at = greatest(agent_presence.last_seen_at, excluded.last_seen_at)
  `.execute(db);
}

/**
 * Agents not offline whose last live socket (or, when they never had one, the time this was
 * first asked about them) is older than `before`. Agents seen for the first time get a row now.
 */
/** Whether the agent has still not been connected since `before`. */
export async function isAbsentSince(db: DB, agentId: number, before: Date): Promise<boolean> {
  const row = await db.selectFrom('agent_presence').where('agent_id', '=', agentId).select('last_seen_at').executeTakeFirst();
  return row !== undefined && row.last_seen_at < before;
}

export async function agentsAbsentSince(db: DB, before: Date, now: Date): Promise<number[]> {
  await sql`
    insert into agent_presence (agent_id, last_seen_at)
    select u.id, ${now}::timestamptz from users u
    where u.type = 'agent' and u.deleted_at is null and u.availability_status <> 'offline'
    on conflict (agent_id) do nothing
  `.execute(db);
  const rows = await db
    .selectFrom('users as u')
    .innerJoin('agent_presence as p', 'p.agent_id', 'u.id')
    .where('u.type', '=', 'agent')
    .where('u.deleted_at', 'is', null)
    .where('u.availability_status', '<>', 'offline')
    .where('p.last_seen_at', '<', before)
    .select('u.id')
    .execute();
  return rows.map((row) => row.id);
}
