// Every SQL statement of the audit log.
import type { Insertable } from 'kysely';
import type { DB } from '../db/database.ts';
import type { AuditLogTable } from '../db/types.ts';

export async function insertAuditEntry(db: DB, row: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

export async function deleteAuditEntriesBefore(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('audit_log').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
