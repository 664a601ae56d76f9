// Every statement of the first run: the setup tokens (hashes only).
import type { DB } from '../db/database.ts';

export async function insertSetupToken(db: DB, row: { token_hash: string; expires_at: Date; created_at: Date }): Promise<void> {
  await db.insertInto('setup_tokens').values(row).execute();
}

export async function deleteExpiredSetupTokens(db: DB, now: Date): Promise<void> {
  await db.deleteFrom('setup_tokens').where('expires_at', '<=', now).execute();
}

export async function liveSetupTokenHashes(db: DB, now: Date): Promise<string[]> {
  const rows = await db.selectFrom('setup_tokens').select('token_hash').where('expires_at', '>', now).execute();
  return rows.map((row) => row.token_hash);
}

export type SetupTokenRow = { token_hash: string; expires_at: Date; created_at: Date };

/**
 * Takes every token at once, for one setup: of two concurrent setups (two instances, two
 * tokens), the second finds none, so only one first admin is ever created.
 */
export async function claimAllSetupTokens(db: DB): Promise<SetupTokenRow[]> {
  return db.deleteFrom('setup_tokens').returning(['token_hash', 'expires_at', 'created_at']).execute();
}

export async function restoreSetupTokens(db: DB, rows: SetupTokenRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('setup_tokens')
    .values(rows)
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .execute();
}
