// The agent socket `GET /ws` (docs/api.md, "Realtime"). Authenticated before the upgrade: API
// credentials (no Origin check), or the session cookie from a page of BASE_URL's origin (else
// 403: another site cannot open a socket with the agent's cookie). Client frames: `ping`,
// `subscribe`/`unsubscribe` `{conversation_uuid}`, `typing`, `viewing`/`viewing_stopped` (ViewingHooks). Conversation events reach every
// agent allowed to see the conversation, subscribed or not; typing only reaches subscribers.
import { returnFromAbsence } from '../agents/agents.service.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateApiKeyHolder, authenticateSession, SESSION_COOKIE } from '../auth/auth.service.ts';
import type { Principal } from '../auth/credential-cache.ts';
import { assertNotHeldAtEnrolment } from '../auth/mfa-hold.ts';
import { canReadConversation } from '../conversations/conversations.access.ts';
import { conversationFacts } from '../conversations/conversations.read.ts';
import type { AppDeps } from '../deps.ts';
import { InputError, PermissionError, UnauthorizedError } from '../errors.ts';
import { channelHas } from '../inboxes/channels.ts';
import { type AgentConn, type Hub, type LiveSocket, PRINCIPAL_REFRESH_MS } from './hub.ts';
import { touchPresence } from './realtime.queries.ts';
import type { Facts } from './relay.enrich.ts';
import { frameChecker } from './frames.parse.ts';
import { AGENT_CLIENT_FRAMES } from './frames.schema.ts';
import { errorFrame, inOrder, parseFrame, typingThrottle } from './socket-frames.ts';

const PONG = JSON.stringify({ type: 'pong' });
const checkFrame = frameChecker(AGENT_CLIENT_FRAMES);

interface Authenticated {
  principal: Principal;
  reauthenticate: () => Promise<Principal>;
  /** Signed in with a session (a person at the web app), not an integration's API key. */
  session: boolean;
}

async function authenticateUpgrade(deps: AppDeps, request: FastifyRequest): Promise<Authenticated> {
  const header = request.headers.authorization;
  const ip = request.ip;
  if (header) {
    // Renewals re-read the agent without the slow hash (many sockets would pay it together every 30 s).
    const { principal, renew } = await authenticateApiKeyHolder(deps, header, ip);
    return { principal, reauthenticate: renew, session: false };
  }
  const token = request.cookies[SESSION_COOKIE];
  if (!token) throw new UnauthorizedError('Authentication required: send API credentials or log in');
  // A browser always sends Origin on a WebSocket handshake; a cookie from another site's page is refused.
  if (request.headers.origin !== new URL(deps.config.baseUrl).origin) {
    throw new PermissionError('Origin not allowed: the session cookie is accepted only from pages of this server');
  }
  // A session held at enrolment (a role requires two-factor sign-in) gets no socket.
  const usable = async () => {
    const principal = await authenticateSession(deps, token);
    assertNotHeldAtEnrolment(principal, 'GET', '/ws');
    return principal;
  };
  return { principal: await usable(), reauthenticate: usable, session: true };
}

/**
 * Who is viewing and replying (server/src/viewers/, docs/api.md "Presence"): given to the agent
 * socket by app.ts, so that realtime does not depend on that domain.
 */
/** A conversation's access facts and its id. */
export type ReadableFacts = Facts & { id: number };

export interface ViewingHooks {
  /** The socket views a conversation it may read; an error message when it may not view more. */
  viewing(conn: AgentConn, conversation: ReadableFacts): Promise<string | null>;
  viewingStopped(conn: AgentConn, conversationUuid: string): Promise<void>;
  /** Each typing frame that goes on (after the coalescing): whether the agent now writes a public reply. */
  typing(conn: AgentConn, conversation: ReadableFacts, replying: boolean): Promise<void>;
}

export async function readableFacts(deps: AppDeps, principal: Principal, uuid: string): Promise<ReadableFacts | null> {
  const [row] = await conversationFacts(deps.db, { uuids: [uuid] });
  if (!row || !canReadConversation(principal, row)) return null;
  return { ...row, livechat: channelHas(row.inbox_channel, 'liveSocket') };
}

export function registerAgentSocket(app: FastifyInstance, deps: AppDeps, hub: Hub, viewers: ViewingHooks | null = null): void {
  const upgrades = new WeakMap<FastifyRequest, Authenticated>();
  app.route({
    method: 'GET',
    url: '/ws',
    schema: { hide: true },
    onRequest: async (request) => {
      upgrades.set(request, await authenticateUpgrade(deps, request));
    },
    handler: async () => {
      throw new InputError('GET /ws is a WebSocket endpoint: send an Upgrade request');
    },
    wsHandler: (raw, request) => {
      const socket = raw as LiveSocket;
      const auth = upgrades.get(request);
      if (!auth) {
        socket.close(1011, 'not authenticated');
        return;
      }
      const nowMs = () => deps.clock.now().getTime();
      const conn: AgentConn = {
        socket,
        agentId: auth.principal.userId,
        principal: auth.principal,
        reauthenticate: auth.reauthenticate,
        // Spread over the refresh interval, so sockets opened together are not re-read together.
        checkedAt: nowMs() - Math.floor(Math.random() * PRINCIPAL_REFRESH_MS),
        heardAt: nowMs(),
        pingedAt: nowMs(),
        subscriptions: new Set(),
      };
      const throttle = typingThrottle();
      const reply = (data: string) => {
        if (socket.readyState === 1) socket.send(data);
      };
      // Attached before anything is awaited, so no early frame is lost.
      // Frames are handled one at a time, in arrival order (subscribe then unsubscribe stays unsubscribed).
      const handle = inOrder(async (data, isBinary) => {
        try {
          await onFrame(data, isBinary);
        } catch (error) {
          request.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'agent socket frame failed');
          reply(errorFrame('The frame could not be handled; try again'));
        }
      });
      socket.on('message', (data, isBinary) => {
        conn.heardAt = nowMs();
        handle(data, isBinary);
      });
      hub.addAgent(conn);
      // Present from now, and then (a person's session only: an integration's key stays as it is)
      // back from an absence: an offline nobody chose ends (docs/api.md, "Realtime").
      const arrive = async () => {
        await touchPresence(deps.db, [conn.agentId], deps.clock.now());
        if (auth.session) await returnFromAbsence(deps, conn.agentId);
      };
      arrive().catch((error: unknown) => {
        request.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not record the agent as present');
      });

      async function onFrame(data: Buffer, isBinary: boolean): Promise<void> {
        const parsed = parseFrame(data, isBinary);
        if (!parsed.ok) return reply(errorFrame(parsed.message));
        const checked = checkFrame(parsed.value.type, parsed.value.frame);
        if (!checked) return reply(errorFrame(`unknown frame type: ${parsed.value.type.slice(0, 50)}`));
        if (!checked.ok) return reply(errorFrame(checked.message));
        const frame = checked.value;
        if (frame.type === 'ping') return reply(PONG);
        const uuid = frame.data.conversation_uuid;
        if (frame.type === 'unsubscribe') {
          conn.subscriptions.delete(uuid);
          return reply(JSON.stringify({ type: 'unsubscribed', data: { conversation_uuid: uuid } }));
        }
        if (frame.type === 'viewing_stopped') return viewers?.viewingStopped(conn, uuid);
        if (frame.type === 'viewing') {
          const facts = await readableFacts(deps, conn.principal, uuid);
          if (!facts) return reply(errorFrame('Conversation not found, or not one you may read', 'not_found'));
          const refused = viewers ? await viewers.viewing(conn, facts) : null;
          if (refused) reply(errorFrame(refused));
          return;
        }
        if (frame.type === 'subscribe') {
          const facts = await readableFacts(deps, conn.principal, uuid);
          if (!facts) return reply(errorFrame('Conversation not found, or not one you may read', 'not_found'));
          if (conn.subscriptions.size >= 500) return reply(errorFrame('Too many subscriptions on this socket (500)'));
          conn.subscriptions.add(uuid);
          return reply(JSON.stringify({ type: 'subscribed', data: { conversation_uuid: uuid } }));
        }
        const isTyping = frame.data.is_typing;
        const isPrivate = frame.data.is_private ?? false;
        if (!throttle(`${uuid}:${isPrivate}`, isTyping, nowMs())) return;
        const facts = await readableFacts(deps, conn.principal, uuid);
        if (!facts) return reply(errorFrame('Conversation not found, or not one you may read', 'not_found'));
        await viewers?.typing(conn, facts, isTyping && !isPrivate);
        await hub.publish({
          kind: 'typing',
          from: 'agent',
          agent_id: conn.agentId,
          conversation: facts,
          is_typing: isTyping,
          private: isPrivate,
        });
      }
    },
  });
}
