// The AI writing helper's settings (docs/api.md, "AI writing helper"): the provider, whose
// key is encrypted at rest and never answered, and the prompts agents pick from.
import type { AppDeps } from '../deps.ts';
import { ConflictError, DataError, InputError, NotFoundError } from '../errors.ts';
import { encryptSecret, SECRET_MASK } from '../security/encryption.ts';
import * as q from './ai.queries.ts';
import { DEFAULT_BASE_URL, DEFAULT_MODEL, PROMPT_CONTENT_MAX, PROMPT_TITLE_MAX } from './ai.schema.ts';

/** The prompts of the contract: they can be edited, never deleted. */
export const BUILT_IN_PROMPT_KEYS: readonly string[] = [
  'make_friendly',
  'make_concise',
  'add_empathy',
  'adjust_positive_tone',
  'make_professional',
  'fix_grammar_spelling',
];

/** Keys travel in an Authorization header: printable ASCII, no spaces. */
const API_KEY_CHARACTERS = /^[\x21-\x7e]*$/;
/** Control, format and unassigned code points, and line or paragraph separators. */
const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;

export interface ProviderInput {
  provider: 'openai';
  api_key: string;
  base_url?: string;
  model?: string;
}

function providerView(row: NonNullable<Awaited<ReturnType<typeof q.findProvider>>>) {
  return {
    provider: row.provider,
    base_url: row.base_url ?? DEFAULT_BASE_URL,
    model: row.model ?? DEFAULT_MODEL,
    api_key: row.api_key === '' ? '' : SECRET_MASK,
    has_api_key: row.api_key !== '',
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function getProvider(deps: AppDeps) {
  const row = await q.findProvider(deps.db);
  return row ? providerView(row) : null;
}

/** An absolute http(s) URL (the schema checked that) without query or fragment, and without trailing slashes. */
function cleanBaseUrl(raw: string): string {
  const url = new URL(raw);
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
    throw InputError.field('base_url', 'must not have a query string or fragment');
  }
  return raw.replace(/\/+$/, '');
}

function cleanModel(raw: string): string {
  const model = raw.trim();
  if (model === '') throw InputError.field('model', 'must not be empty');
  if (UNPRINTABLE.test(model)) throw InputError.field('model', 'must not contain control characters');
  return model;
}

/**
 * Creates or changes the provider. The mask keeps the stored key, unless base_url changes (a kept
 * key never goes to another server); base_url and model, when left out, keep their stored values
 * (the defaults for a new provider).
 */
export async function saveProvider(deps: AppDeps, input: ProviderInput): Promise<void> {
  const keepKey = input.api_key === SECRET_MASK;
  if (!keepKey && !API_KEY_CHARACTERS.test(input.api_key)) {
    throw InputError.field('api_key', 'must be printable ASCII characters without spaces');
  }
  const baseUrl = input.base_url === undefined ? undefined : cleanBaseUrl(input.base_url);
  const model = input.model === undefined ? undefined : cleanModel(input.model);
  await deps.db.transaction().execute(async (trx) => {
    const stored = await q.findProvider(trx, { lock: true });
    let apiKey: string;
    if (keepKey) {
      if (!stored || stored.api_key === '') {
        throw InputError.field('api_key', 'no key is stored yet: send the key itself (or "" for a server that needs none)');
      }
      if (baseUrl !== undefined && baseUrl !== (stored.base_url ?? DEFAULT_BASE_URL)) {
        throw InputError.field('api_key', 'must be sent again when base_url changes: the stored key only goes to its server');
      }
      apiKey = stored.api_key;
    } else apiKey = input.api_key === '' ? '' : encryptSecret(deps.config.secretKey, input.api_key);
    await q.saveProvider(
      trx,
      {
        provider: input.provider,
        apiKey,
        baseUrl: baseUrl ?? stored?.base_url ?? DEFAULT_BASE_URL,
        model: model ?? stored?.model ?? DEFAULT_MODEL,
      },
      deps.clock.now(),
    );
  });
}

export async function deleteProvider(deps: AppDeps): Promise<void> {
  if (!(await q.deleteProvider(deps.db))) throw new NotFoundError('No AI provider is configured');
}

export async function listPrompts(deps: AppDeps) {
  return q.listPrompts(deps.db);
}

function cleanText(raw: string, field: string, max: number): string {
  const text = raw.replace(/\r\n?/g, '\n').trim();
  if (text === '') throw InputError.field(field, 'must not be empty');
  if ([...text].length > max) throw InputError.field(field, `must be at most ${max} characters`);
  return text;
}

function cleanTitle(raw: string): string {
  const title = cleanText(raw, 'title', PROMPT_TITLE_MAX);
  if (UNPRINTABLE.test(title)) throw InputError.field('title', 'must be one line without control characters');
  return title;
}

export async function updatePrompt(deps: AppDeps, key: string, input: { title?: string; content: string }) {
  const values = {
    ...(input.title === undefined ? {} : { title: cleanTitle(input.title) }),
    content: cleanText(input.content, 'content', PROMPT_CONTENT_MAX),
  };
  const prompt = await q.updatePrompt(deps.db, key, values, deps.clock.now());
  if (!prompt) throw new NotFoundError(`AI prompt "${key}" not found`);
  return prompt;
}

export async function createPrompt(deps: AppDeps, input: { key: string; title: string; content: string }) {
  const values = { key: input.key, title: cleanTitle(input.title), content: cleanText(input.content, 'content', PROMPT_CONTENT_MAX) };
  const prompt = await q.insertPrompt(deps.db, values, deps.clock.now());
  if (!prompt) throw new ConflictError(`AI prompt "${input.key}" already exists`);
  return prompt;
}

export async function deletePrompt(deps: AppDeps, key: string): Promise<void> {
  if (BUILT_IN_PROMPT_KEYS.includes(key)) throw new DataError(`AI prompt "${key}" is built in: edit its text instead of deleting it`);
  if (!(await q.deletePrompt(deps.db, key))) throw new NotFoundError(`AI prompt "${key}" not found`);
}
