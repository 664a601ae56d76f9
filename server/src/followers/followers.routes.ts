// Followers and the Mentions list (docs/api.md, "Working together").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { UuidParams } from '../conversations/conversations.schema.ts';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, ok, PageQuery, Paged, pageRequest } from '../http/schemas.ts';
import { FollowBody, Follower, FollowerParams, MentionedConversation } from './followers.schema.ts';
import { addFollower, conversationFollowers, removeFollower } from './followers.service.ts';
import { listMentioned } from './mentions.service.ts';

const READ_RULE =
  'The caller must be able to read the conversation (the conversation access rules); an unknown conversation or one the caller may not read is a 404.';
const OTHERS_RULE =
  'Changing another agent’s follow needs `conversations:update_user_assignee` (else 403); the caller’s own needs nothing more.';

export function followersRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Followers'];
    const followersResponse = { 200: Envelope(Type.Array(Follower)) };
    app.get(
      '/conversations/mentioned',
      {
        config: { permission: 'conversations:read' },
        schema: {
          tags,
          summary: 'Conversations the caller was mentioned in (paged)',
          description:
            'Newest mention first; each conversation once, with its newest mention (`mentioned_at`, `mention_message_uuid`). Only conversations the caller may still read are listed. `page` (default 1) and `page_size` (default 30, clamped to 1..100).',
          querystring: Type.Object(PageQuery),
          response: { 200: Envelope(Paged(MentionedConversation)), ...errors(400, 401, 403) },
        },
      },
      async (request) => ok(await listMentioned(deps, principalOf(request), pageRequest(request.query))),
    );
    app.get(
      '/conversations/:cuuid/followers',
      {
        config: { permission: 'conversations:read' },
        schema: {
          tags,
          summary: 'The agents following a conversation',
          description: `Oldest follower first. ${READ_RULE}`,
          params: UuidParams,
          response: { ...followersResponse, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await conversationFollowers(deps, principalOf(request), request.params.cuuid)),
    );
    app.post(
      '/conversations/:cuuid/followers',
      {
        config: { permission: 'conversations:read' },
        schema: {
          tags,
          summary: 'Follow a conversation, or add another agent as a follower',
          description: `Without \`agent_id\` the caller follows it. ${OTHERS_RULE} The agent must be able to read the conversation (else 422). Answers the followers. ${READ_RULE}`,
          params: UuidParams,
          body: FollowBody,
          response: { ...followersResponse, ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => ok(await addFollower(deps, principalOf(request), request.params.cuuid, request.body.agent_id)),
    );
    app.delete(
      '/conversations/:cuuid/followers/:agent_id',
      {
        config: { permission: 'conversations:read' },
        schema: {
          tags,
          summary: 'Stop following a conversation, or remove another agent',
          description: `${OTHERS_RULE} An agent who does not follow it is no error. Answers the followers. ${READ_RULE}`,
          params: FollowerParams,
          response: { ...followersResponse, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await removeFollower(deps, principalOf(request), request.params.cuuid, request.params.agent_id)),
    );
  };
}
