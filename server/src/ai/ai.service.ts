// The AI writing helper's settings (docs/api.md, "AI writing helper"): the provider, whose
// key is encrypted at rest and never answered, and the prompts agents pick from.
import { type AuditActor, type AuditChanges, changesBetween, recordAudit } from '../audit/audit.service.ts';
import type { DB } from '../db/database.ts';
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

/** What the provider's entries show; the key is compared encrypted (a kept key is no change) and masked. */
const PROVIDER_FIELDS = ['provider', 'base_url', 'model', 'api_key'] as const;
const PROMPT_FIELDS = ['key', 'title', 'content'] as const;

type AiAction = 'ai.updated' | 'ai.deleted' | 'ai.prompt_created' | 'ai.prompt_updated' | 'ai.prompt_deleted';

/** Writes the entry; a change that changed nothing writes none. */
async function auditAi(
  deps: AppDeps,
  trx: DB,
  actor: AuditActor,
  action: AiAction,
  resource: { type: 'ai' | 'ai_prompt'; id: number; name: string },
  changes: AuditChanges,
): Promise<void> {
  if ((action === 'ai.updated' || action === 'ai.prompt_updated') && Object.keys(changes).length === 0) return;
  await recordAudit(trx, actor, { action, resource, changes }, deps.clock.now());
}

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
export async function saveProvider(deps: AppDeps, actor: AuditActor, input: ProviderInput): Promise<void> {
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
    const saved = await q.findProvider(trx);
    if (saved) {
      const resource = { type: 'ai', id: saved.id, name: saved.provider } as const;
      await auditAi(deps, trx, actor, 'ai.updated', resource, changesBetween(stored, saved, PROVIDER_FIELDS));
    }
  });
}

export async function deleteProvider(deps: AppDeps, actor: AuditActor): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const stored = await q.findProvider(trx, { lock: true });
    if (!stored || !(await q.deleteProvider(trx))) throw new NotFoundError('No AI provider is configured');
    const resource = { type: 'ai', id: stored.id, name: stored.provider } as const;
    await auditAi(deps, trx, actor, 'ai.deleted', resource, changesBetween(stored, null, PROVIDER_FIELDS));
  });
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

const promptResource = (prompt: { id: number; title: string }) => ({ type: 'ai_prompt', id: prompt.id, name: prompt.title }) as const;

export async function updatePrompt(deps: AppDeps, actor: AuditActor, key: string, input: { title?: string; content: string }) {
  const values = {
    ...(input.title === undefined ? {} : { title: cleanTitle(input.title) }),
    content: cleanText(input.content, 'content', PROMPT_CONTENT_MAX),
  };
  return deps.db.transaction().execute(async (trx) => {
    const before = await q.findPrompt(trx, key, { lock: true });
    const prompt = before && (await q.updatePrompt(trx, key, values, deps.clock.now()));
    if (!prompt) throw new NotFoundError(`AI prompt "${key}" not found`);
    await auditAi(deps, trx, actor, 'ai.prompt_updated', promptResource(prompt), changesBetween(before, prompt, PROMPT_FIELDS));
    return prompt;
  });
}

export async function createPrompt(deps: AppDeps, actor: AuditActor, input: { key: string; title: string; content: string }) {
  const values = { key: input.key, title: cleanTitle(input.title), content: cleanText(input.content, 'content', PROMPT_CONTENT_MAX) };
  return deps.db.transaction().execute(async (trx) => {
    const prompt = await q.insertPrompt(trx, values, deps.clock.now());
    if (!prompt) throw new ConflictError(`AI prompt "${input.key}" already exists`);
    await auditAi(deps, trx, actor, 'ai.prompt_created', promptResource(prompt), changesBetween(null, prompt, PROMPT_FIELDS));
    return prompt;
  });
}

export async function deletePrompt(deps: AppDeps, actor: AuditActor, key: string): Promise<void> {
  if (BUILT_IN_PROMPT_KEYS.includes(key)) throw new DataError(`AI prompt "${key}" is built in: edit its text instead of deleting it`);
  await deps.db.transaction().execute(async (trx) => {
    const before = await q.findPrompt(trx, key, { lock: true });
    if (!before || !(await q.deletePrompt(trx, key))) throw new NotFoundError(`AI prompt "${key}" not found`);
    await auditAi(deps, trx, actor, 'ai.prompt_deleted', promptResource(before), changesBetween(before, null, PROMPT_FIELDS));
  });
}
