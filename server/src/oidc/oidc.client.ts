// The relying party's side of OpenID Connect, through `openid-client`: discovery (cached per
// provider), and the translation of what goes wrong upstream into our errors. An unreachable or
// broken provider is a 502, a slow one a 504; what a provider answers that fails verification
// is the caller's refusal (401), decided by the sign-in flow (oidc.flow.ts).
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import type { AppDeps } from '../deps.ts';
import { AppError, NetworkError } from '../errors.ts';

/** Discovery results are kept this long per provider, then read again. */
export const DISCOVERY_TTL_MS = 10 * 60_000;

/** What is needed to talk to one provider; `secret` in clear. */
export interface ProviderSettings {
  id: number;
  updatedAt: Date | string;
  providerUrl: string;
  clientId: string;
  secret: string;
}

interface Entry {
  key: string;
  config: client.Configuration;
  expiresAt: number;
}

/**
 * Each instance's discovered provider configurations (with the signing keys openid-client
 * caches inside them). An entry is keyed by everything it was built from, the provider row's
 * `updated_at` included: a provider changed on another instance is discovered again here on
 * its next use, without any message between instances.
 */
export class OidcClients {
  readonly #entries = new Map<number, Entry>();

  get(id: number, key: string, nowMs: number): client.Configuration | undefined {
    const entry = this.#entries.get(id);
    return entry && entry.key === key && entry.expiresAt > nowMs ? entry.config : undefined;
  }

  set(id: number, key: string, config: client.Configuration, nowMs: number): void {
    for (const [other, entry] of this.#entries) if (entry.expiresAt <= nowMs) this.#entries.delete(other);
    this.#entries.set(id, { key, config, expiresAt: nowMs + DISCOVERY_TTL_MS });
  }

  forget(id: number): void {
    this.#entries.delete(id);
  }
}

export function createOidcClients(): OidcClients {
  return new OidcClients();
}

function cacheKey(settings: ProviderSettings): string {
  const at = new Date(settings.updatedAt).getTime();
  return createHash('sha256')
    .update(JSON.stringify([at, settings.providerUrl, settings.clientId, settings.secret]))
    .digest('base64url');
}

/**
 * The token endpoint's client authentication: `client_secret_basic` (the default of the
 * standard, and what every common provider accepts) unless the provider lists only `client_secret_post`.
 */
function authMethodFor(metadata: client.ServerMetadata): 'client_secret_basic' | 'client_secret_post' {
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (!supported || supported.includes('client_secret_basic')) return 'client_secret_basic';
  return supported.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic';
}

export interface Discovered {
  config: client.Configuration;
  authMethod: 'client_secret_basic' | 'client_secret_post';
}

/** Runs discovery and builds the client configuration; `fresh` skips (and refills) the cache. */
export async function discover(deps: AppDeps, settings: ProviderSettings, fresh = false): Promise<Discovered> {
  const key = cacheKey(settings);
  const nowMs = deps.clock.now().getTime();
  const cached = fresh ? undefined : deps.oidcClients.get(settings.id, key, nowMs);
  if (cached) return { config: cached, authMethod: authMethodFor(cached.serverMetadata()) };
  const issuer = new URL(settings.providerUrl);
  // openid-client refuses http by default; an http issuer was accepted at save time only for a loopback or private host.
  const insecure = issuer.protocol === 'http:';
  const timeout = deps.config.oidcTimeoutSeconds;
  let discovered: client.Configuration;
  try {
    discovered = await client.discovery(issuer, settings.clientId, undefined, client.None(), {
      timeout,
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    });
  } catch (error) {
    throw upstreamError(error, 'discovery', timeout);
  }
  const metadata = discovered.serverMetadata();
  for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
    if (!metadata[endpoint]) throw new NetworkError(`The identity provider's discovery document has no ${endpoint}`);
  }
  const authMethod = authMethodFor(metadata);
  const auth = authMethod === 'client_secret_post' ? client.ClientSecretPost(settings.secret) : client.ClientSecretBasic(settings.secret);
  const config = new client.Configuration(metadata, settings.clientId, { client_secret: settings.secret }, auth);
  config.timeout = timeout;
  if (insecure) client.allowInsecureRequests(config);
  // openid-client leaves the signature of an ID token from the token endpoint unchecked (TLS
  // vouches for it in OpenID Connect Core §3.1.3.7): it is checked here against the provider's
  // JWKS all the same, so that a token signed by any other key is refused, whatever the transport.
  client.enableNonRepudiationChecks(config);
  deps.oidcClients.set(settings.id, key, config, nowMs);
  return { config, authMethod };
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** The network failures of fetch (refused, reset, DNS…): a TypeError carrying the system error as its cause. */
function networkCause(error: unknown): string | null {
  if (!(error instanceof TypeError)) return null;
  const cause = error.cause;
  if (cause instanceof Error) return (cause as Error & { code?: string }).code ?? cause.message;
  return error.message === 'fetch failed' ? 'connection failed' : null;
}

/**
 * A failure of a request to the provider as a NetworkError (502, 504 on a timeout), or null
 * when the provider answered and its answer is what failed (the caller decides).
 */
export function networkError(error: unknown, step: string, timeoutSeconds: number): NetworkError | null {
  if (isTimeout(error) || isTimeout((error as { cause?: unknown } | null)?.cause)) {
    return new NetworkError(`The identity provider did not answer within ${timeoutSeconds} s (${step})`, true);
  }
  const cause = networkCause(error);
  if (cause !== null) return new NetworkError(`The identity provider could not be reached (${step}: ${cause})`);
  if (error instanceof client.ResponseBodyError && error.status >= 500) {
    return new NetworkError(`The identity provider failed (${step}: HTTP ${error.status})`);
  }
  return null;
}

/** Any failure of discovery is upstream: the provider is down, slow, or its metadata is unusable. */
function upstreamError(error: unknown, step: string, timeoutSeconds: number): AppError {
  if (error instanceof AppError) return error;
  const network = networkError(error, step, timeoutSeconds);
  if (network) return network;
  const reason = error instanceof Error ? error.message : String(error);
  return new NetworkError(`The identity provider's ${step} failed: ${reason}`);
}
