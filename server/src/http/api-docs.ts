// The API's HTML documentation, `/api/docs` (Swagger UI). Its pages carry a CSP of their own
// (Swagger UI's scripts and styles from here, no inline script; inline style attributes, which
// Swagger UI sets; requests only to this server and BASE_URL, for "Try it out") and may not be
// framed by any site (`frame-ancestors 'none'` and X-Frame-Options for older browsers): a page
// that sends requests with the agent's cookie must not be clickjacked.
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export function apiDocsCsp(baseUrl: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${new URL(baseUrl).origin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function registerApiDocs(app: FastifyInstance, baseUrl: string): Promise<void> {
  const csp = apiDocsCsp(baseUrl);
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', csp);
      reply.header('x-frame-options', 'DENY');
    });
    // No validator badge: it is an image from another site, and it sends it our document's URL.
    await docs.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null } });
  });
}
