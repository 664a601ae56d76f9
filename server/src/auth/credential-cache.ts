// Verified credentials are kept briefly in memory so the slow hash is not paid on
// every request. Changes to an agent clear its entries here at once and, through
// the event bus, on every other instance.
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
}

interface Entry {
  principal: Principal;
  expiresAt: number;
  /** Last time api_key_last_used_at was written for this entry (ms). */
  touchedAt: number;
}

export const CREDENTIAL_TTL_MS = 30_000;
export const INVALIDATE_CHANNEL = 'auth.invalidate';

export class CredentialCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  constructor(ttlMs = CREDENTIAL_TTL_MS) {
    this.#ttlMs = ttlMs;
  }
  get(key: string, nowMs: number): Entry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }
  /** `notAfterMs`: a hard end (a session's expiry) the entry must not outlive. */
  set(key: string, principal: Principal, nowMs: number, touchedAt: number, notAfterMs = Number.POSITIVE_INFINITY): void {
    if (this.#entries.size > 50_000) this.#entries.clear();
    this.#entries.set(key, { principal, expiresAt: Math.min(nowMs + this.#ttlMs, notAfterMs), touchedAt });
  }
  markTouched(key: string, nowMs: number): void {
    const entry = this.#entries.get(key);
    if (entry) entry.touchedAt = nowMs;
  }
  /** Drops the entries of one user, or every entry when userId is null. */
  invalidateLocal(userId: number | null): void {
    if (userId === null) {
      this.#entries.clear();
      return;
    }
    for (const [key, entry] of this.#entries) if (entry.principal.userId === userId) this.#entries.delete(key);
  }
  deleteKey(key: string): void {
    this.#entries.delete(key);
  }
}

/** Clears cached credentials here and on every other instance. userId null = everybody (a role changed). */
export async function invalidateCredentials(deps: { credentials: CredentialCache; bus: EventBus }, userId: number | null): Promise<void> {
  deps.credentials.invalidateLocal(userId);
  await deps.bus.publish(INVALIDATE_CHANNEL, { userId });
}

export function listenForInvalidations(cache: CredentialCache, bus: EventBus): Promise<() => Promise<void>> {
  return bus.subscribe(INVALIDATE_CHANNEL, (message) => {
    const userId = message['userId'];
    cache.invalidateLocal(typeof userId === 'number' ? userId : null);
  });
}
