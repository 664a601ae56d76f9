// The built widget (widget/dist, made by `npm run build`, which `npm install` runs): the loader
// `/widget.js` that customer sites include, the chat frame's page `/widget/frame/` and its
// hashed assets. docs/widget.md tells how the pieces talk.
//
// Caching: the loader's URL never changes, so browsers keep it 5 minutes (then revalidate with
// its ETag); the frame's page is revalidated every time (it names the hashed assets of the
// current build); hashed assets never change, so they are cached for a year. Files are read
// once per build (their size and time are checked on each request) and kept with their gzip and
// brotli forms, so every answer is compressed without a compression plugin.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { AppError, NotFoundError, PermissionError } from '../errors.ts';
import { TRUSTED_DOMAIN } from '../inboxes/inboxes.schema.ts';
import { enforceLimit, publicLimiter } from '../http/public-limits.ts';
import { findWidgetInbox, isAddressBlocked } from './widget.inbox.ts';

/** Where `npm run build -w widget` writes. */
export const WIDGET_DIST = fileURLToPath(new URL('../../../widget/dist/', import.meta.url));

const LOADER_CACHE = 'public, max-age=300';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
/** A host (or [IPv6]) with an optional port, safe to write into a CSP source. */
const CSP_HOST = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;
const NOT_BUILT = 'The widget is not built: run `npm run build` (npm install runs it), then reload';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

interface Asset {
  key: string;
  type: string;
  etag: string;
  plain: Buffer;
  gzip: Buffer;
  br: Buffer;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

function typeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return TYPES[dot >= 0 ? path.slice(dot) : ''] ?? 'application/octet-stream';
}

/** Reads built files, each once per version on disk (size and modification time). */
function assetStore() {
  const cache = new Map<string, Promise<Asset>>();
  return async (path: string): Promise<Asset | null> => {
    let key: string;
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      key = `${info.size}:${info.mtimeMs}`;
    } catch {
      return null;
    }
    const cached = cache.get(path);
    if (cached) {
      const asset = await cached.catch(() => null);
      if (asset && asset.key === key) return asset;
    }
    const loading = (async (): Promise<Asset> => {
      const plain = await readFile(path);
      const [gz, br] = await Promise.all([
        gzipAsync(plain, { level: 9 }),
        brotliAsync(plain, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: plain.length } }),
      ]);
      const etag = `"${createHash('sha256').update(plain).digest('base64url').slice(0, 27)}"`;
      return { key, type: typeOf(path), etag, plain, gzip: gz, br };
    })();
    cache.set(path, loading);
    try {
      return await loading;
    } catch {
      cache.delete(path);
      return null;
    }
  };
}

/** The best encoding the client accepts (a q=0 refuses one). */
function encodingFor(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset, cacheControl: string, useEtag: boolean) {
  reply.header('content-type', asset.type);
  reply.header('cache-control', cacheControl);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('vary', 'Accept-Encoding');
  if (useEtag) {
    reply.header('etag', asset.etag);
    const match = request.headers['if-none-match'];
    if (typeof match === 'string' && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) {
      return reply.code(304).send();
    }
  }
  const encoding = encodingFor(request.headers['accept-encoding']);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.plain);
}

/**
 * `frame-ancestors` of the frame's page: which sites may embed the chat of this inbox. Its
 * trusted_domains, written for both schemes and, for an entry without a port, any port (the
 * widget API's own rule, widget.edge.ts isOriginTrusted); every site when the list is empty.
 * The inbox API accepts only entries of TRUSTED_DOMAIN's shape; any other (a row written
 * before that check) is left out rather than written into the header.
 */
export function frameAncestors(trusted: readonly string[]): string {
  if (trusted.length === 0) return "frame-ancestors 'self' *";
  const sources = ["'self'"];
  for (const raw of trusted) {
    const entry = raw.trim().toLowerCase();
    if (!TRUSTED_DOMAIN.test(entry)) continue;
    const withPort = /:\d+$/.test(entry) ? entry : `${entry}:*`;
    sources.push(`http://${withPort}`, `https://${withPort}`);
  }
  return `frame-ancestors ${sources.join(' ')}`;
}

/**
 * `connect-src` of the frame's page. The socket is on the frame's own host: 'self' covers ws: and
 * wss: there in CSP 3 browsers; BASE_URL's host is also named for older ones. Never the request's
 * Host (or X-Forwarded-Host): a header the client chose must not be written into the policy (a Host
 * of `a; frame-ancestors *` would add a directive).
 */
export function frameConnectSrc(baseUrl: string): string {
  const { host } = new URL(baseUrl);
  return CSP_HOST.test(host) ? `connect-src 'self' ws://${host} wss://${host}` : "connect-src 'self'";
}

function frameSecurityHeaders(reply: FastifyReply, connectSrc: string, ancestors: string): void {
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // Logos and avatars may live on the customer's own site.
    "img-src 'self' https: http: data: blob:",
    connectSrc,
    "form-action 'none'",
    "base-uri 'none'",
    ancestors,
  ].join('; ');
  reply.header('content-security-policy', policy);
  reply.header('referrer-policy', 'no-referrer');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The frame's refusals are small pages: they show inside the customer's page. */
async function framePageError(error: FastifyError | Error, _request: FastifyRequest, reply: FastifyReply) {
  const status = error instanceof AppError ? error.statusCode : ((error as FastifyError).statusCode ?? 500);
  if (status >= 500 && !(error instanceof AppError)) throw error;
  if (status === 429) reply.header('retry-after', '60');
  reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
  reply.header('cache-control', 'no-store');
  reply.header('content-type', 'text/html; charset=utf-8');
  return reply
    .code(status)
    .send(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>Chat unavailable</title><p style="font:14px sans-serif;padding:16px">${escapeHtml(error.message)}</p></html>`,
    );
}

export function widgetAssetRoutes(deps: AppDeps, options: { dir?: string } = {}): FastifyPluginAsync {
  const dir = options.dir ?? WIDGET_DIST;
  const frameDir = join(dir, 'frame');
  const read = assetStore();
  const connectSrc = frameConnectSrc(deps.config.baseUrl);
  return async (app) => {
    const perAddress = publicLimiter(deps, 'frame', deps.config.widgetRateLimitPerMinute);
    const route = { schema: { hide: true }, config: { auth: 'public' as const } };

    app.get('/widget.js', route, async (request, reply) => {
      const asset = await read(join(dir, 'widget.js'));
      if (!asset) throw new AppError(503, 'GeneralException', NOT_BUILT);
      // Any site may load the loader; it asks for nothing but the inbox's public launcher settings.
      reply.header('access-control-allow-origin', '*');
      reply.header('cross-origin-resource-policy', 'cross-origin');
      return sendAsset(request, reply, asset, LOADER_CACHE, true);
    });

    app.get('/widget/frame', { ...route, errorHandler: framePageError }, async (request, reply) => {
      // Relative asset URLs (./assets/…) need the trailing slash, so that Parley may sit under a path prefix.
      const [path = '', query = ''] = request.url.split('?');
      if (!path.endsWith('/')) return reply.redirect(`${path}/${query ? `?${query}` : ''}`, 301);
      await enforceLimit(perAddress, request.ip, 'requests from this address');
      // The web app's live preview (widget/src/frame/preview.ts): no inbox, no visitor; it renders
      // what Parley's own page sends. Only Parley may embed it, and it may connect nowhere.
      if ((request.query as Record<string, unknown>)['preview'] === '1') {
        const asset = await read(join(frameDir, 'index.html'));
        if (!asset) throw new AppError(503, 'GeneralException', NOT_BUILT);
        frameSecurityHeaders(reply, "connect-src 'none'", "frame-ancestors 'self'");
        return sendAsset(request, reply, asset, 'no-cache', false);
      }
      const uuid = (request.query as Record<string, unknown>)['inbox_id'];
      const inbox = typeof uuid === 'string' && UUID.test(uuid) ? await findWidgetInbox(deps, uuid) : null;
      if (!inbox) throw new NotFoundError('This chat is not available (inbox not found)');
      if (isAddressBlocked(inbox.config.blocked_ips ?? [], request.ip)) throw new PermissionError('Access denied');
      const asset = await read(join(frameDir, 'index.html'));
      if (!asset) throw new AppError(503, 'GeneralException', NOT_BUILT);
      frameSecurityHeaders(reply, connectSrc, frameAncestors(inbox.config.trusted_domains ?? []));
      return sendAsset(request, reply, asset, 'no-cache', false);
    });

    app.get('/widget/frame/assets/:name', route, async (request, reply) => {
      const { name } = request.params as { name: string };
      const asset = ASSET_NAME.test(name) ? await read(join(frameDir, 'assets', name)) : null;
      if (!asset) throw new NotFoundError('Not found');
      reply.header('cross-origin-resource-policy', 'same-origin');
      return sendAsset(request, reply, asset, IMMUTABLE, false);
    });
  };
}
