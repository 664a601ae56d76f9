// How password logins are throttled (docs/api.md, "Authentication"). Failed logins are counted
// per account and client address (LOGIN_RATE_LIMIT_PER_MINUTE): one client failing on an account
// does not lock anyone else at its address out, whatever the account. They are also counted per
// account over every address (LOGIN_ACCOUNT_FAILURES_PER_HOUR): failures spread over many
// addresses still throttle that account, except from an address where the agent already holds
// a live session (it knows the agent; an attacker elsewhere cannot lock the agent out there).
// A login that succeeds uncounts its own attempt. An address's attempts on any account are
// bounded by the route's own limit (10 × LOGIN_RATE_LIMIT_PER_MINUTE). With Redis the counts are
// shared by every instance.
import type { AppDeps } from '../deps.ts';
import { RateLimitError } from '../errors.ts';
import { type AuthFailureLimiter, memoryAuthFailureLimiter, redisAuthFailureLimiter } from './auth-failures.ts';

export const LOGIN_PAIR_WINDOW_MS = 60_000;
export const LOGIN_ACCOUNT_WINDOW_MS = 3_600_000;

export interface LoginLimits {
  /** Counts a login attempt before the password is checked; throws the 429 when a limit is used up. */
  reserve(email: string, address: string, knownAddress: () => Promise<boolean>): Promise<LoginAttempt>;
}

export interface LoginAttempt {
  /** The password was right: the attempt no longer counts. */
  succeeded(): Promise<void>;
}

function limiter(deps: AppDeps, name: string, limit: number, windowMs: number): AuthFailureLimiter {
  if (!deps.redis) return memoryAuthFailureLimiter(limit, deps.clock, windowMs);
  return redisAuthFailureLimiter(
    deps.redis,
    `${deps.redisPrefix}login:${name}:`,
    limit,
    (err) => deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'login limit: redis error, not limiting'),
    windowMs,
  );
}

export function loginLimits(deps: AppDeps): LoginLimits {
  const pairs = limiter(deps, 'pair', deps.config.loginRateLimitPerMinute, LOGIN_PAIR_WINDOW_MS);
  const accounts = limiter(deps, 'account', deps.config.loginAccountFailuresPerHour, LOGIN_ACCOUNT_WINDOW_MS);
  return {
    async reserve(email, address, knownAddress) {
      const account = email.trim().toLowerCase();
      const pair = `${account}|${address}`;
      const pairWait = await pairs.reserve(pair);
      if (pairWait > 0)
        throw new RateLimitError(`Too many failed logins on this account from this address; retry in ${pairWait} s`, pairWait);
      const accountWait = await accounts.reserve(account);
      // Past the account's limit the attempt is not counted on it (nor refused, from a known address).
      const countedOnAccount = accountWait === 0;
      if (!countedOnAccount && !(await knownAddress())) {
        await pairs.release(pair);
        throw new RateLimitError(`Too many failed logins on this account; retry in ${accountWait} s`, accountWait);
      }
      return {
        async succeeded() {
          await pairs.release(pair);
          if (countedOnAccount) await accounts.release(account);
        },
      };
    },
  };
}
