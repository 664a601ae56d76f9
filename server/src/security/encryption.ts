// Secrets at rest (mail passwords, the live-chat JWT secret…): AES-256-GCM under a key
// derived from SECRET_KEY. Stored form: `enc:v1:<iv>:<tag>:<ciphertext>`, each part base64url.
// The version prefix lets a later key or cipher coexist with rows written by this one.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What every response shows in place of a stored secret; sending it back keeps the secret. */
export const SECRET_MASK = '••••••••••';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

// Derived once per SECRET_KEY buffer: HKDF is cheap, but there is no reason to repeat it per call.
const derivedKeys = new WeakMap<Buffer, Buffer>();

function keyFor(secretKey: Buffer): Buffer {
  let key = derivedKeys.get(secretKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.from('parley'), Buffer.from('parley:secrets-at-rest:v1'), 32));
    derivedKeys.set(secretKey, key);
  }
  return key;
}

export function isEncrypted(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

export function encryptSecret(secretKey: Buffer, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secretKey), iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return `${PREFIX}${iv.toString('base64url')}:${tag.toString('base64url')}:${ciphertext.toString('base64url')}`;
}

export class DecryptionError extends Error {
  override name = 'DecryptionError';
}

/** Throws DecryptionError when the value is not ours, was altered, or was written under another SECRET_KEY. */
export function decryptSecret(secretKey: Buffer, stored: string): string {
  if (!stored.startsWith(PREFIX)) throw new DecryptionError('Not an encrypted value');
  const parts = stored.slice(PREFIX.length).split(':');
  if (parts.length !== 3) throw new DecryptionError('Malformed encrypted value');
  const [ivText, tagText, dataText] = parts as [string, string, string];
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new DecryptionError('Malformed encrypted value');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secretKey), iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(dataText, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptionError('Encrypted value could not be authenticated (altered, or written under another SECRET_KEY)');
  }
}
