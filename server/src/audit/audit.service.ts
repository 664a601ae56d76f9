// The audit log: who changed what, when, from where. A service records an entry inside the
// transaction of the change it describes, on the line after the change (like a domain event), so
// an entry exists exactly when its change committed. Entries are never changed or deleted: the
// database refuses it (migration 2026_11_30_0001), but for the retention purge below.
//
// Secrets never reach an entry: every value under a secret-looking key is masked, at any depth,
// before it is written (`maskSecrets`). A changed secret shows as masked on both sides.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import * as q from './audit.queries.ts';

export type AuditActorType = 'agent' | 'api_key' | 'system' | 'automation';

/** Who made a change, and the request it came with (null outside a request). */
export interface AuditActor {
  type: AuditActorType;
  /** The agent (`agent`, `api_key`: the key's owner) or the automation rule; null for the system. */
  id: number | null;
  name: string;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

export const SYSTEM_ACTOR: AuditActor = Object.freeze({
  type: 'system',
  id: null,
  name: 'System',
  ip: null,
  userAgent: null,
  requestId: null,
});

/** An automation rule acting on its own (no request behind it). */
export function automationActor(rule: { id: number; name: string }): AuditActor {
  return { type: 'automation', id: rule.id, name: rule.name, ip: null, userAgent: null, requestId: null };
}

/** `{"<field>": [before, after]}`. */
export type AuditChanges = Record<string, [unknown, unknown]>;

export interface AuditEntry {
  /** `<resource>.<verb>`, e.g. `role.updated`; the catalogue is AUDIT_ACTIONS. */
  action: AuditAction;
  resource: { type: string; id: string | number | null; name?: string };
  changes?: AuditChanges;
}

/**
 * The actions written so far; a feature that audits a new kind of change adds its actions here
 * (the API documents this list as the `action` filter's values).
 */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.logout',
  'auth.password_reset',
  'auth.password_changed',
  'auth.2fa_enabled',
  'auth.2fa_disabled',
  'auth.2fa_reset',
  'auth.session_ended',
  'agent.created',
  'agent.updated',
  'agent.deleted',
  'agent.invited',
  'agent.api_key_created',
  'agent.api_key_revoked',
  'role.created',
  'role.updated',
  'role.deleted',
  'team.created',
  'team.updated',
  'team.deleted',
  'inbox.created',
  'inbox.updated',
  'inbox.deleted',
  'inbox.secret_rotated',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'oidc.created',
  'oidc.updated',
  'oidc.deleted',
  'ai.updated',
  'ai.deleted',
  'ai.prompt_created',
  'ai.prompt_updated',
  'ai.prompt_deleted',
  'settings.updated',
  'sla.created',
  'sla.updated',
  'sla.deleted',
  'business_hours.created',
  'business_hours.updated',
  'business_hours.deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export async function recordAudit(db: DB, actor: AuditActor, entry: AuditEntry, at: Date): Promise<void> {
  await q.insertAuditEntry(db, {
    created_at: at,
    actor_type: actor.type,
    actor_id: actor.id,
    actor_name: actor.name.slice(0, 256),
    ip: actor.ip,
    user_agent: actor.userAgent?.slice(0, 512) ?? null,
    request_id: actor.requestId?.slice(0, 128) ?? null,
    action: entry.action,
    resource_type: entry.resource.type,
    resource_id: entry.resource.id === null ? null : String(entry.resource.id),
    resource_name: (entry.resource.name ?? '').slice(0, 256),
    changes: JSON.stringify(maskChanges(entry.changes ?? {})),
  });
}

/** Each field's two sides with their secrets masked (the field's own name counts as their key). */
export function maskChanges(changes: AuditChanges): AuditChanges {
  const out: AuditChanges = {};
  for (const [field, [was, now]] of Object.entries(changes)) out[field] = [maskSecrets(was, field), maskSecrets(now, field)];
  return out;
}

/** Keys whose values are secrets, at any depth of an entry's changes. */
const SECRET_KEY = /pass(word|phrase)?|secret|token|private|recovery|otp|totp|credential|authori[sz]ation|cookie|api[_-]?key|hmac|signing/i;
export const MASKED = '[redacted]';
const MAX_TEXT = 1000;

/** The value with every secret masked (by key, at any depth), dates as ISO text and long text cut. */
export function maskSecrets(value: unknown, key = ''): unknown {
  if (value === null || value === undefined) return null;
  if (key !== '' && SECRET_KEY.test(key)) return value === '' ? '' : MASKED;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, key));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskSecrets(v, SECRET_KEY.test(key) ? key : k);
    return out;
  }
  return value;
}

/**
 * The fields that differ between two states of a record, as `{field: [before, after]}`. A created
 * record has `before` null, a deleted one `after` null. `fields`: the ones worth recording (default:
 * every key of either side but timestamps of the row itself).
 */
export function changesBetween(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
  fields?: readonly string[],
): AuditChanges {
  const keys = fields ?? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((k) => !IGNORED.has(k));
  const changes: AuditChanges = {};
  for (const key of keys) {
    const was = before?.[key] ?? null;
    const now = after?.[key] ?? null;
    if (canonical(was) !== canonical(now)) changes[key] = [was, now];
  }
  return changes;
}

const IGNORED = new Set(['id', 'uuid', 'created_at', 'updated_at']);

function canonical(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** Entries one purge transaction deletes at most: a long purge never holds a long transaction. */
export const PURGE_BATCH = 1000;

/**
 * Deletes the entries older than `before` (AUDIT_RETENTION_DAYS): the one delete the database
 * allows, in transactions that name their cutoff, `batch` entries each, at most `maxBatches` of
 * them (the next run goes on). Returns how many went.
 */
export async function purgeAuditLog(db: DB, before: Date, options: { batch?: number; maxBatches?: number } = {}): Promise<number> {
  const batch = options.batch ?? PURGE_BATCH;
  const maxBatches = options.maxBatches ?? 100;
  let total = 0;
  for (let round = 0; round < maxBatches; round += 1) {
    const deleted = await db.transaction().execute(async (trx) => {
      await sql`select set_config('parley.audit_purge_before', ${before.toISOString()}, true)`.execute(trx);
      return q.deleteAuditEntriesBefore(trx, before, batch);
    });
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}
