// The widget socket `GET /widget/ws` (docs/api.md, "Realtime"). A socket joins with its widget
// session token and inbox uuid; until then only `join` and `ping` are answered. The contact's
// own conversations get agent replies (never private notes), agent typing and conversation
// updates; the contact's typing and page visits go to the agents. Upgrades are rate limited
// per client address (generous: many visitors share an address) and sockets capped per session.
import type { FastifyInstance } from 'fastify';
import { findLiveContact, noteContactActive } from '../contacts/contacts.service.ts';
import { contactConversationFacts, conversationFacts } from '../conversations/conversations.read.ts';
import { sha256 } from '../security/hashing.ts';
import type { AppDeps } from '../deps.ts';
import { InputError } from '../errors.ts';
import { channelHas } from '../inboxes/channels.ts';
import { findWidgetInbox, isAddressBlocked } from '../widget/widget.inbox.ts';
import { foreignOrigin, isOriginTrusted } from '../widget/widget.edge.ts';
import { lifetimeOf } from '../widget/widget.identity.ts';
import { resolveWidgetSession } from '../widget/widget.sessions.ts';
import { CLOSE_POLICY, type Hub, type LiveSocket, type WidgetConn } from './hub.ts';
import { recordPageVisit } from './page-visits.ts';
import { frameChecker } from './frames.parse.ts';
import { WIDGET_CLIENT_FRAMES } from './frames.schema.ts';
import {
  cleanPageUrl,
  errorFrame,
  FRAMES_PER_SECOND,
  frameBudget,
  hasControlCharacters,
  inOrder,
  parseFrame,
  typingThrottle,
} from './socket-frames.ts';

const PONG = JSON.stringify({ type: 'pong' });
const checkFrame = frameChecker(WIDGET_CLIENT_FRAMES);
export const WIDGET_UPGRADES_PER_MINUTE = 120;
export const SOCKETS_PER_SESSION = 10;
/** Open widget sockets per client address on one instance: generous (visitors behind one NAT), but bounded. */
export const SOCKETS_PER_ADDRESS = 500;
/** A socket that has not joined this long after opening is closed (1008). */
export const JOIN_WITHIN_MS = 15_000;
/** Failed joins a socket may make before it is closed (1008). */
export const MAX_FAILED_JOINS = 10;
const PAGE_VISIT_EVERY_MS = 1_000;

const joinFailed = (message: string) => errorFrame(message, 'join_failed');

export function registerWidgetSocket(app: FastifyInstance, deps: AppDeps, hub: Hub): void {
  /** Sockets per session on this instance (token hash → count). */
  const perSession = new Map<string, number>();
  /** Open sockets per client address on this instance. */
  const perAddress = new Map<string, number>();
  app.route({
    method: 'GET',
    url: '/widget/ws',
    schema: { hide: true },
    config: { rateLimit: { max: WIDGET_UPGRADES_PER_MINUTE, timeWindow: 60_000 } },
    handler: async () => {
      throw new InputError('GET /widget/ws is a WebSocket endpoint: send an Upgrade request');
    },
    wsHandler: (raw, request) => {
      const socket = raw as LiveSocket;
      const nowMs = () => deps.clock.now().getTime();
      let conn: WidgetConn | null = null;
      let joining = false;
      let sessionKey: string | null = null;
      let lastVisitAt = 0;
      const throttle = typingThrottle();
      const reply = (data: string) => {
        if (socket.readyState === 1) socket.send(data);
      };
      const address = request.ip;
      if ((perAddress.get(address) ?? 0) >= SOCKETS_PER_ADDRESS) {
        socket.close(CLOSE_POLICY, `too many sockets from this address (${SOCKETS_PER_ADDRESS})`);
        return;
      }
      perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
      const budget = frameBudget(nowMs);
      let failedJoins = 0;
      // Frames in arrival order; a client sending faster than the budget is closed.
      const handle = inOrder(async (data, isBinary) => {
        if (conn) conn.heardAt = nowMs();
        try {
          await onFrame(data, isBinary);
        } catch (error) {
          request.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'widget socket frame failed');
          reply(errorFrame('The frame could not be handled; try again'));
        }
      });
      socket.on('message', (data, isBinary) => {
        if (!budget()) {
          socket.close(CLOSE_POLICY, `too many frames (at most ${FRAMES_PER_SECOND} a second)`);
          return;
        }
        handle(data, isBinary);
      });
      socket.on('close', () => {
        clearTimeout(joinDeadline);
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left <= 0) perAddress.delete(address);
        else perAddress.set(address, left);
        if (sessionKey) {
          const left = (perSession.get(sessionKey) ?? 1) - 1;
          if (left <= 0) perSession.delete(sessionKey);
          else perSession.set(sessionKey, left);
        }
      });
      // A socket must join soon after it opens, whatever else it sends; once joined, the hub closes it when silent.
      const joinDeadline = setTimeout(() => {
        if (!conn) socket.close(CLOSE_POLICY, `join within ${JOIN_WITHIN_MS / 1000} s`);
      }, JOIN_WITHIN_MS);
      joinDeadline.unref();
      const failJoin = (message: string) => {
        failedJoins += 1;
        reply(joinFailed(message));
        if (failedJoins >= MAX_FAILED_JOINS) socket.close(CLOSE_POLICY, 'too many failed joins');
      };

      async function join(frame: Record<string, unknown>): Promise<void> {
        if (conn || joining) return reply(errorFrame('This socket has already joined', 'join_failed'));
        const checked = checkFrame('join', frame);
        if (!checked?.ok || checked.value.type !== 'join') return failJoin(checked?.ok === false ? checked.message : 'not a join');
        const { token } = checked.value;
        const inboxUuid = checked.value.data.inbox_id;
        joining = true;
        try {
          const inbox = await findWidgetInbox(deps, inboxUuid);
          if (!inbox) return failJoin('Inbox not found');
          if (isAddressBlocked(inbox.config.blocked_ips ?? [], address)) return failJoin('Your address is blocked');
          // Parley's own chat frame is not another site (its embedding is checked by its CSP).
          const origin = foreignOrigin(deps, request);
          if (origin !== undefined && !isOriginTrusted(inbox.config.trusted_domains ?? [], origin)) {
            return failJoin('This site may not embed the chat of this inbox');
          }
          const session = await resolveWidgetSession(deps.db, token, inbox.id, deps.clock.now(), lifetimeOf(inbox));
          if (!session) return failJoin('Session not valid for this inbox');
          const contact = await findLiveContact(deps.db, session.userId);
          if (!contact || !contact.enabled) return failJoin('Contact not found or blocked');
          const key = sha256(token);
          const count = perSession.get(key) ?? 0;
          if (count >= SOCKETS_PER_SESSION) return failJoin(`Too many sockets for this session (${SOCKETS_PER_SESSION})`);
          if (socket.readyState !== 1) return;
          perSession.set(key, count + 1);
          sessionKey = key;
          const first = hub.widgetCount(contact.id) === 0;
          conn = {
            socket,
            contactId: contact.id,
            inboxId: inbox.id,
            address,
            origin,
            sessionHash: key,
            heardAt: nowMs(),
            pingedAt: nowMs(),
          };
          clearTimeout(joinDeadline);
          hub.addWidget(conn);
          reply(JSON.stringify({ type: 'joined', data: { message: 'Joined' } }));
          await noteContactActive(deps.db, contact.id, deps.clock.now());
          if (first)
            await hub.publish({
              kind: 'contact_update',
              contact_id: contact.id,
              conversations: await contactConversationFacts(deps.db, contact.id),
              data: { contact_id: contact.id, presence: 'online' },
            });
        } finally {
          joining = false;
        }
      }

      async function onFrame(data: Buffer, isBinary: boolean): Promise<void> {
        const parsed = parseFrame(data, isBinary);
        if (!parsed.ok) return reply(errorFrame(parsed.message));
        const { type } = parsed.value;
        if (type === 'join') return join(parsed.value.frame);
        if (!conn && type !== 'ping')
          return reply(errorFrame('Join first: send {"type":"join","token":…,"data":{"inbox_id":…}}', 'not_joined'));
        const checked = checkFrame(type, parsed.value.frame);
        if (!checked) return reply(errorFrame(`unknown frame type: ${type.slice(0, 50)}`));
        if (!checked.ok) return reply(errorFrame(checked.message));
        const frame = checked.value;
        if (frame.type === 'ping') return reply(PONG);
        if (!conn || frame.type === 'join') return;
        if (frame.type === 'typing') {
          const { conversation_uuid: uuid, is_typing: isTyping } = frame.data;
          if (!throttle(uuid, isTyping, nowMs())) return;
          const [row] = await conversationFacts(deps.db, { uuids: [uuid] });
          if (!row || row.contact_id !== conn.contactId || row.inbox_id !== conn.inboxId) {
            return reply(errorFrame('Conversation not found', 'not_found'));
          }
          const facts = { ...row, livechat: channelHas(row.inbox_channel, 'liveSocket') };
          return hub.publish({ kind: 'typing', from: 'contact', contact_id: conn.contactId, conversation: facts, is_typing: isTyping });
        }
        const title = frame.data.title ?? '';
        const url = cleanPageUrl(frame.data.url);
        if (url === null) return reply(errorFrame('data.url must be an http or https URL of at most 2048 characters'));
        if (hasControlCharacters(title) || !title.isWellFormed())
          return reply(errorFrame('data.title must be text of at most 256 characters'));
        if (nowMs() - lastVisitAt < PAGE_VISIT_EVERY_MS)
          return reply(errorFrame('Too many page visits: at most one a second', 'rate_limited'));
        lastVisitAt = nowMs();
        const visits = await recordPageVisit(deps, conn.contactId, url, title);
        return hub.publish({
          kind: 'contact_update',
          contact_id: conn.contactId,
          conversations: await contactConversationFacts(deps.db, conn.contactId),
          data: { contact_id: conn.contactId, page_visits: visits },
        });
      }
    },
  });
}
