import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { auditActorOf, principalOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok, Paged, pagedResult, pageRequest, TrueEnvelope, PutBody } from '../http/schemas.ts';
import {
  AgentCompact,
  AgentListQuery,
  AgentRecord,
  ApiKeyPair,
  AvailabilityBody,
  CreateAgentBody,
  MyAgentRecord,
  UpdateAgentBody,
  UpdateMeBody,
} from './agents.schema.ts';
import * as agents from './agents.service.ts';
import { invitationOnCreate } from './password-tokens.service.ts';

export function agentsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Agents'];
    app.get(
      '/agents',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags,
          summary: 'List agents (paged)',
          description:
            'Ordered by `order_by` (created_at, updated_at, first_name, email; default created_at) and `order` (asc default), id as tiebreaker.',
          querystring: AgentListQuery,
          response: { 200: Envelope(Paged(AgentRecord)), ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        const page = pageRequest(request.query);
        const { rows, total } = await agents.listAgents(deps, page, request.query);
        return ok(pagedResult(rows, total, page));
      },
    );
    app.get(
      '/agents/compact',
      {
        schema: {
          tags,
          summary: 'Every agent, compact (for pickers)',
          response: { 200: Envelope(Type.Array(AgentCompact)), ...errors(401) },
        },
      },
      async () => ok(await agents.listAgentsCompact(deps)),
    );
    app.get(
      '/agents/me',
      {
        schema: {
          tags,
          summary: 'The calling agent',
          description:
            '`mfa_setup_required`: this session is held at enrolment until two-factor sign-in is set up (docs/api.md, "Two-factor sign-in").',
          response: { 200: Envelope(MyAgentRecord), ...errors(401) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        return ok({ ...(await agents.getAgent(deps, principal.userId)), mfa_setup_required: principal.mfaSetupRequired === true });
      },
    );
    app.put(
      '/agents/me',
      {
        schema: {
          tags,
          summary: 'Update my profile',
          description: 'Changing the password needs `current_password` (unless the agent never had one) and ends other sessions.',
          body: PutBody(UpdateMeBody, MyAgentRecord),
          response: { 200: Envelope(MyAgentRecord), ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const agent = await agents.updateMe(deps, auditActorOf(request), principal.userId, request.body, principal.sessionId);
        return ok({ ...agent, mfa_setup_required: principal.mfaSetupRequired === true });
      },
    );
    app.put(
      '/agents/me/availability',
      {
        schema: {
          tags,
          summary: 'Set my availability',
          description:
            '`source` = `user` (default) always applies. `source` = `idle` may request only `away` or `available` and applies only when the agent is available, or away because idle set it: it never overrides a manual away, busy or offline (the call then returns the agent unchanged).',
          body: AvailabilityBody,
          response: { 200: Envelope(AgentRecord), ...errors(400, 401, 403) },
        },
      },
      async (request) =>
        ok(await agents.setMyAvailability(deps, principalOf(request).userId, request.body.status, request.body.source ?? 'user')),
    );
    app.post(
      '/agents/me/api-key',
      {
        schema: {
          tags,
          summary: 'Generate my API credentials',
          description:
            'Returns a new key and secret for the caller; the secret is shown only here. Replaces the current pair, which is refused (401) from the next request on. ' +
            'Works with a session cookie (with `X-CSRF-Token`) or with the current API credentials.',
          response: { 200: Envelope(ApiKeyPair), ...errors(401, 403) },
        },
      },
      async (request) => ok(await agents.generateApiKey(deps, auditActorOf(request), principalOf(request).userId)),
    );
    app.delete(
      '/agents/me/api-key',
      {
        schema: {
          tags,
          summary: 'Revoke my API credentials',
          description: 'The pair is refused (401) from the next request on, on every server instance. Sessions are not affected.',
          response: { 200: TrueEnvelope, ...errors(401, 403) },
        },
      },
      async (request) => {
        await agents.revokeApiKey(deps, auditActorOf(request), principalOf(request).userId);
        return ok(true as const);
      },
    );
    app.get(
      '/agents/:id',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags,
          summary: 'Get an agent',
          params: IdParams,
          response: { 200: Envelope(AgentRecord), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await agents.getAgent(deps, request.params.id)),
    );
    app.post(
      '/agents',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags,
          summary: 'Create an agent',
          description:
            'Without `password`, an enabled agent is mailed an invitation to choose one (a link valid 7 days; see `POST /agents/{id}/invite`) when system mail is configured; otherwise it is created without a password (single sign-on, API credentials, or an invitation later).',
          body: CreateAgentBody,
          response: { 200: Envelope(AgentRecord), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => {
        const actor = auditActorOf(request);
        return ok(
          await agents.createAgent(deps, actor, principalOf(request).permissions, request.body, undefined, invitationOnCreate(deps, actor)),
        );
      },
    );
    app.put(
      '/agents/:id',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags,
          summary: 'Update an agent (partial: omitted fields keep their value)',
          params: IdParams,
          body: PutBody(UpdateAgentBody, AgentRecord),
          response: { 200: Envelope(AgentRecord), ...errors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => ok(await agents.updateAgent(deps, auditActorOf(request), principalOf(request), request.params.id, request.body)),
    );
    app.delete(
      '/agents/:id',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags,
          summary: 'Delete an agent (soft: history stays)',
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        await agents.deleteAgent(deps, auditActorOf(request), principalOf(request).userId, request.params.id);
        return ok(true as const);
      },
    );
    app.post(
      '/agents/:id/api-key',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags,
          summary: 'Generate API credentials',
          description: 'Returns the key and the secret; the secret is shown only here. Generating again replaces the pair.',
          params: IdParams,
          response: { 200: Envelope(ApiKeyPair), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await agents.generateApiKeyFor(deps, auditActorOf(request), principalOf(request), request.params.id)),
    );
    app.delete(
      '/agents/:id/api-key',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags,
          summary: 'Revoke API credentials',
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await agents.revokeApiKey(deps, auditActorOf(request), request.params.id);
        return ok(true as const);
      },
    );
  };
}
