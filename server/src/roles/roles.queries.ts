import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

const columns = ['id', 'created_at', 'updated_at', 'name', 'description', 'permissions', 'is_builtin', 'require_2fa'] as const;

export async function listRoles(db: DB) {
  return db.selectFrom('roles').select(columns).orderBy('name').orderBy('id').execute();
}

export async function findRole(db: DB, id: number) {
  return db.selectFrom('roles').where('id', '=', id).select(columns).executeTakeFirst();
}

/** The role, its row locked until the transaction ends: a role being deleted, renamed or changed cannot be granted meanwhile. */
export async function lockRole(db: DB, id: number) {
  return db
    .selectFrom('roles')
    .where('id', '=', id)
    .select(['id', 'name', 'description', 'is_builtin', 'permissions', 'require_2fa'])
    .forUpdate()
    .executeTakeFirst();
}

/** How many agents hold the role, soft-deleted ones aside (they can never sign in again). */
export async function countAgentsHolding(db: DB, roleId: number): Promise<number> {
  const row = await db
    .selectFrom('user_roles as ur')
    .innerJoin('users as u', 'u.id', 'ur.user_id')
    .where('ur.role_id', '=', roleId)
    .where('u.deleted_at', 'is', null)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function findRolesByNames(db: DB, names: string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('roles')
    .where(
      sql`lower(name)`,
      'in',
      names.map((n) => n.trim().toLowerCase()),
    )
    .select(['id', 'name', 'permissions'])
    .execute();
}

export async function findRoleByName(db: DB, name: string) {
  return db
    .selectFrom('roles')
    .where(sql`lower(name)`, '=', name.trim().toLowerCase())
    .select(['id', 'name', 'is_builtin'])
    .executeTakeFirst();
}

export async function insertRole(
  db: DB,
  values: { name: string; description: string; permissions: string[]; is_builtin?: boolean; require_2fa?: boolean },
) {
  return db.insertInto('roles').values(values).returning(columns).executeTakeFirstOrThrow();
}

export async function insertRoleIfMissing(
  db: DB,
  values: { name: string; description: string; permissions: string[]; is_builtin: boolean },
) {
  await db
    .insertInto('roles')
    .values(values)
    .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
    .execute();
}

export async function setBuiltinPermissions(db: DB, name: string, permissions: string[]) {
  await db.updateTable('roles').set({ permissions }).where(sql`lower(name)`, '=', name.toLowerCase()).execute();
}

export async function updateRole(
  db: DB,
  id: number,
  values: { name?: string; description?: string; permissions?: string[]; require_2fa?: boolean; updated_at: Date },
) {
  return db.updateTable('roles').set(values).where('id', '=', id).returning(columns).executeTakeFirst();
}

export async function deleteRole(db: DB, id: number): Promise<void> {
  await db.deleteFrom('roles').where('id', '=', id).execute();
}
