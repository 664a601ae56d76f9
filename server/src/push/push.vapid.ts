// The installation's VAPID key pair (RFC 8292): made on first use by whichever instance gets
// there first (insert if absent, then read: every instance uses the stored pair), kept for good
// (browsers subscribed with its public key; a new pair would orphan every subscription). The
// private key is stored encrypted with SECRET_KEY (security/encryption.ts).
import webpush from 'web-push';
import type { Config } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import { splitNamedAddress } from '../http/formats.ts';
import { decryptSecret, encryptSecret } from '../security/encryption.ts';
import { insertVapidKeysIfAbsent, readVapidKeys } from './push.queries.ts';

export interface VapidKeys {
  /** base64url of the uncompressed P-256 point. */
  publicKey: string;
  /** base64url of the 32-byte private scalar. */
  privateKey: string;
}

// Per database: the pair never changes once stored, so it is read once per app.
const cache = new WeakMap<object, Promise<VapidKeys>>();

export function vapidKeys(deps: Pick<AppDeps, 'db' | 'config' | 'clock'>): Promise<VapidKeys> {
  let keys = cache.get(deps.db);
  if (!keys) {
    keys = loadOrCreate(deps);
    cache.set(deps.db, keys);
    // A failure (database down) is not remembered: the next call tries again.
    keys.catch(() => cache.delete(deps.db));
  }
  return keys;
}

async function loadOrCreate(deps: Pick<AppDeps, 'db' | 'config' | 'clock'>): Promise<VapidKeys> {
  let row = await readVapidKeys(deps.db);
  if (!row) {
    const fresh = webpush.generateVAPIDKeys();
    row = await insertVapidKeysIfAbsent(
      deps.db,
      { public_key: fresh.publicKey, private_key: encryptSecret(deps.config.secretKey, fresh.privateKey) },
      deps.clock.now(),
    );
    if (!row) throw new Error('the VAPID key pair could not be stored');
  }
  return { publicKey: row.public_key, privateKey: decryptSecret(deps.config.secretKey, row.private_key) };
}

/**
 * Who push services may contact about this installation's pushes (RFC 8292 `sub`): MAIL_FROM's
 * address, else BASE_URL when it is https, else a mailto: at BASE_URL's host.
 */
export function vapidSubject(config: Pick<Config, 'mailFrom' | 'baseUrl'>): string {
  if (config.mailFrom) return `mailto:${splitNamedAddress(config.mailFrom).address}`;
  const base = new URL(config.baseUrl);
  if (base.protocol === 'https:') return base.origin;
  return `mailto:parley@${base.hostname}`;
}
