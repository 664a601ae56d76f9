import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { AssignmentType } from '../db/types.ts';

const columns = [
  'id',
  'created_at',
  'updated_at',
  'emoji',
  'name',
  'conversation_assignment_type',
  'timezone',
  'business_hours_id',
  'sla_policy_id',
  'max_auto_assigned_conversations',
] as const;

export interface TeamValues {
  name?: string;
  emoji?: string;
  conversation_assignment_type?: AssignmentType;
  timezone?: string;
  business_hours_id?: number | null;
  sla_policy_id?: number | null;
  max_auto_assigned_conversations?: number;
}

export async function listTeams(db: DB) {
  return db.selectFrom('teams').select(columns).orderBy('name').orderBy('id').execute();
}

export async function listTeamsCompact(db: DB) {
  return db.selectFrom('teams').select(['id', 'name', 'emoji']).orderBy('name').orderBy('id').execute();
}

export async function findTeam(db: DB, id: number) {
  return db.selectFrom('teams').where('id', '=', id).select(columns).executeTakeFirst();
}

/** The team, its row locked until the transaction ends (its audit entry describes the change made under the lock). */
export async function lockTeam(db: DB, id: number) {
  return db.selectFrom('teams').where('id', '=', id).select(columns).forUpdate().executeTakeFirst();
}

export async function findTeamByName(db: DB, name: string) {
  return db.selectFrom('teams').where(sql`lower(name)`, '=', name.trim().toLowerCase()).select('id').executeTakeFirst();
}

export async function findExistingTeamIds(db: DB, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('teams').where('id', 'in', ids).select('id').execute();
  return rows.map((r) => r.id);
}

export async function insertTeam(db: DB, values: TeamValues & { name: string }) {
  return db.insertInto('teams').values(values).returning(columns).executeTakeFirstOrThrow();
}

export async function updateTeam(db: DB, id: number, values: TeamValues & { updated_at: Date }) {
  return db.updateTable('teams').set(values).where('id', '=', id).returning(columns).executeTakeFirst();
}

export async function deleteTeam(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom('teams').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listMembers(db: DB, teamId: number) {
  return db
    .selectFrom('team_members as tm')
    .innerJoin('users as u', 'u.id', 'tm.user_id')
    .where('tm.team_id', '=', teamId)
    .where('u.deleted_at', 'is', null)
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.avatar_url', 'u.availability_status', 'u.enabled'])
    .orderBy('u.first_name')
    .orderBy('u.id')
    .execute();
}

export async function findLiveAgentIds(db: DB, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .where('id', 'in', ids)
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function replaceMembers(db: DB, teamId: number, userIds: number[]): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', 'not in', userIds.length ? userIds : [0])
    .execute();
  if (userIds.length > 0) {
    await db
      .insertInto('team_members')
      .values(userIds.map((user_id) => ({ team_id: teamId, user_id })))
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
      .execute();
  }
}

export async function addMember(db: DB, teamId: number, userId: number): Promise<void> {
  await db
    .insertInto('team_members')
    .values({ team_id: teamId, user_id: userId })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

export async function removeMember(db: DB, teamId: number, userId: number): Promise<boolean> {
  const result = await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The business hours a team works in (null: none, or no such team). */
export async function findTeamHoursId(db: DB, teamId: number): Promise<number | null> {
  const row = await db.selectFrom('teams').where('id', '=', teamId).select('business_hours_id').executeTakeFirst();
  return row?.business_hours_id ?? null;
}

export async function namesByIds(db: DB, ids: readonly number[]) {
  return db.selectFrom('teams').where('id', 'in', ids).select(['id', 'name']).execute();
}
