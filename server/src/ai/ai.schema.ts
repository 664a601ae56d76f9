// Schemas of the AI writing helper (docs/api.md, "AI writing helper").
import { Type } from 'typebox';
import { DateTime, HttpUrl, StringEnum } from '../http/schemas.ts';
import { SECRET_MASK } from '../security/encryption.ts';

/** The protocol spoken to the provider: OpenAI's chat completions, which OpenAI, Ollama, vLLM, LM Studio and most gateways offer. */
export const AI_PROVIDER_KINDS = ['openai'] as const;
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MODEL = 'gpt-4o-mini';
export const API_KEY_MAX = 500;
export const MODEL_MAX = 200;
export const PROMPT_KEY_PATTERN = '^[a-z0-9_]{1,64}$';
export const PROMPT_TITLE_MAX = 100;
export const PROMPT_CONTENT_MAX = 4000;
export const COMPLETION_CONTENT_MAX = 20_000;

export const ProviderBody = Type.Object(
  {
    provider: StringEnum(AI_PROVIDER_KINDS, {
      description:
        '`openai`: the OpenAI-compatible chat completions protocol (OpenAI, Azure-compatible gateways, Ollama, vLLM, LM Studio…)',
    }),
    api_key: Type.String({
      maxLength: API_KEY_MAX,
      description: `The provider's API key, at most ${API_KEY_MAX} printable ASCII characters; stored encrypted and never answered. Send "${SECRET_MASK}" to keep the stored key; send "" for a server that needs no key (Ollama): no Authorization header is sent then.`,
    }),
    base_url: Type.Optional(
      HttpUrl({
        description: `Address of the OpenAI-compatible API, up to its version segment (e.g. \`http://localhost:11434/v1\` for Ollama); no query or fragment. May be a private or loopback address. Default \`${DEFAULT_BASE_URL}\`; when left out, the stored value is kept.`,
      }),
    ),
    model: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MODEL_MAX,
        description: `Model name, as the provider spells it. Default \`${DEFAULT_MODEL}\`; when left out, the stored value is kept.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const ProviderRecord = Type.Object(
  {
    provider: StringEnum(AI_PROVIDER_KINDS),
    base_url: Type.String(),
    model: Type.String(),
    api_key: Type.String({ description: `"${SECRET_MASK}" when a key is stored, "" when none` }),
    has_api_key: Type.Boolean(),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { title: 'AiProvider' },
);

export const PromptRecord = Type.Object(
  {
    id: Type.Integer(),
    key: Type.String(),
    title: Type.String(),
    content: Type.String({ description: 'The instruction given to the model, after a fixed preamble' }),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { title: 'AiPrompt' },
);

const PromptKey = Type.String({ pattern: PROMPT_KEY_PATTERN, description: 'Lowercase letters, digits and `_`, 1..64 characters' });

export const PromptKeyParams = Type.Object({ key: PromptKey });

const PromptTitle = Type.String({
  minLength: 1,
  maxLength: PROMPT_TITLE_MAX,
  description: `Trimmed, then 1..${PROMPT_TITLE_MAX} characters`,
});
const PromptContent = Type.String({
  minLength: 1,
  maxLength: PROMPT_CONTENT_MAX,
  description: `Plain text, trimmed, then 1..${PROMPT_CONTENT_MAX} characters`,
});

export const PromptUpdateBody = Type.Object({ title: Type.Optional(PromptTitle), content: PromptContent }, { additionalProperties: false });

export const PromptCreateBody = Type.Object(
  { key: PromptKey, title: PromptTitle, content: PromptContent },
  { additionalProperties: false },
);

export const CompletionBody = Type.Object(
  {
    prompt_key: Type.String({ minLength: 1, maxLength: 64, description: 'A key listed by `GET /api/v1/ai/prompts`' }),
    content: Type.String({
      minLength: 1,
      maxLength: COMPLETION_CONTENT_MAX,
      description: `The agent's draft, HTML or plain text, 1..${COMPLETION_CONTENT_MAX} characters`,
    }),
  },
  { additionalProperties: false },
);

export const AiStatus = Type.Object(
  { enabled: Type.Boolean({ description: 'True when an AI provider is configured' }) },
  { title: 'AiStatus' },
);
