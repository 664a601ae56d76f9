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
] as const;

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
}

export async function listProviders(db: DB) {
  return db.selectFrom('oidc_providers').select(columns).orderBy(sql`lower(name)`).orderBy('id').execute();
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
  return db.selectFrom('oidc_providers').where('id', '=', id).select(columns).executeTakeFirst();
}

/** For update: the row locked, so that the stored secret it keeps is the one replaced. */
export async function lockProvider(db: DB, id: number) {
  return db
    .selectFrom('oidc_providers')
    .where('id', '=', id)
    .select(['id', 'client_secret', 'provider_url'])
    .forUpdate()
    .executeTakeFirst();
}

/** Names are unique trimmed and case-insensitively (the unique index on lower(name)). */
export async function findProviderByName(db: DB, name: string) {
  return db.selectFrom('oidc_providers').where(sql`lower(name)`, '=', name.trim().toLowerCase()).select(['id']).executeTakeFirst();
}

export async function insertProvider(db: DB, values: OidcProviderValues, now: Date) {
  return db
    .insertInto('oidc_providers')
    .values({ ...values, created_at: now, updated_at: now })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function updateProvider(db: DB, id: number, values: OidcProviderValues, now: Date) {
  return db
    .updateTable('oidc_providers')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
}

export async function deleteProvider(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom('oidc_providers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
