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

export async function findStatusByName(db: DB, name: string) {
  return db.selectFrom('conversation_statuses').where(sql`lower(name)`, '=', name.toLowerCase()).select(columns).executeTakeFirst();
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

export async function insertPriorityIfMissing(db: DB, name: string, rank: number) {
  await db
    .insertInto('conversation_priorities')
    .values({ name, rank })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
