// The single sign-on providers: their administration (docs/api.md, Single sign-on (OIDC)).
// The sign-in itself is in oidc.flow.ts.
import { BlockList, isIP } from 'node:net';
import type { Static } from 'typebox';
import { type AuditActor, type AuditChanges, changesBetween, recordAudit } from '../audit/audit.service.ts';
import { invalidateCredentials, type Principal } from '../auth/credential-cache.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictError, DataError, InputError, NotFoundError } from '../errors.ts';
import { assertMayGrant, getRole } from '../roles/roles.service.ts';
import { DecryptionError, decryptSecret, encryptSecret, SECRET_MASK } from '../security/encryption.ts';
import { type Discovered, discover, type ProviderSettings } from './oidc.client.ts';
import * as q from './oidc.queries.ts';
import { sameSource, vouches } from './oidc.trust.ts';
import { OIDC_NAME_MAX, type OidcDiscoveryReport, type OidcProviderBody, type OidcProviderRecord } from './oidc.schema.ts';

type ProviderRow = NonNullable<Awaited<ReturnType<typeof q.findProvider>>>;
type ProviderInput = Static<typeof OidcProviderBody>;
export type ProviderRecord = Static<typeof OidcProviderRecord>;

export function redirectUriFor(deps: AppDeps, id: number): string {
  return `${deps.config.baseUrl}/api/v1/oidc/${id}/finish`;
}

export function loginUrlFor(deps: AppDeps, id: number): string {
  return `${deps.config.baseUrl}/api/v1/oidc/${id}/login`;
}

function toRecord(deps: AppDeps, row: ProviderRow): ProviderRecord {
  const { client_secret: _stored, configured_by, configured_by_name, configured_by_enabled, ...rest } = row;
  return {
    ...rest,
    client_secret: SECRET_MASK,
    redirect_uri: redirectUriFor(deps, row.id),
    configured_by: configured_by === null ? null : { id: configured_by, name: configured_by_name ?? '', enabled: configured_by_enabled },
  };
}

/**
 * Hosts where a plain-http issuer is accepted: loopback, private, link-local and unique-local
 * addresses, and names that only resolve inside a network (one label, `localhost`, `.local`,
 * `.lan`, `.internal`, `.home.arpa`). A public issuer over http would let anyone on the way
 * forge the keys that sign the ID tokens, so it needs https.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(host);
  if (family !== 0) {
    const ranges = new BlockList();
    for (const [network, bits] of [
      ['127.0.0.0', 8],
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
      ['169.254.0.0', 16],
      ['100.64.0.0', 10],
    ] as const)
      ranges.addSubnet(network, bits, 'ipv4');
    for (const [network, bits] of [
      ['::1', 128],
      ['fc00::', 7],
      ['fe80::', 10],
    ] as const)
      ranges.addSubnet(network, bits, 'ipv6');
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return ranges.check(mapped[1]!, 'ipv4');
    return ranges.check(host, family === 4 ? 'ipv4' : 'ipv6');
  }
  return host === 'localhost' || !host.includes('.') || /\.(localhost|local|lan|internal|home\.arpa)$/.test(host);
}

function checkIssuerUrl(raw: string): string {
  const value = raw.trim();
  const url = new URL(value);
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#'))
    throw InputError.field('provider_url', 'must be an issuer URL, without a query or fragment');
  if (url.protocol === 'http:' && !isPrivateHost(url.hostname))
    throw InputError.field('provider_url', 'must use https (http is accepted only for a loopback or private-network host)');
  return value;
}

function cleanName(raw: string): string {
  const name = raw.trim();
  if ([...name].length > OIDC_NAME_MAX) throw InputError.field('name', `must be at most ${OIDC_NAME_MAX} characters`);
  return name;
}

/** What a provider's audit entries show; the client secret is compared encrypted (a kept one is no change) and masked. */
const AUDITED_FIELDS = [
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

async function auditProvider(
  deps: AppDeps,
  trx: DB,
  actor: AuditActor,
  action: 'oidc.created' | 'oidc.updated' | 'oidc.deleted',
  provider: { id: number; name: string },
  changes: AuditChanges,
): Promise<void> {
  if (action === 'oidc.updated' && Object.keys(changes).length === 0) return;
  await recordAudit(trx, actor, { action, resource: { type: 'oidc', id: provider.id, name: provider.name }, changes }, deps.clock.now());
}

/** The provisioning role must exist, and the caller may hand out only what it holds itself. */
async function checkProvisioning(deps: AppDeps, caller: Principal, input: ProviderInput): Promise<number | null> {
  const roleId = input.provision_role_id ?? null;
  if (roleId === null) {
    if (input.auto_provision) throw InputError.field('provision_role_id', 'is required when auto_provision is true');
    return null;
  }
  let role: Awaited<ReturnType<typeof getRole>>;
  try {
    role = await getRole(deps, roleId);
  } catch (error) {
    if (error instanceof NotFoundError) throw InputError.field('provision_role_id', 'no role has this id');
    throw error;
  }
  assertMayGrant(caller.permissions, role.permissions);
  return roleId;
}

async function assertNameFree(db: DB, name: string, exceptId: number | null): Promise<void> {
  const existing = await q.findProviderByName(db, name);
  if (existing && existing.id !== exceptId) throw new ConflictError(`A single sign-on provider named "${name}" already exists`);
}

function valuesOf(
  input: ProviderInput,
  name: string,
  providerUrl: string,
  secret: string,
  roleId: number | null,
  configuredBy: number | null,
): q.OidcProviderValues {
  return {
    name,
    provider: input.provider?.trim() ?? 'Custom',
    provider_url: providerUrl,
    client_id: input.client_id.trim(),
    client_secret: secret,
    logo_url: input.logo_url ?? '',
    enabled: input.enabled ?? true,
    auto_provision: input.auto_provision ?? false,
    provision_role_id: roleId,
    configured_by: configuredBy,
  };
}

export async function listProviders(deps: AppDeps): Promise<ProviderRecord[]> {
  return (await q.listProviders(deps.db)).map((row) => toRecord(deps, row));
}

export async function getProvider(deps: AppDeps, id: number): Promise<ProviderRecord> {
  const row = await q.findProvider(deps.db, id);
  if (!row) throw new NotFoundError('Single sign-on provider not found');
  return toRecord(deps, row);
}

export async function createProvider(deps: AppDeps, caller: Principal, actor: AuditActor, input: ProviderInput): Promise<ProviderRecord> {
  const name = cleanName(input.name);
  const providerUrl = checkIssuerUrl(input.provider_url);
  if (input.client_secret === undefined) throw InputError.field('client_secret', 'is required');
  if (input.client_secret === SECRET_MASK) throw InputError.field('client_secret', 'must be the secret itself, not the mask');
  const roleId = await checkProvisioning(deps, caller, input);
  const secret = encryptSecret(deps.config.secretKey, input.client_secret);
  const id = await deps.db.transaction().execute(async (trx) => {
    await assertNameFree(trx, name, null);
    const values = valuesOf(input, name, providerUrl, secret, roleId, caller.userId);
    const inserted = await q.insertProvider(trx, values, deps.clock.now());
    await auditProvider(deps, trx, actor, 'oidc.created', { id: inserted, name }, changesBetween(null, { ...values }, AUDITED_FIELDS));
    return inserted;
  });
  return getProvider(deps, id);
}

/**
 * The full object replaces the stored one; a `client_secret` left out or sent as the mask keeps the
 * stored secret, unless `provider_url` changes: a kept secret never goes to another issuer. A save
 * that sets the issuer, client id or secret makes the caller the provider's configurer, and a new
 * issuer or client id forgets which account each agent signs in with (oidc.trust.ts).
 */
export async function updateProvider(
  deps: AppDeps,
  caller: Principal,
  actor: AuditActor,
  id: number,
  input: ProviderInput,
): Promise<ProviderRecord> {
  const name = cleanName(input.name);
  const providerUrl = checkIssuerUrl(input.provider_url);
  const roleId = await checkProvisioning(deps, caller, input);
  const given = input.client_secret === undefined || input.client_secret === SECRET_MASK ? null : input.client_secret;
  const updated = await deps.db.transaction().execute(async (trx) => {
    const current = await q.lockProvider(trx, id);
    if (!current) throw new NotFoundError('Single sign-on provider not found');
    await assertNameFree(trx, name, id);
    if (given === null && providerUrl !== current.provider_url) {
      throw InputError.field('client_secret', 'must be sent again when provider_url changes: the stored secret only goes to its issuer');
    }
    const secret = given === null ? current.client_secret : encryptSecret(deps.config.secretKey, given);
    const next = { provider_url: providerUrl, client_id: input.client_id.trim() };
    const configuredBy = vouches(current, next, given !== null) ? caller.userId : current.configured_by;
    if (!sameSource(current, next)) await q.deleteIdentities(trx, id);
    const before = await q.findProvider(trx, id);
    const values = valuesOf(input, name, providerUrl, secret, roleId, configuredBy);
    const row = await q.updateProvider(trx, id, values, deps.clock.now());
    if (row) await auditProvider(deps, trx, actor, 'oidc.updated', { id, name }, changesBetween(before, { ...values }, AUDITED_FIELDS));
    return row ? { previous: current.configured_by, configuredBy } : null;
  });
  if (!updated) throw new NotFoundError('Single sign-on provider not found');
  deps.oidcClients.forget(id);
  // The sessions the provider opened are verified again against their new configurer.
  if (updated.previous !== null && updated.previous !== updated.configuredBy) await invalidateCredentials(deps, updated.previous);
  return getProvider(deps, id);
}

/** Deleting a provider ends the sessions it opened (their rows cascade; their cached credentials go now). */
export async function deleteProvider(deps: AppDeps, actor: AuditActor, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await q.findProvider(trx, id);
    if (!current || !(await q.deleteProvider(trx, id))) throw new NotFoundError('Single sign-on provider not found');
    await auditProvider(deps, trx, actor, 'oidc.deleted', current, changesBetween(current, null, AUDITED_FIELDS));
  });
  deps.oidcClients.forget(id);
  await invalidateCredentials(deps, null);
}

/** For a sign-in page: the enabled providers, without anything secret. */
export async function listEnabledProviders(deps: AppDeps) {
  return (await q.listEnabledProviders(deps.db)).map((row) => ({ ...row, login_url: loginUrlFor(deps, row.id) }));
}

export interface EnabledProvider {
  row: ProviderRow;
  settings: ProviderSettings;
}

/** A provider agents may sign in with now: it exists and is enabled (else 404), with its secret in clear. */
export async function findEnabledProvider(deps: AppDeps, id: number): Promise<EnabledProvider> {
  const row = await q.findProvider(deps.db, id);
  if (!row || !row.enabled) throw new NotFoundError('Single sign-on provider not found or disabled');
  return { row, settings: settingsOf(deps, row) };
}

function settingsOf(deps: AppDeps, row: ProviderRow): ProviderSettings {
  let secret: string;
  try {
    secret = decryptSecret(deps.config.secretKey, row.client_secret);
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
    throw new DataError(
      'The client secret of this single sign-on provider cannot be decrypted (was SECRET_KEY changed?): an administrator must enter it again',
    );
  }
  return { id: row.id, updatedAt: row.updated_at, providerUrl: row.provider_url, clientId: row.client_id, secret };
}

/** Runs discovery now (bypassing the cache) and reports what the provider publishes; disabled providers can be tested too. */
export async function testProvider(deps: AppDeps, id: number): Promise<Static<typeof OidcDiscoveryReport>> {
  const row = await q.findProvider(deps.db, id);
  if (!row) throw new NotFoundError('Single sign-on provider not found');
  const { config, authMethod }: Discovered = await discover(deps, settingsOf(deps, row), true);
  const metadata = config.serverMetadata();
  return {
    issuer: metadata.issuer,
    authorization_endpoint: metadata.authorization_endpoint ?? '',
    token_endpoint: metadata.token_endpoint ?? '',
    userinfo_endpoint: metadata.userinfo_endpoint ?? null,
    jwks_uri: metadata.jwks_uri ?? null,
    scopes_supported: metadata.scopes_supported ?? null,
    code_challenge_methods_supported: metadata.code_challenge_methods_supported ?? null,
    token_endpoint_auth_method: authMethod,
  };
}
