import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, Nullable, ok, Paged, pageRequest, sendJsonText } from '../http/schemas.ts';
import { IdempotencyHeaders, Message, MessageListQuery, MessageParams, SendMessageBody } from '../messages/messages.schema.ts';
import { changeConversation, markSeen, markUnread } from './conversations.changes.ts';
import { createConversation } from './conversations.create.ts';
import { type AfterAgentMessage, getMessage, listMessages, sendMessage } from './conversations.messages.ts';
import { getConversation, type ListKind, listConversations } from './conversations.read.ts';
import { getConversationSla, setConversationSla } from './conversations.sla.ts';
import { AppliedSlaRecord, ApplySlaBody } from '../sla/sla.schema.ts';
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
  ViewCounts,
} from './conversations.schema.ts';
import { viewCounts } from './conversations.views.ts';

const LIST_DESCRIPTION =
  '`page` (default 1) and `page_size` (default 30, clamped to 1..100). Filters (repeat a parameter for several values): `status`, `priority`, `tag` (names, case-insensitive; unknown → 400), `inbox_id`, `team_id`, `assignee_id`, `contact_id`. Order: `order_by` = last_message_at (default) | created_at | updated_at | waiting_since | next_sla_deadline_at (nulls last in both directions), `order` = desc (default) | asc; id breaks ties.';

export function conversationsRoutes(deps: AppDeps, after: AfterAgentMessage): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Conversations'];
    const listResponse = { 200: Envelope(Paged(ConversationListItem)), ...errors(400, 401, 403) };
    const list = (request: FastifyRequest, query: Static<typeof ConversationListQuery>, kind: ListKind) =>
      listConversations(deps, principalOf(request), kind, query, pageRequest(query));

    const ownLists = [
      { path: '/conversations/all', permission: 'conversations:read_all', summary: 'Every conversation (paged)', kind: { kind: 'all' } },
      {
        path: '/conversations/assigned',
        permission: 'conversations:read_assigned',
        summary: 'Conversations assigned to the caller (paged)',
        kind: { kind: 'assigned' },
      },
      {
        path: '/conversations/unassigned',
        permission: 'conversations:read_unassigned',
        summary: 'Conversations with no agent assigned (paged)',
        kind: { kind: 'unassigned' },
      },
    ] as const;
    for (const { path, permission, summary, kind } of ownLists) {
      app.get(
        path,
        {
          config: { permission },
          schema: { tags, summary, description: LIST_DESCRIPTION, querystring: ConversationListQuery, response: listResponse },
        },
        async (request, reply) => sendJsonText(reply, await list(request, request.query, kind)),
      );
    }
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
      async (request, reply) =>
        sendJsonText(reply, await list(request, request.query, { kind: 'team_unassigned', teamId: request.params.id })),
    );
    app.get(
      '/conversations/counts',
      {
        config: { permission: 'conversations:read' },
        schema: {
          tags,
          summary: "The caller's views with their open and unread conversations (the navigation's badges)",
          description:
            'Per view (mine, unassigned, all, each team, each inbox): open conversations and, of those, the ones with unread messages from the contact for the caller. A view the caller may not read (the permissions of its list) is null or not listed. Each count stops at `cap` + 1.',
          response: { 200: Envelope(ViewCounts), ...errors(401, 403) },
        },
      },
      async (request) => ok(await viewCounts(deps, principalOf(request))),
    );
    app.post(
      '/conversations',
      {
        config: { permission: 'conversations:write' },
        schema: {
          tags,
          summary: 'Start a conversation',
          description:
            'An existing contact, named by `contact_id` or by `contact_email`, must be readable by the caller (the contact access rule): an unknown `contact_id` is 404, a contact the caller may not read is 403 (by id or by email; no duplicate contact is made).',
          body: CreateConversationBody,
          response: { 200: Envelope(Conversation), ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => ok(await createConversation(deps, principalOf(request), request.body)),
    );
    app.get(
      '/conversations/:cuuid',
      {
        config: { serviceRule: 'conversation' },
        schema: {
          tags,
          summary: 'Get a conversation',
          description: 'Conversation access rules apply: 404 unknown, 403 not yours to read.',
          params: UuidParams,
          response: { 200: Envelope(Conversation), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await getConversation(deps, principalOf(request), request.params.cuuid)),
    );

    const changeResponse = { 200: Envelope(Conversation), ...errors(400, 401, 403, 404, 422) };

    app.put(
      '/conversations/:cuuid/status',
      {
        config: { permission: 'conversations:update_status' },
        schema: {
          tags,
          summary: 'Set the status (by name); snooze with snoozed_until',
          description:
            'Unknown status → 400. `snoozed_until` only with a waiting status; required for Snoozed. A snoozed conversation opens again at that time.',
          params: UuidParams,
          body: StatusBody,
          response: changeResponse,
        },
      },
      async (request) => ok(await changeConversation(deps, principalOf(request), request.params.cuuid, { status: request.body })),
    );
    app.put(
      '/conversations/:cuuid/priority',
      {
        config: { permission: 'conversations:update_priority' },
        schema: { tags, summary: 'Set the priority (by name)', params: UuidParams, body: PriorityBody, response: changeResponse },
      },
      async (request) =>
        ok(await changeConversation(deps, principalOf(request), request.params.cuuid, { priority: request.body.priority })),
    );
    app.put(
      '/conversations/:cuuid/assignee/user',
      {
        config: { permission: 'conversations:update_user_assignee' },
        schema: { tags, summary: 'Assign an agent', params: UuidParams, body: AssigneeBody, response: changeResponse },
      },
      async (request) =>
        ok(await changeConversation(deps, principalOf(request), request.params.cuuid, { userAssignee: request.body.assignee_id })),
    );
    app.put(
      '/conversations/:cuuid/assignee/team',
      {
        config: { permission: 'conversations:update_team_assignee' },
        schema: {
          tags,
          summary: 'Assign a team',
          description:
            'An assigned agent who is not a member of the new team is unassigned; a round-robin team then gives the conversation to its next available agent.',
          params: UuidParams,
          body: AssigneeBody,
          response: changeResponse,
        },
      },
      async (request) =>
        ok(await changeConversation(deps, principalOf(request), request.params.cuuid, { teamAssignee: request.body.assignee_id })),
    );
    app.put(
      '/conversations/:cuuid/assignee/user/remove',
      {
        config: { permission: 'conversations:update_user_assignee' },
        schema: { tags, summary: 'Remove the assigned agent', params: UuidParams, response: changeResponse },
      },
      async (request) => ok(await changeConversation(deps, principalOf(request), request.params.cuuid, { userAssignee: null })),
    );
    app.put(
      '/conversations/:cuuid/assignee/team/remove',
      {
        config: { permission: 'conversations:update_team_assignee' },
        schema: { tags, summary: 'Remove the assigned team', params: UuidParams, response: changeResponse },
      },
      async (request) => ok(await changeConversation(deps, principalOf(request), request.params.cuuid, { teamAssignee: null })),
    );
    app.get(
      '/conversations/:cuuid/sla',
      {
        config: { serviceRule: 'conversation' },
        schema: {
          tags,
          summary: 'The SLA applied to the conversation (data null when none)',
          description: 'Each metric (first_response, next_response, resolution) is null when the policy set no target for it.',
          params: UuidParams,
          response: { 200: Envelope(Nullable(AppliedSlaRecord)), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await getConversationSla(deps, principalOf(request), request.params.cuuid)),
    );
    app.put(
      '/conversations/:cuuid/sla',
      {
        config: { serviceRule: 'conversation_sla' },
        schema: {
          tags,
          summary: 'Apply an SLA policy (a new applied_sla_id) or remove it (null)',
          description: 'Answers the applied SLA as `GET …/sla` does. Unknown policy → 400.',
          params: UuidParams,
          body: ApplySlaBody,
          response: { 200: Envelope(Nullable(AppliedSlaRecord)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await setConversationSla(deps, principalOf(request), request.params.cuuid, request.body.sla_policy_id)),
    );
    app.post(
      '/conversations/:cuuid/tags',
      {
        config: { permission: 'conversations:update_tags' },
        schema: {
          tags,
          summary: 'Add, remove or set tags',
          description:
            '`action` add_tags (default) | remove_tags | set_tags. Tag names are matched case-insensitively; an unknown name is a 400.',
          params: UuidParams,
          body: TagsBody,
          response: changeResponse,
        },
      },
      async (request) =>
        ok(
          await changeConversation(deps, principalOf(request), request.params.cuuid, {
            tags: request.body,
          }),
        ),
    );
    app.put(
      '/conversations/:cuuid/last-seen',
      {
        config: { serviceRule: 'conversation' },
        schema: {
          tags,
          summary: 'Mark the conversation as seen by the caller',
          params: UuidParams,
          response: { 200: Envelope(Conversation), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await markSeen(deps, principalOf(request), request.params.cuuid)),
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
      async (request) => ok(await markUnread(deps, principalOf(request), request.params.cuuid)),
    );

    // A conversation's messages (their access is the conversation's).
    const messageTags = ['Messages'];
    app.get(
      '/conversations/:cuuid/messages',
      {
        config: { permission: 'messages:read' },
        schema: {
          tags: messageTags,
          summary: "A conversation's messages, newest first (paged)",
          description: 'Includes private notes and activity messages. Conversation access rules apply.',
          params: UuidParams,
          querystring: MessageListQuery,
          response: { 200: Envelope(Paged(Message)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await listMessages(deps, principalOf(request), request.params.cuuid, pageRequest(request.query))),
    );
    app.get(
      '/conversations/:cuuid/messages/:uuid',
      {
        config: { permission: 'messages:read' },
        schema: {
          tags: messageTags,
          summary: 'Get one message',
          description: 'A message of another conversation is a 404.',
          params: MessageParams,
          response: { 200: Envelope(Message), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await getMessage(deps, principalOf(request), request.params.cuuid, request.params.uuid)),
    );
    app.post(
      '/conversations/:cuuid/messages',
      {
        config: { permission: 'messages:write' },
        schema: {
          tags: messageTags,
          summary: 'Send a reply or add a private note',
          description:
            'HTML is sanitised and `text_content` derived from it; HTML nested deeper than 100 levels is a 400. A reply starts `pending` and becomes `sent` or `failed` when the channel delivers it; a private note is `sent` at once. Send `Idempotency-Key` to make retries safe: a retry with the same key (within 24 h) returns the first message; the same key with a different request is a 422.',
          params: UuidParams,
          headers: IdempotencyHeaders,
          body: SendMessageBody,
          response: { 200: Envelope(Message), ...errors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) =>
        ok(await sendMessage(deps, after, principalOf(request), request.params.cuuid, request.body, request.headers['idempotency-key'])),
    );
  };
}
