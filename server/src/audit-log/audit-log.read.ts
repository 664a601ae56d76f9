// Reading the audit log (docs/api.md, "Audit log"): the filters checked and turned into an
// AuditFilter, a page of entries, the action and resource-type catalogue. The export is
// audit.export.ts; nothing here or anywhere in the API changes an entry.
import type { AppDeps } from '../deps.ts';
import { InputError } from '../errors.ts';
import { type PageRequest, pagedResult } from '../http/schemas.ts';
import type { AuditEntryRecord, AuditFilterInput } from './audit-log.schema.ts';
import * as q from './audit-log.queries.ts';
import { AUDIT_ACTIONS, type AuditChanges, maskChanges } from '../audit/audit.service.ts';

/** The query's filters as the queries take them; a bad date or range is a 400 naming it. */
export function auditFilterOf(input: AuditFilterInput): q.AuditFilter {
  const from = instant(input.from, 'from');
  const to = instant(input.to, 'to');
  if (from && to && from.getTime() > to.getTime()) throw InputError.field('from', 'must not be after `to`');
  return {
    ...(input.actor_id !== undefined ? { actorId: input.actor_id } : {}),
    // An agent's id stands for its sessions and its API key; a rule's needs actor_type=automation.
    ...(input.actor_type !== undefined
      ? { actorTypes: [input.actor_type] }
      : input.actor_id !== undefined
        ? { actorTypes: ['agent', 'api_key'] as const }
        : {}),
    ...(input.action !== undefined ? { action: input.action } : {}),
    ...(input.resource_type !== undefined ? { resourceType: input.resource_type } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

function instant(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  // The schema checked RFC 3339; what Date cannot hold (a leap second, year 0) is refused here.
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1) throw InputError.field(field, 'must be an RFC 3339 date-time');
  return date;
}

type AuditRow = Awaited<ReturnType<typeof q.listAuditEntries>>[number];

/** A row as the API answers it, its changes masked once more on the way out (they were on the way in). */
export function auditRecord(row: AuditRow): AuditEntryRecord {
  return {
    id: Number(row.id),
    created_at: row.created_at,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    ip: row.ip,
    user_agent: row.user_agent,
    request_id: row.request_id,
    action: row.action,
    resource: { type: row.resource_type, id: row.resource_id, name: row.resource_name },
    changes: maskChanges(pairs(row.changes)),
  };
}

/** Stored changes as `{field: [before, after]}`, whatever a hand may have written in the column. */
function pairs(stored: unknown): AuditChanges {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return {};
  const out: AuditChanges = {};
  for (const [field, value] of Object.entries(stored)) {
    out[field] = Array.isArray(value) && value.length === 2 ? [value[0], value[1]] : [null, value];
  }
  return out;
}

export async function listAuditLog(deps: AppDeps, input: AuditFilterInput, page: PageRequest) {
  const filter = auditFilterOf(input);
  const [rows, total] = await Promise.all([
    q.listAuditEntries(deps.db, filter, { limit: page.pageSize, offset: page.offset }),
    q.countAuditEntries(deps.db, filter),
  ]);
  return pagedResult(rows.map(auditRecord), total, page);
}

export async function auditCatalogue(deps: AppDeps): Promise<{ actions: string[]; resource_types: string[] }> {
  return { actions: [...AUDIT_ACTIONS], resource_types: await q.listResourceTypes(deps.db) };
}
