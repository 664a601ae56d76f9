// The audit log's retention (AUDIT_RETENTION_DAYS, docs/operations.md "Audit log retention"): a
// periodic task of workers.ts deletes the entries older than that, in bounded transactions
// (purgeAuditLog). 0 keeps every entry.
import type { AppDeps } from '../deps.ts';
import { purgeAuditLog } from './audit.service.ts';

const DAY = 24 * 3600 * 1000;

/** Deletes the entries past retention; returns how many (0 when the log is kept forever). */
export async function purgeExpiredAuditEntries(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>): Promise<number> {
  const days = deps.config.auditRetentionDays;
  if (days === 0) return 0;
  return purgeAuditLog(deps.db, new Date(deps.clock.now().getTime() - days * DAY));
}
