// Realtime (docs/api.md, "Realtime"): the WebSocket plugin, this instance's hub and relay,
// the agent socket `/ws`, the widget socket `/widget/ws`, and the page visits an agent reads.
import websocket from '@fastify/websocket';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { Envelope, errors, IdParams, ok } from '../http/schemas.ts';
import { registerAgentSocket } from './agent-socket.ts';
import { PageVisit } from './frames.schema.ts';
import { CLOSE_GOING_AWAY, createHub } from './hub.ts';
import { listPageVisits } from './page-visits.ts';
import { type RelayOptions, startRelay } from './relay.ts';
import { registerWidgetSocket } from './widget-socket.ts';

/** Frames larger than this close the socket (1009). */
export const MAX_FRAME_BYTES = 64 * 1024;

export interface RealtimeOptions {
  relay?: RelayOptions;
}

/** Registers the sockets; returns the relay so tests can flush it. */
export async function registerRealtime(app: FastifyInstance, deps: AppDeps, options: RealtimeOptions = {}) {
  const hub = await createHub(deps);
  const relay = startRelay(deps, options.relay);
  await app.register(websocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    preClose: (done) => {
      // Shutdown: every socket, joined or not, is told why (1001); a peer that does not answer
      // the close within 2 s is cut off, so the shutdown never waits on a client.
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
    await Promise.all([hub.stop(), relay.stop()]);
  });
  await app.register(async (scope) => {
    registerAgentSocket(scope, deps, hub);
    registerWidgetSocket(scope, deps, hub);
  });
  return relay;
}

export function pageVisitRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/contacts/:id/page-visits',
      {
        config: { permission: 'contacts:read' },
        schema: {
          tags: ['Contacts'],
          summary: "A contact's last page visits (newest first, at most 20)",
          description: 'Sent by the live-chat widget socket (`page_visit` frames); agents hear of new ones as `contact_update`.',
          params: IdParams,
          response: { 200: Envelope(Type.Array(PageVisit)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await listPageVisits(deps, request.params.id)),
    );
  };
}
