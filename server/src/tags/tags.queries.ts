import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

const columns = ['id', 'created_at', 'updated_at', 'name'] as const;

export async function listTags(db: DB) {
  return db.selectFrom('tags').select(columns).orderBy(sql`lower(name)`).orderBy('id').execute();
}

export async function findTag(db: DB, id: number) {
  return db.selectFrom('tags').where('id', '=', id).select(columns).executeTakeFirst();
}

/** Names are matched trimmed and case-insensitively (the rule of the unique index on lower(name)). */
function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

export async function findTagByName(db: DB, name: string) {
  return db.selectFrom('tags').where(sql`lower(name)`, '=', nameKey(name)).select(['id', 'name']).executeTakeFirst();
}

/** `= any(array)`: one statement text whatever the number of names (prepared statements). */
export async function findTagsByNames(db: DB, names: readonly string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('tags')
    .where(sql`lower(name)`, '=', sql<string>`any(${names.map(nameKey)}::text[])`)
    .select(['id', 'name'])
    .execute();
}

export async function insertTag(db: DB, name: string) {
  return db.insertInto('tags').values({ name }).returning(columns).executeTakeFirstOrThrow();
}

export async function renameTag(db: DB, id: number, name: string, now: Date) {
  return db.updateTable('tags').set({ name, updated_at: now }).where('id', '=', id).returning(columns).executeTakeFirst();
}

export async function deleteTag(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom('tags').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
