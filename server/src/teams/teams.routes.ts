import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { auditActorOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope, PutBody } from '../http/schemas.ts';
import { AddMemberBody, CreateTeamBody, SetMembersBody, TeamCompact, TeamMember, TeamRecord, UpdateTeamBody } from './teams.schema.ts';
import * as teams from './teams.service.ts';

const MemberParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  user_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});

export function teamsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Teams'];
    app.get(
      '/teams',
      { schema: { tags, summary: 'List teams', response: { 200: Envelope(Type.Array(TeamRecord)), ...errors(401) } } },
      async () => ok(await teams.listTeams(deps)),
    );
    app.get(
      '/teams/compact',
      {
        schema: {
          tags,
          summary: 'List teams (id, name, emoji) for any agent',
          response: { 200: Envelope(Type.Array(TeamCompact)), ...errors(401) },
        },
      },
      async () => ok(await teams.listTeamsCompact(deps)),
    );
    app.get(
      '/teams/:id',
      { schema: { tags, summary: 'Get a team', params: IdParams, response: { 200: Envelope(TeamRecord), ...errors(400, 401, 404) } } },
      async (request) => ok(await teams.getTeam(deps, request.params.id)),
    );
    app.post(
      '/teams',
      {
        config: { permission: 'teams:manage' },
        schema: {
          tags,
          summary: 'Create a team',
          body: CreateTeamBody,
          response: { 200: Envelope(TeamRecord), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => ok(await teams.createTeam(deps, auditActorOf(request), request.body)),
    );
    app.put(
      '/teams/:id',
      {
        config: { permission: 'teams:manage' },
        schema: {
          tags,
          summary: 'Update a team (partial)',
          params: IdParams,
          body: PutBody(UpdateTeamBody, TeamRecord),
          response: { 200: Envelope(TeamRecord), ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => ok(await teams.updateTeam(deps, auditActorOf(request), request.params.id, request.body)),
    );
    app.delete(
      '/teams/:id',
      {
        config: { permission: 'teams:manage' },
        schema: { tags, summary: 'Delete a team', params: IdParams, response: { 200: TrueEnvelope, ...errors(400, 401, 403, 404) } },
      },
      async (request) => {
        await teams.deleteTeam(deps, auditActorOf(request), request.params.id);
        return ok(true as const);
      },
    );
    app.get(
      '/teams/:id/members',
      {
        schema: {
          tags,
          summary: 'List team members',
          params: IdParams,
          response: { 200: Envelope(Type.Array(TeamMember)), ...errors(400, 401, 404) },
        },
      },
      async (request) => ok(await teams.listMembers(deps, request.params.id)),
    );
    app.put(
      '/teams/:id/members',
      {
        config: { permission: 'teams:manage' },
        schema: {
          tags,
          summary: 'Replace the member list',
          params: IdParams,
          body: SetMembersBody,
          response: { 200: Envelope(Type.Array(TeamMember)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await teams.setMembers(deps, auditActorOf(request), request.params.id, request.body.user_ids)),
    );
    app.post(
      '/teams/:id/members',
      {
        config: { permission: 'teams:manage' },
        schema: {
          tags,
          summary: 'Add a member',
          params: IdParams,
          body: AddMemberBody,
          response: { 200: Envelope(Type.Array(TeamMember)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await teams.addMember(deps, auditActorOf(request), request.params.id, request.body.user_id)),
    );
    app.delete(
      '/teams/:id/members/:user_id',
      {
        config: { permission: 'teams:manage' },
        schema: { tags, summary: 'Remove a member', params: MemberParams, response: { 200: TrueEnvelope, ...errors(400, 401, 403, 404) } },
      },
      async (request) => {
        await teams.removeMember(deps, auditActorOf(request), request.params.id, request.params.user_id);
        return ok(true as const);
      },
    );
  };
}
