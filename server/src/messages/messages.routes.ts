import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UuidParams } from '../conversations/conversations.schema.ts';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, ok, Paged, pageRequest } from '../http/schemas.ts';
import { IdempotencyHeaders, Message, MessageListQuery, MessageParams, SendMessageBody } from './messages.schema.ts';
import * as messages from './messages.service.ts';

export function messagesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Messages'];
    app.get(
      '/conversations/:cuuid/messages',
      {
        config: { permission: 'messages:read' },
        schema: {
          tags,
          summary: "A conversation's messages, newest first (paged)",
          description: 'Includes private notes and activity messages. Conversation access rules apply (contract §3).',
          params: UuidParams,
          querystring: MessageListQuery,
          response: { 200: Envelope(Paged(Message)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const page = pageRequest(request.query);
        return ok(await messages.listMessages(deps, principalOf(request), request.params.cuuid, page));
      },
    );
    app.get(
      '/conversations/:cuuid/messages/:uuid',
      {
        config: { permission: 'messages:read' },
        schema: {
          tags,
          summary: 'Get one message',
          description: 'A message of another conversation is a 404.',
          params: MessageParams,
          response: { 200: Envelope(Message), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await messages.getMessage(deps, principalOf(request), request.params.cuuid, request.params.uuid)),
    );
    app.post(
      '/conversations/:cuuid/messages',
      {
        config: { permission: 'messages:write' },
        schema: {
          tags,
          summary: 'Send a reply or add a private note',
          description:
            'HTML is sanitised and `text_content` derived from it. A reply starts `pending` and becomes `sent` or `failed` when the channel delivers it; a private note is `sent` at once. Send `Idempotency-Key` to make retries safe: a retry with the same key (within 24 h) returns the first message; the same key with a different request is a 422.',
          params: UuidParams,
          headers: IdempotencyHeaders,
          body: SendMessageBody,
          response: { 200: Envelope(Message), ...errors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => ok(await messages.sendMessage(deps, principalOf(request), request.params.cuuid, request.body, request.headers['idempotency-key'])),
    );
  };
}
