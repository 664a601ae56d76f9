import type { Static } from 'typebox';
import type { DB } from '../db/database.ts';
import type { StatusCategory } from '../db/types.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictError, DataError, InputError, NotFoundError } from '../errors.ts';
import * as q from './statuses.queries.ts';
import type { CreateStatusBody, UpdateStatusBody } from './statuses.schema.ts';

export const DEFAULT_STATUSES: ReadonlyArray<{ name: string; category: StatusCategory }> = [
  { name: 'Open', category: 'open' },
  { name: 'Snoozed', category: 'waiting' },
  { name: 'Resolved', category: 'resolved' },
  { name: 'Closed', category: 'resolved' },
];
export const DEFAULT_PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'] as const;

export async function seedStatusesAndPriorities(db: DB): Promise<void> {
  for (const status of DEFAULT_STATUSES) await q.insertStatusIfMissing(db, { ...status, is_system: true });
  for (const [rank, name] of DEFAULT_PRIORITIES.entries()) await q.insertPriorityIfMissing(db, name, rank + 1);
}

export const STATUS_NAME_MAX = 50;

/** Trimmed, then 1..50 characters (code points, as PostgreSQL's char_length counts them). */
function cleanName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw InputError.field('name', 'must not be empty');
  if ([...name].length > STATUS_NAME_MAX) throw InputError.field('name', `must be at most ${STATUS_NAME_MAX} characters`);
  return name;
}

export async function listStatuses(deps: AppDeps) {
  return q.listStatuses(deps.db);
}

export async function createStatus(deps: AppDeps, input: Static<typeof CreateStatusBody>) {
  const name = cleanName(input.name);
  return deps.db.transaction().execute(async (trx) => {
    if (await q.findStatusByName(trx, name)) throw new ConflictError(`Status "${name}" already exists`);
    return q.insertStatus(trx, { name, category: input.category });
  });
}

export async function updateStatus(deps: AppDeps, id: number, input: Static<typeof UpdateStatusBody>) {
  const name = input.name !== undefined ? cleanName(input.name) : undefined;
  return deps.db.transaction().execute(async (trx) => {
    const current = await q.findStatus(trx, id);
    if (!current) throw new NotFoundError('Status not found');
    if (
      current.is_system &&
      ((name !== undefined && name !== current.name) || (input.category !== undefined && input.category !== current.category))
    ) {
      throw new DataError(`The built-in status ${current.name} cannot be changed`);
    }
    if (name !== undefined) {
      const clash = await q.findStatusByName(trx, name);
      if (clash && clash.id !== id) throw new ConflictError(`Status "${name}" already exists`);
    }
    const updated = await q.updateStatus(trx, id, {
      ...(name !== undefined ? { name } : {}),
      ...(input.category !== undefined ? { category: input.category } : {}),
      updated_at: deps.clock.now(),
    });
    if (!updated) throw new NotFoundError('Status not found');
    return updated;
  });
}

export async function deleteStatus(deps: AppDeps, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await q.findStatus(trx, id);
    if (!current) throw new NotFoundError('Status not found');
    if (current.is_system) throw new DataError(`The built-in status ${current.name} cannot be deleted`);
    if (await q.statusInUse(trx, id)) throw new DataError('That status is in use by conversations; move them to another status first');
    await q.deleteStatus(trx, id);
  });
}

export async function listPriorities(deps: AppDeps) {
  return q.listPriorities(deps.db);
}

// The lookups every domain uses to resolve status and priority names (trimmed, case-insensitive).

export { findStatusByName } from './statuses.queries.ts';

export { findStatusesByNames } from './statuses.queries.ts';

export async function findPriorityByName(db: DB, name: string) {
  const [priority] = await q.findPrioritiesByNames(db, [name]);
  return priority;
}

export { findPrioritiesByNames } from './statuses.queries.ts';
