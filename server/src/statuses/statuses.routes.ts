import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope, PutBody } from '../http/schemas.ts';
import { CreateStatusBody, PriorityRecord, StatusRecord, UpdateStatusBody } from './statuses.schema.ts';
import * as statuses from './statuses.service.ts';

export function statusesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Statuses'];
    app.get(
      '/statuses',
      { schema: { tags, summary: 'List conversation statuses', response: { 200: Envelope(Type.Array(StatusRecord)), ...errors(401) } } },
      async () => ok(await statuses.listStatuses(deps)),
    );
    app.post(
      '/statuses',
      {
        config: { permission: 'status:manage' },
        schema: {
          tags,
          summary: 'Create a status',
          body: CreateStatusBody,
          response: { 200: Envelope(StatusRecord), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => ok(await statuses.createStatus(deps, request.body)),
    );
    app.put(
      '/statuses/:id',
      {
        config: { permission: 'status:manage' },
        schema: {
          tags,
          summary: 'Update a status (partial)',
          params: IdParams,
          body: PutBody(UpdateStatusBody, StatusRecord),
          response: { 200: Envelope(StatusRecord), ...errors(400, 401, 403, 404, 409, 422) },
        },
      },
      async (request) => ok(await statuses.updateStatus(deps, request.params.id, request.body)),
    );
    app.delete(
      '/statuses/:id',
      {
        config: { permission: 'status:manage' },
        schema: { tags, summary: 'Delete a status', params: IdParams, response: { 200: TrueEnvelope, ...errors(400, 401, 403, 404, 422) } },
      },
      async (request) => {
        await statuses.deleteStatus(deps, request.params.id);
        return ok(true as const);
      },
    );
    app.get(
      '/priorities',
      {
        schema: {
          tags: ['Priorities'],
          summary: 'List priorities (read-only)',
          response: { 200: Envelope(Type.Array(PriorityRecord)), ...errors(401) },
        },
      },
      async () => ok(await statuses.listPriorities(deps)),
    );
  };
}
