// The TOTP configuration sign-in uses, held to RFC 6238 (appendix B, SHA-1) and to its window.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base32Of, matchTotp, newTotpSecret, otpauthUrl, TOTP_DIGITS, totpCode, totpStep } from './totp.ts';

const RFC_SECRET = base32Of(Buffer.from('12345678901234567890', 'ascii'));
// RFC 6238 appendix B, SHA-1 column: (time in seconds, 8-digit code).
const VECTORS: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  for (const [seconds, expected] of VECTORS) {
    it(`gives the RFC's SHA-1 code at T = ${seconds} s`, () => {
      assert.equal(totpCode(RFC_SECRET, seconds * 1000, 8), expected);
      assert.equal(matchTotp(RFC_SECRET, expected, seconds * 1000, 8), totpStep(seconds * 1000));
    });
  }

  it('signs in with the last 6 digits of the same codes (the 6-digit truncation of the same HMAC)', () => {
    assert.equal(TOTP_DIGITS, 6);
    for (const [seconds, expected] of VECTORS) assert.equal(totpCode(RFC_SECRET, seconds * 1000), expected.slice(2));
  });

  it('accepts the step before and after the current one, and refuses two steps away', () => {
    const secret = newTotpSecret();
    const now = Date.UTC(2026, 0, 15, 10, 0, 10);
    const step = totpStep(now);
    for (const offset of [-1, 0, 1])
      assert.equal(matchTotp(secret, totpCode(secret, now + offset * 30_000), now), step + offset, `offset ${offset}`);
    for (const offset of [-2, 2]) assert.equal(matchTotp(secret, totpCode(secret, now + offset * 30_000), now), null, `offset ${offset}`);
  });

  it('refuses what is not a code of the right length', () => {
    const secret = newTotpSecret();
    const now = Date.now();
    const code = totpCode(secret, now);
    for (const bad of ['', code.slice(1), `${code}0`, `${code.slice(0, 5)}x`, ` ${code}`])
      assert.equal(matchTotp(secret, bad, now), null, bad);
  });

  it('makes 160-bit secrets and an otpauth URL carrying them', () => {
    const secret = newTotpSecret();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.notEqual(secret, newTotpSecret());
    const url = new URL(otpauthUrl(secret, 'ana@example.com'));
    assert.equal(url.protocol, 'otpauth:');
    assert.equal(url.searchParams.get('secret'), secret);
    assert.equal(url.searchParams.get('issuer'), 'Parley');
    assert.equal(url.searchParams.get('algorithm'), 'SHA1');
    assert.equal(url.searchParams.get('digits'), '6');
    assert.equal(url.searchParams.get('period'), '30');
  });
});
