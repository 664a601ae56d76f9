// The sign-in with a single sign-on provider: the authorization code flow with PKCE (S256), a
// state and a nonce (docs/api.md, Single sign-on (OIDC)). Nothing is kept in server memory
// between the two legs: what the second needs travels in an encrypted, single-use cookie,
// so any instance can finish a sign-in another one started.
import * as client from 'openid-client';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { createAgent } from '../agents/agents.service.ts';
import { activeAgentPermissions, findAgentForSignIn, type NewSession, type SessionMeta, startSession } from '../auth/auth.service.ts';
import type { AppDeps } from '../deps.ts';
import { AppError, ConflictError, InputError, NetworkError, NotFoundError, PermissionError, UnauthorizedError } from '../errors.ts';
import { isEmailAddress } from '../http/formats.ts';
import { getRole, lockRoleForGrant } from '../roles/roles.service.ts';
import { DecryptionError, decryptSecret, encryptSecret } from '../security/encryption.ts';
import { constantTimeEqual } from '../security/hashing.ts';
import { discover, networkError } from './oidc.client.ts';
import { findEnabledProvider, redirectUriFor } from './oidc.service.ts';
import { assertMaySignIn, bindIdentity } from './oidc.trust.ts';
import { SYSTEM_ACTOR } from '../audit/audit.service.ts';

export const STATE_COOKIE = 'parley_oidc';
/** Sent back only to the sign-in routes. */
export const STATE_COOKIE_PATH = '/api/v1/oidc';
/** Time allowed between leaving for the provider and coming back. */
export const STATE_TTL_SECONDS = 600;
const SCOPE = 'openid email profile';
const NAME_MAX = 128;

const LoginState = Type.Object(
  {
    purpose: Type.Literal('oidc-login'),
    provider_id: Type.Integer(),
    state: Type.String({ minLength: 1 }),
    nonce: Type.String({ minLength: 1 }),
    code_verifier: Type.String({ minLength: 43 }),
    next: Type.String({ minLength: 1 }),
    expires_at: Type.Integer(),
  },
  { additionalProperties: false },
);
export type LoginState = Static<typeof LoginState>;

/** The state cookie's value: the login state, encrypted and authenticated (AES-256-GCM) under SECRET_KEY. */
export function sealState(deps: AppDeps, state: LoginState): string {
  return encryptSecret(deps.config.secretKey, JSON.stringify(state));
}

const NO_SIGN_IN = 'No single sign-on is in progress in this browser, or it took longer than 10 minutes: start again from the sign-in page';

/** The login state of the cookie; missing, altered, unreadable or expired → 400. */
export function openState(deps: AppDeps, sealed: string | undefined): LoginState {
  if (!sealed) throw new InputError(NO_SIGN_IN);
  let parsed: unknown;
  try {
    parsed = JSON.parse(decryptSecret(deps.config.secretKey, sealed));
  } catch (error) {
    if (error instanceof DecryptionError || error instanceof SyntaxError) throw new InputError(NO_SIGN_IN);
    throw error;
  }
  if (!Value.Check(LoginState, parsed) || parsed.expires_at <= deps.clock.now().getTime()) throw new InputError(NO_SIGN_IN);
  return parsed;
}

/** Control characters (C0, DEL, C1). */
const CONTROL = /\p{Cc}/u;
/** Provider-given text in a message: on one line, bounded. */
const oneLine = (value: string, max: number) => value.replace(/\p{Cc}/gu, ' ').slice(0, max);

/**
 * `next` as a path on this site: a single leading `/`, no `//` or `/\` (browsers read both as
 * another host), no backslash, scheme or control character. Anything else is refused (400).
 */
export function checkNext(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '/';
  const base = 'http://parley.invalid';
  const refused = InputError.field('next', 'must be a path on this site, such as /inbox (never another site)');
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || CONTROL.test(raw)) throw refused;
  let resolved: URL;
  try {
    resolved = new URL(raw, base);
  } catch {
    throw refused;
  }
  if (resolved.origin !== base) throw refused;
  // Percent-encoded ASCII, so it can go into a Location header; bounded, so the sealed cookie stays small.
  const path = resolved.pathname + resolved.search + resolved.hash;
  if (path.length > 1024) throw InputError.field('next', 'must be at most 1024 characters once encoded');
  return path;
}

/** Step one: where to send the browser, and the sealed state to keep in its cookie. */
export async function beginLogin(deps: AppDeps, id: number, rawNext: string | undefined): Promise<{ location: string; sealed: string }> {
  const next = checkNext(rawNext);
  const { settings } = await findEnabledProvider(deps, id);
  const { config } = await discover(deps, settings);
  const state: LoginState = {
    purpose: 'oidc-login',
    provider_id: id,
    state: client.randomState(),
    nonce: client.randomNonce(),
    code_verifier: client.randomPKCECodeVerifier(),
    next,
    expires_at: deps.clock.now().getTime() + STATE_TTL_SECONDS * 1000,
  };
  const location = client.buildAuthorizationUrl(config, {
    response_type: 'code',
    redirect_uri: redirectUriFor(deps, id),
    scope: SCOPE,
    state: state.state,
    nonce: state.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(state.code_verifier),
    code_challenge_method: 'S256',
  });
  return { location: location.href, sealed: sealState(deps, state) };
}

interface Identity {
  email: string | undefined;
  emailVerified: unknown;
  givenName: string | undefined;
  familyName: string | undefined;
  name: string | undefined;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

function identityOf(claims: Record<string, unknown>): Identity {
  return {
    email: text(claims['email']),
    emailVerified: claims['email_verified'],
    givenName: text(claims['given_name']),
    familyName: text(claims['family_name']),
    name: text(claims['name']),
  };
}

/** Token endpoint errors that say Parley's own client settings are wrong, not the person signing in. */
const CLIENT_SETTINGS_ERRORS = new Set(['invalid_client', 'unauthorized_client']);

function clientSettingsError(code: string | undefined, step: string): NetworkError | null {
  if (code === undefined || !CLIENT_SETTINGS_ERRORS.has(code)) return null;
  return new NetworkError(
    `The identity provider refused Parley's client credentials (${step}: ${code}): an administrator should check the provider's client id, secret and redirect URI`,
  );
}

/** A refusal the provider's answer caused, or the provider's failure (NetworkError); never a token or code in the message. */
function refusalOf(error: unknown, step: string, timeoutSeconds: number): AppError {
  if (error instanceof AppError) return error;
  const network = networkError(error, step, timeoutSeconds);
  if (network) return network;
  const code =
    error instanceof client.ResponseBodyError
      ? error.error
      : error instanceof client.WWWAuthenticateChallengeError
        ? error.cause[0]?.parameters.error
        : undefined;
  const settings = clientSettingsError(code, step);
  if (settings) return settings;
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) {
    const detail = error.error_description ? `: ${oneLine(error.error_description, 200)}` : '';
    return new UnauthorizedError(`The identity provider refused the sign-in (${step}: ${oneLine(error.error, 100)}${detail})`);
  }
  if (error instanceof client.WWWAuthenticateChallengeError) {
    // A 401 with a challenge: the provider refused our client credentials (invalid_client) or the token.
    const parameters = error.cause[0]?.parameters;
    const detail = parameters?.error_description ? `: ${oneLine(parameters.error_description, 200)}` : '';
    return new UnauthorizedError(
      `The identity provider refused the sign-in (${step}: ${oneLine(parameters?.error ?? `HTTP ${error.status}`, 100)}${detail})`,
    );
  }
  if (error instanceof client.ClientError) {
    const inner = error.cause instanceof Error ? error.cause : undefined;
    if (error.code === 'OAUTH_UNSUPPORTED_OPERATION') {
      // Our side cannot verify what the provider sends (an ID token signed with a shared secret, say): its settings must change.
      return new NetworkError(
        `The identity provider uses something Parley does not support (${step}: ${oneLine(inner?.message ?? error.message, 200)}); an administrator should check its settings (an RS256 or ES256 signing key)`,
      );
    }
    const details = [error.cause, inner?.cause].find(
      (c): c is { claim: string } => typeof (c as { claim?: unknown } | null)?.claim === 'string',
    );
    const what = details ? ` (claim ${details.claim})` : '';
    return new UnauthorizedError(`The identity provider's answer failed verification${what}: ${error.message}`);
  }
  throw error;
}

export interface FinishInput {
  id: number;
  query: { state?: string | undefined; code?: string | undefined; error?: string | undefined; error_description?: string | undefined };
  /** The query string as received, for openid-client to read the authorization response from. */
  rawQuery: string;
  sealed: string | undefined;
  meta: SessionMeta;
}

export interface Finished {
  session: NewSession;
  location: string;
  agentId: number;
  provisioned: boolean;
}

/** Step two: checks everything the provider sent back, finds (or provisions) the agent, opens its session. */
export async function finishLogin(deps: AppDeps, input: FinishInput): Promise<Finished> {
  const { row, settings } = await findEnabledProvider(deps, input.id);
  const saved = openState(deps, input.sealed);
  if (saved.provider_id !== input.id) throw new InputError('This sign-in was started with another single sign-on provider: start again');
  const state = input.query.state;
  if (state === undefined || !constantTimeEqual(state, saved.state))
    throw new PermissionError('The state sent back by the identity provider does not match this browser’s sign-in: start again');
  if (input.query.error !== undefined) {
    const detail = input.query.error_description ? `: ${oneLine(input.query.error_description, 200)}` : '';
    throw new UnauthorizedError(`The identity provider refused the sign-in (${oneLine(input.query.error, 100)}${detail})`);
  }
  if (input.query.code === undefined) throw InputError.field('code', 'is required');

  const timeout = deps.config.oidcTimeoutSeconds;
  const { config } = await discover(deps, settings);
  const currentUrl = new URL(`${redirectUriFor(deps, input.id)}?${input.rawQuery}`);
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: saved.code_verifier,
      expectedState: saved.state,
      expectedNonce: saved.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw refusalOf(error, 'token exchange', timeout);
  }
  const claims = tokens.claims();
  if (!claims) throw new UnauthorizedError('The identity provider sent no ID token');
  let identity = identityOf(claims);
  // Some providers keep the email for the userinfo endpoint (OpenID Connect Core §5.4): read it there, for the same subject.
  if ((identity.email === undefined || identity.emailVerified === undefined) && config.serverMetadata().userinfo_endpoint) {
    try {
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      const fromInfo = identityOf(info);
      identity = {
        ...fromInfo,
        givenName: identity.givenName ?? fromInfo.givenName,
        familyName: identity.familyName ?? fromInfo.familyName,
      };
    } catch (error) {
      throw refusalOf(error, 'userinfo', timeout);
    }
  }
  const email = identity.email;
  if (email === undefined || !isEmailAddress(email)) throw new UnauthorizedError('The identity provider gave no usable email address');
  if (identity.emailVerified !== true)
    throw new UnauthorizedError(`The identity provider has not verified the email address ${email}: sign-in refused`);
  const { agentId, provisioned } = await agentFor(deps, row, email, claims.sub, identity);
  const session = await startSession(deps, agentId, input.meta, row.id);
  return { session, location: `${deps.config.baseUrl}${saved.next}`, agentId, provisioned };
}

function namesOf(email: string, identity: Identity): { first_name: string; last_name: string } {
  const [first, ...rest] = (identity.name ?? '').split(/\s+/).filter(Boolean);
  const firstName = identity.givenName ?? first ?? email.slice(0, email.lastIndexOf('@'));
  const lastName = identity.familyName ?? rest.join(' ');
  return { first_name: [...firstName].slice(0, NAME_MAX).join(''), last_name: [...lastName].slice(0, NAME_MAX).join('') };
}

type SigningProvider = { id: number; auto_provision: boolean; provision_role_id: number | null; configured_by: number | null };

/**
 * An enabled agent with this email (never a contact); created with the provider's role when it
 * provisions. Either way, only an agent the provider may sign in (oidc.trust.ts), bound to the
 * provider account `subject`.
 */
async function agentFor(
  deps: AppDeps,
  provider: SigningProvider,
  email: string,
  subject: string,
  identity: Identity,
): Promise<{ agentId: number; provisioned: boolean }> {
  const found = await existingAgent(deps, provider, email);
  const result = found ? { agentId: found, provisioned: false } : await provisionAgent(deps, provider, email, identity);
  await bindIdentity(deps, provider.id, result.agentId, subject);
  return result;
}

/** The enabled agent with this email, if the provider may sign it in; undefined when there is none. */
async function existingAgent(deps: AppDeps, provider: SigningProvider, email: string): Promise<number | undefined> {
  const existing = await findAgentForSignIn(deps, email);
  if (!existing) return undefined;
  const permissions = existing.enabled ? await activeAgentPermissions(deps, existing.id) : null;
  if (permissions === null) throw new UnauthorizedError('This agent account is disabled');
  await assertMaySignIn(deps, provider, permissions);
  return existing.id;
}

async function provisionAgent(
  deps: AppDeps,
  provider: SigningProvider,
  email: string,
  identity: Identity,
): Promise<{ agentId: number; provisioned: boolean }> {
  if (!provider.auto_provision)
    throw new UnauthorizedError(`No agent has the email address ${email}: ask an administrator to create your account`);
  const noRole = new UnauthorizedError('This provider creates agents, but its role no longer exists: ask an administrator');
  if (provider.provision_role_id === null) throw noRole;
  let role: Awaited<ReturnType<typeof getRole>>;
  try {
    role = await getRole(deps, provider.provision_role_id);
  } catch (error) {
    if (error instanceof NotFoundError) throw noRole;
    throw error;
  }
  await assertMaySignIn(deps, provider, role.permissions);
  const checked = role;
  // Created with the role as checked: in the creating transaction the role row is locked and
  // compared again, so a rename or a new permission since the check is refused, not granted.
  const sameRole = async (trx: Parameters<typeof lockRoleForGrant>[0]) => {
    const locked = await lockRoleForGrant(trx, checked.id);
    if (!locked) throw noRole;
    const known = new Set(checked.permissions);
    if (locked.name !== checked.name || locked.permissions.some((p) => !known.has(p)))
      throw new UnauthorizedError('The role this provider creates agents with has just changed: sign in again');
  };
  try {
    const agent = await createAgent(deps, SYSTEM_ACTOR, null, { email, ...namesOf(email, identity), roles: [role.name] }, sameRole);
    return { agentId: agent.id, provisioned: true };
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    // A sign-in of the same person on another tab or instance created it first.
    const created = await existingAgent(deps, provider, email);
    if (created === undefined) throw new UnauthorizedError('This agent account is disabled');
    return { agentId: created, provisioned: false };
  }
}
