import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, Nullable, ok, PutBody, TrueEnvelope } from '../http/schemas.ts';
import { ColleagueDraft, Draft, DraftBody, DraftParams } from './drafts.schema.ts';
import * as drafts from './drafts.service.ts';

/**
 * The web app saves a draft about once a second while the agent types (debounced): 120 a
 * minute per agent leaves room for a few tabs and refuses a loop. Counted after authentication
 * and validation (preHandler), per agent, shared by the instances when Redis is configured.
 */
export const DRAFT_SAVES_PER_MINUTE = 120;

const saveRateLimit = {
  rateLimit: {
    max: DRAFT_SAVES_PER_MINUTE,
    timeWindow: 60_000,
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => `draft-save:${principalOf(request).userId}`,
  },
};

const ACCESS = 'A conversation that is unknown, or that the caller may not read, is a 404.';

export function draftsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Drafts'];
    app.get(
      '/conversations/:cuuid/draft',
      {
        config: { serviceRule: 'conversation_draft' },
        schema: {
          tags,
          summary: "The caller's draft of a conversation",
          description: `What the caller was writing, from any device; \`null\` when there is none. ${ACCESS}`,
          params: DraftParams,
          response: { 200: Envelope(Nullable(Draft)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await drafts.getDraft(deps, principalOf(request), request.params.cuuid)),
    );
    app.put(
      '/conversations/:cuuid/draft',
      {
        bodyLimit: 512 * 1024,
        config: { serviceRule: 'conversation_draft', ...saveRateLimit },
        schema: {
          tags,
          summary: "Save the caller's draft of a conversation",
          description: `Replaces the whole draft. \`content\` is sanitised like a message; \`attachments\` must be the caller's own uploads not attached to a message yet (else 400). A draft with no text, image or attachment is deleted and the answer is \`null\`. At most ${DRAFT_SAVES_PER_MINUTE} saves a minute per agent (429). Sending a message in the conversation deletes the sender's draft; a draft not updated for 15 days is deleted. ${ACCESS}`,
          params: DraftParams,
          body: PutBody(DraftBody, Draft),
          response: { 200: Envelope(Nullable(Draft)), ...errors(400, 401, 403, 404, 429) },
        },
      },
      async (request) => ok(await drafts.putDraft(deps, principalOf(request), request.params.cuuid, request.body)),
    );
    app.delete(
      '/conversations/:cuuid/draft',
      {
        config: { serviceRule: 'conversation_draft' },
        schema: {
          tags,
          summary: "Delete the caller's draft of a conversation",
          description: `Answers \`true\` whether or not there was one. ${ACCESS}`,
          params: DraftParams,
          response: { 200: TrueEnvelope, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await drafts.deleteDraft(deps, principalOf(request), request.params.cuuid);
        return ok(true as const);
      },
    );
    app.get(
      '/conversations/:cuuid/drafts',
      {
        config: { serviceRule: 'conversation_draft' },
        schema: {
          tags,
          summary: "The other agents' drafts of a conversation",
          description: `Who else is writing in the conversation and when they last saved, newest first; never the content. ${ACCESS}`,
          params: DraftParams,
          response: { 200: Envelope(Type.Array(ColleagueDraft)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await drafts.listColleagueDrafts(deps, principalOf(request), request.params.cuuid)),
    );
  };
}
