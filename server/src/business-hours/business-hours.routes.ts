import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { auditActorOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope, PutBody } from '../http/schemas.ts';
import { BusinessHoursRecord, CreateBusinessHoursBody, UpdateBusinessHoursBody } from './business-hours.schema.ts';
import * as businessHours from './business-hours.service.ts';

export function businessHoursRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Business hours'];
    app.get(
      '/business-hours',
      {
        schema: { tags, summary: 'List business hours', response: { 200: Envelope(Type.Array(BusinessHoursRecord)), ...errors(401) } },
      },
      async () => ok(await businessHours.listBusinessHours(deps)),
    );
    app.get(
      '/business-hours/:id',
      {
        schema: {
          tags,
          summary: 'Get business hours',
          params: IdParams,
          response: { 200: Envelope(BusinessHoursRecord), ...errors(400, 401, 404) },
        },
      },
      async (request) => ok(await businessHours.getBusinessHours(deps, request.params.id)),
    );
    app.post(
      '/business-hours',
      {
        config: { permission: 'business_hours:manage' },
        schema: {
          tags,
          summary: 'Create business hours',
          body: CreateBusinessHoursBody,
          response: { 200: Envelope(BusinessHoursRecord), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => ok(await businessHours.createBusinessHours(deps, auditActorOf(request), request.body)),
    );
    app.put(
      '/business-hours/:id',
      {
        config: { permission: 'business_hours:manage' },
        schema: {
          tags,
          summary: 'Update business hours (partial; hours and holidays are replaced whole)',
          params: IdParams,
          body: PutBody(UpdateBusinessHoursBody, BusinessHoursRecord),
          response: { 200: Envelope(BusinessHoursRecord), ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => ok(await businessHours.updateBusinessHours(deps, auditActorOf(request), request.params.id, request.body)),
    );
    app.delete(
      '/business-hours/:id',
      {
        config: { permission: 'business_hours:manage' },
        schema: {
          tags,
          summary: 'Delete business hours (422 while a team or the general settings use them)',
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        await businessHours.deleteBusinessHours(deps, auditActorOf(request), request.params.id);
        return ok(true as const);
      },
    );
  };
}
