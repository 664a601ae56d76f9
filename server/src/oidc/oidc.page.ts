// How the two browser routes of the sign-in (login, finish) answer a refusal. A browser that
// navigated there (it asks for text/html) gets a small page saying what went wrong, with a
// link back; any other client gets the usual error envelope. Every refusal is logged, with
// the reason and never a code or token.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';

/** Browsers navigating to a page list text/html in Accept; fetch() and API clients do not. */
export function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && /(^|[\s,])text\/html\s*(;|,|$)/i.test(accept);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function refusalPage(input: { status: number; message: string; requestId: string; homeUrl: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in failed · Parley</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}.meta{color:#656d76;font-size:.875rem}</style>
</head>
<body>
<h1>Sign-in failed</h1>
<p>${escapeHtml(input.message)}</p>
<p><a href="${escapeHtml(input.homeUrl)}">Back to the sign-in page</a></p>
<p class="meta">Error ${input.status} · request ${escapeHtml(input.requestId)}</p>
</body>
</html>
`;
}

/** The status and message a refusal is shown with, or null for a fault of our own (left to the app's handler: a 500). */
function refusalOf(error: FastifyError | AppError | Error): { status: number; message: string } | null {
  if (error instanceof AppError) return { status: error.statusCode, message: error.message };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return fastifyError.validationContext === 'params'
      ? { status: 404, message: 'Single sign-on provider not found' }
      : { status: 400, message: `Invalid request: ${fastifyError.message}` };
  }
  const status = fastifyError.statusCode;
  return status !== undefined && status >= 400 && status < 500 ? { status, message: fastifyError.message } : null;
}

/**
 * The route-level error handler of the login and finish routes. It sees every failure of the
 * route, those of the edge (query checks, the rate limit) included: `always` runs for each
 * (finish clears the state cookie there, so that it is single-use whatever happened).
 */
export function signInErrorHandler(deps: AppDeps, step: 'login' | 'finish', always: (reply: FastifyReply) => void = () => undefined) {
  return (error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    always(reply);
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    const params = request.params as { id?: unknown } | undefined;
    request.log.warn({ oidcProviderId: params?.id, step, status: refusal.status, reason: refusal.message }, 'single sign-on refused');
    // Not a browser page: the app's handler answers with the envelope.
    if (!wantsHtml(request)) throw error;
    return reply
      .code(refusal.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
      .header('x-content-type-options', 'nosniff')
      .send(refusalPage({ status: refusal.status, message: refusal.message, requestId: request.id, homeUrl: `${deps.config.baseUrl}/` }));
  };
}
