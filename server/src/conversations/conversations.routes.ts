import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, ok, Paged, pageRequest } from '../http/schemas.ts';
import {
  AssigneeBody,
  Conversation,
  ConversationListItem,
  ConversationListQuery,
  CreateConversationBody,
  PriorityBody,
  StatusBody,
  TagsBody,
  TeamIdParams,
  UuidParams,
} from './conversations.schema.ts';
import * as conversations from './conversations.service.ts';

const LIST_DESCRIPTION =
  'Filters (repeat a parameter for several values): `status`, `priority`, `tag` (names, case-insensitive; unknown → 400), `inbox_id`, `team_id`, `assignee_id`. Order: `order_by` = last_message_at (default) | created_at | updated_at | waiting_since, `order` = desc (default) | asc; id breaks ties.';

export function conversationsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Conversations'];
    const listResponse = { 200: Envelope(Paged(ConversationListItem)), ...errors(400, 401, 403) };
    const list = (request: FastifyRequest, query: Static<typeof ConversationListQuery>, kind: conversations.ListKind) =>
      conversations.listConversations(deps, principalOf(request), kind, query, pageRequest(query));

    app.get(
      '/conversations/all',
      {
        config: { permission: 'conversations:read_all' },
        schema: { tags, summary: 'Every conversation (paged)', description: LIST_DESCRIPTION, querystring: ConversationListQuery, response: listResponse },
      },
      async (request) => ok(await list(request, request.query, { kind: 'all' })),
    );
    app.get(
      '/conversations/assigned',
      {
        config: { permission: 'conversations:read_assigned' },
        schema: {
          tags,
          summary: 'Conversations assigned to the caller (paged)',
          description: `\`page\` (default 1) and \`page_size\` (default 30, clamped to 1..100). ${LIST_DESCRIPTION}`,
          querystring: ConversationListQuery,
          response: listResponse,
        },
      },
      async (request) => ok(await list(request, request.query, { kind: 'assigned' })),
    );
    app.get(
      '/conversations/unassigned',
      {
        config: { permission: 'conversations:read_unassigned' },
        schema: { tags, summary: 'Conversations with no agent assigned (paged)', description: LIST_DESCRIPTION, querystring: ConversationListQuery, response: listResponse },
      },
      async (request) => ok(await list(request, request.query, { kind: 'unassigned' })),
    );
    app.get(
      '/teams/:id/conversations/unassigned',
      {
        config: { serviceRule: 'team_inbox' },
        schema: {
          tags,
          summary: "A team's conversations with no agent assigned (paged)",
          description: `Needs \`conversations:read_team_inbox\` and membership of the team, or \`conversations:read_all\`. ${LIST_DESCRIPTION}`,
          params: TeamIdParams,
          querystring: ConversationListQuery,
          response: { ...listResponse, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await list(request, request.query, { kind: 'team_unassigned', teamId: request.params.id })),
    );
    app.post(
      '/conversations',
      {
        config: { permission: 'conversations:write' },
        schema: { tags, summary: 'Start a conversation', body: CreateConversationBody, response: { 200: Envelope(Conversation), ...errors(400, 401, 403, 422) } },
      },
      async (request) => ok(await conversations.createConversation(deps, principalOf(request), request.body)),
    );
    app.get(
      '/conversations/:cuuid',
      {
        config: { serviceRule: 'conversation' },
        schema: {
          tags,
          summary: 'Get a conversation',
          description: 'Conversation access rules apply (contract §3): 404 unknown, 403 not yours to read.',
          params: UuidParams,
          response: { 200: Envelope(Conversation), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await conversations.getConversation(deps, principalOf(request), request.params.cuuid)),
    );

    const changeResponse = { 200: Envelope(Conversation), ...errors(400, 401, 403, 404, 422) };

    app.put(
      '/conversations/:cuuid/status',
      {
        config: { permission: 'conversations:update_status' },
        schema: {
          tags,
          summary: 'Set the status (by name); snooze with snoozed_until',
          description: 'Unknown status → 400. `snoozed_until` only with a waiting status; required for Snoozed. A snoozed conversation opens again at that time.',
          params: UuidParams,
          body: StatusBody,
          response: changeResponse,
        },
      },
      async (request) =>
        ok(await conversations.changeConversation(deps, principalOf(request), request.params.cuuid, { status: { name: request.body.status, snoozedUntil: request.body.snoozed_until } })),
    );
    app.put(
      '/conversations/:cuuid/priority',
      {
        config: { permission: 'conversations:update_priority' },
        schema: { tags, summary: 'Set the priority (by name)', params: UuidParams, body: PriorityBody, response: changeResponse },
      },
      async (request) => ok(await conversations.changeConversation(deps, principalOf(request), request.params.cuuid, { priority: request.body.priority })),
    );
    app.put(
      '/conversations/:cuuid/assignee/user',
      {
        config: { permission: 'conversations:update_user_assignee' },
        schema: { tags, summary: 'Assign an agent', params: UuidParams, body: AssigneeBody, response: changeResponse },
      },
      async (request) => ok(await conversations.changeConversation(deps, principalOf(request), request.params.cuuid, { userAssignee: request.body.assignee_id })),
    );
    app.put(
      '/conversations/:cuuid/assignee/team',
      {
        config: { permission: 'conversations:update_team_assignee' },
        schema: {
          tags,
          summary: 'Assign a team',
          description: 'An assigned agent who is not a member of the new team is unassigned; a round-robin team then gives the conversation to its next available agent.',
          params: UuidParams,
          body: AssigneeBody,
          response: changeResponse,
        },
      },
      async (request) => ok(await conversations.changeConversation(deps, principalOf(request), request.params.cuuid, { teamAssignee: request.body.assignee_id })),
    );
    app.put(
      '/conversations/:cuuid/assignee/user/remove',
      {
        config: { permission: 'conversations:update_user_assignee' },
        schema: { tags, summary: 'Remove the assigned agent', params: UuidParams, response: changeResponse },
      },
      async (request) => ok(await conversations.changeConversation(deps, principalOf(request), request.params.cuuid, { userAssignee: null })),
    );
    app.put(
      '/conversations/:cuuid/assignee/team/remove',
      {
        config: { permission: 'conversations:update_team_assignee' },
        schema: { tags, summary: 'Remove the assigned team', params: UuidParams, response: changeResponse },
      },
      async (request) => ok(await conversations.changeConversation(deps, principalOf(request), request.params.cuuid, { teamAssignee: null })),
    );
    app.post(
      '/conversations/:cuuid/tags',
      {
        config: { permission: 'conversations:update_tags' },
        schema: {
          tags,
          summary: 'Add, remove or set tags',
          description: '`action` add_tags (default) | remove_tags | set_tags. Tag names are matched case-insensitively; an unknown name is a 400.',
          params: UuidParams,
          body: TagsBody,
          response: changeResponse,
        },
      },
      async (request) =>
        ok(
          await conversations.changeConversation(deps, principalOf(request), request.params.cuuid, {
            tags: { action: request.body.action ?? 'add_tags', names: request.body.tags },
          }),
        ),
    );
    app.put(
      '/conversations/:cuuid/last-seen',
      {
        config: { serviceRule: 'conversation' },
        schema: { tags, summary: 'Mark the conversation as seen by the caller', params: UuidParams, response: { 200: Envelope(Conversation), ...errors(401, 403, 404) } },
      },
      async (request) => ok(await conversations.markSeen(deps, principalOf(request), request.params.cuuid)),
    );
    app.put(
      '/conversations/:cuuid/mark-unread',
      {
        config: { serviceRule: 'conversation' },
        schema: {
          tags,
          summary: 'Mark the newest message from the contact as unread for the caller',
          params: UuidParams,
          response: { 200: Envelope(Conversation), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await conversations.markUnread(deps, principalOf(request), request.params.cuuid)),
    );
  };
}
