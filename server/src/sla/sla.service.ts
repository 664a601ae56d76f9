// SLA policies (docs/api.md, "SLA policies"): their records, and the look-ups the domains that
// reference them use (teams, conversations, macros). The deadlines are sla.deadlines.ts's.
import type { Static } from 'typebox';
import { type AuditActor, type AuditChanges, changesBetween, recordAudit } from '../audit/audit.service.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictError, DataError, InputError, NotFoundError } from '../errors.ts';
import * as q from './sla.queries.ts';
import type { CreateSlaPolicyBody, UpdateSlaPolicyBody } from './sla.schema.ts';

type CreateInput = Static<typeof CreateSlaPolicyBody>;
type UpdateInput = Static<typeof UpdateSlaPolicyBody>;

function cleanName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw InputError.field('name', 'must not be empty');
  return name;
}

/** The body's values in their stored form (fields left out stay out); 0 warning minutes is stored as null: no warning. */
function cleanValues(input: UpdateInput): q.SlaPolicyValues {
  const values: q.SlaPolicyValues = {};
  if (input.name !== undefined) values.name = cleanName(input.name);
  if (input.description !== undefined) values.description = input.description.trim();
  if (input.first_response_minutes !== undefined) values.first_response_minutes = input.first_response_minutes;
  if (input.next_response_minutes !== undefined) values.next_response_minutes = input.next_response_minutes;
  if (input.resolution_minutes !== undefined) values.resolution_minutes = input.resolution_minutes;
  if (input.warning_minutes !== undefined) values.warning_minutes = input.warning_minutes || null;
  if (input.business_hours_only !== undefined) values.business_hours_only = input.business_hours_only;
  return values;
}

/** Writes the policy's entry (every stored field but its id and timestamps); an update that changed nothing writes none. */
async function auditPolicy(
  deps: AppDeps,
  trx: DB,
  actor: AuditActor,
  action: 'sla.created' | 'sla.updated' | 'sla.deleted',
  policy: { id: number; name: string },
  changes: AuditChanges,
): Promise<void> {
  if (action === 'sla.updated' && Object.keys(changes).length === 0) return;
  await recordAudit(trx, actor, { action, resource: { type: 'sla', id: policy.id, name: policy.name }, changes }, deps.clock.now());
}

async function assertNameFree(db: DB, name: string, exceptId: number | null): Promise<void> {
  const existing = await q.findPolicyIdByName(db, name);
  if (existing && existing.id !== exceptId) throw new ConflictError(`An SLA policy named "${name}" already exists`);
}

export async function listSlaPolicies(deps: AppDeps) {
  return q.listPolicies(deps.db);
}

export async function getSlaPolicy(deps: AppDeps, id: number) {
  const found = await q.findPolicy(deps.db, id);
  if (!found) throw new NotFoundError('SLA policy not found');
  return found;
}

/** For the domains that reference policies (teams, conversations, macros): a 400 naming the field when the id is unknown. */
export async function assertSlaPolicyExists(db: DB, id: number, field = 'sla_policy_id'): Promise<void> {
  if (!(await q.policyExists(db, id))) throw InputError.field(field, `unknown SLA policy id ${id}`);
}

export async function createSlaPolicy(deps: AppDeps, actor: AuditActor, input: CreateInput) {
  const values = cleanValues(input);
  const name = values.name!;
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    await assertNameFree(trx, name, null);
    const policy = await q.insertPolicy(trx, { ...values, name, created_at: now, updated_at: now });
    await auditPolicy(deps, trx, actor, 'sla.created', policy, changesBetween(null, policy));
    return policy;
  });
}

/** Partial. Conversations that already have the policy applied keep the targets it had then. */
export async function updateSlaPolicy(deps: AppDeps, actor: AuditActor, id: number, input: UpdateInput) {
  const values = cleanValues(input);
  return deps.db.transaction().execute(async (trx) => {
    const before = (await q.lockPolicy(trx, id)) ? await q.findPolicy(trx, id) : undefined;
    if (!before) throw new NotFoundError('SLA policy not found');
    if (values.name !== undefined) await assertNameFree(trx, values.name, id);
    const updated = await q.updatePolicy(trx, id, { ...values, updated_at: deps.clock.now() });
    if (!updated) throw new NotFoundError('SLA policy not found');
    await auditPolicy(deps, trx, actor, 'sla.updated', updated, changesBetween(before, updated));
    return updated;
  });
}

const NAMED_TEAMS = 5;

/** 422 while a team uses the policy; conversations keep their applied SLAs (their policy id becomes null). */
export async function deleteSlaPolicy(deps: AppDeps, actor: AuditActor, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = (await q.lockPolicy(trx, id)) ? await q.findPolicy(trx, id) : undefined;
    if (!current) throw new NotFoundError('SLA policy not found');
    const teams = await q.teamsUsingPolicy(trx, id, NAMED_TEAMS);
    if (teams.total > 0) {
      const more = teams.total > teams.names.length ? ` and ${teams.total - teams.names.length} more` : '';
      const which = `${teams.total === 1 ? 'team' : 'teams'} ${teams.names.join(', ')}${more}`;
      throw new DataError(`This SLA policy is in use (${which}); choose another policy there first`);
    }
    await q.deletePolicy(trx, id);
    await auditPolicy(deps, trx, actor, 'sla.deleted', current, changesBetween(current, null));
  });
}
