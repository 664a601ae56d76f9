// Rate limits of the public routes (the widget API, the CSAT rating page): a fixed window per
// key and per minute, shared by every instance through Redis when configured, else per process.
import { type AuthFailureLimiter, memoryAuthFailureLimiter, noAuthFailureLimit, redisAuthFailureLimiter } from '../auth/auth-failures.ts';
import type { AppDeps } from '../deps.ts';
import { RateLimitError } from '../errors.ts';

/** A fixed-window counter per key: 0 when the hit is allowed, else the seconds to wait. */
export interface PublicLimiter {
  hit(key: string): Promise<number>;
}

/** The limiter `name` allowing `perMinute` hits per key (0 = no limit). */
export function publicLimiter(deps: AppDeps, name: string, perMinute: number): PublicLimiter {
  let counter: AuthFailureLimiter;
  if (perMinute === 0) counter = noAuthFailureLimit;
  else if (deps.redis) {
    counter = redisAuthFailureLimiter(deps.redis, `${deps.redisPrefix}widget:${name}:`, perMinute, (err) =>
      deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'public rate limit: redis error, not limiting'),
    );
  } else counter = memoryAuthFailureLimiter(perMinute, deps.clock);
  return { hit: (key) => counter.reserve(key) };
}

/** Throws the 429 when `limiter` refuses `key`. */
export async function enforceLimit(limiter: PublicLimiter, key: string, what: string): Promise<void> {
  const wait = await limiter.hit(key);
  if (wait > 0) throw new RateLimitError(`Too many ${what}; retry in ${wait} s`, wait);
}
