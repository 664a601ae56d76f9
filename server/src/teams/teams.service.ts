import { type AuditActor, type AuditChanges, changesBetween, recordAudit } from '../audit/audit.service.ts';
import { invalidateCredentials } from '../auth/credential-cache.ts';
import { assertBusinessHoursExist } from '../business-hours/business-hours.service.ts';
import { requireTimeZone } from '../business-hours/zoned-time.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictError, InputError, NotFoundError } from '../errors.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { assertSlaPolicyExists } from '../sla/sla.service.ts';
import * as q from './teams.queries.ts';

function withTimezone<T extends { timezone?: string }>(input: T): T {
  return input.timezone === undefined ? input : { ...input, timezone: requireTimeZone(input.timezone) };
}

/** A team's business hours and SLA policy must exist. */
async function assertReferences(db: DB, input: q.TeamValues): Promise<void> {
  if (input.sla_policy_id != null) await assertSlaPolicyExists(db, input.sla_policy_id);
  if (input.business_hours_id != null) await assertBusinessHoursExist(db, input.business_hours_id);
}

/** What a team's audit entries show: its settings and its members. */
const AUDITED_FIELDS = [
  'name',
  'emoji',
  'conversation_assignment_type',
  'timezone',
  'business_hours_id',
  'sla_policy_id',
  'max_auto_assigned_conversations',
  'members',
] as const;

type AuditedMember = { id: number; name: string };

async function auditedMembers(db: DB, teamId: number): Promise<AuditedMember[]> {
  return (await q.listMembers(db, teamId))
    .map((m) => ({ id: m.id, name: `${m.first_name} ${m.last_name}`.trim() }))
    .sort((a, b) => a.id - b.id);
}

/** A team's entry; an update that changed nothing writes none. */
async function auditTeam(
  deps: AppDeps,
  trx: DB,
  actor: AuditActor,
  action: 'team.created' | 'team.updated' | 'team.deleted',
  team: { id: number; name: string },
  changes: AuditChanges,
): Promise<void> {
  if (action === 'team.updated' && Object.keys(changes).length === 0) return;
  await recordAudit(trx, actor, { action, resource: { type: 'team', id: team.id, name: team.name }, changes }, deps.clock.now());
}

/** A change of members, as the team's update. */
async function auditMembers(deps: AppDeps, trx: DB, actor: AuditActor, team: { id: number; name: string }, before: AuditedMember[]) {
  const after = await auditedMembers(trx, team.id);
  await auditTeam(deps, trx, actor, 'team.updated', team, changesBetween({ members: before }, { members: after }));
}

/** Throws a 400 naming the ids that are not teams. */
export async function assertTeamsExist(db: DB, ids: number[], field = 'teams'): Promise<number[]> {
  const unique = [...new Set(ids)];
  const existing = new Set(await q.findExistingTeamIds(db, unique));
  const missing = unique.filter((id) => !existing.has(id));
  if (missing.length > 0) throw InputError.field(field, `unknown team id ${missing.join(', ')}`);
  return unique;
}

async function assertAgents(db: DB, ids: number[], field: string): Promise<number[]> {
  const unique = [...new Set(ids)];
  const live = new Set(await q.findLiveAgentIds(db, unique));
  const missing = unique.filter((id) => !live.has(id));
  if (missing.length > 0) throw InputError.field(field, `unknown agent id ${missing.join(', ')}`);
  return unique;
}

async function assertNameFree(db: DB, name: string, exceptId: number | null): Promise<void> {
  const existing = await q.findTeamByName(db, name);
  if (existing && existing.id !== exceptId) throw new ConflictError(`A team named "${name.trim()}" already exists`);
}

export async function listTeams(deps: AppDeps) {
  return q.listTeams(deps.db);
}

export async function listTeamsCompact(deps: AppDeps) {
  return q.listTeamsCompact(deps.db);
}

/** The lookup other domains use (assignments, macros, lists): the team or undefined. */
export { findTeam } from './teams.queries.ts';

export async function getTeam(deps: AppDeps, id: number) {
  const team = await q.findTeam(deps.db, id);
  if (!team) throw new NotFoundError('Team not found');
  return team;
}

/**
 * The team gained members or changed how it assigns: its waiting conversations are placed by
 * round robin, which belongs to the conversations domain (a durable job, handled there).
 */
async function enqueuePlacement(deps: AppDeps, trx: DB, teamId: number): Promise<void> {
  await enqueueJob(deps, trx, { kind: 'conversations.place_team', payload: { team_id: teamId } });
}

export async function createTeam(deps: AppDeps, actor: AuditActor, input: q.TeamValues & { name: string; members?: number[] }) {
  const { members, ...values } = withTimezone(input);
  const team = await deps.db.transaction().execute(async (trx) => {
    await assertNameFree(trx, values.name, null);
    await assertReferences(trx, values);
    const memberIds = members ? await assertAgents(trx, members, 'members') : [];
    const created = await q.insertTeam(trx, { ...values, name: values.name.trim(), emoji: values.emoji?.trim() ?? '' });
    if (memberIds.length > 0) await q.replaceMembers(trx, created.id, memberIds);
    if (memberIds.length > 0) await enqueuePlacement(deps, trx, created.id);
    const audited = { ...created, members: await auditedMembers(trx, created.id) };
    await auditTeam(deps, trx, actor, 'team.created', created, changesBetween(null, audited, AUDITED_FIELDS));
    return created;
  });
  if (members?.length) await invalidateCredentials(deps, null);
  return team;
}

export async function updateTeam(deps: AppDeps, actor: AuditActor, id: number, body: q.TeamValues) {
  const input = withTimezone(body);
  return deps.db.transaction().execute(async (trx) => {
    const current = await q.lockTeam(trx, id);
    if (input.name !== undefined) await assertNameFree(trx, input.name, id);
    await assertReferences(trx, input);
    const updated = await q.updateTeam(trx, id, {
      ...input,
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.emoji !== undefined ? { emoji: input.emoji.trim() } : {}),
      updated_at: deps.clock.now(),
    });
    if (!current || !updated) throw new NotFoundError('Team not found');
    await auditTeam(deps, trx, actor, 'team.updated', updated, changesBetween(current, updated, AUDITED_FIELDS));
    if (input.conversation_assignment_type !== undefined || input.max_auto_assigned_conversations !== undefined) {
      await enqueuePlacement(deps, trx, id);
    }
    return updated;
  });
}

export async function deleteTeam(deps: AppDeps, actor: AuditActor, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await q.lockTeam(trx, id);
    if (!current) throw new NotFoundError('Team not found');
    const before = { ...current, members: await auditedMembers(trx, id) };
    if (!(await q.deleteTeam(trx, id))) throw new NotFoundError('Team not found');
    await auditTeam(deps, trx, actor, 'team.deleted', current, changesBetween(before, null, AUDITED_FIELDS));
  });
  await invalidateCredentials(deps, null);
}

export async function listMembers(deps: AppDeps, teamId: number) {
  await getTeam(deps, teamId);
  return q.listMembers(deps.db, teamId);
}

export async function setMembers(deps: AppDeps, actor: AuditActor, teamId: number, userIds: number[]) {
  const members = await deps.db.transaction().execute(async (trx) => {
    const team = await q.lockTeam(trx, teamId);
    if (!team) throw new NotFoundError('Team not found');
    const ids = await assertAgents(trx, userIds, 'user_ids');
    const before = await auditedMembers(trx, teamId);
    await q.replaceMembers(trx, teamId, ids);
    await auditMembers(deps, trx, actor, team, before);
    await enqueuePlacement(deps, trx, teamId);
    return q.listMembers(trx, teamId);
  });
  await invalidateCredentials(deps, null);
  return members;
}

export async function addMember(deps: AppDeps, actor: AuditActor, teamId: number, userId: number) {
  const members = await deps.db.transaction().execute(async (trx) => {
    const team = await q.lockTeam(trx, teamId);
    if (!team) throw new NotFoundError('Team not found');
    await assertAgents(trx, [userId], 'user_id');
    const before = await auditedMembers(trx, teamId);
    await q.addMember(trx, teamId, userId);
    await auditMembers(deps, trx, actor, team, before);
    await enqueuePlacement(deps, trx, teamId);
    return q.listMembers(trx, teamId);
  });
  await invalidateCredentials(deps, userId);
  return members;
}

export async function removeMember(deps: AppDeps, actor: AuditActor, teamId: number, userId: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const team = await q.lockTeam(trx, teamId);
    if (!team) throw new NotFoundError('Team not found');
    const before = await auditedMembers(trx, teamId);
    const removed = await q.removeMember(trx, teamId, userId);
    if (!removed) throw new NotFoundError('That agent is not a member of this team');
    await auditMembers(deps, trx, actor, team, before);
  });
  await invalidateCredentials(deps, userId);
}

/** The business hours of a conversation's team, when it has a team with hours. */
export async function teamHoursId(db: DB, teamId: number | null): Promise<number | null> {
  return teamId === null ? null : q.findTeamHoursId(db, teamId);
}

/** Names of these teams (reports' tables), by id. */
export async function teamNames(db: DB, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  return new Map((await q.namesByIds(db, ids)).map((row) => [row.id, row.name]));
}
