// Who is calling: API credentials (Basic or token scheme) or a session cookie.
import type { LoginLimits } from './login-limits.ts';
import { type AuditActor, recordAudit } from '../audit/audit.service.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { RateLimitError, UnauthorizedError } from '../errors.ts';
import { constantTimeEqual, randomToken, sha256, verifySecret } from '../security/hashing.ts';
import * as q from './auth.queries.ts';
import type { CachedCredential, Principal } from './credential-cache.ts';
import { openChallenge } from './two-factor.ts';

export const SESSION_COOKIE = 'parley_session';
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
const TOUCH_INTERVAL_MS = 60_000;

export interface ApiCredentials {
  key: string;
  secret: string;
}

const PRINTABLE = /^[\x21-\x7e]+$/;

/** Parses `Basic base64(key:secret)` or `token key:secret` (scheme case-insensitive). */
export function parseAuthorization(header: string): ApiCredentials | null {
  const match = /^(\S+)\s+(.+)$/.exec(header.trim());
  if (!match) return null;
  const scheme = match[1]!.toLowerCase();
  let pair: string;
  if (scheme === 'basic') {
    pair = Buffer.from(match[2]!, 'base64').toString('utf8');
  } else if (scheme === 'token') {
    pair = match[2]!;
  } else {
    return null;
  }
  const colon = pair.indexOf(':');
  if (colon <= 0 || colon === pair.length - 1) return null;
  const key = pair.slice(0, colon);
  const secret = pair.slice(colon + 1);
  if (key.length > 128 || secret.length > 256) return null;
  // Keys and secrets are printable ASCII; anything else (a NUL or a stray byte decoded from
  // Basic's base64) is a malformed header, never a database lookup.
  if (!PRINTABLE.test(key) || !PRINTABLE.test(secret)) return null;
  return { key, secret };
}

/** An agent's identity and access as a principal, from a row of the access query (auth.queries.ts). */
function accessOf(
  row: Pick<q.PrincipalRow, 'id' | 'email' | 'first_name' | 'last_name' | 'permissions' | 'team_ids'>,
  method: Principal['method'],
  sessionId: string | null,
): Principal {
  return {
    userId: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    permissions: new Set(row.permissions),
    teamIds: row.team_ids,
    method,
    sessionId,
  };
}

/**
 * The live agent behind a verified credential, with its activity recorded (at most once a minute).
 * `touchedAt`: when the credential's activity columns were really last written, so the next write
 * comes a minute after it (not a minute after this cache refill, which would let them lag behind more).
 * Activity: the agent's last_active_at, and api_key_last_used_at for a key or the session's last_seen_at.
 */
async function loadPrincipal(
  deps: AppDeps,
  userId: number,
  method: Principal['method'],
  sessionId: string | null,
  lastUsedAt: Date | string | null = null,
  passwordSession = false,
): Promise<{ principal: Principal; touchedAt: number } | null> {
  const row = await q.findActiveAgentPrincipal(deps.db, userId);
  if (!row) return null;
  const principal: Principal = {
    ...accessOf(row, method, sessionId),
    // A password session of an agent whose role requires two factors it has not set up (http/access.ts holds it).
    mfaSetupRequired: passwordSession && row.requires_2fa && !row.two_factor_enabled,
  };
  const nowMs = deps.clock.now().getTime();
  const now = new Date(nowMs);
  const agentTouched = await q.touchAgent(deps.db, userId, now, TOUCH_INTERVAL_MS, method === 'api_key');
  if (method === 'api_key' && agentTouched) return { principal, touchedAt: nowMs };
  const sessionTouched = sessionId !== null && (await q.touchSession(deps.db, sessionId, now, TOUCH_INTERVAL_MS));
  // A column not written now was written within the minute: the first to fall due sets the pace.
  const written = [agentTouched ? nowMs : row.last_active_at];
  if (method === 'api_key' || sessionId !== null) written.push(sessionTouched ? nowMs : lastUsedAt);
  return { principal, touchedAt: Math.min(...written.map((at) => (at === null ? nowMs : new Date(at).getTime()))) };
}

/** A cached credential in use: its activity is written again once a minute has passed since the last write. */
async function touchWhenDue(deps: AppDeps, cacheKey: string, entry: CachedCredential, nowMs: number): Promise<void> {
  if (nowMs - entry.touchedAt < TOUCH_INTERVAL_MS) return;
  deps.credentials.markTouched(cacheKey, nowMs);
  const { userId, method, sessionId } = entry.principal;
  await q.touchAgent(deps.db, userId, new Date(nowMs), TOUCH_INTERVAL_MS, method === 'api_key');
  if (sessionId !== null) await q.touchSession(deps.db, sessionId, new Date(nowMs), TOUCH_INTERVAL_MS);
}

/** `address`: the client's address, whose failed attempts are limited (AUTH_FAILURE_LIMIT_PER_MINUTE). */
export async function authenticateApiKey(deps: AppDeps, header: string, address: string): Promise<Principal> {
  const credentials = parseAuthorization(header);
  if (!credentials) throw new UnauthorizedError('Malformed Authorization header; use "Basic base64(key:secret)" or "token key:secret"');
  const cacheKey = 'k:' + sha256(`${credentials.key}:${credentials.secret}`);
  const verify = () => verifyApiKey(deps, credentials, cacheKey);
  const nowMs = deps.clock.now().getTime();
  const cached = deps.credentials.get(cacheKey, nowMs);
  if (!cached) {
    // Counted before the slow hash, and only then: credentials verified earlier keep working.
    // Concurrent requests of one address with one credential share one attempt.
    return deps.credentials.verifyOnce(`${cacheKey}@${address}`, async () => {
      const waitSeconds = await deps.authFailures.reserve(address);
      if (waitSeconds > 0)
        throw new RateLimitError(`Too many failed authentications from this address; retry in ${waitSeconds} s`, waitSeconds);
      try {
        const principal = await verify();
        await deps.authFailures.release(address);
        return principal;
      } catch (error) {
        if (!(error instanceof UnauthorizedError)) await deps.authFailures.release(address);
        throw error;
      }
    });
  }
  // A renewal re-reads the agent; the slow hash is paid again only if the stored one changed.
  if (deps.credentials.needsRefresh(cacheKey, cached, nowMs))
    renewInBackground(deps, cacheKey, () => verifyApiKey(deps, credentials, cacheKey, cached.verifiedHash));
  await touchWhenDue(deps, cacheKey, cached, nowMs);
  return cached.principal;
}

/**
 * For a long-lived connection (the agent socket) opened with API credentials: the principal, and
 * a renewal that re-reads it without paying the slow hash again. The key stays good while its
 * stored secret hash is the one it was verified against (a new or revoked key changes it) and
 * its agent is enabled and not deleted; otherwise the renewal throws UnauthorizedError.
 */
export async function authenticateApiKeyHolder(
  deps: AppDeps,
  header: string,
  address: string,
): Promise<{ principal: Principal; renew: () => Promise<Principal> }> {
  const credentials = parseAuthorization(header);
  // Read before the verification: a rotation after this point is seen by the first renewal.
  const verifiedHash = credentials ? ((await q.findApiKeyOwner(deps.db, credentials.key))?.api_secret_hash ?? null) : null;
  const principal = await authenticateApiKey(deps, header, address);
  const renew = async (): Promise<Principal> => {
    const owner = credentials ? await q.findApiKeyOwner(deps.db, credentials.key) : undefined;
    if (!owner || !owner.enabled || verifiedHash === null || owner.api_secret_hash !== verifiedHash) {
      throw new UnauthorizedError('Invalid API credentials');
    }
    const loaded = await loadPrincipal(deps, owner.id, 'api_key', null, owner.api_key_last_used_at);
    if (!loaded) throw new UnauthorizedError('Invalid API credentials');
    return loaded.principal;
  };
  return { principal, renew };
}

async function verifyApiKey(
  deps: AppDeps,
  credentials: { key: string; secret: string },
  cacheKey: string,
  verifiedHash: string | null = null,
): Promise<Principal> {
  const generation = deps.credentials.generation;
  const nowMs = deps.clock.now().getTime();
  const owner = await q.findApiKeyOwner(deps.db, credentials.key);
  const storedHash = owner?.api_secret_hash ?? null;
  const valid =
    storedHash !== null && verifiedHash !== null && constantTimeEqual(storedHash, verifiedHash)
      ? true
      : await verifySecret(credentials.secret, storedHash);
  if (!owner || !valid || !owner.enabled) throw new UnauthorizedError('Invalid API credentials');
  const loaded = await loadPrincipal(deps, owner.id, 'api_key', null, owner.api_key_last_used_at);
  if (!loaded) throw new UnauthorizedError('Invalid API credentials');
  deps.credentials.set(cacheKey, loaded.principal, generation, nowMs, loaded.touchedAt, Number.POSITIVE_INFINITY, storedHash);
  return loaded.principal;
}

export async function authenticateSession(deps: AppDeps, token: string): Promise<Principal> {
  if (token.length < 20 || token.length > 128) throw new UnauthorizedError('Invalid or expired session');
  const sessionId = sha256(token);
  const cacheKey = 's:' + sessionId;
  const verify = () => verifySession(deps, sessionId, cacheKey);
  const nowMs = deps.clock.now().getTime();
  const cached = deps.credentials.get(cacheKey, nowMs);
  if (!cached) return deps.credentials.verifyOnce(cacheKey, verify);
  if (deps.credentials.needsRefresh(cacheKey, cached, nowMs)) renewInBackground(deps, cacheKey, verify);
  await touchWhenDue(deps, cacheKey, cached, nowMs);
  return cached.principal;
}

async function verifySession(deps: AppDeps, sessionId: string, cacheKey: string): Promise<Principal> {
  const generation = deps.credentials.generation;
  const now = deps.clock.now();
  const session = await q.findLiveSession(deps.db, sessionId, now);
  if (!session) throw new UnauthorizedError('Invalid or expired session');
  const loaded = await loadPrincipal(deps, session.user_id, 'session', sessionId, session.last_seen_at, session.oidc_provider_id === null);
  if (!loaded) throw new UnauthorizedError('Invalid or expired session');
  // A session opened by single sign-on lasts while the provider's configurer may still sign its agent in.
  const vouchedBy = session.oidc_provider_id === null ? null : session.configured_by;
  if (session.oidc_provider_id !== null && !(await vouchesFor(deps, vouchedBy, loaded.principal.permissions))) {
    await q.deleteSession(deps.db, sessionId);
    throw new UnauthorizedError('Invalid or expired session');
  }
  const expiresAt = new Date(session.expires_at).getTime();
  deps.credentials.set(cacheKey, loaded.principal, generation, now.getTime(), loaded.touchedAt, expiresAt, null, vouchedBy);
  return loaded.principal;
}

/**
 * Whether the agent `configurer` (a single sign-on provider's `configured_by`), as it is now, may
 * vouch for an agent holding `permissions`: it is an enabled, undeleted agent holding every one of
 * them. The rule behind oidc.trust.ts, applied at sign-in and whenever the session is verified again.
 */
export async function vouchesFor(deps: AppDeps, configurer: number | null, permissions: Iterable<string>): Promise<boolean> {
  const held = configurer === null ? null : await activeAgentPermissions(deps, configurer);
  if (held === null) return false;
  for (const permission of permissions) if (!held.has(permission)) return false;
  return true;
}

/** Renews a cache entry in its last seconds while it keeps answering; a credential found invalid is dropped. */
function renewInBackground(deps: AppDeps, cacheKey: string, verify: () => Promise<Principal>): void {
  deps.credentials.verifyOnce(cacheKey, verify).catch((error: unknown) => {
    deps.credentials.deleteKey(cacheKey);
    if (!(error instanceof UnauthorizedError))
      deps.log.warn({ err: error }, 'renewing cached credentials failed; they will be verified again on next use');
  });
}

export function csrfMatches(cookie: string | undefined, header: string | string[] | undefined): boolean {
  if (!cookie || typeof header !== 'string' || header.length === 0) return false;
  return constantTimeEqual(cookie, header);
}

export interface NewSession {
  token: string;
  csrfToken: string;
  userId: number;
  expiresAt: Date;
}

/** Who opened a session: kept with it for the agent's list of sessions and for audits. */
export interface SessionMeta {
  userAgent: string | null;
  ip: string | null;
  /** The request that signed in, for the audit entry. */
  requestId?: string | null;
  /** How the agent proved who it is (the `auth.login` audit entry); default `password`, or `oidc` with a provider. */
  method?: SignInMethod;
}

export type SignInMethod = 'password' | 'password_totp' | 'password_recovery_code' | 'oidc';

/** The actor of a sign-in attempt that proved nothing yet (`auth.login_failed`): nobody known, from this client. */
export function anonymousActor(meta: SessionMeta): AuditActor {
  return {
    type: 'system',
    id: null,
    name: 'Unauthenticated client',
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId ?? null,
  };
}

async function recordSignIn(db: DB, agentId: number, meta: SessionMeta, method: SignInMethod, at: Date): Promise<void> {
  const agent = await q.findAgentNames(db, agentId);
  const name = agent ? `${agent.first_name} ${agent.last_name}`.trim() : '';
  await recordAudit(
    db,
    { type: 'agent', id: agentId, name, ip: meta.ip, userAgent: meta.userAgent, requestId: meta.requestId ?? null },
    { action: 'auth.login', resource: { type: 'agent', id: agentId, name: agent?.email ?? name }, changes: { method: [null, method] } },
    at,
  );
}

/**
 * Opens a session for an agent whose identity was just proven (a password, a single sign-on):
 * the session row, `last_login_at`, and a new CSRF token. Every way of logging in goes through it.
 * `oidcProviderId`: the single sign-on provider that proved it (the session then lasts only while
 * that provider's configurer vouches for the agent: verifySession).
 */
export async function startSession(
  deps: AppDeps,
  agentId: number,
  meta: SessionMeta,
  oidcProviderId: number | null = null,
): Promise<NewSession> {
  const token = randomToken(32);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + deps.config.sessionTtlSeconds * 1000);
  await deps.db.transaction().execute(async (trx) => {
    await q.insertSession(trx, {
      id: sha256(token),
      user_id: agentId,
      expires_at: expiresAt,
      user_agent: meta.userAgent?.slice(0, 512) ?? null,
      ip: meta.ip,
      oidc_provider_id: oidcProviderId,
    });
    await q.markLoggedIn(trx, agentId, now);
    await recordSignIn(trx, agentId, meta, meta.method ?? (oidcProviderId === null ? 'password' : 'oidc'), now);
    await q.deleteExpiredSessions(trx, now);
  });
  return { token, csrfToken: randomToken(24), userId: agentId, expiresAt };
}

/** A password sign-in: a session, or (two-factor sign-in on) the challenge its second step answers. */
export type LoginOutcome = { session: NewSession; challenge?: undefined } | { session?: undefined; challenge: string };

/**
 * Checks email and password; the same answer for an unknown email and a wrong password. With
 * two-factor sign-in on, no session yet: a challenge for POST /auth/mfa (auth/two-factor.ts).
 */
export async function login(
  deps: AppDeps,
  limits: LoginLimits,
  input: { email: string; password: string } & SessionMeta & { ip: string },
): Promise<LoginOutcome> {
  const agent = await q.findAgentForLogin(deps.db, input.email);
  const known = async () => agent !== undefined && (await q.hasLiveSessionFrom(deps.db, agent.id, input.ip, deps.clock.now()));
  const attempt = await limits.reserve(input.email, input.ip, known);
  const valid = await verifySecret(input.password, agent?.password_hash ?? null);
  if (!agent || !valid || !agent.enabled) {
    // The attempted email names the resource; the password is never written anywhere.
    const reason = !agent ? 'unknown_email' : !valid ? 'wrong_password' : 'disabled';
    await recordAudit(
      deps.db,
      anonymousActor(input),
      {
        action: 'auth.login_failed',
        resource: { type: 'agent', id: agent?.id ?? null, name: input.email.trim() },
        changes: { reason: [null, reason] },
      },
      deps.clock.now(),
    );
    throw new UnauthorizedError('Invalid email or password');
  }
  await attempt.succeeded();
  if (agent.two_factor_enabled) {
    const challenge = randomToken(32);
    await openChallenge(deps, deps.db, agent.id, challenge);
    return { challenge };
  }
  const meta: SessionMeta = { userAgent: input.userAgent, ip: input.ip, requestId: input.requestId ?? null, method: 'password' };
  return { session: await startSession(deps, agent.id, meta) };
}

/** The agent (not deleted; contacts never) with this email, compared case-insensitively, for a sign-in that proved the email. */
export async function findAgentForSignIn(deps: AppDeps, email: string): Promise<{ id: number; enabled: boolean } | undefined> {
  const agent = await q.findAgentForLogin(deps.db, email);
  return agent ? { id: agent.id, enabled: agent.enabled } : undefined;
}

/** The permissions an agent holds now, or null when it is not an enabled, undeleted agent. */
export async function activeAgentPermissions(deps: AppDeps, agentId: number): Promise<ReadonlySet<string> | null> {
  const row = await q.findActiveAgentPrincipal(deps.db, agentId);
  return row ? new Set(row.permissions) : null;
}

/**
 * The live, enabled agents among `ids` as principals (the permissions and teams the access rules
 * read), for asking a rule about other agents than the caller: who may read a conversation.
 */
export async function activeAgentPrincipals(db: DB, ids: readonly number[]): Promise<Principal[]> {
  const rows = await q.findActiveAgentAccess(db, [...new Set(ids)]);
  return rows.map((row) => accessOf(row, 'session', null));
}
