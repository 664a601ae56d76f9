// Two-factor sign-in with TOTP (docs/api.md, "Two-factor sign-in"): enrolment (setup, then
// enable with a first code), recovery codes, disabling, an admin's reset, and the second step
// of a password sign-in (`completeMfaSignIn`). The secret is stored encrypted under SECRET_KEY
// and never shown again after setup; recovery codes are stored as sha256 and shown once. A TOTP
// code is accepted once: the agent's last accepted time step is kept and any step at or before
// it is refused. Everything that checks a code runs under the agent's row lock.
import { randomInt } from 'node:crypto';
import { type AuditActor, recordAudit } from '../audit/audit.service.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError, NotFoundError, UnauthorizedError } from '../errors.ts';
import { DecryptionError, decryptSecret, encryptSecret } from '../security/encryption.ts';
import { constantTimeEqual, sha256, verifySecret } from '../security/hashing.ts';
import { hasLiveSessionFrom } from './auth.queries.ts';
import { anonymousActor, type NewSession, type SessionMeta, startSession } from './auth.service.ts';
import { invalidateCredentials } from './credential-cache.ts';
import type { LoginLimits } from './login-limits.ts';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp.ts';
import * as q from './two-factor.queries.ts';

export const RECOVERY_CODE_COUNT = 10;
/** A challenge lives this long, and dies at this many wrong codes. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_MAX_FAILURES = 5;

// Recovery codes: 10 characters of an alphabet without look-alikes (50 bits), shown as xxxxx-xxxxx.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

type AgentState = NonNullable<Awaited<ReturnType<typeof q.lockTwoFactorState>>>;
export type SecondFactor = 'totp' | 'recovery_code';

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What the agent typed, as compared: no spaces or dashes, lower case. */
function normaliseCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

function agentName(agent: { first_name: string; last_name: string }): string {
  return `${agent.first_name} ${agent.last_name}`.trim();
}

async function lockAgent(db: DB, userId: number): Promise<AgentState> {
  const agent = await q.lockTwoFactorState(db, userId);
  if (!agent) throw new NotFoundError('Agent not found');
  return agent;
}

/** A stored secret, decrypted; one SECRET_KEY no longer opens (the key was changed) is a clear 422, not a 500. */
function readSecret(deps: AppDeps, stored: string): string {
  try {
    return decryptSecret(deps.config.secretKey, stored);
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
    deps.log.warn(
      'a two-factor secret cannot be decrypted with SECRET_KEY: the agent signs in with a recovery code, or an admin resets it',
    );
    throw new DataError(
      'This two-factor secret cannot be read (the server key changed): use a recovery code, or ask an admin to reset two-factor sign-in',
    );
  }
}

/**
 * Checks a second factor (a TOTP code of the window, or an unused recovery code) and consumes it:
 * the code's time step is remembered, the recovery code marked used. Null when it is neither.
 */
async function consumeSecondFactor(deps: AppDeps, trx: DB, agent: AgentState, code: string): Promise<SecondFactor | null> {
  const typed = normaliseCode(code);
  if (agent.two_factor_secret !== null && /^\d{6}$/.test(typed)) {
    const secret = readSecret(deps, agent.two_factor_secret);
    const step = matchTotp(secret, typed, deps.clock.now().getTime());
    if (step === null || (agent.two_factor_last_step !== null && step <= agent.two_factor_last_step)) return null;
    await q.setLastStep(trx, agent.id, step);
    return 'totp';
  }
  const hash = sha256(typed);
  let found: number | null = null;
  // Every unused code is compared, in constant time, whichever matches.
  for (const row of await q.unusedRecoveryCodes(trx, agent.id)) if (constantTimeEqual(row.code_hash, hash)) found = row.id;
  if (found === null) return null;
  await q.markRecoveryCodeUsed(trx, found, deps.clock.now());
  return 'recovery_code';
}

/** A new pending secret for the agent (replacing a pending one); refused while two-factor sign-in is on. */
export async function setupTwoFactor(deps: AppDeps, userId: number): Promise<{ secret: string; otpauth_url: string }> {
  const secret = newTotpSecret();
  const email = await deps.db.transaction().execute(async (trx) => {
    const agent = await lockAgent(trx, userId);
    if (agent.two_factor_enabled) throw new DataError('Two-factor sign-in is already on: disable it first to enrol again');
    await q.setPendingSecret(trx, userId, encryptSecret(deps.config.secretKey, secret));
    return agent.email ?? `agent-${userId}`;
  });
  return { secret, otpauth_url: otpauthUrl(secret, email) };
}

/** Confirms the pending secret with a code from it: two-factor sign-in is on; the recovery codes are returned once. */
export async function enableTwoFactor(deps: AppDeps, actor: AuditActor, userId: number, code: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await deps.db.transaction().execute(async (trx) => {
    const agent = await lockAgent(trx, userId);
    if (agent.two_factor_enabled) throw new DataError('Two-factor sign-in is already on');
    if (agent.two_factor_pending_secret === null) throw new DataError('No pending secret: call POST /api/v1/agents/me/2fa/setup first');
    const secret = readSecret(deps, agent.two_factor_pending_secret);
    const now = deps.clock.now();
    const step = matchTotp(secret, normaliseCode(code), now.getTime());
    if (step === null) throw InputError.field('code', 'is not the current code of this secret');
    await q.enableTwoFactor(trx, userId, agent.two_factor_pending_secret, step, now);
    await q.replaceRecoveryCodes(
      trx,
      userId,
      codes.map((c) => sha256(normaliseCode(c))),
    );
    await recordAudit(
      trx,
      actor,
      { action: 'auth.2fa_enabled', resource: { type: 'agent', id: userId, name: agent.email ?? agentName(agent) } },
      now,
    );
  });
  // A session held at enrolment (a role requires two factors) is free from its next request on.
  await invalidateCredentials(deps, userId);
  return codes;
}

/**
 * Turns the agent's own two-factor sign-in off: its password (when it has one; an agent that
 * signs in only by single sign-on has none to give) and a TOTP or recovery code.
 */
export async function disableTwoFactor(
  deps: AppDeps,
  actor: AuditActor,
  userId: number,
  input: { password?: string | undefined; code: string },
  limits?: { loginLimits: LoginLimits; ip: string },
): Promise<void> {
  const stored = await q.lockTwoFactorState(deps.db, userId);
  if (!stored) throw new NotFoundError('Agent not found');
  if (!stored.two_factor_enabled) throw new DataError('Two-factor sign-in is not on');
  // Wrong passwords and codes here count on the account's login limits, like at sign-in.
  const attempt = limits ? await limits.loginLimits.reserve(stored.email ?? `agent-${userId}`, limits.ip, async () => true) : null;
  if (stored.password_hash !== null) {
    if (input.password === undefined) throw InputError.field('password', 'is required');
    if (!(await verifySecret(input.password, stored.password_hash))) throw InputError.field('password', 'is incorrect');
  }
  await deps.db.transaction().execute(async (trx) => {
    const agent = await lockAgent(trx, userId);
    if (!agent.two_factor_enabled) throw new DataError('Two-factor sign-in is not on');
    // A wrong code wrote nothing: the rollback loses nothing.
    if ((await consumeSecondFactor(deps, trx, agent, input.code)) === null) throw InputError.field('code', 'is not a valid code');
    const now = deps.clock.now();
    await q.clearTwoFactor(trx, userId, now);
    await recordAudit(
      trx,
      actor,
      { action: 'auth.2fa_disabled', resource: { type: 'agent', id: userId, name: agent.email ?? agentName(agent) } },
      now,
    );
  });
  await attempt?.succeeded();
  await invalidateCredentials(deps, userId);
}

/** An admin turns another agent's two-factor sign-in off (a lost phone). The caller checked who may. */
export async function resetTwoFactor(deps: AppDeps, actor: AuditActor, userId: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const agent = await lockAgent(trx, userId);
    if (!agent.two_factor_enabled && agent.two_factor_pending_secret === null) return;
    const now = deps.clock.now();
    await q.clearTwoFactor(trx, userId, now);
    if (agent.two_factor_enabled)
      await recordAudit(
        trx,
        actor,
        { action: 'auth.2fa_reset', resource: { type: 'agent', id: userId, name: agent.email ?? agentName(agent) } },
        now,
      );
  });
  await invalidateCredentials(deps, userId);
}

/** Whether a password session of this agent is held at enrolment: a role requires two factors it does not have. */
export async function mfaSetupRequired(deps: AppDeps, userId: number): Promise<boolean> {
  const demand = await q.twoFactorDemand(deps.db, userId);
  return demand.required && !demand.enabled;
}

/** The challenge of a password sign-in that awaits its second factor (the value is returned once; its sha256 is stored). */
export async function openChallenge(deps: AppDeps, db: DB, userId: number, token: string): Promise<void> {
  const now = deps.clock.now();
  await q.insertChallenge(db, {
    id: sha256(token),
    user_id: userId,
    created_at: now,
    expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
}

const DEAD_CHALLENGE = 'The sign-in challenge is unknown, expired or used up: sign in with your password again';

/**
 * The second step of a password sign-in: a live challenge and a code (TOTP or unused recovery
 * code) open the session. Wrong codes count on the challenge (it dies at the fifth) and on the
 * login limits of the account, like wrong passwords.
 */
export async function completeMfaSignIn(
  deps: AppDeps,
  limits: LoginLimits,
  input: { challenge: string; code: string } & SessionMeta & { ip: string },
): Promise<NewSession> {
  const id = sha256(input.challenge);
  const seen = await q.lockLiveChallenge(deps.db, id, deps.clock.now());
  if (!seen) throw new UnauthorizedError(DEAD_CHALLENGE);
  // As at the password step: an address where the agent is signed in already is not locked out by failures elsewhere.
  const known = () => hasLiveSessionFrom(deps.db, seen.user_id, input.ip, deps.clock.now());
  const attempt = await limits.reserve(seen.email ?? `agent-${seen.user_id}`, input.ip, known);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const challenge = await q.lockLiveChallenge(trx, id, deps.clock.now());
    if (!challenge) return { kind: 'dead' as const };
    const agent = await lockAgent(trx, challenge.user_id);
    if (!agent.enabled || !agent.two_factor_enabled) {
      await q.deleteChallenge(trx, id);
      return { kind: 'dead' as const };
    }
    const factor = await consumeSecondFactor(deps, trx, agent, input.code);
    if (factor === null) {
      await q.countChallengeFailure(trx, id, CHALLENGE_MAX_FAILURES);
      await recordAudit(
        trx,
        anonymousActor(input),
        {
          action: 'auth.login_failed',
          resource: { type: 'agent', id: agent.id, name: agent.email ?? agentName(agent) },
          changes: { reason: [null, 'wrong_code'] },
        },
        deps.clock.now(),
      );
      return { kind: 'wrong' as const };
    }
    await q.deleteChallenge(trx, id);
    return { kind: 'ok' as const, userId: agent.id, factor };
  });
  if (outcome.kind === 'dead') throw new UnauthorizedError(DEAD_CHALLENGE);
  if (outcome.kind === 'wrong') throw new UnauthorizedError('Invalid code');
  await attempt.succeeded();
  return startSession(deps, outcome.userId, {
    userAgent: input.userAgent,
    ip: input.ip,
    requestId: input.requestId ?? null,
    method: outcome.factor === 'totp' ? 'password_totp' : 'password_recovery_code',
  });
}
