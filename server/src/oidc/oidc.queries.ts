import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

const columns = [
  'id',
  'created_at',
  'updated_at',
  'name',
  'provider',
  'provider_url',
  'client_id',
  'client_secret',
  'logo_url',
  'enabled',
  'auto_provision',
  'provision_role_id',
  'configured_by',
] as const;

/** A provider row with who configured it (oidc.trust.ts): that agent's name, and whether it is still an enabled agent. */
function selectProviders(db: DB) {
  return db
    .selectFrom('oidc_providers as p')
    .leftJoin('users as cb', 'cb.id', 'p.configured_by')
    .select(columns.map((c) => `p.${c}` as const))
    .select([
      sql<string | null>`nullif(trim(cb.first_name || ' ' || cb.last_name), '')`.as('configured_by_name'),
      sql<boolean>`coalesce(cb.enabled and cb.deleted_at is null and cb.type = 'agent', false)`.as('configured_by_enabled'),
    ]);
}

export interface OidcProviderValues {
  name: string;
  provider: string;
  provider_url: string;
  client_id: string;
  /** Encrypted. */
  client_secret: string;
  logo_url: string;
  enabled: boolean;
  auto_provision: boolean;
  provision_role_id: number | null;
  /** The agent vouching for the provider (oidc.trust.ts). */
  configured_by: number | null;
}

export async function listProviders(db: DB) {
  return selectProviders(db).orderBy(sql`lower(p.name)`).orderBy('p.id').execute();
}

export async function listEnabledProviders(db: DB) {
  return db
    .selectFrom('oidc_providers')
    .where('enabled', '=', true)
    .select(['id', 'name', 'provider', 'logo_url'])
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

export async function findProvider(db: DB, id: number) {
  return selectProviders(db).where('p.id', '=', id).executeTakeFirst();
}

/** For update: the row locked, so that the stored secret it keeps is the one replaced. */
export async function lockProvider(db: DB, id: number) {
  return db
    .selectFrom('oidc_providers')
    .where('id', '=', id)
    .select(['id', 'client_secret', 'provider_url', 'client_id', 'configured_by'])
    .forUpdate()
    .executeTakeFirst();
}

/** Names are unique trimmed and case-insensitively (the unique index on lower(name)). */
export async function findProviderByName(db: DB, name: string) {
  return db.selectFrom('oidc_providers').where(sql`lower(name)`, '=', name.trim().toLowerCase()).select(['id']).executeTakeFirst();
}

export async function insertProvider(db: DB, values: OidcProviderValues, now: Date): Promise<number> {
  const row = await db
    .insertInto('oidc_providers')
    .values({ ...values, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateProvider(db: DB, id: number, values: OidcProviderValues, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('oidc_providers')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteProvider(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom('oidc_providers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The bindings that concern this sign-in, locked: the agent's account at this provider, and the agent this account signs in. */
export async function lockIdentities(db: DB, providerId: number, userId: number, subject: string) {
  return db
    .selectFrom('oidc_identities as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .where('i.provider_id', '=', providerId)
    .where((eb) => eb.or([eb('i.user_id', '=', userId), eb('i.subject', '=', subject)]))
    .select(['i.user_id', 'i.subject', sql<boolean>`u.deleted_at is not null`.as('user_deleted')])
    .forUpdate('i')
    .execute();
}

/** False when a binding of this agent or this account exists already (one a concurrent sign-in just made). */
export async function insertIdentity(db: DB, providerId: number, userId: number, subject: string, now: Date): Promise<boolean> {
  const inserted = await db
    .insertInto('oidc_identities')
    .values({ provider_id: providerId, user_id: userId, subject, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function deleteIdentity(db: DB, providerId: number, userId: number): Promise<void> {
  await db.deleteFrom('oidc_identities').where('provider_id', '=', providerId).where('user_id', '=', userId).execute();
}

/** Every binding of a provider: its accounts belong to an issuer and client that changed. */
export async function deleteIdentities(db: DB, providerId: number): Promise<void> {
  await db.deleteFrom('oidc_identities').where('provider_id', '=', providerId).execute();
}
