import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { auditActorOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope, PutBody } from '../http/schemas.ts';
import { CreateSlaPolicyBody, SlaPolicyRecord, UpdateSlaPolicyBody } from './sla.schema.ts';
import * as sla from './sla.service.ts';

export function slaRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['SLA policies'];
    app.get(
      '/sla',
      { schema: { tags, summary: 'List SLA policies', response: { 200: Envelope(Type.Array(SlaPolicyRecord)), ...errors(401) } } },
      async () => ok(await sla.listSlaPolicies(deps)),
    );
    app.get(
      '/sla/:id',
      {
        schema: {
          tags,
          summary: 'Get an SLA policy',
          params: IdParams,
          response: { 200: Envelope(SlaPolicyRecord), ...errors(400, 401, 404) },
        },
      },
      async (request) => ok(await sla.getSlaPolicy(deps, request.params.id)),
    );
    app.post(
      '/sla',
      {
        config: { permission: 'sla:manage' },
        schema: {
          tags,
          summary: 'Create an SLA policy',
          body: CreateSlaPolicyBody,
          response: { 200: Envelope(SlaPolicyRecord), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => ok(await sla.createSlaPolicy(deps, auditActorOf(request), request.body)),
    );
    app.put(
      '/sla/:id',
      {
        config: { permission: 'sla:manage' },
        schema: {
          tags,
          summary: 'Update an SLA policy (partial; conversations it was applied to keep the targets they got)',
          params: IdParams,
          body: PutBody(UpdateSlaPolicyBody, SlaPolicyRecord),
          response: { 200: Envelope(SlaPolicyRecord), ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => ok(await sla.updateSlaPolicy(deps, auditActorOf(request), request.params.id, request.body)),
    );
    app.delete(
      '/sla/:id',
      {
        config: { permission: 'sla:manage' },
        schema: {
          tags,
          summary: 'Delete an SLA policy (422 while a team uses it; conversations keep their applied SLAs)',
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        await sla.deleteSlaPolicy(deps, auditActorOf(request), request.params.id);
        return ok(true as const);
      },
    );
  };
}
