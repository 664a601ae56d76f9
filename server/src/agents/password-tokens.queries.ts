// Every statement on password_tokens (agents/password-tokens.service.ts).
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { PasswordTokensTable } from '../db/types.ts';

export type PasswordTokenKind = PasswordTokensTable['kind'];

export async function insertPasswordToken(
  db: DB,
  values: { token_hash: string; user_id: number; kind: PasswordTokenKind; email: string; created_at: Date; expires_at: Date },
): Promise<void> {
  await db.insertInto('password_tokens').values(values).execute();
}

/** Ends the unused tokens of an agent (of these kinds): only the newest link works. Kept (as used) for the hourly count. */
export async function retireTokensOf(db: DB, userId: number, kinds: readonly PasswordTokenKind[], now: Date): Promise<void> {
  await db
    .updateTable('password_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('kind', 'in', kinds)
    .where('used_at', 'is', null)
    .execute();
}

/** Tokens that can no longer be used, kept a day past their end for inspection. */
export async function deleteDeadTokens(db: DB, now: Date): Promise<void> {
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  await db
    .deleteFrom('password_tokens')
    .where((eb) => eb.or([eb('expires_at', '<', dayAgo), eb('used_at', '<', dayAgo)]))
    .execute();
}

/** How many tokens of a kind the agent was sent since `since` (the reset mails of the last hour). */
export async function countTokensSince(db: DB, userId: number, kind: PasswordTokenKind, since: Date): Promise<number> {
  const row = await db
    .selectFrom('password_tokens')
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('created_at', '>=', since)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Uses a token, once: a conditional update that only the first caller wins. It must be unused and
 * unexpired, and its agent enabled, not deleted, and still at the address the link was mailed to.
 */
export async function claimPasswordToken(db: DB, tokenHash: string, now: Date) {
  return db
    .updateTable('password_tokens')
    .from('users')
    .set({ used_at: now })
    .where('password_tokens.token_hash', '=', tokenHash)
    .where('password_tokens.used_at', 'is', null)
    .where('password_tokens.expires_at', '>', now)
    .whereRef('users.id', '=', 'password_tokens.user_id')
    .where('users.type', '=', 'agent')
    .where('users.deleted_at', 'is', null)
    .where('users.enabled', '=', true)
    .where(sql<boolean>`lower(users.email) = password_tokens.email`)
    .returning(['password_tokens.user_id', 'password_tokens.kind', 'users.first_name', 'users.last_name', 'users.email'])
    .executeTakeFirst();
}

/** Whether an unused, unexpired token has this hash (a cheap look before the slow password hash). */
export async function liveTokenExists(db: DB, tokenHash: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('password_tokens')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .select('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The agent a reset mail goes to: an enabled, undeleted agent with this address. */
export async function findAgentForReset(db: DB, email: string) {
  return db
    .selectFrom('users')
    .where(sql<boolean>`lower(email) = ${email}`)
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .where('enabled', '=', true)
    .select(['id', 'email', 'first_name', 'last_name'])
    .forUpdate()
    .executeTakeFirst();
}

/** An agent to invite (deleted agents and contacts are not found), its row locked. */
export async function lockAgentForInvitation(db: DB, id: number) {
  return db
    .selectFrom('users')
    .where('id', '=', id)
    .where('type', '=', 'agent')
    .where('deleted_at', 'is', null)
    .select(['id', 'email', 'first_name', 'last_name', 'enabled'])
    .select((eb) => eb('password_hash', 'is not', null).as('has_password'))
    .forUpdate()
    .executeTakeFirst();
}

export async function setPasswordHash(db: DB, userId: number, passwordHash: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}
