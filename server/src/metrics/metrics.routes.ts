// Serving the metrics (docs/operations.md, "Metrics"): on the main port behind a bearer token
// (METRICS_TOKEN; without one the route does not exist there: 404 like any unknown path), and/or
// on a port of its own (METRICS_PORT on METRICS_HOST, loopback by default) without a token.
// The request timer is registered only when the metrics are served somewhere.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { UnauthorizedError } from '../errors.ts';

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function tokenMatches(header: string | undefined, token: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token)) && given !== '';
}

/** The request timer (every route, the 404s as one label) and, with METRICS_TOKEN, GET /metrics. Register before the routes. */
export function registerMetrics(app: FastifyInstance, deps: AppDeps): void {
  const { metrics } = deps;
  if (!metrics.served) return;
  // onResponse runs after the answer is written: the timing costs the client nothing. A
  // callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime);
    done();
  });
  const token = deps.config.metricsToken;
  if (token === null) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!tokenMatches(request.headers.authorization, token))
      throw new UnauthorizedError('A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)');
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).header('cache-control', 'no-store').send(body);
  });
}

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/** The metrics port (METRICS_PORT), or null when none is configured. Answers GET /metrics only. */
export async function startMetricsServer(deps: AppDeps): Promise<MetricsServer | null> {
  const { config, metrics } = deps;
  if (config.metricsPort === null) return null;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        deps.log.error({ err: error instanceof Error ? error.message : String(error) }, 'metrics could not be collected');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics could not be collected\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort ?? 0, config.metricsHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
