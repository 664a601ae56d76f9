// Realtime (docs/api.md, "Realtime"): the WebSocket plugin, this instance's hub and relay,
// the agent socket `/ws`, the widget socket `/widget/ws`, and the page visits an agent reads.
import type { Duplex } from 'node:stream';
import websocket from '@fastify/websocket';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok } from '../http/schemas.ts';
import { registerAgentSocket, type ViewingHooks } from './agent-socket.ts';
import { PageVisit } from './frames.schema.ts';
import { CLOSE_GOING_AWAY, createHub, type Hub } from './hub.ts';
import { listPageVisits } from './page-visits.ts';
import { type RelayOptions, startRelay } from './relay.ts';
import { socketErrorHandler } from './socket-errors.ts';
import { registerWidgetSocket } from './widget-socket.ts';

/** Frames larger than this close the socket (1009). */
export const MAX_FRAME_BYTES = 64 * 1024;

export interface RealtimeOptions {
  relay?: RelayOptions;
  /** Starts who-is-viewing on this instance's hub (viewers/viewers.live.ts, wired in app.ts). */
  viewers?: (hub: Hub) => Promise<ViewingHooks & { stop(): Promise<void> }>;
}

/** Registers the sockets; returns the relay so tests can flush it. */
export async function registerRealtime(app: FastifyInstance, deps: AppDeps, options: RealtimeOptions = {}) {
  const hub = await createHub(deps);
  const relay = startRelay(deps, options.relay);
  const viewers = options.viewers ? await options.viewers(hub) : null;
  await app.register(websocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    errorHandler: socketErrorHandler(deps.metrics),
    preClose: (done) => {
      // Shutdown: no new socket from here on. Fastify answers an upgrade arriving while it closes
      // with a 503 on a response it does not end the connection of, and the server's close then
      // waited on that connection (a client reconnecting at once held a stop to the forced exit).
      refuseUpgrades(app);
      // Every socket, joined or not, is told why (1001); a peer that does not answer the close
      // within 2 s is cut off, so the shutdown never waits on a client.
      hub.closeAll(CLOSE_GOING_AWAY, 'server shutting down');
      for (const client of app.websocketServer.clients) client.close(CLOSE_GOING_AWAY, 'server shutting down');
      const cutoff = setTimeout(() => {
        for (const client of app.websocketServer.clients) client.terminate();
      }, 2_000);
      cutoff.unref();
      app.websocketServer.close(() => {
        clearTimeout(cutoff);
        done();
      });
    },
  });
  app.addHook('onClose', async () => {
    await Promise.all([hub.stop(), relay.stop(), viewers?.stop()]);
  });
  await app.register(async (scope) => {
    registerAgentSocket(scope, deps, hub, viewers);
    registerWidgetSocket(scope, deps, hub);
  });
  return relay;
}

const SHUTTING_DOWN = 'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\nRetry-After: 5\r\n\r\n';

/** From now on, an upgrade request is answered 503 and its connection ended. */
function refuseUpgrades(app: FastifyInstance): void {
  app.server.removeAllListeners('upgrade');
  app.server.on('upgrade', (_request: unknown, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(SHUTTING_DOWN);
  });
}

export function pageVisitRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/contacts/:id/page-visits',
      {
        config: { permission: 'contacts:read', serviceRule: 'contact' },
        schema: {
          tags: ['Contacts'],
          summary: "A contact's last page visits (newest first, at most 20)",
          description: 'Sent by the live-chat widget socket (`page_visit` frames); agents hear of new ones as `contact_update`.',
          params: IdParams,
          response: { 200: Envelope(Type.Array(PageVisit)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await listPageVisits(deps, principalOf(request), request.params.id)),
    );
  };
}
