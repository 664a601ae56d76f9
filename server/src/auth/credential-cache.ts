// Verified credentials are kept briefly in memory so the slow hash is not paid on
// every request. Changes to an agent clear its entries here at once and, through
// the event bus, on every other instance.
//
// Two things keep a busy client from stalling when its entry runs out: concurrent checks of
// one credential share a single verification (50 parallel requests would otherwise run 50
// scrypt hashes at once), and an entry in its last seconds is renewed in the background while
// it still answers. A verification that an invalidation overtook is not stored.
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../realtime/bus.ts';

export interface Principal {
  userId: number;
  email: string | null;
  firstName: string;
  lastName: string;
  permissions: ReadonlySet<string>;
  teamIds: readonly number[];
  method: 'api_key' | 'session';
  /** For sessions: the session id (hash of the cookie value). */
  sessionId: string | null;
  /**
   * A password session of an agent that a role requires to use two-factor sign-in, not set up
   * yet: held at enrolment (auth/mfa-hold.ts). Never for API credentials or single sign-on.
   */
  mfaSetupRequired?: boolean;
}

export interface CachedCredential {
  principal: Principal;
  expiresAt: number;
  /** Last time the agent's activity (last_active_at, and api_key_last_used_at for a key) was written for this entry (ms). */
  touchedAt: number;
  /**
   * For an API key: the stored secret hash its secret was verified against. A renewal that finds
   * the same hash needs no slow hash again (a new or revoked key changes it).
   */
  verifiedHash: string | null;
  /**
   * For a session opened by single sign-on: the agent who configured the provider. Its session
   * lasts while that agent holds every permission of the session's agent, so a change to that
   * agent drops this entry too.
   */
  vouchedBy: number | null;
}

export const CREDENTIAL_TTL_MS = 30_000;
/** An entry this close to its end is renewed in the background by the next request that uses it. */
export const CREDENTIAL_REFRESH_AHEAD_MS = 5_000;
export const INVALIDATE_CHANNEL = 'auth.invalidate';

export class CredentialCache {
  /** Names this cache in the invalidations it publishes, so that it ignores their echo. */
  readonly id = randomUUID();
  readonly #entries = new Map<string, CachedCredential>();
  readonly #loading = new Map<string, { generation: number; promise: Promise<Principal> }>();
  readonly #ttlMs: number;
  readonly #refreshAheadMs: number;
  /** Bumped by every invalidation: a verification started before one must not store its result. */
  #generation = 0;
  constructor(ttlMs = CREDENTIAL_TTL_MS, refreshAheadMs = CREDENTIAL_REFRESH_AHEAD_MS) {
    this.#ttlMs = ttlMs;
    this.#refreshAheadMs = Math.min(refreshAheadMs, ttlMs);
  }
  get generation(): number {
    return this.#generation;
  }
  /** True when the entry is in its last seconds and no renewal of it is under way. */
  needsRefresh(key: string, entry: CachedCredential, nowMs: number): boolean {
    return entry.expiresAt - nowMs <= this.#refreshAheadMs && !this.#loading.has(key);
  }
  /**
   * Runs `verify` for the key, unless a verification of the same key is under way: its outcome
   * is then shared. Not one that started before an invalidation: a request that comes after a
   * change must be judged after it.
   */
  verifyOnce(key: string, verify: () => Promise<Principal>): Promise<Principal> {
    const running = this.#loading.get(key);
    if (running && running.generation === this.#generation) return running.promise;
    const generation = this.#generation;
    const promise: Promise<Principal> = verify().finally(() => {
      if (this.#loading.get(key)?.promise === promise) this.#loading.delete(key);
    });
    this.#loading.set(key, { generation, promise });
    return promise;
  }
  get(key: string, nowMs: number): CachedCredential | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }
  /**
   * `generation`: the cache's generation when the verification started (nothing is stored when
   * an invalidation came since); `notAfterMs`: a hard end (a session's expiry) the entry must not outlive.
   */
  set(
    key: string,
    principal: Principal,
    generation: number,
    nowMs: number,
    touchedAt: number,
    notAfterMs = Number.POSITIVE_INFINITY,
    verifiedHash: string | null = null,
    vouchedBy: number | null = null,
  ): void {
    if (generation !== this.#generation) return;
    if (this.#entries.size > 50_000) this.#entries.clear();
    this.#entries.set(key, { principal, expiresAt: Math.min(nowMs + this.#ttlMs, notAfterMs), touchedAt, verifiedHash, vouchedBy });
  }
  markTouched(key: string, nowMs: number): void {
    const entry = this.#entries.get(key);
    if (entry) entry.touchedAt = nowMs;
  }
  /** Drops the entries of one user (and of the sessions it vouches for), or every entry when userId is null. */
  invalidateLocal(userId: number | null): void {
    this.#generation += 1;
    if (userId === null) {
      this.#entries.clear();
      return;
    }
    for (const [key, entry] of this.#entries)
      if (entry.principal.userId === userId || entry.vouchedBy === userId) this.#entries.delete(key);
  }
  deleteKey(key: string): void {
    this.#generation += 1;
    this.#entries.delete(key);
  }
}

/** Clears cached credentials here and on every other instance. userId null = everybody (a role changed). */
export async function invalidateCredentials(deps: { credentials: CredentialCache; bus: EventBus }, userId: number | null): Promise<void> {
  deps.credentials.invalidateLocal(userId);
  await deps.bus.publish(INVALIDATE_CHANNEL, { userId, origin: deps.credentials.id });
}

export function listenForInvalidations(cache: CredentialCache, bus: EventBus): Promise<() => Promise<void>> {
  return bus.subscribe(INVALIDATE_CHANNEL, (message) => {
    // Its own invalidations were applied when published: their echo (Redis) would only drop
    // entries verified since, after the change.
    if (message['origin'] === cache.id) return;
    const userId = message['userId'];
    cache.invalidateLocal(typeof userId === 'number' ? userId : null);
  });
}
