// What an inbox's audit entries show: its settings, with its config spread to one field per
// setting (`config.imap.host`) so that an entry names the setting that changed. Secrets are
// compared decrypted (a password saved again unchanged is no change) and masked by recordAudit,
// by their key (`config.imap.password`, `config.secret`).
import { type AuditActor, type AuditChanges, recordAudit } from '../audit/audit.service.ts';
import type { DB } from '../db/database.ts';

const FIELDS = ['name', 'channel', 'enabled', 'csat_enabled', 'default_team_id', 'assign_on_first_reply', 'from'] as const;

type Audited = Record<string, unknown>;

/** The inbox as its entries show it, from its row and its DECRYPTED config (masked only when written). */
export function auditedInbox(row: { [K in (typeof FIELDS)[number]]: unknown }, plainConfig: Record<string, unknown>): Audited {
  const out: Audited = {};
  for (const field of FIELDS) out[field] = row[field];
  spread('config', plainConfig, out);
  return out;
}

function spread(prefix: string, value: unknown, out: Audited): void {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) spread(`${prefix}.${key}`, inner, out);
  } else out[prefix] = value;
}

/** Writes the inbox's entry; an update that changed nothing writes none. */
export async function auditInbox(
  trx: DB,
  actor: AuditActor,
  action: 'inbox.created' | 'inbox.updated' | 'inbox.deleted' | 'inbox.secret_rotated',
  inbox: { id: number; name: string },
  changes: AuditChanges,
  at: Date,
): Promise<void> {
  if (action === 'inbox.updated' && Object.keys(changes).length === 0) return;
  await recordAudit(trx, actor, { action, resource: { type: 'inbox', id: inbox.id, name: inbox.name }, changes }, at);
}
