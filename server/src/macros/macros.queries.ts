// Every SQL statement of the macros domain.
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { Database, MacroVisibility, StatusCategory } from '../db/types.ts';

export type MacroFilter = (eb: ExpressionBuilder<Database, 'macros'>) => Expression<SqlBool>;

const columns = [
  'id',
  'created_at',
  'updated_at',
  'name',
  'actions',
  'visibility',
  'visible_when',
  'message_content',
  'user_id',
  'team_id',
  'usage_count',
] as const;

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
  /** The visibility rule as SQL (macros.access.ts); null: every macro. */
  visible: MacroFilter | null;
  /** Only macros offered in this status category. */
  category?: StatusCategory | undefined;
}

/** The macros a viewer may see, by name, then id. */
export async function listMacros(db: DB, filter: MacroListFilter): Promise<MacroRow[]> {
  let query = db.selectFrom('macros').select(columns);
  if (filter.visible) query = query.where(filter.visible);
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

// What applying a macro reads about the conversation.

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
