import type { Static } from 'typebox';
import type { AuditActor } from '../audit/audit.service.ts';
import { invalidateCredentials, type Principal } from '../auth/credential-cache.ts';
import type { DB } from '../db/database.ts';
import type { Availability, AvailabilitySource } from '../db/types.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictError, DataError, InputError, NotFoundError, PermissionError } from '../errors.ts';
import { recordEvent } from '../events/events.service.ts';
import type { PageRequest } from '../http/schemas.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { ADMIN_ROLE } from '../auth/permissions.ts';
import { resolveRoleIds } from '../roles/roles.service.ts';
import { hashSecret, randomAlphanumeric, verifySecret } from '../security/hashing.ts';
import { assertTeamsExist } from '../teams/teams.service.ts';
import { auditAgent, auditedAgent, PASSWORD_CHANGE } from './agents.audit.ts';
import * as q from './agents.queries.ts';
import { retireTokensOf } from './password-tokens.queries.ts';
import type { CreateAgentBody, UpdateAgentBody, UpdateMeBody } from './agents.schema.ts';

export type AgentRecord = q.UserRecord;
export type CreateAgentInput = Static<typeof CreateAgentBody>;
type UpdateAgentInput = Static<typeof UpdateAgentBody>;
type UpdateMeInput = Static<typeof UpdateMeBody>;

// Round robin belongs to the conversations domain, which depends on this one (it looks up
// assignees here): so an agent change that concerns it is handed over as a durable job,
// enqueued in the change's transaction. Its handler is registered in workers.ts.

/** The agent may now take conversations: the waiting ones of their round-robin teams are placed. */
async function enqueuePlacementFor(deps: AppDeps, trx: DB, agentId: number): Promise<void> {
  await enqueueJob(deps, trx, { kind: 'conversations.place_for_agent', payload: { agent_id: agentId } });
}

/** The lookup other domains use (assignments, macros): an agent that is not deleted (it may be disabled), or undefined. */
export { findLiveAgent, lockLiveAgent } from './agents.queries.ts';

export async function getAgent(deps: AppDeps, id: number): Promise<AgentRecord> {
  const agent = await q.findAgentRecord(deps.db, id);
  if (!agent) throw new NotFoundError('Agent not found');
  return agent;
}

export async function listAgents(
  deps: AppDeps,
  page: PageRequest,
  filter: { q?: string; order_by?: q.AgentListFilter['orderBy']; order?: 'asc' | 'desc' },
) {
  return q.listAgentRecords(deps.db, {
    ...(filter.q ? { q: filter.q } : {}),
    orderBy: filter.order_by ?? 'created_at',
    order: filter.order ?? 'asc',
    limit: page.pageSize,
    offset: page.offset,
  });
}

export async function listAgentsCompact(deps: AppDeps) {
  return q.listAgentsCompact(deps.db);
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** `grantor`: the permissions of the caller, who may only hand out roles within them; null for the operator's CLI. */
/**
 * `first`, when given, runs in the agent's own transaction before the insert (with that
 * transaction's handle only: PGlite has one connection): whatever it throws rolls both back.
 * `withoutPassword` runs in it after the insert when no password was given (the invitation).
 */
export async function createAgent(
  deps: AppDeps,
  actor: AuditActor,
  grantor: ReadonlySet<string> | null,
  input: CreateAgentInput,
  first?: (trx: DB) => Promise<void>,
  withoutPassword?: (
    trx: DB,
    agent: { id: number; email: string; first_name: string; last_name: string; enabled: boolean },
  ) => Promise<void>,
): Promise<AgentRecord> {
  const email = normaliseEmail(input.email);
  const passwordHash = input.password ? await hashSecret(input.password) : null;
  const id = await deps.db.transaction().execute(async (trx) => {
    if (first) await first(trx);
    if (await q.agentEmailTaken(trx, email, null)) throw new ConflictError(`An agent with email ${email} already exists`);
    const roleIds = await resolveRoleIds(trx, input.roles, grantor);
    const teamIds = input.teams ? await assertTeamsExist(trx, input.teams) : [];
    const now = deps.clock.now();
    const id = await q.insertUser(trx, {
      type: 'agent',
      email,
      first_name: input.first_name.trim(),
      last_name: input.last_name?.trim() ?? '',
      password_hash: passwordHash,
      enabled: input.enabled ?? true,
      phone_number: input.phone_number ?? null,
      phone_number_country_code: input.phone_number_country_code ?? null,
      avatar_url: input.avatar_url ?? null,
      custom_attributes: JSON.stringify({}),
      external_user_id: null,
      api_key: null,
      api_secret_hash: null,
      created_at: now,
      updated_at: now,
    });
    await q.replaceUserRoles(trx, id, roleIds);
    await q.replaceUserTeams(trx, id, teamIds);
    await auditAgent(trx, actor, 'agent.created', { before: null, after: await auditedAgent(trx, id) }, now, {
      ...(passwordHash ? { password: [null, PASSWORD_CHANGE[1]] } : {}),
    });
    if (passwordHash === null && withoutPassword) {
      await withoutPassword(trx, {
        id,
        email,
        first_name: input.first_name.trim(),
        last_name: input.last_name?.trim() ?? '',
        enabled: input.enabled ?? true,
      });
    }
    return id;
  });
  return getAgent(deps, id);
}

/** Refuses a change that would leave no enabled agent holding the Admin role. */
async function assertAnotherAdminRemains(db: DB, userId: number): Promise<void> {
  if (!(await q.anotherEnabledAdminExists(db, userId, ADMIN_ROLE)))
    throw new DataError('This would leave no enabled agent with the Admin role');
}

/**
 * Taking over another agent's account (minting their key, setting their password or email)
 * needs every permission they hold: otherwise `users:manage` alone could become an Admin.
 * Disabling, deleting and revoking take nothing over: `users:manage` suffices for those.
 * Resetting another agent's two-factor sign-in weakens its account: the same rule.
 */
export async function assertMayManage(deps: AppDeps, actor: Principal, id: number): Promise<void> {
  if (actor.userId === id) return;
  const target = await getAgent(deps, id);
  const lacking = target.permissions.filter((p) => !actor.permissions.has(p));
  if (lacking.length > 0) {
    throw new PermissionError(`Permission denied: this agent holds permissions you do not (${lacking.join(', ')})`);
  }
}

export async function updateAgent(
  deps: AppDeps,
  auditActor: AuditActor,
  actor: Principal,
  id: number,
  input: UpdateAgentInput,
): Promise<AgentRecord> {
  if (input.password !== undefined || input.email !== undefined) await assertMayManage(deps, actor, id);
  const actorId = actor.userId;
  if (id === actorId && input.enabled === false) throw new DataError('You cannot disable yourself');
  const passwordHash = input.password ? await hashSecret(input.password) : undefined;
  await deps.db.transaction().execute(async (trx) => {
    const current = await q.findAgentState(trx, id);
    if (!current) throw new NotFoundError('Agent not found');
    const before = await auditedAgent(trx, id);
    const email = input.email !== undefined ? normaliseEmail(input.email) : undefined;
    if (email !== undefined && (await q.agentEmailTaken(trx, email, id)))
      throw new ConflictError(`An agent with email ${email} already exists`);
    const roleIds = input.roles ? await resolveRoleIds(trx, input.roles, actor.permissions) : undefined;
    const teamIds = input.teams ? await assertTeamsExist(trx, input.teams) : undefined;
    const losesAdmin = roleIds !== undefined && !input.roles!.some((r) => r.trim().toLowerCase() === ADMIN_ROLE.toLowerCase());
    if ((input.enabled === false || losesAdmin) && (await q.holdsRole(trx, id, ADMIN_ROLE))) await assertAnotherAdminRemains(trx, id);
    const now = deps.clock.now();
    await q.updateUser(trx, id, {
      ...(input.first_name !== undefined ? { first_name: input.first_name.trim() } : {}),
      ...(input.last_name !== undefined ? { last_name: input.last_name.trim() } : {}),
      ...(email !== undefined ? { email } : {}),
      ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.availability_status !== undefined
        ? { availability_status: input.availability_status, availability_source: 'user' as const }
        : {}),
      ...(input.phone_number !== undefined ? { phone_number: input.phone_number } : {}),
      ...(input.phone_number_country_code !== undefined ? { phone_number_country_code: input.phone_number_country_code } : {}),
      ...(input.avatar_url !== undefined ? { avatar_url: input.avatar_url } : {}),
      updated_at: now,
    });
    if (roleIds) await q.replaceUserRoles(trx, id, roleIds);
    if (teamIds) await q.replaceUserTeams(trx, id, teamIds);
    if (input.enabled === false || passwordHash !== undefined) await q.endSessionsOf(trx, id);
    // A password set otherwise makes the open invitation and reset links pointless: they die.
    if (passwordHash !== undefined) await retireTokensOf(trx, id, ['invitation', 'password_reset'], now);
    const after = await auditedAgent(trx, id);
    await auditAgent(trx, auditActor, 'agent.updated', { before, after }, now, passwordHash ? { password: PASSWORD_CHANGE } : {});
    if (input.availability_status !== undefined && input.availability_status !== current.availability_status) {
      await recordEvent(
        trx,
        'agent.availability_changed',
        { agent_id: id, availability_status: input.availability_status, source: 'user' },
        now,
      );
    }
    // Became available, was enabled again, or joined teams while available: round robin may give them what waits.
    const available = (input.availability_status ?? current.availability_status) === 'available' && (input.enabled ?? current.enabled);
    if (available && (current.availability_status !== 'available' || !current.enabled || teamIds !== undefined))
      await enqueuePlacementFor(deps, trx, id);
  });
  await invalidateCredentials(deps, id);
  return getAgent(deps, id);
}

export async function deleteAgent(deps: AppDeps, actor: AuditActor, actorId: number, id: number): Promise<void> {
  if (id === actorId) throw new DataError('You cannot delete yourself');
  await deps.db.transaction().execute(async (trx) => {
    const current = await q.findAgentState(trx, id);
    if (!current) throw new NotFoundError('Agent not found');
    if (await q.holdsRole(trx, id, ADMIN_ROLE)) await assertAnotherAdminRemains(trx, id);
    const now = deps.clock.now();
    const before = await auditedAgent(trx, id);
    await q.softDeleteAgent(trx, id, now);
    await auditAgent(trx, actor, 'agent.deleted', { before, after: null }, now);
    await recordEvent(trx, 'agent.deleted', { agent_id: id }, now);
    // Their unresolved conversations go back to their teams, and round robin places them, once this commits.
    await enqueueJob(deps, trx, { kind: 'conversations.release_agent', payload: { agent_id: id } });
  });
  await invalidateCredentials(deps, id);
}

export async function generateApiKey(deps: AppDeps, actor: AuditActor, id: number): Promise<{ api_key: string; api_secret: string }> {
  const apiKey = randomAlphanumeric(32);
  const apiSecret = randomAlphanumeric(64);
  const secretHash = await hashSecret(apiSecret);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await q.findAgentState(trx, id))) throw new NotFoundError('Agent not found');
    const now = deps.clock.now();
    await q.setApiCredentials(trx, id, apiKey, secretHash, now);
    const agent = await auditedAgent(trx, id);
    await auditAgent(trx, actor, 'agent.api_key_created', { before: agent, after: agent }, now);
  });
  await invalidateCredentials(deps, id);
  return { api_key: apiKey, api_secret: apiSecret };
}

/** An admin mints another agent's key (or its own). */
export async function generateApiKeyFor(
  deps: AppDeps,
  auditActor: AuditActor,
  actor: Principal,
  id: number,
): Promise<{ api_key: string; api_secret: string }> {
  await assertMayManage(deps, actor, id);
  return generateApiKey(deps, auditActor, id);
}

export async function revokeApiKey(deps: AppDeps, actor: AuditActor, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await q.findAgentState(trx, id))) throw new NotFoundError('Agent not found');
    const now = deps.clock.now();
    await q.setApiCredentials(trx, id, null, null, now);
    const agent = await auditedAgent(trx, id);
    await auditAgent(trx, actor, 'agent.api_key_revoked', { before: agent, after: agent }, now);
  });
  await invalidateCredentials(deps, id);
}

/** Updates the caller's own profile. A password change ends every other session of the agent (keepSessionId survives). */
export async function updateMe(
  deps: AppDeps,
  actor: AuditActor,
  id: number,
  input: UpdateMeInput,
  keepSessionId: string | null = null,
): Promise<AgentRecord> {
  let passwordHash: string | undefined;
  if (input.new_password !== undefined) {
    const current = await q.findAgentState(deps.db, id);
    if (!current) throw new NotFoundError('Agent not found');
    // An agent that never had a password (SSO or API only) may set one without the old one.
    if (current.password_hash !== null && !(await verifySecret(input.current_password ?? '', current.password_hash))) {
      throw InputError.field('current_password', 'is incorrect');
    }
    passwordHash = await hashSecret(input.new_password);
  }
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const before = await auditedAgent(trx, id);
    await q.updateUser(trx, id, {
      ...(input.first_name !== undefined ? { first_name: input.first_name.trim() } : {}),
      ...(input.last_name !== undefined ? { last_name: input.last_name.trim() } : {}),
      ...(input.phone_number !== undefined ? { phone_number: input.phone_number } : {}),
      ...(input.phone_number_country_code !== undefined ? { phone_number_country_code: input.phone_number_country_code } : {}),
      ...(input.avatar_url !== undefined ? { avatar_url: input.avatar_url } : {}),
      ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
      updated_at: now,
    });
    await auditAgent(trx, actor, 'agent.updated', { before, after: await auditedAgent(trx, id) }, now);
    if (passwordHash !== undefined) {
      await q.deleteOtherSessions(trx, id, keepSessionId);
      await retireTokensOf(trx, id, ['invitation', 'password_reset'], now);
      await auditAgent(trx, actor, 'auth.password_changed', { before, after: before }, now, { password: PASSWORD_CHANGE });
    }
  });
  await invalidateCredentials(deps, id);
  return getAgent(deps, id);
}

/**
 * docs/api.md, "Agents and availability": a `user` change always applies. An `idle` change may ask only for
 * away or available, and applies only when the agent is available, or away
 * because idle put it there; otherwise it is a no-op. Idle never overrides a
 * manual away, busy or offline.
 */
export function nextAvailability(
  current: { status: Availability; source: AvailabilitySource },
  requested: { status: Availability; source: AvailabilitySource },
): { status: Availability; source: AvailabilitySource } | null {
  if (requested.source === 'user') return requested;
  if (requested.status !== 'away' && requested.status !== 'available') {
    throw InputError.field('status', 'an idle change may only request away or available');
  }
  const idleMayChange = current.status === 'available' || (current.status === 'away' && current.source === 'idle');
  return idleMayChange ? requested : null;
}

export async function setMyAvailability(deps: AppDeps, id: number, status: Availability, source: AvailabilitySource): Promise<AgentRecord> {
  await deps.db.transaction().execute(async (trx) => {
    // Locked: a socket's return from an absence, or the absence rule, waits for this change.
    const current = await q.lockAgentState(trx, id);
    if (!current) throw new NotFoundError('Agent not found');
    const next = nextAvailability({ status: current.availability_status, source: current.availability_source }, { status, source });
    if (!next || (next.status === current.availability_status && next.source === current.availability_source)) return;
    const now = deps.clock.now();
    await q.setAvailability(trx, id, next.status, next.source, now);
    if (next.status === current.availability_status) return;
    await recordEvent(trx, 'agent.availability_changed', { agent_id: id, availability_status: next.status, source: next.source }, now);
    // Round robin: conversations waiting in the agent's teams are placed as soon as they are available.
    if (next.status === 'available') await enqueuePlacementFor(deps, trx, id);
  });
  return getAgent(deps, id);
}

/**
 * An agent with no live agent socket for a while becomes offline, source idle (docs/api.md,
 * "Realtime": presence). Whatever its status was: a manual one too, since nobody is there.
 * Returns whether it changed.
 */
export async function setIdleOffline(deps: AppDeps, id: number, stillAbsent: (db: DB) => Promise<boolean>): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    // Locked, then asked again: an agent who came back (or changed status) since the sweep read it stays as it is.
    const current = await q.lockAgentState(trx, id);
    if (!current || current.availability_status === 'offline' || !(await stillAbsent(trx))) return false;
    const now = deps.clock.now();
    // What it was is kept: the agent's socket opening brings it back (returnFromAbsence).
    const before = { status: current.availability_status, source: current.availability_source };
    await q.setAvailability(trx, id, 'offline', 'idle', now, before);
    await recordEvent(trx, 'agent.availability_changed', { agent_id: id, availability_status: 'offline', source: 'idle' }, now);
    return true;
  });
}

/**
 * The agent's socket opened (a person's, signed in: not an integration's API key). An agent that
 * is offline because nobody chose it comes back as it was before the absence rule put it offline
 * (busy stays busy), or `available` when it never was anything else (a new agent), and round
 * robin may place conversations with it again. A status the agent chose, a manual offline too,
 * stays. A cheap unlocked look first: most sockets open for agents already there. Returns
 * whether it changed.
 */
export async function returnFromAbsence(deps: AppDeps, id: number): Promise<boolean> {
  const seen = await q.findAgentState(deps.db, id);
  if (seen?.availability_status !== 'offline' || seen.availability_source !== 'idle') return false;
  return deps.db.transaction().execute(async (trx) => {
    const current = await q.lockAgentState(trx, id);
    if (current?.availability_status !== 'offline' || current.availability_source !== 'idle') return false;
    const now = deps.clock.now();
    const status = current.absent_from_status ?? 'available';
    const source = current.absent_from_source ?? 'idle';
    await q.setAvailability(trx, id, status, source, now);
    await recordEvent(trx, 'agent.availability_changed', { agent_id: id, availability_status: status, source }, now);
    if (status === 'available') await enqueuePlacementFor(deps, trx, id);
    return true;
  });
}

/** Used at startup and by the CLI: creates an Admin agent with a password. */
export async function createAdmin(
  deps: AppDeps,
  actor: AuditActor,
  input: { email: string; password: string; first_name?: string; last_name?: string },
  first?: (trx: DB) => Promise<void>,
): Promise<AgentRecord> {
  return createAgent(
    deps,
    actor,
    null,
    {
      email: input.email,
      password: input.password,
      first_name: input.first_name ?? 'Admin',
      ...(input.last_name ? { last_name: input.last_name } : {}),
      roles: [ADMIN_ROLE],
    },
    first,
  );
}

export async function findAgentIdByEmail(deps: AppDeps, email: string): Promise<number | undefined> {
  return q.findAgentIdByEmail(deps.db, email);
}

export async function countAgents(deps: AppDeps): Promise<number> {
  return q.countAgents(deps.db);
}

/** Display names of these agents (reports' tables), by id. */
export async function agentNames(db: DB, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  return new Map((await q.namesByIds(db, ids)).map((row) => [row.id, row.name]));
}
