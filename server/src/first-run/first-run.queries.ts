// Every statement of the first run: the setup tokens (hashes only).
import type { DB } from '../db/database.ts';

export async function insertSetupToken(db: DB, row: { token_hash: string; expires_at: Date; created_at: Date }): Promise<void> {
  await db.insertInto('setup_tokens').values(row).execute();
}

/** Before a new token is issued: only the latest printed token works. */
export async function deleteAllSetupTokens(db: DB): Promise<void> {
  await db.deleteFrom('setup_tokens').execute();
}

export async function liveSetupTokenHashes(db: DB, now: Date): Promise<string[]> {
  const rows = await db.selectFrom('setup_tokens').select('token_hash').where('expires_at', '>', now).execute();
  return rows.map((row) => row.token_hash);
}

export type SetupTokenRow = { token_hash: string; expires_at: Date; created_at: Date };

/**
 * Takes every token at once, for one setup, inside its transaction: of two concurrent setups,
 * the second waits on the first's row locks and then finds none, so only one first admin is
 * ever created; a rolled-back setup leaves them in place.
 */
export async function claimAllSetupTokens(trx: DB): Promise<SetupTokenRow[]> {
  return trx.deleteFrom('setup_tokens').returning(['token_hash', 'expires_at', 'created_at']).execute();
}
