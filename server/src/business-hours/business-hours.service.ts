import type { Static } from 'typebox';
import { type AuditActor, type AuditChanges, changesBetween, recordAudit } from '../audit/audit.service.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictError, DataError, InputError, NotFoundError } from '../errors.ts';
import type { Schedule } from './business-hours.calendar.ts';
import { cleanHolidays, cleanHours } from './business-hours.input.ts';
import * as q from './business-hours.queries.ts';
import type { CreateBusinessHoursBody, UpdateBusinessHoursBody } from './business-hours.schema.ts';
import { requireTimeZone } from './zoned-time.ts';

type CreateInput = Static<typeof CreateBusinessHoursBody>;
type UpdateInput = Static<typeof UpdateBusinessHoursBody>;

function cleanName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw InputError.field('name', 'must not be empty');
  return name;
}

/** The body's values, checked and in their stored form (fields left out stay out). */
function cleanValues(input: UpdateInput): q.BusinessHoursValues {
  return {
    ...(input.name !== undefined ? { name: cleanName(input.name) } : {}),
    ...(input.description !== undefined ? { description: input.description.trim() } : {}),
    ...(input.timezone !== undefined ? { timezone: requireTimeZone(input.timezone) } : {}),
    ...(input.always_open !== undefined ? { always_open: input.always_open } : {}),
    ...(input.hours !== undefined ? { hours: cleanHours(input.hours) } : {}),
    ...(input.holidays !== undefined ? { holidays: cleanHolidays(input.holidays) } : {}),
  };
}

/** Writes the entry (every stored field but the id and timestamps: hours and holidays whole); an update that changed nothing writes none. */
async function auditHours(
  deps: AppDeps,
  trx: DB,
  actor: AuditActor,
  action: 'business_hours.created' | 'business_hours.updated' | 'business_hours.deleted',
  hours: { id: number; name: string },
  changes: AuditChanges,
): Promise<void> {
  if (action === 'business_hours.updated' && Object.keys(changes).length === 0) return;
  await recordAudit(
    trx,
    actor,
    { action, resource: { type: 'business_hours', id: hours.id, name: hours.name }, changes },
    deps.clock.now(),
  );
}

async function assertNameFree(db: DB, name: string, exceptId: number | null): Promise<void> {
  const existing = await q.findBusinessHoursIdByName(db, name);
  if (existing && existing.id !== exceptId) throw new ConflictError(`Business hours named "${name}" already exist`);
}

export async function listBusinessHours(deps: AppDeps) {
  return q.listBusinessHours(deps.db);
}

export async function getBusinessHours(deps: AppDeps, id: number) {
  const found = await q.findBusinessHours(deps.db, id);
  if (!found) throw new NotFoundError('Business hours not found');
  return found;
}

/** The record, or undefined when there are no such business hours. */
export async function getBusinessHoursIfAny(db: DB, id: number) {
  return q.findBusinessHours(db, id);
}

/** The schedule the calendar works with, or null when there are no such business hours. */
export async function findSchedule(db: DB, id: number): Promise<Schedule | null> {
  return (await q.findBusinessHours(db, id)) ?? null;
}

/** For the domains that reference business hours (teams, settings): a 400 naming the field when the id is unknown. */
export async function assertBusinessHoursExist(db: DB, id: number, field = 'business_hours_id'): Promise<void> {
  if (!(await q.businessHoursExists(db, id))) throw InputError.field(field, `unknown business hours id ${id}`);
}

export async function createBusinessHours(deps: AppDeps, actor: AuditActor, input: CreateInput) {
  const values = cleanValues(input);
  const name = values.name!;
  const timezone = values.timezone!;
  return deps.db.transaction().execute(async (trx) => {
    await assertNameFree(trx, name, null);
    const created = await q.insertBusinessHours(trx, { hours: cleanHours({}), holidays: [], ...values, name, timezone });
    await auditHours(deps, trx, actor, 'business_hours.created', created, changesBetween(null, created));
    return created;
  });
}

export async function updateBusinessHours(deps: AppDeps, actor: AuditActor, id: number, input: UpdateInput) {
  const values = cleanValues(input);
  return deps.db.transaction().execute(async (trx) => {
    const before = (await q.lockBusinessHours(trx, id)) ? await q.findBusinessHours(trx, id) : undefined;
    if (!before) throw new NotFoundError('Business hours not found');
    if (values.name !== undefined) await assertNameFree(trx, values.name, id);
    const updated = await q.updateBusinessHours(trx, id, { ...values, updated_at: deps.clock.now() });
    if (!updated) throw new NotFoundError('Business hours not found');
    await auditHours(deps, trx, actor, 'business_hours.updated', updated, changesBetween(before, updated));
    return updated;
  });
}

const NAMED_TEAMS = 5;

export async function deleteBusinessHours(deps: AppDeps, actor: AuditActor, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = (await q.lockBusinessHours(trx, id)) ? await q.findBusinessHours(trx, id) : undefined;
    if (!current) throw new NotFoundError('Business hours not found');
    const users = await q.businessHoursUsers(trx, id, NAMED_TEAMS);
    const uses: string[] = [];
    if (users.isDefault) uses.push('the default of the general settings');
    if (users.inboxes.length > 0) uses.push(`${users.inboxes.length === 1 ? 'inbox' : 'inboxes'} ${users.inboxes.join(', ')}`);
    if (users.teamCount > 0) {
      const more = users.teamCount > users.teams.length ? ` and ${users.teamCount - users.teams.length} more` : '';
      uses.push(`${users.teamCount === 1 ? 'team' : 'teams'} ${users.teams.join(', ')}${more}`);
    }
    if (uses.length > 0) throw new DataError(`These business hours are in use (${uses.join('; ')}); choose other hours there first`);
    await q.deleteBusinessHours(trx, id);
    await auditHours(deps, trx, actor, 'business_hours.deleted', current, changesBetween(current, null));
  });
}
