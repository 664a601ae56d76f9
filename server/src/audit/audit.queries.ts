// Every SQL statement that writes the audit log: appending an entry, and the retention purge
// (the only delete the database allows). Reading is audit-log/audit-log.queries.ts.
import type { Insertable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { AuditLogTable } from '../db/types.ts';

export async function insertAuditEntry(db: DB, row: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

/**
 * Deletes at most `limit` entries older than `before`, oldest first; entries another purge holds
 * are skipped. The caller's transaction must have set `parley.audit_purge_before` (the trigger
 * of migration 2026_11_30_0001 refuses any other delete).
 */
export async function deleteAuditEntriesBefore(db: DB, before: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('audit_log')
    .where('id', 'in', (qb) =>
      qb.selectFrom('audit_log').select('id').where('created_at', '<', before).orderBy('created_at').limit(limit).forUpdate().skipLocked(),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
