// Every statement of the viewers (docs/api.md, "Presence"). The table holds one row per agent
// socket and conversation it views (migration 2026_12_01_0500); the list merges an agent's rows.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

export interface ViewerRow {
  conversation_id: number;
  socket_key: string;
  agent_id: number;
  instance: string;
  replying: boolean;
}

/** Rows per statement: 7 parameters a row stay far below PostgreSQL's 65,535 parameters. */
const UPSERT_CHUNK = 1_000;

/** Inserts the rows, or refreshes them; answers the conversations of the rows that were new. */
export async function upsertViewers(db: DB, rows: readonly ViewerRow[], at: Date): Promise<number[]> {
  const created = new Set<number>();
  for (let start = 0; start < rows.length; start += UPSERT_CHUNK) {
    const inserted = await db
      .insertInto('conversation_viewers')
      .values(rows.slice(start, start + UPSERT_CHUNK).map((row) => ({ ...row, since: at, seen_at: at })))
      .onConflict((oc) => oc.columns(['conversation_id', 'socket_key']).doUpdateSet({ seen_at: at }))
      // xmax is 0 on a row this statement inserted (not one it updated).
      .returning(['conversation_id', sql<boolean>`xmax = 0`.as('inserted')])
      .execute();
    for (const row of inserted) if (row.inserted) created.add(row.conversation_id);
  }
  return [...created];
}

export async function setReplying(db: DB, conversationId: number, socketKey: string, replying: boolean, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('conversation_viewers')
    .set({ replying, seen_at: at })
    .where('conversation_id', '=', conversationId)
    .where('socket_key', '=', socketKey)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes one socket's row for one conversation, or all of its rows; answers the conversations that lost one. */
export async function deleteViewers(db: DB, socketKey: string, conversationId?: number): Promise<number[]> {
  let query = db.deleteFrom('conversation_viewers').where('socket_key', '=', socketKey);
  if (conversationId !== undefined) query = query.where('conversation_id', '=', conversationId);
  const rows = await query.returning('conversation_id').execute();
  return [...new Set(rows.map((row) => row.conversation_id))];
}

/** Every row of an instance (its shutdown). */
export async function deleteInstanceViewers(db: DB, instance: string): Promise<number[]> {
  const rows = await db.deleteFrom('conversation_viewers').where('instance', '=', instance).returning('conversation_id').execute();
  return [...new Set(rows.map((row) => row.conversation_id))];
}

/** Rows nobody refreshed since `before` (their instance is gone); each deleted once, by whichever sweep gets it. */
export async function deleteStaleViewers(db: DB, before: Date): Promise<number[]> {
  const rows = await db.deleteFrom('conversation_viewers').where('seen_at', '<', before).returning('conversation_id').execute();
  return [...new Set(rows.map((row) => row.conversation_id))];
}

/** The viewers of a conversation, one per agent (live, enabled agents), in the order they came. */
export async function listViewers(db: DB, conversationId: number) {
  return db
    .selectFrom('conversation_viewers as v')
    .innerJoin('users as u', 'u.id', 'v.agent_id')
    .where('v.conversation_id', '=', conversationId)
    .where('u.deleted_at', 'is', null)
    .where('u.enabled', '=', true)
    .groupBy(['u.id', 'u.first_name', 'u.last_name', 'u.avatar_url'])
    .select([
      'u.id as agent_id',
      'u.first_name',
      'u.last_name',
      'u.avatar_url',
      sql<boolean>`bool_or(v.replying)`.as('replying'),
      sql<Date>`min(v.since)`.as('since'),
    ])
    .orderBy(sql`min(v.since)`)
    .orderBy('u.id')
    .execute();
}
