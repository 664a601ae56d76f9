// Every SQL statement of the macros domain.
import { type ExpressionBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { Database, MacroVisibility, StatusCategory } from '../db/types.ts';

const columns = ['id', 'created_at', 'updated_at', 'name', 'actions', 'visibility', 'visible_when', 'message_content', 'user_id', 'team_id', 'usage_count'] as const;

export interface MacroValues {
  name: string;
  actions: Record<string, unknown>;
  visibility: MacroVisibility;
  visible_when: string[];
  message_content: string;
  user_id: number | null;
  team_id: number | null;
}

export async function findMacro(db: DB, id: number) {
  return db.selectFrom('macros').where('id', '=', id).select(columns).executeTakeFirst();
}

export type MacroRow = NonNullable<Awaited<ReturnType<typeof findMacro>>>;

export async function lockMacro(db: DB, id: number) {
  return db.selectFrom('macros').where('id', '=', id).select(columns).forUpdate().executeTakeFirst();
}

export interface MacroListFilter {
  /** null: every macro (the caller manages macros). */
  viewer: { userId: number; teamIds: readonly number[] } | null;
  /** Only macros offered in this status category. */
  category?: StatusCategory;
}

/** The macros a viewer may see: global ones, their teams' ones, their own; by name, then id. */
export async function listMacros(db: DB, filter: MacroListFilter): Promise<MacroRow[]> {
  let query = db.selectFrom('macros').select(columns);
  const viewer = filter.viewer;
  if (viewer) {
    query = query.where((eb: ExpressionBuilder<Database, 'macros'>) =>
      eb.or([
        eb('visibility', '=', 'global'),
        ...(viewer.teamIds.length > 0 ? [eb.and([eb('visibility', '=', 'team'), eb('team_id', 'in', [...viewer.teamIds])])] : []),
        eb.and([eb('visibility', '=', 'user'), eb('user_id', '=', viewer.userId)]),
      ]),
    );
  }
  if (filter.category) {
    const when = `conversation_${filter.category}`;
    query = query.where(sql<boolean>`${when} = any(visible_when)`);
  }
  return query.orderBy(sql`lower(name)`).orderBy('id').execute();
}

export async function insertMacro(db: DB, values: MacroValues, now: Date): Promise<MacroRow> {
  return db
    .insertInto('macros')
    .values({ ...values, actions: JSON.stringify(values.actions), created_at: now, updated_at: now })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function updateMacro(db: DB, id: number, values: MacroValues, now: Date): Promise<MacroRow | undefined> {
  return db
    .updateTable('macros')
    .set({ ...values, actions: JSON.stringify(values.actions), updated_at: now })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
}

export async function deleteMacro(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom('macros').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Counts one use; false when the macro no longer exists. `updated_at` is left alone: using a macro does not edit it. */
export async function countUse(db: DB, id: number): Promise<boolean> {
  const row = await db
    .updateTable('macros')
    .set((eb) => ({ usage_count: eb('usage_count', '+', 1) }))
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

// Lookups that check what actions and owners refer to.

export async function findStatusByName(db: DB, name: string) {
  return db.selectFrom('conversation_statuses').where(sql`lower(name)`, '=', name.trim().toLowerCase()).select(['id', 'name', 'category']).executeTakeFirst();
}

export async function findPriorityByName(db: DB, name: string) {
  return db.selectFrom('conversation_priorities').where(sql`lower(name)`, '=', name.trim().toLowerCase()).select(['id', 'name']).executeTakeFirst();
}

export async function findTagsByNames(db: DB, names: string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('tags')
    .where(
      sql`lower(name)`,
      'in',
      names.map((n) => n.trim().toLowerCase()),
    )
    .select(['id', 'name'])
    .execute();
}

export async function findTeam(db: DB, id: number) {
  return db.selectFrom('teams').where('id', '=', id).select(['id', 'name']).executeTakeFirst();
}

export async function findLiveAgent(db: DB, id: number) {
  return db
    .selectFrom('users')
    .where('id', '=', id)
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select(['id', 'enabled'])
    .executeTakeFirst();
}

/** The status category of a conversation (for `visible_when`). */
export async function findConversationCategory(db: DB, uuid: string): Promise<StatusCategory | undefined> {
  const row = await db
    .selectFrom('conversations as c')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .where('c.uuid', '=', uuid)
    .select('s.category')
    .executeTakeFirst();
  return row?.category;
}

/** What placeholders may name about a conversation's contact. */
export async function findContactFields(db: DB, contactId: number) {
  return db.selectFrom('users').where('id', '=', contactId).select(['first_name', 'last_name', 'email']).executeTakeFirst();
}
