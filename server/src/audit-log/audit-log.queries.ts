// Every SQL statement that reads the audit log.
//
// newest first, `(created_at desc, id desc)`. Every filter is the leading column of an
// index that continues with that order (migrations 2026_11_30_0001 and 0400): `actor_id`,
// `actor_type`, `action`, `resource_type`, and the date range on the `created_at` index alone
// (or as the range of the second column of the others). A page, or a batch of the export,
// reads its rows in order from one index and stops; combined filters walk the index of one
// and check the others on the rows it yields.
import { type ExpressionBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { AuditLogTable, Database } from '../db/types.ts';

export interface AuditFilter {
  actorId?: number;
  /** The actor kinds `actorId` is one of (an agent's id is its sessions' and its API key's). */
  actorTypes?: readonly AuditLogTable['actor_type'][];
  action?: string;
  resourceType?: string;
  /** Included. */
  from?: Date;
  /** Excluded. */
  to?: Date;
}

/** Where an export's previous batch stopped: the last row's instant (as exact text: microseconds) and id. */
export interface AuditCursor {
  at: string;
  id: string;
}

function filtered(db: DB, filter: AuditFilter) {
  return db.selectFrom('audit_log').where((eb: ExpressionBuilder<Database, 'audit_log'>) => {
    const conditions = [];
    if (filter.actorId !== undefined) conditions.push(eb('actor_id', '=', filter.actorId));
    if (filter.actorTypes !== undefined) conditions.push(eb('actor_type', 'in', [...filter.actorTypes]));
    if (filter.action !== undefined) conditions.push(eb('action', '=', filter.action));
    if (filter.resourceType !== undefined) conditions.push(eb('resource_type', '=', filter.resourceType));
    if (filter.from !== undefined) conditions.push(eb('created_at', '>=', filter.from));
    if (filter.to !== undefined) conditions.push(eb('created_at', '<', filter.to));
    return eb.and(conditions);
  });
}

/** The columns of an entry, in the order of the CSV export's columns. */
export const ENTRY_COLUMNS = [
  'id',
  'created_at',
  'actor_type',
  'actor_id',
  'actor_name',
  'ip',
  'user_agent',
  'request_id',
  'action',
  'resource_type',
  'resource_id',
  'resource_name',
  'changes',
] as const;

export async function listAuditEntries(db: DB, filter: AuditFilter, page: { limit: number; offset: number }) {
  return filtered(db, filter)
    .select(ENTRY_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countAuditEntries(db: DB, filter: AuditFilter): Promise<number> {
  const row = await filtered(db, filter).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The next `limit` entries after `cursor` (newest first), for the export: keyset pagination, so
 * each batch is an index range read however deep the export is.
 */
export async function auditEntriesAfter(db: DB, filter: AuditFilter, cursor: AuditCursor | null, limit: number) {
  let query = filtered(db, filter);
  if (cursor) {
    query = query.where((eb) =>
      eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(sql<Date>`${cursor.at}::timestamptz`, sql<string>`${cursor.id}::bigint`)),
    );
  }
  return query
    .select(ENTRY_COLUMNS)
    .select(sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('cursor_at'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The resource types the log holds, sorted: a skip scan of `audit_log_resource_idx` (one index
 * probe per type, however many entries each has).
 */
export async function listResourceTypes(db: DB): Promise<string[]> {
  const result = await sql<{ resource_type: string }>`
    with recursive types(resource_type) as (
      (select resource_type from audit_log order by resource_type limit 1)
      union all
      select (select a.resource_type from audit_log a where a.resource_type > t.resource_type order by a.resource_type limit 1)
      from types t where t.resource_type is not null
    )
    select resource_type from types where resource_type is not null`.execute(db);
  return result.rows.map((row) => row.resource_type);
}
