import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { holdsRoleRequiringTwoFactor } from './two-factor.queries.ts';

export interface PrincipalRow {
  id: number;
  email: string | null;
  first_name: string;
  last_name: string;
  enabled: boolean;
  last_active_at: Date | string | null;
  permissions: string[];
  team_ids: number[];
  /** Two-factor sign-in is on; a role of the agent requires it. */
  two_factor_enabled: boolean;
  requires_2fa: boolean;
}

/** An agent's role permissions (their union) and team ids, as columns of a query on `users as u`. */
function accessColumns() {
  return [
    sql<
      string[]
    >`coalesce((select array_agg(distinct p collate "C" order by p collate "C") from user_roles ur join roles r on r.id = ur.role_id cross join unnest(r.permissions) as p where ur.user_id = u.id), '{}')`.as(
      'permissions',
    ),
    sql<number[]>`coalesce((select array_agg(tm.team_id order by tm.team_id) from team_members tm where tm.user_id = u.id), '{}')`.as(
      'team_ids',
    ),
  ] as const;
}

/** A live, enabled agent with the union of its role permissions and its team ids. */
export async function findActiveAgentPrincipal(db: DB, userId: number): Promise<PrincipalRow | undefined> {
  return db
    .selectFrom('users as u')
    .where('u.id', '=', userId)
    .where('u.type', '=', 'agent')
    .where('u.deleted_at', 'is', null)
    .where('u.enabled', '=', true)
    .select([
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.enabled',
      'u.last_active_at',
      'u.two_factor_enabled',
      holdsRoleRequiringTwoFactor().as('requires_2fa'),
      ...accessColumns(),
    ])
    .executeTakeFirst();
}

/** The live, enabled agents among `ids`, with what the access rules read of them (one statement). */
export async function findActiveAgentAccess(db: DB, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('users as u')
    .where('u.id', '=', sql<number>`any(${[...ids]}::int[])`)
    .where('u.type', '=', 'agent')
    .where('u.deleted_at', 'is', null)
    .where('u.enabled', '=', true)
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', ...accessColumns()])
    .execute();
}

export async function findApiKeyOwner(db: DB, apiKey: string) {
  return db
    .selectFrom('users')
    .where('api_key', '=', apiKey)
    .where('deleted_at', 'is', null)
    .where('type', '=', 'agent')
    .select(['id', 'api_secret_hash', 'enabled', 'api_key_last_used_at'])
    .executeTakeFirst();
}

/**
 * Records an agent's activity: last_active_at, and api_key_last_used_at for a request made with
 * the key, each written only when its last write is at least intervalMs old. True when it wrote.
 */
export async function touchAgent(db: DB, userId: number, now: Date, intervalMs: number, viaApiKey: boolean): Promise<boolean> {
  const cutoff = new Date(now.getTime() - intervalMs);
  const due = (column: 'last_active_at' | 'api_key_last_used_at') =>
    sql<boolean>`(${sql.ref(column)} is null or ${sql.ref(column)} <= ${cutoff})`;
  const touch = (column: 'last_active_at' | 'api_key_last_used_at') =>
    sql<Date>`case when ${due(column)} then ${now} else ${sql.ref(column)} end`;
  const result = await db
    .updateTable('users')
    .set(
      viaApiKey
        ? { last_active_at: touch('last_active_at'), api_key_last_used_at: touch('api_key_last_used_at') }
        : { last_active_at: touch('last_active_at') },
    )
    .where('id', '=', userId)
    .where(viaApiKey ? sql<boolean>`(${due('last_active_at')} or ${due('api_key_last_used_at')})` : due('last_active_at'))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findAgentForLogin(db: DB, email: string) {
  return db
    .selectFrom('users')
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select(['id', 'email', 'password_hash', 'enabled', 'two_factor_enabled'])
    .executeTakeFirst();
}

/** The agent's name and email, for the audit entry of its sign-in. */
export async function findAgentNames(db: DB, userId: number) {
  return db.selectFrom('users').where('id', '=', userId).select(['email', 'first_name', 'last_name']).executeTakeFirst();
}

export async function insertSession(
  db: DB,
  session: { id: string; user_id: number; expires_at: Date; user_agent: string | null; ip: string | null; oidc_provider_id: number | null },
): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

/** Whether the agent holds a live session opened from this address. */
export async function hasLiveSessionFrom(db: DB, userId: number, ip: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .where('user_id', '=', userId)
    .where('ip', '=', ip)
    .where('expires_at', '>', now)
    .select('user_id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A live session, with the configurer of the single sign-on provider that opened it (in the same query). */
export async function findLiveSession(db: DB, id: string, now: Date) {
  return db
    .selectFrom('sessions as s')
    .leftJoin('oidc_providers as p', 'p.id', 's.oidc_provider_id')
    .where('s.id', '=', id)
    .where('s.expires_at', '>', now)
    .select(['s.id', 's.user_id', 's.expires_at', 's.oidc_provider_id', 's.last_seen_at', 'p.configured_by'])
    .executeTakeFirst();
}

/** Records a session's use: last_seen_at, written only when its last write is at least intervalMs old. True when it wrote. */
export async function touchSession(db: DB, id: string, now: Date, intervalMs: number): Promise<boolean> {
  const cutoff = new Date(now.getTime() - intervalMs);
  const result = await db
    .updateTable('sessions')
    .set({ last_seen_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<=', cutoff)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The agent's live sessions, last seen first (never used ones by their start), at most `limit`. */
export async function listLiveSessionsOf(db: DB, userId: number, now: Date, limit: number) {
  return db
    .selectFrom('sessions')
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .select(['id', 'public_id', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
    .orderBy(sql`coalesce(last_seen_at, created_at)`, 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('public_id')
    .limit(limit)
    .execute();
}

/** Deletes one live session of the agent by its public id; answers what it deleted. */
export async function deleteSessionOf(db: DB, userId: number, publicId: string, now: Date) {
  return db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('public_id', '=', publicId)
    .where('expires_at', '>', now)
    .returning(['id', 'public_id', 'user_agent'])
    .executeTakeFirst();
}

/** Deletes the agent's sessions but `keepId` (the caller's own; null: all of them); answers how many went. */
export async function deleteSessionsOfExcept(db: DB, userId: number, keepId: string | null): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId !== null) query = query.where('id', '!=', keepId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A session's public id and device, for the audit entry that ends it. */
export async function findSessionById(db: DB, id: string) {
  return db.selectFrom('sessions').where('id', '=', id).select(['public_id', 'user_agent']).executeTakeFirst();
}

export async function deleteSession(db: DB, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteSessionsOfUser(db: DB, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

export async function deleteExpiredSessions(db: DB, now: Date): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}

export async function markLoggedIn(db: DB, userId: number, now: Date): Promise<void> {
  await db.updateTable('users').set({ last_login_at: now }).where('id', '=', userId).execute();
}
