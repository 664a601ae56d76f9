// Webhook signing secrets in the Standard Webhooks form: `whsec_` + base64 of the key bytes.
// Generated from the CSPRNG, checked when an admin brings one, stored encrypted with SECRET_KEY
// (security/encryption.ts), decrypted only by the delivery engine to sign.
import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../deps.ts';
import { InputError } from '../errors.ts';
import { decryptSecret, encryptSecret } from '../security/encryption.ts';

export const SECRET_PREFIX = 'whsec_';
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;
const GENERATED_BYTES = 32;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A new secret: 32 random bytes. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(GENERATED_BYTES).toString('base64');
}

/** The key bytes of a well-formed secret, or null: `whsec_` + canonical base64 of 24..64 bytes. */
export function secretKeyBytes(secret: string): Buffer | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return null;
  const bytes = Buffer.from(encoded, 'base64');
  // Node's decoder skips what it cannot read: the bytes must encode back to the same text.
  if (bytes.toString('base64') !== encoded) return null;
  return bytes.length >= SECRET_MIN_BYTES && bytes.length <= SECRET_MAX_BYTES ? bytes : null;
}

/** A secret an admin sent, checked (400 naming `secret` otherwise). */
export function checkSecret(secret: string): string {
  if (secretKeyBytes(secret) === null) {
    throw InputError.field(
      'secret',
      `must be "${SECRET_PREFIX}" followed by the base64 of ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} random bytes (leave it out to have one generated)`,
    );
  }
  return secret;
}

export function encryptWebhookSecret(deps: Pick<AppDeps, 'config'>, secret: string): string {
  return encryptSecret(deps.config.secretKey, secret);
}

/** The plaintext `whsec_…` of a stored secret. Throws DecryptionError when SECRET_KEY changed. For signing only: never answer it. */
export function decryptWebhookSecret(deps: Pick<AppDeps, 'config'>, stored: string): string {
  return decryptSecret(deps.config.secretKey, stored);
}
