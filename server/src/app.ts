// buildApp(deps): every domain plugin registered explicitly, in a readable order.
// Never listens, never reads process.env.
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { agentsRoutes } from './agents/agents.routes.ts';
import { aiRoutes } from './ai/ai.routes.ts';
import { auditRoutes } from './audit-log/audit-log.routes.ts';
import { sessionRoutes } from './agents/sessions.routes.ts';
import { passwordTokenRoutes } from './agents/password-tokens.routes.ts';
import { twoFactorRoutes } from './agents/two-factor.routes.ts';
import { businessHoursRoutes } from './business-hours/business-hours.routes.ts';
import { listenForInvalidations } from './auth/credential-cache.ts';
import { contactsRoutes } from './contact-access/contacts.routes.ts';
import { csatRoutes } from './csat/csat.routes.ts';
import { conversationsRoutes } from './conversations/conversations.routes.ts';
import { draftsRoutes } from './drafts/drafts.routes.ts';
import type { AppDeps } from './deps.ts';
import { emailRoutes } from './email/email.routes.ts';
import { firstRunRoutes } from './first-run/first-run.routes.ts';
import { followersRoutes } from './followers/followers.routes.ts';
import { recordMentions } from './followers/mentions.service.ts';
import { answerFrameworkError, clientErrorHandler, InputError, RateLimitError, registerErrorHandling } from './errors.ts';
import { registerAccessControl } from './http/access.ts';
import { registerApiDocs } from './http/api-docs.ts';
import { openApiDocumentOptions, registerOpenApiCompletion } from './http/openapi.ts';
import { serializeRequest } from './http/logging.ts';
import { registerWebApp, type WebApp } from './http/web-app.ts';
import { ErrorEnvelope } from './http/schemas.ts';
import { lazySchemas, lazySerializerFactory, rememberLazySchemas } from './http/lazy-compile.ts';
import { registerValidation } from './http/validation.ts';
import { inboxesRoutes } from './inboxes/inboxes.routes.ts';
import { macrosRoutes } from './macros/macros.routes.ts';
import { mediaRoutes } from './media/media.routes.ts';
import { notificationsRoutes } from './notifications/notifications.routes.ts';
import { registerMetrics } from './metrics/metrics.routes.ts';
import { systemMailRoutes } from './system-mail/system-mail.routes.ts';
import { oidcRoutes } from './oidc/oidc.routes.ts';
import { pushRoutes } from './push/push.routes.ts';
import { pageVisitRoutes, registerRealtime } from './realtime/realtime.routes.ts';
import { startViewers } from './viewers/viewers.live.ts';
import { viewersRoutes } from './viewers/viewers.routes.ts';
import { reportsRoutes } from './reports/reports.routes.ts';
import { rolesRoutes } from './roles/roles.routes.ts';
import { searchRoutes } from './search/search.routes.ts';
import { settingsRoutes } from './settings/settings.routes.ts';
import { slaRoutes } from './sla/sla.routes.ts';
import { statusesRoutes } from './statuses/statuses.routes.ts';
import { tagsRoutes } from './tags/tags.routes.ts';
import { teamsRoutes } from './teams/teams.routes.ts';
import { webhookDeliveryRoutes } from './webhooks/webhooks.delivery.routes.ts';
import { webhooksDocumentSection } from './webhooks/webhooks.payloads.ts';
import { webhooksRoutes } from './webhooks/webhooks.routes.ts';
import { widgetAssetRoutes } from './widget/widget.assets.ts';
import { widgetEmbedRoutes } from './widget/widget.embed.ts';
import { widgetPreviewRoutes } from './widget/widget.preview.ts';
import { widgetRoutes } from './widget/widget.routes.ts';

const API_VERSION = '1.0.0';
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Which methods are routed for a path, so a wrong method can answer 405 instead of 404. */
function routeTable() {
  const routes: Array<{ pattern: RegExp; method: string }> = [];
  return {
    add(url: string, methods: string | string[]) {
      const source = url
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      const pattern = new RegExp(`^${source}/?$`);
      for (const method of Array.isArray(methods) ? methods : [methods]) routes.push({ pattern, method });
    },
    allowed(path: string): string[] {
      return [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    },
  };
}

export interface BuildOptions {
  /** The built web app to serve (default web/dist of this checkout; tests point elsewhere). */
  webDistDir?: string;
}

export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const trust = deps.config.trustProxy;
  const timeouts = deps.config.httpTimeouts;
  const schemas = lazySchemas();
  const app = Fastify({
    // Each route's response serializers compiled on first use (http/lazy-compile.ts).
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory(schemas) } },
    // Request URLs are logged redacted: a signed media URL is a bearer link.
    loggerInstance: deps.log.child({}, { serializers: { req: serializeRequest } }),
    bodyLimit: deps.config.bodyLimitBytes,
    // A number of proxies: the client is the address that many hops back (as proxy-addr counts them).
    trustProxy: typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Node would answer a missing Host with a bare 400 of its own; Parley refuses it with the envelope (below).
    // Timeouts (docs/operations.md, "Reverse proxy"): a client trickling its headers or body, or
    // holding a silent connection, is cut off (checked every few seconds).
    http: {
      requireHostHeader: false,
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: Math.min(5_000, Math.ceil(timeouts.headersMs / 2)),
    },
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.idleMs,
    // Failures below the routes (router, HTTP parser) answer with the envelope and an X-Request-Id too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: clientErrorHandler(deps.log),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const table = routeTable();
  app.addHook('onRoute', (route) => table.add(route.url, route.method));
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined)
      throw new InputError('HTTP/1.1 requests must send a Host header');
  });

  rememberLazySchemas(app, schemas);
  registerValidation(app, schemas);
  // The web app registers last; until then no page falls back to it.
  let webApp: WebApp | null = null;
  registerErrorHandling(
    app,
    (path) => table.allowed(path),
    (request, reply) => webApp?.fallback(request, reply) ?? false,
  );
  app.addSchema(ErrorEnvelope);

  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    ...(deps.redis ? { redis: deps.redis, nameSpace: `${deps.redisPrefix}rate:` } : {}),
    errorResponseBuilder: (_request, context) => new RateLimitError(`Too many requests; retry in ${Math.ceil(context.ttl / 1000)} s`),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parley API',
        version: API_VERSION,
        description:
          'The Parley helpdesk REST API. Every response uses the envelope `{status, data}`; errors add `message` and `error_type`. Authenticate with `Authorization: Basic base64(key:secret)`, `Authorization: token key:secret`, or the session cookie from `POST /api/v1/auth/login` (with `X-CSRF-Token` on writes).',
      },
      servers: [{ url: deps.config.baseUrl }],
      // What Parley POSTs to webhooks (OpenAPI 3.1): one entry per event, its body and signature headers.
      webhooks: webhooksDocumentSection(),
      components: {
        securitySchemes: {
          basicAuth: { type: 'http', scheme: 'basic', description: 'API key as user name, API secret as password' },
          tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`token <api_key>:<api_secret>`' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'parley_session' },
        },
      },
    },
    ...openApiDocumentOptions,
  });
  registerOpenApiCompletion(app);
  await registerApiDocs(app, deps.config.baseUrl);

  registerAccessControl(app, deps);
  // Before every route: the request timer sees them all (and GET /metrics with METRICS_TOKEN).
  registerMetrics(app, deps);

  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'success', data: true }));
  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await deps.ping();
      return { status: 'success', data: true };
    } catch {
      return reply.code(503).send({ status: 'error', message: 'Database unreachable', data: null, error_type: 'NetworkException' });
    }
  });
  app.get('/api/v1/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());

  const api = { prefix: '/api/v1' };
  await app.register(sessionRoutes(deps), api);
  await app.register(firstRunRoutes(deps), api);
  await app.register(agentsRoutes(deps), api);
  await app.register(passwordTokenRoutes(deps), api);
  await app.register(systemMailRoutes(deps), api);
  await app.register(twoFactorRoutes(deps), api);
  await app.register(rolesRoutes(deps), api);
  await app.register(teamsRoutes(deps), api);
  await app.register(tagsRoutes(deps), api);
  await app.register(statusesRoutes(deps), api);
  await app.register(businessHoursRoutes(deps), api);
  await app.register(settingsRoutes(deps), api);
  await app.register(slaRoutes(deps), api);
  await app.register(contactsRoutes(deps), api);
  await app.register(inboxesRoutes(deps), api);
  await app.register(emailRoutes(deps), api);
  await app.register(mediaRoutes(deps), api);
  await app.register(conversationsRoutes(deps, { recordMentions }), api);
  await app.register(followersRoutes(deps), api);
  await app.register(draftsRoutes(deps), api);
  await app.register(macrosRoutes(deps), api);
  await app.register(reportsRoutes(deps), api);
  await app.register(searchRoutes(deps), api);
  await app.register(webhooksRoutes(deps), api);
  await app.register(webhookDeliveryRoutes(deps), api);
  await app.register(widgetRoutes(deps), api);
  await app.register(widgetPreviewRoutes(deps), api);
  await app.register(widgetEmbedRoutes(deps), api);
  await app.register(oidcRoutes(deps), api);
  await app.register(pageVisitRoutes(deps), api);
  await app.register(viewersRoutes(deps), api);
  await app.register(aiRoutes(deps), api);
  await app.register(auditRoutes(deps), api);
  await app.register(notificationsRoutes(deps), api);
  await app.register(pushRoutes(deps), api);
  // Under /api/v1 and, for the contact's page, /csat: registered at the root.
  await app.register(csatRoutes(deps));
  // The built widget: /widget.js, the chat frame /widget/frame/ and its assets.
  await app.register(widgetAssetRoutes(deps));
  await registerRealtime(app, deps, { viewers: (hub) => startViewers(deps, hub) });
  // The agent web app: `/`, its built files, and its client-side routes for browser navigations.
  webApp = await registerWebApp(app, options.webDistDir);

  const stopListening = await listenForInvalidations(deps.credentials, deps.bus);
  app.addHook('onClose', async () => {
    await stopListening();
  });
  return app;
}
