// Time-based one-time passwords (RFC 6238) through the `otpauth` package: HMAC-SHA-1, 6 digits,
// 30-second steps, a code of the step before or after the current one accepted (clock drift).
// `totp.test.ts` holds this configuration to the RFC's test vectors.
import { Secret, TOTP } from 'otpauth';

export const TOTP_ALGORITHM = 'SHA1';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = 'Parley';

/** A new random secret (160 bits, the size RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The base32 text of raw secret bytes (the RFC's test secrets are ASCII). */
export function base32Of(bytes: Uint8Array): string {
  return Secret.fromHex(Buffer.from(bytes).toString('hex')).base32;
}

function totpOf(secretBase32: string, digits: number, label = ''): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: TOTP_ALGORITHM,
    digits,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The code for the moment `atMs` (digits: 6 for sign-in; the RFC's vectors use 8). */
export function totpCode(secretBase32: string, atMs: number, digits = TOTP_DIGITS): string {
  return totpOf(secretBase32, digits).generate({ timestamp: atMs });
}

/** The time step of a moment. */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * The time step `code` belongs to when it is the code of the current step or of one within the
 * window; null when it matches none. The caller refuses a step already used (a code works once).
 */
export function matchTotp(secretBase32: string, code: string, atMs: number, digits = TOTP_DIGITS): number | null {
  if (!new RegExp(`^\\d{${digits}}$`).test(code)) return null;
  const delta = totpOf(secretBase32, digits).validate({ token: code, timestamp: atMs, window: TOTP_WINDOW });
  return delta === null ? null : totpStep(atMs) + delta;
}

/** The `otpauth://totp/…` URL an authenticator app reads (as a QR code or pasted). */
export function otpauthUrl(secretBase32: string, account: string): string {
  return totpOf(secretBase32, TOTP_DIGITS, account).toString();
}
