import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

const columns = ['id', 'created_at', 'updated_at', 'name'] as const;

export async function listTags(db: DB) {
  return db.selectFrom('tags').select(columns).orderBy(sql`lower(name)`).orderBy('id').execute();
}

export async function findTag(db: DB, id: number) {
  return db.selectFrom('tags').where('id', '=', id).select(columns).executeTakeFirst();
}

export async function findTagByName(db: DB, name: string) {
  return db.selectFrom('tags').where(sql`lower(name)`, '=', name.toLowerCase()).select('id').executeTakeFirst();
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
