import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { Availability, AvailabilitySource, NewUser, UserUpdate } from '../db/types.ts';
import { containsPattern } from '../db/like.ts';

/** The full Agent record (spec) in one statement: roles, permissions and teams come from correlated subqueries. */
export function selectUserRecords(db: DB) {
  return db
    .selectFrom('users as u')
    .where('u.deleted_at', 'is', null)
    .select([
      'u.id',
      'u.created_at',
      'u.updated_at',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.type',
      'u.availability_status',
      'u.phone_number_country_code',
      'u.phone_number',
      'u.avatar_url',
      'u.enabled',
      'u.last_active_at',
      'u.last_login_at',
      'u.custom_attributes',
      'u.api_key',
      'u.api_key_last_used_at',
      'u.two_factor_enabled',
      sql<
        string[]
      >`coalesce((select array_agg(r.name order by r.name) from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id), '{}')`.as(
        'roles',
      ),
      sql<
        string[]
      >`coalesce((select array_agg(distinct p collate "C" order by p collate "C") from user_roles ur join roles r on r.id = ur.role_id cross join unnest(r.permissions) as p where ur.user_id = u.id), '{}')`.as(
        'permissions',
      ),
      sql<
        Array<{ id: number; name: string; emoji: string }>
      >`coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'emoji', t.emoji) order by t.name) from team_members tm join teams t on t.id = tm.team_id where tm.user_id = u.id), '[]'::json)`.as(
        'teams',
      ),
    ]);
}

export type UserRecord = Awaited<ReturnType<ReturnType<typeof selectUserRecords>['executeTakeFirstOrThrow']>>;

export async function findAgentRecord(db: DB, id: number): Promise<UserRecord | undefined> {
  return selectUserRecords(db).where('u.id', '=', id).where('u.type', '=', 'agent').executeTakeFirst();
}

export interface AgentListFilter {
  q?: string;
  orderBy: 'created_at' | 'updated_at' | 'first_name' | 'email';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export async function listAgentRecords(db: DB, filter: AgentListFilter): Promise<{ rows: UserRecord[]; total: number }> {
  let base = db.selectFrom('users as u').where('u.type', '=', 'agent').where('u.deleted_at', 'is', null);
  let records = selectUserRecords(db).where('u.type', '=', 'agent');
  if (filter.q) {
    const pattern = containsPattern(filter.q.trim().toLowerCase());
    const match = sql<boolean>`(lower(u.first_name || ' ' || u.last_name) like ${pattern} or lower(u.email) like ${pattern})`;
    base = base.where(match);
    records = records.where(match);
  }
  const [count, rows] = await Promise.all([
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    records.orderBy(`u.${filter.orderBy}`, filter.order).orderBy('u.id', filter.order).limit(filter.limit).offset(filter.offset).execute(),
  ]);
  return { rows, total: count.total };
}

export async function listAgentsCompact(db: DB) {
  return db
    .selectFrom('users')
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select(['id', 'first_name', 'last_name', 'email', 'avatar_url', 'availability_status', 'enabled'])
    .orderBy('first_name')
    .orderBy('id')
    .limit(10_000)
    .execute();
}

export async function insertUser(db: DB, values: NewUser): Promise<number> {
  const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(db: DB, id: number, values: UserUpdate): Promise<void> {
  await db.updateTable('users').set(values).where('id', '=', id).execute();
}

export async function findAgentState(db: DB, id: number) {
  return db
    .selectFrom('users')
    .where('id', '=', id)
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select(['id', 'enabled', 'password_hash', 'availability_status', 'availability_source', 'absent_from_status', 'absent_from_source'])
    .executeTakeFirst();
}

/** The same, with the agent's row locked until the transaction ends (availability changes). */
export async function lockAgentState(db: DB, id: number) {
  return db
    .selectFrom('users')
    .where('id', '=', id)
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select(['id', 'availability_status', 'availability_source', 'absent_from_status', 'absent_from_source'])
    .forUpdate()
    .executeTakeFirst();
}

function liveAgentQuery(db: DB, id: number) {
  return db
    .selectFrom('users')
    .where('id', '=', id)
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select(['id', 'first_name', 'last_name', 'enabled']);
}

/** An agent that is not deleted (it may be disabled), as assignments need it. */
export async function findLiveAgent(db: DB, id: number) {
  return liveAgentQuery(db, id).executeTakeFirst();
}

/**
 * The same, with the agent's row share-locked until the transaction ends: an assignment that
 * holds it cannot interleave with the agent's deletion (the deletion waits, or the assignment
 * sees the agent deleted), so no conversation is left assigned to a deleted agent.
 */
export async function lockLiveAgent(db: DB, id: number) {
  return liveAgentQuery(db, id).forShare().executeTakeFirst();
}

export async function agentEmailTaken(db: DB, email: string, exceptId: number | null): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select('id');
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function replaceUserRoles(db: DB, userId: number, roleIds: number[]): Promise<void> {
  await db.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  if (roleIds.length > 0)
    await db
      .insertInto('user_roles')
      .values(roleIds.map((role_id) => ({ user_id: userId, role_id })))
      .execute();
}

export async function replaceUserTeams(db: DB, userId: number, teamIds: number[]): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('user_id', '=', userId)
    .where('team_id', 'not in', teamIds.length ? teamIds : [0])
    .execute();
  if (teamIds.length > 0) {
    await db
      .insertInto('team_members')
      .values(teamIds.map((team_id) => ({ team_id, user_id: userId })))
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
      .execute();
  }
}

export async function softDeleteAgent(db: DB, id: number, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({
      deleted_at: now,
      enabled: false,
      api_key: null,
      api_secret_hash: null,
      api_key_last_used_at: null,
      availability_status: 'offline',
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
  await db.deleteFrom('team_members').where('user_id', '=', id).execute();
  await db.deleteFrom('sessions').where('user_id', '=', id).execute();
}

export async function setApiCredentials(db: DB, id: number, apiKey: string | null, secretHash: string | null, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ api_key: apiKey, api_secret_hash: secretHash, api_key_last_used_at: null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Sets the agent's availability; what it was before an absence is forgotten (unless `absentFrom` keeps it). */
export async function setAvailability(
  db: DB,
  id: number,
  status: Availability,
  source: AvailabilitySource,
  now: Date,
  absentFrom: { status: Exclude<Availability, 'offline'>; source: AvailabilitySource } | null = null,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      availability_status: status,
      availability_source: source,
      absent_from_status: absentFrom?.status ?? null,
      absent_from_source: absentFrom?.source ?? null,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function countAgents(db: DB): Promise<number> {
  const row = await db
    .selectFrom('users')
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function findAgentIdByEmail(db: DB, email: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('users')
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select('id')
    .executeTakeFirst();
  return row?.id;
}

/** Deletes the sessions of a user except one (the caller's own, when it is a session). */
export async function deleteOtherSessions(db: DB, userId: number, keepSessionId: string | null): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId !== null) query = query.where('id', '!=', keepSessionId);
  await query.execute();
}

/** Whether an enabled, live agent other than `userId` holds the role (the last Admin is kept). */
export async function anotherEnabledAdminExists(db: DB, userId: number, roleName: string): Promise<boolean> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('user_roles as ur', 'ur.user_id', 'u.id')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .where('r.name', '=', roleName)
    .where('u.type', '=', 'agent')
    .where('u.deleted_at', 'is', null)
    .where('u.enabled', '=', true)
    .where('u.id', '!=', userId)
    .select('u.id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function holdsRole(db: DB, userId: number, roleName: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_roles as ur')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .where('ur.user_id', '=', userId)
    .where('r.name', '=', roleName)
    .select('ur.user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function endSessionsOf(db: DB, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** Display names ("first last", trimmed) of these agents, deleted ones included. */
export async function namesByIds(db: DB, ids: readonly number[]) {
  return db
    .selectFrom('users')
    .where('id', 'in', ids)
    .select(['id', sql<string>`trim(first_name || ' ' || last_name)`.as('name')])
    .execute();
}
