// Shared by the two-factor sign-in tests (server/src/auth/two-factor*.test.ts): enrolment through
// the API, the two steps of a password sign-in, a session's headers, and the audit entries.
import assert from 'node:assert/strict';
import { totpCode, TOTP_PERIOD_SECONDS } from '../src/auth/totp.ts';
import { cookieValue, type Response } from './auth.ts';
import { type Caller, dataOf, type TestApp } from './helpers.ts';
import { type AuditRow, auditEntries as auditLog } from './audit.ts';

export const STEP_MS = TOTP_PERIOD_SECONDS * 1000;
export const TWO_FACTOR_PASSWORD = 'two-factor-password-1';

export interface Enrolment {
  secret: string;
  recoveryCodes: string[];
}

/** Sets up and enables two-factor sign-in for `caller` (with its API key) at the app clock's time. */
export async function enrol(t: TestApp, caller: Caller): Promise<Enrolment> {
  const setup = dataOf<{ secret: string; otpauth_url: string }>(
    await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', as: caller }),
  );
  const code = totpCode(setup.secret, t.deps.clock.now().getTime());
  const enabled = dataOf<{ recovery_codes: string[] }>(
    await t.call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: { code }, as: caller }),
  );
  assert.equal(enabled.recovery_codes.length, 10);
  return { secret: setup.secret, recoveryCodes: enabled.recovery_codes };
}

/** The current code of a secret at the app clock's time, `steps` steps away. */
export function codeAt(t: TestApp, secret: string, steps = 0): string {
  return totpCode(secret, t.deps.clock.now().getTime() + steps * STEP_MS);
}

export function passwordLogin(t: TestApp, email: string, password = TWO_FACTOR_PASSWORD, headers: Record<string, string> = {}) {
  return t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, as: null, headers });
}

/** The challenge of a password sign-in that asks for the second factor. */
export async function challengeFor(t: TestApp, email: string): Promise<string> {
  const res = await passwordLogin(t, email);
  const data = dataOf<{ mfa_required: boolean; challenge: string }>(res);
  assert.equal(data.mfa_required, true);
  assert.equal(res.headers['set-cookie'], undefined, 'no session before the second factor');
  return data.challenge;
}

export function mfa(t: TestApp, challenge: unknown, code: unknown, headers: Record<string, string> = {}) {
  return t.call({ method: 'POST', url: '/api/v1/auth/mfa', payload: { challenge, code }, as: null, headers });
}

/** The headers of the session a sign-in answer opened (cookie and CSRF token). */
export function sessionOf(res: Response): { as: null; headers: Record<string, string> } {
  const session = cookieValue(res, 'parley_session');
  const csrf = cookieValue(res, 'csrf_token');
  assert.ok(session && csrf, `a session was opened: ${res.body}`);
  return { as: null, headers: { cookie: `parley_session=${session}; csrf_token=${csrf}`, 'x-csrf-token': csrf } };
}

/** The audit entries with this action, oldest first. */
export function auditEntries(t: TestApp, action: string): Promise<AuditRow[]> {
  return auditLog(t, { action });
}
