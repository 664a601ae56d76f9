import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { auditActorOf, principalOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope, PutBody } from '../http/schemas.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { CreateRoleBody, RoleRecord, UpdateRoleBody } from './roles.schema.ts';
import * as roles from './roles.service.ts';

export function rolesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Roles'];
    app.get(
      '/permissions',
      { schema: { tags, summary: 'The permission catalogue', response: { 200: Envelope(Type.Array(Type.String())), ...errors(401) } } },
      async () => ok([...PERMISSIONS]),
    );
    app.get(
      '/roles',
      {
        config: { permission: 'roles:manage' },
        schema: { tags, summary: 'List roles', response: { 200: Envelope(Type.Array(RoleRecord)), ...errors(401, 403) } },
      },
      async () => ok(await roles.listRoles(deps)),
    );
    app.get(
      '/roles/:id',
      {
        config: { permission: 'roles:manage' },
        schema: { tags, summary: 'Get a role', params: IdParams, response: { 200: Envelope(RoleRecord), ...errors(400, 401, 403, 404) } },
      },
      async (request) => ok(await roles.getRole(deps, request.params.id)),
    );
    app.post(
      '/roles',
      {
        config: { permission: 'roles:manage' },
        schema: {
          tags,
          summary: 'Create a role',
          body: CreateRoleBody,
          response: { 200: Envelope(RoleRecord), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => ok(await roles.createRole(deps, auditActorOf(request), principalOf(request).permissions, request.body)),
    );
    app.put(
      '/roles/:id',
      {
        config: { permission: 'roles:manage' },
        schema: {
          tags,
          summary: 'Update a role (partial)',
          params: IdParams,
          body: PutBody(UpdateRoleBody, RoleRecord),
          response: { 200: Envelope(RoleRecord), ...errors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) =>
        ok(await roles.updateRole(deps, auditActorOf(request), principalOf(request).permissions, request.params.id, request.body)),
    );
    app.delete(
      '/roles/:id',
      {
        config: { permission: 'roles:manage' },
        schema: {
          tags,
          summary: 'Delete a custom role',
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        await roles.deleteRole(deps, auditActorOf(request), request.params.id);
        return ok(true as const);
      },
    );
  };
}
