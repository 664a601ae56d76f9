// The audit entries of the agents domain (audit/audit.service.ts): written by agents.service.ts in
// the transaction of each change, on the line after it. An entry names the agent and, for a
// change, the fields that changed: names, email, enabled, roles and teams (not availability, which
// agents change all day). A new password shows as a masked field: never its value nor its hash.
import { type AuditAction, type AuditActor, type AuditChanges, changesBetween, recordAudit } from '../audit/audit.service.ts';
import type { DB } from '../db/database.ts';
import * as q from './agents.queries.ts';

/** What an entry records of an agent. */
export interface AuditedAgent {
  id: number;
  name: string;
  fields: Record<string, unknown>;
}

const FIELDS = ['first_name', 'last_name', 'email', 'enabled', 'roles', 'teams', 'phone_number', 'phone_number_country_code', 'avatar_url'];

/** The agent as its entries record it (read in the change's transaction), or undefined when there is none. */
export async function auditedAgent(db: DB, id: number): Promise<AuditedAgent | undefined> {
  const record = await q.findAgentRecord(db, id);
  if (!record) return undefined;
  return {
    id: record.id,
    name: `${record.first_name} ${record.last_name}`.trim(),
    fields: {
      first_name: record.first_name,
      last_name: record.last_name,
      email: record.email,
      enabled: record.enabled,
      roles: record.roles,
      teams: record.teams.map((team) => team.name).sort(),
      phone_number: record.phone_number,
      phone_number_country_code: record.phone_number_country_code,
      avatar_url: record.avatar_url,
    },
  };
}

/** A password set or changed, as an entry shows it: masked on both sides (maskSecrets masks the `password` key). */
export const PASSWORD_CHANGE: [unknown, unknown] = ['set', 'set'];

/**
 * Records `action` on the agent. `before`/`after`: its state around the change (null for a
 * creation or a deletion), whose differing fields are the entry's changes; `extra`: more changes
 * (a password). An update that changed none of the recorded fields writes nothing.
 */
export async function auditAgent(
  db: DB,
  actor: AuditActor,
  action: AuditAction,
  states: { before: AuditedAgent | null | undefined; after: AuditedAgent | null | undefined },
  at: Date,
  extra: AuditChanges = {},
): Promise<void> {
  const agent = states.after ?? states.before;
  if (!agent) return;
  const changes: AuditChanges = { ...changesBetween(states.before?.fields, states.after?.fields, FIELDS), ...extra };
  if (action === 'agent.updated' && Object.keys(changes).length === 0) return;
  await recordAudit(db, actor, { action, resource: { type: 'agent', id: agent.id, name: agent.name }, changes }, at);
}
