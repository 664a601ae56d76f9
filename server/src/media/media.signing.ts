// Signed media URLs: a file is served without credentials to whoever holds a link the
// server signed, until the link expires.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { PermissionError } from '../errors.ts';

/**
 * A key of its own for media URLs, derived from SECRET_KEY, so a signature is useless anywhere
 * else. Derived at each use (two HMACs) rather than cached: no state outlives the call.
 */
function signingKey(config: Config): Buffer {
  return Buffer.from(hkdfSync('sha256', config.secretKey, Buffer.alloc(0), 'parley media url signature v1', 32));
}

function signature(config: Config, uuid: string, exp: number): Buffer {
  return createHmac('sha256', signingKey(config)).update(`${uuid.toLowerCase()}:${exp}`).digest();
}

/** An absolute URL that serves the file without credentials until it expires (default MEDIA_URL_TTL_SECONDS, 1 hour). */
export function signedMediaUrl(deps: Pick<AppDeps, 'config' | 'clock'>, uuid: string, ttlSeconds?: number): string {
  const ttl = Math.max(1, Math.floor(ttlSeconds ?? deps.config.mediaUrlTtlSeconds));
  const exp = Math.floor(deps.clock.now().getTime() / 1000) + ttl;
  const sig = signature(deps.config, uuid, exp).toString('base64url');
  return `${deps.config.baseUrl}/api/v1/media/${uuid.toLowerCase()}?exp=${exp}&sig=${sig}`;
}

/** Checks a URL's signature and expiry; returns the seconds it has left. Any fault is the same 403. */
export function verifyMediaSignature(
  deps: Pick<AppDeps, 'config' | 'clock'>,
  uuid: string,
  exp: string | undefined,
  sig: string | undefined,
): number {
  const refused = new PermissionError('Invalid or expired media link');
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) throw refused;
  const expiry = Number(exp);
  const given = Buffer.from(sig, 'base64url');
  const expected = signature(deps.config, uuid, expiry);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused;
  const remaining = expiry - Math.floor(deps.clock.now().getTime() / 1000);
  if (remaining <= 0) throw refused;
  return remaining;
}
