import { type AuditActor, changesBetween, recordAudit } from '../audit/audit.service.ts';
import { invalidateCredentials } from '../auth/credential-cache.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictError, DataError, InputError, NotFoundError, PermissionError } from '../errors.ts';
import { ADMIN_ROLE, AGENT_ROLE, AGENT_ROLE_PERMISSIONS, isPermission, PERMISSIONS } from '../auth/permissions.ts';
import * as q from './roles.queries.ts';

/** What a role's audit entries show. */
const AUDITED_FIELDS = ['name', 'description', 'permissions', 'require_2fa'] as const;

/** Seeds the built-in roles; Admin always holds the whole catalogue, also after the catalogue grows. Stored sorted, like every role's permissions. */
export async function seedRoles(db: DB): Promise<void> {
  const every = [...PERMISSIONS].sort();
  await q.insertRoleIfMissing(db, { name: ADMIN_ROLE, description: 'Every permission', permissions: every, is_builtin: true });
  await q.insertRoleIfMissing(db, {
    name: AGENT_ROLE,
    description: 'Works on conversations and contacts',
    permissions: [...AGENT_ROLE_PERMISSIONS].sort(),
    is_builtin: true,
  });
  await q.setBuiltinPermissions(db, ADMIN_ROLE, every);
}

function normalisePermissions(permissions: string[]): string[] {
  const unknown = permissions.filter((p) => !isPermission(p));
  if (unknown.length > 0) {
    throw new InputError(
      `permissions: unknown permission ${unknown.map((p) => `"${p}"`).join(', ')}`,
      unknown.map(() => ({ field: 'permissions', reason: 'unknown permission' })),
    );
  }
  return [...new Set(permissions)].sort();
}

/** Role ids for role names (case-insensitive); an unknown name is a 400 that names it. */
export async function resolveRoleIds(db: DB, names: string[], grantor: ReadonlySet<string> | null): Promise<number[]> {
  const rows = await q.findRolesByNames(db, names);
  const found = new Set(rows.map((r) => r.name.toLowerCase()));
  const missing = names.filter((n) => !found.has(n.trim().toLowerCase()));
  if (missing.length > 0) throw InputError.field('roles', `unknown role ${missing.map((m) => `"${m}"`).join(', ')}`);
  assertMayGrant(
    grantor,
    rows.flatMap((r) => r.permissions),
  );
  return rows.map((r) => r.id);
}

/** Nobody hands out a permission they do not hold themselves (null grantor = the operator's CLI). */
export function assertMayGrant(grantor: ReadonlySet<string> | null, permissions: Iterable<string>): void {
  if (grantor === null) return;
  const lacking = [...new Set(permissions)].filter((p) => !grantor.has(p)).sort();
  if (lacking.length > 0) throw new PermissionError(`You cannot grant permissions you do not hold: ${lacking.join(', ')}`);
}

export async function listRoles(deps: AppDeps) {
  return q.listRoles(deps.db);
}

/**
 * The role as it stays until the transaction `db` ends (its row locked: no rename, permission
 * change or deletion meanwhile), or undefined when it is gone. For a grant decided on the role's id.
 */
export async function lockRoleForGrant(db: DB, id: number): Promise<{ name: string; permissions: string[] } | undefined> {
  const role = await q.lockRole(db, id);
  return role && { name: role.name, permissions: role.permissions };
}

export async function getRole(deps: AppDeps, id: number) {
  const role = await q.findRole(deps.db, id);
  if (!role) throw new NotFoundError('Role not found');
  return role;
}

async function assertNameFree(db: DB, name: string, exceptId: number | null): Promise<void> {
  const existing = await q.findRoleByName(db, name);
  if (existing && existing.id !== exceptId) throw new ConflictError(`A role named "${name.trim()}" already exists`);
}

export async function createRole(
  deps: AppDeps,
  actor: AuditActor,
  grantor: ReadonlySet<string>,
  input: { name: string; description?: string; permissions: string[]; require_2fa?: boolean },
) {
  const name = input.name.trim();
  const permissions = normalisePermissions(input.permissions);
  assertMayGrant(grantor, permissions);
  return deps.db.transaction().execute(async (trx) => {
    await assertNameFree(trx, name, null);
    const role = await q.insertRole(trx, {
      name,
      description: input.description?.trim() ?? '',
      permissions,
      require_2fa: input.require_2fa ?? false,
    });
    await recordAudit(
      trx,
      actor,
      {
        action: 'role.created',
        resource: { type: 'role', id: role.id, name: role.name },
        changes: changesBetween(null, role, AUDITED_FIELDS),
      },
      deps.clock.now(),
    );
    return role;
  });
}

export async function updateRole(
  deps: AppDeps,
  actor: AuditActor,
  grantor: ReadonlySet<string>,
  id: number,
  input: { name?: string; description?: string; permissions?: string[]; require_2fa?: boolean },
) {
  const permissions = input.permissions ? normalisePermissions(input.permissions) : undefined;
  if (permissions) assertMayGrant(grantor, permissions);
  const role = await deps.db.transaction().execute(async (trx) => {
    const current = await q.findRole(trx, id);
    if (!current) throw new NotFoundError('Role not found');
    const name = input.name?.trim();
    if (current.is_builtin && name !== undefined && name !== current.name)
      throw new DataError(`The built-in role ${current.name} cannot be renamed`);
    if (current.name === ADMIN_ROLE && permissions && permissions.join() !== [...PERMISSIONS].sort().join()) {
      throw new DataError('The Admin role always holds every permission');
    }
    // Whether its holders need a second factor is theirs to weaken only for whom holds all they hold.
    if (input.require_2fa !== undefined && input.require_2fa !== current.require_2fa) {
      const lacking = current.permissions.filter((p) => !grantor.has(p)).sort();
      if (lacking.length > 0)
        throw new PermissionError(
          `Only an agent holding every permission of the role may change whether it requires two-factor sign-in: you lack ${lacking.join(', ')}`,
        );
    }
    if (name !== undefined) await assertNameFree(trx, name, id);
    const updated = await q.updateRole(trx, id, {
      ...(name !== undefined ? { name } : {}),
      ...(input.description !== undefined ? { description: input.description.trim() } : {}),
      ...(permissions ? { permissions } : {}),
      ...(input.require_2fa !== undefined ? { require_2fa: input.require_2fa } : {}),
      updated_at: deps.clock.now(),
    });
    if (!updated) throw new NotFoundError('Role not found');
    const changes = changesBetween(current, updated, AUDITED_FIELDS);
    if (Object.keys(changes).length > 0) {
      await recordAudit(
        trx,
        actor,
        { action: 'role.updated', resource: { type: 'role', id, name: updated.name }, changes },
        deps.clock.now(),
      );
    }
    return updated;
  });
  // Its agents' sessions are judged again (permissions, and the two-factor hold).
  if (permissions || input.require_2fa !== undefined) await invalidateCredentials(deps, null);
  return role;
}

export async function deleteRole(deps: AppDeps, actor: AuditActor, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await q.lockRole(trx, id);
    if (!current) throw new NotFoundError('Role not found');
    if (current.is_builtin) throw new DataError(`The built-in role ${current.name} cannot be deleted`);
    // Deleting it would leave its holders without its permissions, silently: they move first.
    const holders = await q.countAgentsHolding(trx, id);
    if (holders > 0) {
      throw new DataError(`The role ${current.name} is held by ${holders} agent${holders === 1 ? '' : 's'}; give them another role first`);
    }
    await q.deleteRole(trx, id);
    await recordAudit(
      trx,
      actor,
      {
        action: 'role.deleted',
        resource: { type: 'role', id, name: current.name },
        changes: changesBetween(current, null, AUDITED_FIELDS),
      },
      deps.clock.now(),
    );
  });
  await invalidateCredentials(deps, null);
}
