import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { StatusCategory } from '../db/types.ts';

const columns = ['id', 'created_at', 'updated_at', 'name', 'category', 'is_system'] as const;

export async function listStatuses(db: DB) {
  return db.selectFrom('conversation_statuses').select(columns).orderBy('id').execute();
}

export async function findStatus(db: DB, id: number) {
  return db.selectFrom('conversation_statuses').where('id', '=', id).select(columns).executeTakeFirst();
}

/** Names are matched trimmed and case-insensitively (the rule of the unique index on lower(name)). */
function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

export async function findStatusByName(db: DB, name: string) {
  return db.selectFrom('conversation_statuses').where(sql`lower(name)`, '=', nameKey(name)).select(columns).executeTakeFirst();
}

/** `= any(array)`: one statement text whatever the number of names (prepared statements). */
export async function findStatusesByNames(db: DB, names: readonly string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('conversation_statuses')
    .where(sql`lower(name)`, '=', sql<string>`any(${names.map(nameKey)}::text[])`)
    .select(columns)
    .execute();
}

export async function statusInUse(db: DB, statusId: number): Promise<boolean> {
  const row = await db.selectFrom('conversations').where('status_id', '=', statusId).select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function insertStatus(db: DB, values: { name: string; category: StatusCategory; is_system?: boolean }) {
  return db.insertInto('conversation_statuses').values(values).returning(columns).executeTakeFirstOrThrow();
}

export async function insertStatusIfMissing(db: DB, values: { name: string; category: StatusCategory; is_system: boolean }) {
  await db
    .insertInto('conversation_statuses')
    .values(values)
    .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
    .execute();
}

export async function updateStatus(db: DB, id: number, values: { name?: string; category?: StatusCategory; updated_at: Date }) {
  return db.updateTable('conversation_statuses').set(values).where('id', '=', id).returning(columns).executeTakeFirst();
}

export async function deleteStatus(db: DB, id: number): Promise<void> {
  await db.deleteFrom('conversation_statuses').where('id', '=', id).execute();
}

export async function listPriorities(db: DB) {
  return db.selectFrom('conversation_priorities').select(['id', 'created_at', 'name']).orderBy('rank').execute();
}

export async function findPrioritiesByNames(db: DB, names: readonly string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('conversation_priorities')
    .where(sql`lower(name)`, '=', sql<string>`any(${names.map(nameKey)}::text[])`)
    .select(['id', 'name'])
    .execute();
}

export async function insertPriorityIfMissing(db: DB, name: string, rank: number) {
  await db
    .insertInto('conversation_priorities')
    .values({ name, rank })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
