// Web Push (docs/api.md, "Web Push"): the VAPID public key browsers subscribe with, and the
// calling agent's push subscriptions. Delivery: push.delivery.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope } from '../http/schemas.ts';
import { CreatePushSubscriptionBody, PUSH_SUBSCRIPTIONS_MAX, PushSubscriptionRecord, VapidPublicKey } from './push.schema.ts';
import * as push from './push.service.ts';

export function pushRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Push'];
    // Each subscription resolves its host (DNS): bounded per caller.
    const rateLimit = { max: 60, timeWindow: 60_000 };
    app.get(
      '/push/vapid-public-key',
      {
        schema: {
          tags,
          summary: 'The VAPID public key',
          description:
            'The application server key (RFC 8292) to pass to PushManager.subscribe as `applicationServerKey`. Made once per installation, on first use; its private key is stored encrypted with SECRET_KEY. Any signed-in agent.',
          response: { 200: Envelope(VapidPublicKey), ...errors(401) },
        },
      },
      async () => ok(await push.vapidPublicKey(deps)),
    );
    app.get(
      '/agents/me/push-subscriptions',
      {
        schema: {
          tags,
          summary: 'List my push subscriptions',
          description:
            "The calling agent's browsers that receive its notifications by Web Push, oldest first. The endpoint (a capability: whoever knows it may push to the device) and the keys are never answered: `endpoint_host` and `endpoint_sha256` identify it.",
          response: { 200: Envelope(Type.Array(PushSubscriptionRecord)), ...errors(401) },
        },
      },
      async (request) => ok(await push.listMySubscriptions(deps, principalOf(request).userId)),
    );
    app.post(
      '/agents/me/push-subscriptions',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary: 'Record a push subscription',
          description: `Send PushSubscription.toJSON() of a browser subscribed with the VAPID public key. \`endpoint\` must be https and must not be (or resolve to) a loopback, private, link-local or other non-public address, unless its host is in PUSH_ALLOW_HOSTS (400 naming the field); \`keys.p256dh\` is an uncompressed P-256 point, \`keys.auth\` 16 bytes, both base64url. Sending an endpoint again updates its keys (and makes it the caller's: a browser shows the notifications of the agent who last turned push on there). At most ${PUSH_SUBSCRIPTIONS_MAX} per agent (422).`,
          body: CreatePushSubscriptionBody,
          response: { 200: Envelope(PushSubscriptionRecord), ...errors(400, 401, 422, 429) },
        },
      },
      async (request) => {
        const userAgent = request.headers['user-agent'];
        return ok(
          await push.subscribe(
            deps,
            principalOf(request).userId,
            principalOf(request).sessionId,
            request.body,
            typeof userAgent === 'string' ? userAgent : null,
          ),
        );
      },
    );
    app.delete(
      '/agents/me/push-subscriptions/:id',
      {
        schema: {
          tags,
          summary: 'Remove a push subscription',
          description: "The browser gets no more pushes. Another agent's subscription, or an unknown id → 404.",
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(400, 401, 404) },
        },
      },
      async (request) => {
        await push.unsubscribe(deps, principalOf(request).userId, request.params.id);
        return ok(true as const);
      },
    );
  };
}
