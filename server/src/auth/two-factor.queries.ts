// Every statement of two-factor sign-in (auth/two-factor.ts): the agent's TOTP columns, its
// recovery codes (sha256) and the sign-in challenges (sha256 of the challenge).
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

/** Whether the user `u` holds a role that requires two-factor sign-in: the one statement of the rule (auth.queries.ts reads it too). */
export function holdsRoleRequiringTwoFactor() {
  return sql<boolean>`exists (select 1 from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id and r.require_2fa)`;
}

/** The agent's two-factor state, its row locked until the transaction ends (codes are consumed under the lock). */
export async function lockTwoFactorState(db: DB, userId: number) {
  return db
    .selectFrom('users')
    .where('id', '=', userId)
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select([
      'id',
      'email',
      'first_name',
      'last_name',
      'enabled',
      'password_hash',
      'two_factor_enabled',
      'two_factor_secret',
      'two_factor_pending_secret',
      'two_factor_last_step',
    ])
    .forUpdate()
    .executeTakeFirst();
}

export async function setPendingSecret(db: DB, userId: number, encrypted: string): Promise<void> {
  await db.updateTable('users').set({ two_factor_pending_secret: encrypted }).where('id', '=', userId).execute();
}

export async function enableTwoFactor(db: DB, userId: number, encrypted: string, step: number, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({
      two_factor_enabled: true,
      two_factor_secret: encrypted,
      two_factor_pending_secret: null,
      two_factor_last_step: step,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}

/** Turns two-factor sign-in off and forgets everything of it: secrets, recovery codes, open challenges. */
export async function clearTwoFactor(db: DB, userId: number, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({
      two_factor_enabled: false,
      two_factor_secret: null,
      two_factor_pending_secret: null,
      two_factor_last_step: null,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('mfa_challenges').where('user_id', '=', userId).execute();
}

export async function setLastStep(db: DB, userId: number, step: number): Promise<void> {
  await db.updateTable('users').set({ two_factor_last_step: step }).where('id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: DB, userId: number, hashes: readonly string[]): Promise<void> {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
    .execute();
}

export async function unusedRecoveryCodes(db: DB, userId: number) {
  return db
    .selectFrom('two_factor_recovery_codes')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .select(['id', 'code_hash'])
    .execute();
}

export async function markRecoveryCodeUsed(db: DB, id: number, now: Date): Promise<void> {
  await db.updateTable('two_factor_recovery_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).execute();
}

export async function insertChallenge(
  db: DB,
  challenge: { id: string; user_id: number; created_at: Date; expires_at: Date },
): Promise<void> {
  await db.deleteFrom('mfa_challenges').where('expires_at', '<=', challenge.created_at).execute();
  await db.insertInto('mfa_challenges').values(challenge).execute();
}

/** A live challenge (with its agent's email, for the login limits), locked until the transaction ends. */
export async function lockLiveChallenge(db: DB, id: string, now: Date) {
  return db
    .selectFrom('mfa_challenges as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .where('c.id', '=', id)
    .where('c.expires_at', '>', now)
    .select(['c.id', 'c.user_id', 'c.failures', 'u.email'])
    .forUpdate(['c'])
    .executeTakeFirst();
}

/** Counts a wrong code; the challenge dies at `limit`. Returns the failures so far. */
export async function countChallengeFailure(db: DB, id: string, limit: number): Promise<number> {
  const row = await db
    .updateTable('mfa_challenges')
    .set({ failures: sql<number>`failures + 1` })
    .where('id', '=', id)
    .returning('failures')
    .executeTakeFirst();
  const failures = row?.failures ?? limit;
  if (failures >= limit) await deleteChallenge(db, id);
  return failures;
}

export async function deleteChallenge(db: DB, id: string): Promise<void> {
  await db.deleteFrom('mfa_challenges').where('id', '=', id).execute();
}

/** Whether a role of the agent requires two-factor sign-in, and whether the agent has it. */
export async function twoFactorDemand(db: DB, userId: number): Promise<{ required: boolean; enabled: boolean }> {
  const row = await db
    .selectFrom('users as u')
    .where('u.id', '=', userId)
    .select(['u.two_factor_enabled', holdsRoleRequiringTwoFactor().as('required')])
    .executeTakeFirst();
  return { required: row?.required ?? false, enabled: row?.two_factor_enabled ?? false };
}
