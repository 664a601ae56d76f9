// Every SQL statement of the AI writing helper: the provider row (one per kind, only
// `completion` today) and the prompts.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

const providerColumns = ['id', 'provider', 'api_key', 'base_url', 'model', 'created_at', 'updated_at'] as const;
const promptColumns = ['id', 'key', 'title', 'content', 'created_at', 'updated_at'] as const;

export async function findProvider(db: DB, options: { lock?: boolean } = {}) {
  const query = db.selectFrom('ai_providers').where('kind', '=', 'completion').select(providerColumns);
  return (options.lock ? query.forUpdate() : query).executeTakeFirst();
}

export interface ProviderValues {
  provider: 'openai';
  /** Encrypted, or '' for none. */
  apiKey: string;
  baseUrl: string;
  model: string;
}

/** Creates the completion provider, or replaces its settings. */
export async function saveProvider(db: DB, values: ProviderValues, now: Date): Promise<void> {
  const row = { provider: values.provider, api_key: values.apiKey, base_url: values.baseUrl, model: values.model };
  await db
    .insertInto('ai_providers')
    .values({ kind: 'completion', ...row, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('kind').doUpdateSet({ ...row, updated_at: now }))
    .execute();
}

export async function deleteProvider(db: DB): Promise<boolean> {
  const result = await db.deleteFrom('ai_providers').where('kind', '=', 'completion').executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listPrompts(db: DB) {
  return db.selectFrom('ai_prompts').select(promptColumns).orderBy(sql`lower(title)`).orderBy('id').execute();
}

export async function findPrompt(db: DB, key: string, options: { lock?: boolean } = {}) {
  const query = db.selectFrom('ai_prompts').where('key', '=', key).select(promptColumns);
  return (options.lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function insertPrompt(db: DB, values: { key: string; title: string; content: string }, now: Date) {
  return db
    .insertInto('ai_prompts')
    .values({ ...values, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning(promptColumns)
    .executeTakeFirst();
}

export async function updatePrompt(db: DB, key: string, values: { title?: string; content: string }, now: Date) {
  return db
    .updateTable('ai_prompts')
    .set({ ...values, updated_at: now })
    .where('key', '=', key)
    .returning(promptColumns)
    .executeTakeFirst();
}

export async function deletePrompt(db: DB, key: string): Promise<boolean> {
  const result = await db.deleteFrom('ai_prompts').where('key', '=', key).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
