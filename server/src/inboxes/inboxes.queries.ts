import type { DB } from '../db/database.ts';

const columns = [
  'id',
  'uuid',
  'created_at',
  'updated_at',
  'name',
  'channel',
  'enabled',
  'csat_enabled',
  'default_team_id',
  'assign_on_first_reply',
  'from',
  'config',
] as const;

export interface InboxValues {
  name?: string;
  enabled?: boolean;
  csat_enabled?: boolean;
  default_team_id?: number | null;
  assign_on_first_reply?: boolean;
  from?: string | null;
  /** The stored form: secrets already encrypted. */
  config?: Record<string, unknown>;
}

export async function listInboxes(db: DB) {
  return db.selectFrom('inboxes').where('deleted_at', 'is', null).select(columns).orderBy('name').orderBy('id').execute();
}

export async function listInboxesCompact(db: DB) {
  return db
    .selectFrom('inboxes')
    .where('deleted_at', 'is', null)
    .select(['id', 'uuid', 'name', 'channel', 'enabled'])
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function findInbox(db: DB, id: number) {
  return db.selectFrom('inboxes').where('id', '=', id).where('deleted_at', 'is', null).select(columns).executeTakeFirst();
}

/** The live row, locked until the transaction ends, so two config updates cannot interleave. */
export async function findInboxForUpdate(db: DB, id: number) {
  return db.selectFrom('inboxes').where('id', '=', id).where('deleted_at', 'is', null).select(columns).forUpdate().executeTakeFirst();
}

export async function findInboxByUuid(db: DB, uuid: string) {
  return db.selectFrom('inboxes').where('uuid', '=', uuid).where('deleted_at', 'is', null).select(columns).executeTakeFirst();
}

export async function insertInbox(
  db: DB,
  values: InboxValues & { name: string; channel: 'email' | 'livechat'; config: Record<string, unknown>; created_at: Date },
) {
  const { config, created_at, ...rest } = values;
  return db
    .insertInto('inboxes')
    .values({ ...rest, config: JSON.stringify(config), created_at, updated_at: created_at })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function updateInbox(db: DB, id: number, values: InboxValues & { updated_at: Date }) {
  const { config, ...rest } = values;
  return db
    .updateTable('inboxes')
    .set({ ...rest, ...(config !== undefined ? { config: JSON.stringify(config) } : {}) })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning(columns)
    .executeTakeFirst();
}

export async function softDeleteInbox(db: DB, id: number, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('inboxes')
    .set({ deleted_at: at, updated_at: at })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** An inbox that is not deleted (it may be disabled), with what a new conversation needs to know. */
export async function findLiveInbox(db: DB, id: number) {
  return db
    .selectFrom('inboxes')
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .select(['id', 'channel', 'enabled', 'name', 'default_team_id'])
    .executeTakeFirst();
}

/** Ends every widget session of the inbox (a secret rotated with its sessions ended). */
export async function deleteWidgetSessionsOfInbox(db: DB, inboxId: number): Promise<number> {
  const result = await db.deleteFrom('widget_sessions').where('inbox_id', '=', inboxId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
