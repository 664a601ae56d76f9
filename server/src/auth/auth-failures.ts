// Failed API authentications per client address. Each verification costs a deliberately slow
// hash, so an address may start at most `limit` verifications that fail (or are still running)
// per minute: an attempt is counted before its hash and uncounted when it succeeds. Past the
// limit the address is refused (429) before any hashing until its minute is over, however many
// requests it sends at once. Credentials already verified (cached) keep working from that
// address, so an agent behind the same address as a misbehaving client is not locked out.
// With Redis the count is shared by every instance; without it, each instance counts its own.
import type { Redis } from 'ioredis';
import type { Clock } from '../deps.ts';

export interface AuthFailureLimiter {
  /** Counts an attempt of the address before it is verified: 0, or the seconds to wait (nothing counted) when its minute is used up. */
  reserve(address: string): Promise<number>;
  /** The attempt succeeded (or could not be judged): it no longer counts. */
  release(address: string): Promise<void>;
}

export const AUTH_FAILURE_WINDOW_MS = 60_000;
const MAX_TRACKED = 50_000;

/** No limit (AUTH_FAILURE_LIMIT_PER_MINUTE=0). */
export const noAuthFailureLimit: AuthFailureLimiter = {
  reserve: async () => 0,
  release: async () => {},
};

export function memoryAuthFailureLimiter(limit: number, clock: Clock, windowMs = AUTH_FAILURE_WINDOW_MS): AuthFailureLimiter {
  // Insertion order is the order windows started: the oldest end first.
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
    async reserve(address) {
      const now = clock.now().getTime();
      const window = current(address, now);
      if (window) {
        if (window.count >= limit) return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
        window.count += 1;
        return 0;
      }
      if (windows.size >= MAX_TRACKED) {
        // Forget the windows that end soonest (never clear them all: that would free blocked addresses).
        for (const [key, value] of windows) {
          if (windows.size < MAX_TRACKED && value.resetAt > now) break;
          windows.delete(key);
        }
      }
      windows.set(address, { count: 1, resetAt: now + windowMs });
      return 0;
    },
    async release(address) {
      const window = current(address, clock.now().getTime());
      if (window && window.count > 0) window.count -= 1;
    },
  };
}

// The window starts with the first attempt and is not extended by later ones. Returns the
// milliseconds to wait when the address has used up its window (the attempt is then not counted), else -1.
const RESERVE = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if n > tonumber(ARGV[2]) then
  redis.call('DECR', KEYS[1])
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
  return ttl
end
return -1`;
const RELEASE = `if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end return 0`;

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
    async reserve(address) {
      try {
        const waitMs = Number(await redis.eval(RESERVE, 1, key(address), String(windowMs), String(limit)));
        return waitMs >= 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
      } catch (error) {
        onError(error);
        return 0;
      }
    },
    async release(address) {
      try {
        await redis.eval(RELEASE, 1, key(address));
      } catch (error) {
        onError(error);
      }
    },
  };
}
