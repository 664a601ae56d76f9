// The attempts an admin asks for (docs/api.md, "Webhooks" → "Retries and the log"): a signed
// test, and one more attempt of a delivery, both made within the request. The CRUD routes and
// the delivery log are in webhooks.routes.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import { Envelope, errors, IdParams, ok } from '../http/schemas.ts';
import { createWebhookSender } from './webhooks.attempt.ts';
import { retryDelivery, testWebhook } from './webhooks.manual.ts';
import { DeliveryParams, WebhookDeliveryDetail } from './webhooks.schema.ts';
import { getDelivery } from './webhooks.service.ts';

export function webhookDeliveryRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // One set of keep-alive connections for this app's manual attempts, closed with it.
    const sender = createWebhookSender(deps);
    app.addHook('onClose', async () => sender.close());
    const tags = ['Webhooks'];
    const manage = { permission: 'webhooks:manage' } as const;

    app.post(
      '/webhooks/:id/test',
      {
        config: manage,
        schema: {
          tags,
          summary: 'Send a signed webhook.test to a webhook now',
          description:
            'Writes a `webhook.test` delivery (`data`: `{webhook_id, name}`; one attempt) and sends it within the request, whatever the webhook subscribes to and even when it is disabled; answers the delivery with its attempt. The request lasts until the receiver answers or WEBHOOK_TIMEOUT_SECONDS passes.',
          params: IdParams,
          response: { 200: Envelope(WebhookDeliveryDetail), ...errors(401, 403, 404) },
        },
      },
      async (request) => {
        const deliveryId = await testWebhook(deps, sender, request.params.id);
        return ok(await getDelivery(deps, request.params.id, deliveryId));
      },
    );

    app.post(
      '/webhooks/:id/deliveries/:delivery_id/retry',
      {
        config: manage,
        schema: {
          tags,
          summary: 'Attempt a delivery once more, now',
          description:
            'One manual attempt within the request; answers the updated delivery with its attempts. A dead or refused delivery gets exactly one more attempt; a pending or failed one goes on with its schedule if this attempt fails. A succeeded delivery is never sent again (409), nor one being sent at this moment (409). A delivery of another webhook → 404.',
          params: DeliveryParams,
          response: { 200: Envelope(WebhookDeliveryDetail), ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => {
        await retryDelivery(deps, sender, request.params.id, request.params.delivery_id);
        return ok(await getDelivery(deps, request.params.id, request.params.delivery_id));
      },
    );
  };
}
