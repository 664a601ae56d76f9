import type { AppDeps } from '../deps.ts';
import { ConflictError, InputError, NotFoundError } from '../errors.ts';
import * as q from './tags.queries.ts';

export const TAG_NAME_MAX = 100;

/** Trimmed, then 1..100 characters (code points, as PostgreSQL's char_length counts them). */
function cleanName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw InputError.field('name', 'must not be empty');
  if ([...name].length > TAG_NAME_MAX) throw InputError.field('name', `must be at most ${TAG_NAME_MAX} characters`);
  return name;
}

export async function listTags(deps: AppDeps) {
  return q.listTags(deps.db);
}

export async function createTag(deps: AppDeps, rawName: string) {
  const name = cleanName(rawName);
  return deps.db.transaction().execute(async (trx) => {
    if (await q.findTagByName(trx, name)) throw new ConflictError(`Tag "${name}" already exists`);
    return q.insertTag(trx, name);
  });
}

export async function renameTag(deps: AppDeps, id: number, rawName: string) {
  const name = cleanName(rawName);
  return deps.db.transaction().execute(async (trx) => {
    const existing = await q.findTagByName(trx, name);
    if (existing && existing.id !== id) throw new ConflictError(`Tag "${name}" already exists`);
    const tag = await q.renameTag(trx, id, name, deps.clock.now());
    if (!tag) throw new NotFoundError('Tag not found');
    return tag;
  });
}

export async function deleteTag(deps: AppDeps, id: number): Promise<void> {
  if (!(await q.deleteTag(deps.db, id))) throw new NotFoundError('Tag not found');
}

/** The tags with these names (trimmed, case-insensitive); names that match no tag are simply absent. */
export { findTagsByNames } from './tags.queries.ts';
