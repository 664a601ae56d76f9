// An AI completion (docs/api.md, "AI writing helper"): the agent's draft and a prompt go to the
// configured OpenAI-compatible provider through the official `openai` package; the answer
// comes back as the same kind of content (HTML sanitised like a message, or plain text).
// Neither the key nor the content is ever logged.
import type OpenAI from 'openai';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError, NetworkError } from '../errors.ts';
import { sanitizeBounded } from '../messages/messages.content.ts';
import { DecryptionError, decryptSecret } from '../security/encryption.ts';
import * as q from './ai.queries.ts';
import { DEFAULT_BASE_URL, DEFAULT_MODEL } from './ai.schema.ts';

/** What every completion is told before the prompt's own instruction. */
export const PREAMBLE = [
  "You rewrite a customer-support agent's draft reply to a customer, following the instruction below.",
  'Return only the rewritten reply: no introduction, no explanation, no quotation marks, no code fences.',
  'Write in the language of the draft. Keep names, links, numbers and facts as they are unless the instruction says otherwise.',
].join(' ');
const HTML_FORMAT =
  'The draft is an HTML fragment: answer with an HTML fragment using the same kind of markup (paragraphs, line breaks, lists, links, emphasis).';
const TEXT_FORMAT = 'The draft is plain text: answer in plain text, without HTML or Markdown.';

/** An answer longer than this is not a rewritten reply: refused as a provider fault. */
const MAX_ANSWER_LENGTH = 200_000;
const HTML_TAG = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/i;
/** One code fence around the whole answer (```html … ```), as chat models like to add. */
const WHOLE_FENCE = /^```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;
/** A provider's error code, shown when it is a plain identifier (never its free-text message, which may quote the key). */
const ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

interface CachedClient {
  fingerprint: string;
  client: OpenAI;
}

/**
 * The provider's client, made once per configuration and reused (its HTTP connections with
 * it) until the stored key or base URL changes. One per app, created by the AI routes.
 */
export interface AiClients {
  clientFor(deps: AppDeps, provider: { api_key: string; base_url: string }): Promise<OpenAI>;
}

/** The package, loaded on the first completion: an installation without AI never holds it in memory (~18 MB). */
const openaiPackage = async () => (await import('openai')).default;

export function createAiClients(): AiClients {
  let cached: CachedClient | null = null;
  return {
    async clientFor(deps, provider) {
      const OpenAIClient = await openaiPackage();
      // The stored key is encrypted with a fresh IV on every save: a new save, a new client.
      const fingerprint = `${provider.api_key}\n${provider.base_url}`;
      if (cached?.fingerprint === fingerprint) return cached.client;
      let apiKey = '';
      if (provider.api_key !== '') {
        try {
          apiKey = decryptSecret(deps.config.secretKey, provider.api_key);
        } catch (error) {
          if (!(error instanceof DecryptionError)) throw error;
          throw new DataError(
            'The stored AI provider key cannot be read (was SECRET_KEY changed?): an administrator sets it again with PUT /api/v1/ai/provider',
          );
        }
      }
      const client = new OpenAIClient({
        // The package insists on a key; without one, the Authorization header is dropped below.
        apiKey: apiKey === '' ? 'none' : apiKey,
        baseURL: provider.base_url,
        // Explicit, so that the package reads none of its OPENAI_* variables for them.
        organization: null,
        project: null,
        ...(apiKey === '' ? { defaultHeaders: { Authorization: null } } : {}),
        timeout: deps.config.aiTimeoutMs,
        // No retries: an agent is waiting, and AI_TIMEOUT_MS bounds the whole call.
        maxRetries: 0,
        logLevel: 'off',
      });
      cached = { fingerprint, client };
      return client;
    },
  };
}

/** Whether the draft is HTML (it contains a tag), so that the answer is HTML too. */
export function isHtml(content: string): boolean {
  return HTML_TAG.test(content);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Plain text as HTML: paragraphs at blank lines, line breaks within them. */
function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** The model's answer as the caller gets it: one whole-answer fence removed; HTML sanitised for an HTML draft. */
export function shapeAnswer(answer: string, html: boolean): string {
  let text = answer.replace(/\r\n?/g, '\n').trim();
  const fenced = WHOLE_FENCE.exec(text);
  if (fenced) text = (fenced[1] ?? '').trim();
  if (text === '') throw new NetworkError('The AI provider returned an empty answer');
  if (!html) return text;
  const clean = HTML_TAG.test(text) ? sanitizeBounded(text) : textToHtml(text);
  if (clean === null) throw new NetworkError('The AI provider returned HTML nested too deeply');
  if (clean === '') throw new NetworkError('The AI provider returned nothing that can be shown once sanitised');
  return clean;
}

/** A provider failure as the caller sees it: 502, or 504 for the time limit. Logged by status and code only. */
async function providerFailure(deps: AppDeps, error: unknown, timedOut: boolean): Promise<NetworkError> {
  const OpenAI = await openaiPackage();
  const seconds = Math.round(deps.config.aiTimeoutMs / 100) / 10;
  if (timedOut || error instanceof OpenAI.APIConnectionTimeoutError) {
    deps.log.warn({ timeoutMs: deps.config.aiTimeoutMs }, 'AI completion timed out');
    return new NetworkError(`The AI provider did not answer within ${seconds} s (AI_TIMEOUT_MS)`, true);
  }
  if (error instanceof OpenAI.APIConnectionError) {
    deps.log.warn('AI completion: the provider could not be reached');
    return new NetworkError('The AI provider could not be reached: check its base URL');
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const code = typeof error.code === 'string' && ERROR_CODE.test(error.code) ? error.code : null;
    deps.log.warn({ status: error.status, code }, 'AI completion: the provider refused the request');
    const detail = `HTTP ${error.status}${code ? `, ${code}` : ''}`;
    if (error.status === 401 || error.status === 403) {
      return new NetworkError(`The AI provider refused the API key (${detail}): an administrator checks it in the AI provider settings`);
    }
    if (error.status === 429) return new NetworkError(`The AI provider is rate limiting or out of quota (${detail}); try again later`);
    if (error.status === 404) return new NetworkError(`The AI provider does not know this model or address (${detail})`);
    if (error.status >= 500) return new NetworkError(`The AI provider failed (${detail})`);
    return new NetworkError(`The AI provider refused the request (${detail})`);
  }
  // A 2xx that is not JSON, or not a chat completion.
  deps.log.warn({ err: error instanceof Error ? error.name : typeof error }, 'AI completion: unreadable answer');
  return new NetworkError('The AI provider sent an answer that is not a chat completion');
}

/** The generated text of a chat completion, checked rather than trusted. */
function answerText(completion: unknown): string {
  if (typeof completion !== 'object' || completion === null)
    throw new NetworkError('The AI provider sent an answer that is not a chat completion');
  const choices: unknown = Reflect.get(completion, 'choices');
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message: unknown = typeof first === 'object' && first !== null ? Reflect.get(first, 'message') : undefined;
  const content: unknown = typeof message === 'object' && message !== null ? Reflect.get(message, 'content') : undefined;
  if (typeof content !== 'string') throw new NetworkError('The AI provider sent an answer without text');
  if (content.length > MAX_ANSWER_LENGTH) throw new NetworkError('The AI provider sent an answer too long to be a reply');
  return content;
}

export async function complete(deps: AppDeps, clients: AiClients, input: { prompt_key: string; content: string }): Promise<string> {
  if (input.content.trim() === '') throw InputError.field('content', 'must not be empty');
  const prompt = await q.findPrompt(deps.db, input.prompt_key);
  if (!prompt) {
    throw InputError.field('prompt_key', `unknown prompt ${JSON.stringify(input.prompt_key)}; GET /api/v1/ai/prompts lists them`);
  }
  const provider = await q.findProvider(deps.db);
  if (!provider) {
    throw new InputError('No AI provider is configured: an administrator sets one in the AI provider settings (PUT /api/v1/ai/provider)');
  }
  const html = isHtml(input.content);
  const client = await clients.clientFor(deps, { api_key: provider.api_key, base_url: provider.base_url ?? DEFAULT_BASE_URL });
  // The package's timeout covers the wait for the answer's headers; this one the whole call, body included.
  const deadline = AbortSignal.timeout(deps.config.aiTimeoutMs);
  let completion: unknown;
  try {
    completion = await client.chat.completions.create(
      {
        model: provider.model ?? DEFAULT_MODEL,
        messages: [
          { role: 'system', content: `${PREAMBLE} ${html ? HTML_FORMAT : TEXT_FORMAT}\n\n${prompt.content}` },
          { role: 'user', content: input.content },
        ],
      },
      { signal: deadline },
    );
  } catch (error) {
    throw await providerFailure(deps, error, deadline.aborted);
  }
  return shapeAnswer(answerText(completion), html);
}
