// Failed API authentications per client address. Each one costs a deliberately slow hash, so
// an address that fails too often within a minute is refused (429) before any hashing until
// its minute is over. Credentials already verified (cached) keep working from that address,
// so an agent behind the same network address as a misbehaving client is not locked out.
// With Redis the count is shared by every instance; without it, each instance counts its own.
import type { Redis } from 'ioredis';
import type { Clock } from '../deps.ts';

export interface AuthFailureLimiter {
  /** Seconds until the address may try again, or 0 when it may now. */
  blockedFor(address: string): Promise<number>;
  recordFailure(address: string): Promise<void>;
}

export const AUTH_FAILURE_WINDOW_MS = 60_000;
const MAX_TRACKED = 50_000;

/** No limit (AUTH_FAILURE_LIMIT_PER_MINUTE=0). */
export const noAuthFailureLimit: AuthFailureLimiter = {
  blockedFor: async () => 0,
  recordFailure: async () => {},
};

export function memoryAuthFailureLimiter(limit: number, clock: Clock, windowMs = AUTH_FAILURE_WINDOW_MS): AuthFailureLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const current = (address: string, now: number) => {
    const window = windows.get(address);
    if (window && window.resetAt <= now) {
      windows.delete(address);
      return undefined;
    }
    return window;
  };
  return {
    async blockedFor(address) {
      const now = clock.now().getTime();
      const window = current(address, now);
      return window && window.count >= limit ? Math.ceil((window.resetAt - now) / 1000) : 0;
    },
    async recordFailure(address) {
      const now = clock.now().getTime();
      const window = current(address, now);
      if (window) {
        window.count += 1;
        return;
      }
      if (windows.size >= MAX_TRACKED) {
        for (const [key, value] of windows) if (value.resetAt <= now) windows.delete(key);
        if (windows.size >= MAX_TRACKED) windows.clear();
      }
      windows.set(address, { count: 1, resetAt: now + windowMs });
    },
  };
}

// The window starts with the first failure and is not extended by later ones.
const INCREMENT = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;

/** Shared by every instance. A Redis outage lets requests through (logged) rather than refusing every agent. */
export function redisAuthFailureLimiter(
  redis: Redis,
  prefix: string,
  limit: number,
  onError: (error: unknown) => void,
  windowMs = AUTH_FAILURE_WINDOW_MS,
): AuthFailureLimiter {
  const key = (address: string) => `${prefix}authfail:${address}`;
  return {
    async blockedFor(address) {
      try {
        const [count, ttl] = (await redis.multi().get(key(address)).pttl(key(address)).exec()) ?? [];
        const failures = Number(count?.[1] ?? 0);
        const remainingMs = Number(ttl?.[1] ?? -1);
        return failures >= limit ? Math.max(1, Math.ceil(remainingMs / 1000)) : 0;
      } catch (error) {
        onError(error);
        return 0;
      }
    },
    async recordFailure(address) {
      try {
        await redis.eval(INCREMENT, 1, key(address), String(windowMs));
      } catch (error) {
        onError(error);
      }
    },
  };
}
