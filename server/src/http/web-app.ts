// Serves the agent web app (web/, built by Vite into web/dist) from the API's own server, so
// `npm start` is the whole installation (README, "The two commands").
//
// - Hashed assets (`/assets/<name>-<hash>.<ext>`) never change under their name: cached for a
//   year, immutable; answered brotli or gzip compressed (from the build) when the browser accepts
//   it. Other files of dist (favicon…) for five minutes.
// - index.html is `no-cache`: a new build is picked up on the next navigation.
// - The app's client-side routes (`/inbox/mine`, `/conversations/…`) answer index.html: a
//   browser navigation (Accept: text/html) to a GET path that no route serves, outside the
//   server's own prefixes, without a file extension. API clients keep the JSON 404.
// - Without a build (tests, a checkout before `npm run build`), `/` and those navigations answer
//   a short 503 page saying how to build.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const DEFAULT_WEB_DIST = resolve(import.meta.dirname, '..', '..', '..', 'web', 'dist');

/** Paths the server answers itself: never the app's index, even for a browser. */
const SERVER_PREFIXES = ['/api', '/widget', '/ws', '/csat', '/health', '/ready', '/assets/'];

/**
 * What the app may load: its own scripts and styles only (no inline script; inline style
 * attributes, which the UI primitives set for positioning), images from anywhere over https
 * (avatars, inbox logos, images in received mail), its own API and socket.
 */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' blob: https:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parley: web app not built</title></head>
<body><h1>The web app is not built</h1>
<p>The API is running under <code>/api/v1</code>, but <code>web/dist</code> is missing.
Run <code>npm run build</code> (or start with <code>npm start</code>, which builds it when needed), then reload.</p>
</body></html>
`;

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('content-security-policy', WEB_APP_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin');
}

/** A browser navigation to one of the app's own routes. */
function isAppNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  if (SERVER_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)))
    return false;
  if (/\.[A-Za-z0-9]+$/.test(path)) return false;
  return String(request.headers.accept ?? '').includes('text/html');
}

export interface WebApp {
  /** Answers an app navigation that no route matched (the not-found handler asks first); false when it is not one. */
  fallback(request: FastifyRequest, reply: FastifyReply): boolean;
}

export async function registerWebApp(app: FastifyInstance, distDir: string = DEFAULT_WEB_DIST): Promise<WebApp> {
  const indexFile = join(distDir, 'index.html');
  // Read once: the assets it names are the ones registered below, at start.
  const index = existsSync(indexFile) ? readFileSync(indexFile) : null;
  const answerIndex = (reply: FastifyReply) =>
    index
      ? pageHeaders(reply).code(200).send(index)
      : pageHeaders(reply).header('cache-control', 'no-store').code(503).send(NOT_BUILT_PAGE);

  if (index) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      // One route per file found now (no wildcard), so every other path keeps its 404/405.
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each script and style sheet (web/vite.config.ts).
      preCompressed: true,
      // Another module (the widget's) may register the plugin too: no shared reply decorator.
      decorateReply: false,
      allowedPath: (path) => path !== '/index.html',
      schemaHide: true,
      setHeaders: (reply, path) => {
        const hashed = path.startsWith(join(distDir, 'assets'));
        // The service worker (web/public/sw.js) is checked for updates on every load: never served stale.
        const worker = path === join(distDir, 'sw.js');
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : worker ? 'no-cache' : 'public, max-age=300');
        reply.header('x-content-type-options', 'nosniff');
      },
    });
  }
  app.get('/', { schema: { hide: true } }, async (_request, reply) => answerIndex(reply));
  return {
    fallback(request, reply) {
      if (!isAppNavigation(request)) return false;
      answerIndex(reply);
      return true;
    },
  };
}
