import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { auditActorOf, principalOf } from '../http/access.ts';
import { Envelope, errors, Nullable, ok, TrueEnvelope, PutBody } from '../http/schemas.ts';
import { complete, createAiClients } from './ai.completion.ts';
import {
  AiStatus,
  CompletionBody,
  PromptCreateBody,
  PromptKeyParams,
  PromptRecord,
  PromptUpdateBody,
  ProviderBody,
  ProviderRecord,
} from './ai.schema.ts';
import * as ai from './ai.service.ts';

/**
 * The per-agent limit on completions (AI_RATE_LIMIT_PER_MINUTE), counted by @fastify/rate-limit
 * (in Redis when configured, so shared by every instance). It runs as a preHandler: after the
 * access hook has set the principal the key is made from, and after validation, so a refused
 * body costs nothing.
 */
function completionRateLimit(deps: AppDeps) {
  const max = deps.config.aiRateLimitPerMinute;
  if (max === 0) return {};
  return {
    rateLimit: {
      max,
      timeWindow: 60_000,
      hook: 'preHandler' as const,
      keyGenerator: (request: FastifyRequest) => `ai-completion:${principalOf(request).userId}`,
    },
  };
}

export function aiRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['AI'];
    const clients = createAiClients();

    app.get(
      '/ai/provider',
      {
        config: { permission: 'ai:manage' },
        schema: {
          tags,
          summary: 'Show the AI provider',
          description: 'The OpenAI-compatible provider completions go to, its key masked; `null` when none is configured.',
          response: { 200: Envelope(Nullable(ProviderRecord)), ...errors(401, 403) },
        },
      },
      async () => ok(await ai.getProvider(deps)),
    );
    app.put(
      '/ai/provider',
      {
        config: { permission: 'ai:manage' },
        schema: {
          tags,
          summary: 'Set the AI provider',
          description:
            'Any OpenAI-compatible endpoint (OpenAI, Azure-compatible gateways, Ollama, vLLM, LM Studio). The key is stored encrypted and never answered; the mask keeps it. `base_url` and `model`, when left out, keep their stored values (defaults for a new provider).',
          body: PutBody(ProviderBody, ProviderRecord),
          response: { 200: TrueEnvelope, ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        await ai.saveProvider(deps, auditActorOf(request), request.body);
        return ok(true as const);
      },
    );
    app.delete(
      '/ai/provider',
      {
        config: { permission: 'ai:manage' },
        schema: {
          tags,
          summary: 'Remove the AI provider',
          description: 'Completions answer 400 until a provider is set again. 404 when none is configured.',
          response: { 200: TrueEnvelope, ...errors(401, 403, 404) },
        },
      },
      async (request) => {
        await ai.deleteProvider(deps, auditActorOf(request));
        return ok(true as const);
      },
    );

    app.get(
      '/ai/status',
      {
        schema: {
          tags,
          summary: 'Whether AI rewriting is available',
          description:
            '`enabled` is true when a provider is configured: the web app offers "Rewrite with AI" only then. Any signed-in agent may ask; the provider itself is `GET /ai/provider` (`ai:manage`).',
          response: { 200: Envelope(AiStatus), ...errors(401) },
        },
      },
      async () => ok({ enabled: (await ai.getProvider(deps)) !== null }),
    );
    app.get(
      '/ai/prompts',
      {
        schema: {
          tags,
          summary: 'List the AI prompts, by title',
          response: { 200: Envelope(Type.Array(PromptRecord)), ...errors(401) },
        },
      },
      async () => ok(await ai.listPrompts(deps)),
    );
    app.post(
      '/ai/prompts',
      {
        config: { permission: 'ai:manage' },
        schema: {
          tags,
          summary: 'Add an AI prompt',
          description: 'A custom prompt agents can pick besides the built-in ones. 409 when the key is taken.',
          body: PromptCreateBody,
          response: { 200: Envelope(PromptRecord), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => ok(await ai.createPrompt(deps, auditActorOf(request), request.body)),
    );
    app.put(
      '/ai/prompts/:key',
      {
        config: { permission: 'ai:manage' },
        schema: {
          tags,
          summary: "Change an AI prompt's text",
          description: 'The title is kept when left out.',
          params: PromptKeyParams,
          body: PutBody(PromptUpdateBody, PromptRecord),
          response: { 200: Envelope(PromptRecord), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await ai.updatePrompt(deps, auditActorOf(request), request.params.key, request.body)),
    );
    app.delete(
      '/ai/prompts/:key',
      {
        config: { permission: 'ai:manage' },
        schema: {
          tags,
          summary: 'Delete a custom AI prompt',
          description: 'The six built-in prompts cannot be deleted (422).',
          params: PromptKeyParams,
          response: { 200: TrueEnvelope, ...errors(401, 403, 404, 422) },
        },
      },
      async (request) => {
        await ai.deletePrompt(deps, auditActorOf(request), request.params.key);
        return ok(true as const);
      },
    );

    app.post(
      '/ai/completion',
      {
        config: { permission: 'messages:write', ...completionRateLimit(deps) },
        schema: {
          tags,
          summary: 'Rewrite a draft with an AI prompt',
          description:
            '`data` is the rewritten text. An HTML draft gets sanitised HTML back, plain text gets plain text. No provider or an unknown prompt key → 400; the provider failing or refusing → 502 NetworkException; no answer within AI_TIMEOUT_MS → 504. Limited per agent (AI_RATE_LIMIT_PER_MINUTE; 429 with Retry-After).',
          body: CompletionBody,
          response: { 200: Envelope(Type.String()), ...errors(400, 401, 403, 422, 429, 502, 504) },
        },
      },
      async (request) => ok(await complete(deps, clients, request.body)),
    );
  };
}
