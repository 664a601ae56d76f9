// Webhook records and the delivery log (docs/api.md, "Webhooks"). The test and retry routes
// are in webhooks.delivery.routes.ts, beside the engine they drive.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { auditActorOf } from '../http/access.ts';
import { documentedAs } from '../http/openapi.ts';
import { Envelope, errors, IdParams, ok, Paged, pageRequest, TrueEnvelope } from '../http/schemas.ts';
import {
  CreateWebhookBody,
  DeliveryListQuery,
  DeliveryParams,
  DocumentedCreateWebhookBody,
  DocumentedUpdateWebhookBody,
  ToggleWebhookBody,
  UpdateWebhookBody,
  WEBHOOKS_MAX,
  WebhookCompact,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookRecord,
} from './webhooks.schema.ts';
import * as webhooks from './webhooks.service.ts';

export function webhooksRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Webhooks'];
    const manage = { permission: 'webhooks:manage' } as const;
    const one = { 200: Envelope(WebhookRecord) };

    app.get(
      '/webhooks',
      {
        config: manage,
        schema: {
          tags,
          summary: 'List webhooks (secrets masked)',
          description: `Every webhook, ordered by name (case-insensitive) then id. An installation has at most ${WEBHOOKS_MAX}.`,
          response: { 200: Envelope(Type.Array(WebhookRecord)), ...errors(401, 403) },
        },
      },
      async () => ok(await webhooks.listWebhooks(deps)),
    );
    app.get(
      '/webhooks/compact',
      {
        config: manage,
        schema: {
          tags,
          summary: 'List webhooks (id and name)',
          response: { 200: Envelope(Type.Array(WebhookCompact)), ...errors(401, 403) },
        },
      },
      async () => ok(await webhooks.listWebhooksCompact(deps)),
    );
    app.post(
      '/webhooks',
      {
        config: { ...manage, swaggerTransform: documentedAs({ body: DocumentedCreateWebhookBody }) },
        schema: {
          tags,
          summary: 'Create a webhook',
          description: `Answers 200, like every creation. When \`secret\` is left out, Parley generates one and this answer is the only one that shows it (masked everywhere else; \`POST /webhooks/{id}/secret/rotate\` makes a new one); a secret that was given is masked here too. Duplicate name (case-insensitive) → 409; more than ${WEBHOOKS_MAX} webhooks → 422.`,
          body: CreateWebhookBody,
          response: { ...one, ...errors(400, 401, 403, 409, 422) },
        },
      },
      async (request) => ok(await webhooks.createWebhook(deps, auditActorOf(request), request.body)),
    );
    app.get(
      '/webhooks/:id',
      {
        config: manage,
        schema: { tags, summary: 'Get a webhook (secret masked)', params: IdParams, response: { ...one, ...errors(401, 403, 404) } },
      },
      async (request) => ok(await webhooks.getWebhook(deps, request.params.id)),
    );
    app.put(
      '/webhooks/:id',
      {
        config: { ...manage, swaggerTransform: documentedAs({ body: DocumentedUpdateWebhookBody }) },
        schema: {
          tags,
          summary: 'Update a webhook (the whole object)',
          description:
            'Send the webhook as GET answers it, changed. `name`, `url` and `events` are required; `enabled`, `headers` and `secret` keep their stored value when absent, and the masked secret keeps the stored one. Enabling a disabled webhook clears `disabled_reason` and `failing_since`.',
          params: IdParams,
          body: UpdateWebhookBody,
          response: { ...one, ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => ok(await webhooks.updateWebhook(deps, auditActorOf(request), request.params.id, request.body)),
    );
    app.put(
      '/webhooks/:id/toggle',
      {
        config: manage,
        schema: {
          tags,
          summary: 'Enable or disable a webhook',
          description:
            'Disabling keeps its pending deliveries: they wait until it is enabled again. Enabling a disabled webhook clears `disabled_reason` and `failing_since`.',
          params: IdParams,
          body: ToggleWebhookBody,
          response: { ...one, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await webhooks.toggleWebhook(deps, auditActorOf(request), request.params.id, request.body.enabled)),
    );
    app.post(
      '/webhooks/:id/secret/rotate',
      {
        config: manage,
        schema: {
          tags,
          summary: 'Rotate the signing secret of a webhook',
          description:
            'Generates a new secret and answers the webhook with it, once (masked everywhere else). Every attempt from now on, retries of older deliveries included, is signed with the new secret.',
          params: IdParams,
          response: { ...one, ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await webhooks.rotateWebhookSecret(deps, auditActorOf(request), request.params.id)),
    );
    app.delete(
      '/webhooks/:id',
      {
        config: manage,
        schema: {
          tags,
          summary: 'Delete a webhook and its delivery log',
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(401, 403, 404) },
        },
      },
      async (request) => {
        await webhooks.deleteWebhook(deps, auditActorOf(request), request.params.id);
        return ok(true as const);
      },
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        config: manage,
        schema: {
          tags,
          summary: 'List the deliveries of a webhook (paged, newest first)',
          description: `Filter by \`status\` and \`event_type\` (repeat a parameter for several values). \`total\` counts at most ${webhooks.DELIVERY_COUNT_CAP.toLocaleString('en')} deliveries, so that the count stays cheap on a long log; pages past it still answer.`,
          params: IdParams,
          querystring: DeliveryListQuery,
          response: { 200: Envelope(Paged(WebhookDelivery)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await webhooks.listDeliveries(deps, request.params.id, pageRequest(request.query), request.query)),
    );
    app.get(
      '/webhooks/:id/deliveries/:delivery_id',
      {
        config: manage,
        schema: {
          tags,
          summary: 'Get a delivery with its request body and attempts',
          description: 'A delivery of another webhook → 404.',
          params: DeliveryParams,
          response: { 200: Envelope(WebhookDeliveryDetail), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await webhooks.getDelivery(deps, request.params.id, request.params.delivery_id)),
    );
  };
}
