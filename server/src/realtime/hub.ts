// The sockets of one app instance and the fan-out to them (docs/api.md, "Realtime"). It hears
// the relayed events and the ephemeral ones (typing, presence, page visits) on the bus, and
// sends each socket only what it may see: conversation events to agents the access rule
// allows, widget frames to the sockets of the conversation's contact. It also keeps sockets
// honest: protocol pings, silent sockets closed after 60 s, principals re-read when their
// credentials change (and every 30 s), agent presence written for the periodic task.
import { INVALIDATE_CHANNEL, type Principal } from '../auth/credential-cache.ts';
import { canReadContact } from '../conversations/contacts.access.ts';
import { canReadConversation } from '../conversations/conversations.access.ts';
import { contactConversationFacts } from '../conversations/conversations.read.ts';
import type { AppDeps } from '../deps.ts';
import { PermissionError, UnauthorizedError } from '../errors.ts';
import { isOriginTrusted } from '../widget/widget.edge.ts';
import { findWidgetInbox, isAddressBlocked } from '../widget/widget.inbox.ts';
import { liveSessionHashes } from '../widget/widget.sessions.ts';
import { EVENTS_CHANNEL } from './relay.ts';
import type { Facts, RelayedEvent } from './relay.enrich.ts';
import { frame, framesOf } from './frames.ts';
import type { ContactUpdate } from './frames.schema.ts';
import { touchPresence } from './realtime.queries.ts';

/** The part of a `ws` socket the hub uses. */
export interface LiveSocket {
  readonly readyState: number;
  /** Bytes queued but not yet written to the network. */
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): unknown;
  on(event: 'pong' | 'close', listener: () => void): unknown;
}

const OPEN = 1;
export const EPHEMERAL_CHANNEL = 'realtime.ephemeral';
export const SILENT_CLOSE_MS = 60_000;
const PING_EVERY_MS = 20_000;
export const PRINCIPAL_REFRESH_MS = 30_000;
const PRESENCE_TOUCH_MS = 60_000;
/** Close codes: 1001 going away (shutdown), 1008 policy (credentials no longer valid). */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_POLICY = 1008;

interface Conn {
  socket: LiveSocket;
  /** Last frame or pong heard (clock ms). */
  heardAt: number;
  pingedAt: number;
}

export interface AgentConn extends Conn {
  agentId: number;
  principal: Principal;
  /** Re-reads the principal from the credentials the socket was opened with; throws when they are no longer valid. */
  reauthenticate: () => Promise<Principal>;
  checkedAt: number;
  subscriptions: Set<string>;
}

export interface WidgetConn extends Conn {
  contactId: number;
  inboxId: number;
  /** The client address and page origin it joined from, checked again when its inbox changes. */
  address: string;
  origin: string | undefined;
  /** The SHA-256 of its session token: a session ended (the inbox's sessions ended with a rotation) closes it. */
  sessionHash: string;
}

/** What crosses the bus besides the relayed events: never stored, so no outbox. */
export type Ephemeral =
  | { kind: 'typing'; from: 'agent'; agent_id: number; conversation: Facts; is_typing: boolean; private: boolean }
  | { kind: 'typing'; from: 'contact'; contact_id: number; conversation: Facts; is_typing: boolean }
  /** `conversations`: the contact's newest ones; the update reaches agents who may read one of them (and read contacts). */
  | { kind: 'contact_update'; contact_id: number; conversations: AccessFacts[]; data: ContactUpdate };

/** What the access rule needs of a conversation. */
type AccessFacts = { assigned_user_id: number | null; assigned_team_id: number | null };

export interface Hub {
  addAgent(conn: AgentConn): void;
  addWidget(conn: WidgetConn): void;
  /** Sends to every instance (this one included). */
  publish(message: Ephemeral): Promise<void>;
  /** Whether any agent socket is open on this instance. */
  hasAgents(): boolean;
  /** Sends a frame to every agent socket of this instance that may read the conversation. */
  toReaders(conversation: AccessFacts, data: string): void;
  /** Widget sockets of a contact on this instance. */
  widgetCount(contactId: number): number;
  closeAll(code: number, reason: string): void;
  stop(): Promise<void>;
}

/** Past this much unsent data a socket is not reading: it is dropped, and its client re-syncs over HTTP. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

function send(conn: Conn, data: string): void {
  if (conn.socket.readyState !== OPEN) return;
  if (conn.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    conn.socket.terminate();
    return;
  }
  conn.socket.send(data);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function createHub(deps: AppDeps, options: { sweepMs?: number } = {}): Promise<Hub> {
  const log = deps.log.child({ component: 'hub' });
  const agents = new Map<number, Set<AgentConn>>();
  const widgets = new Map<number, Set<WidgetConn>>();
  const now = () => deps.clock.now().getTime();
  let presenceAt = now();

  function* allAgents(): Generator<AgentConn> {
    for (const set of agents.values()) yield* set;
  }

  function deliver(event: RelayedEvent): void {
    const frames = framesOf(event);
    if (frames.closeAgent !== null) {
      for (const conn of agents.get(frames.closeAgent) ?? []) conn.socket.close(CLOSE_POLICY, 'agent removed');
    }
    if (frames.recheckInbox !== null) void recheckInbox(frames.recheckInbox);
    if (frames.closeWidgetsOf !== null) {
      for (const conn of widgets.get(frames.closeWidgetsOf) ?? []) conn.socket.close(CLOSE_POLICY, 'session ended');
    }
    if (frames.agent && frames.toAgent !== null) {
      for (const conn of agents.get(frames.toAgent) ?? []) send(conn, frames.agent);
    } else if (frames.agent) {
      const c = event.conversation;
      for (const conn of allAgents()) {
        if (frames.toAllAgents) send(conn, frames.agent);
        else if (c && (canReadConversation(conn.principal, c) || (event.previous && canReadConversation(conn.principal, event.previous)))) {
          send(conn, frames.agent);
        }
      }
    }
    if (frames.widget && event.conversation) {
      for (const conn of widgets.get(event.conversation.contact_id) ?? []) {
        if (conn.inboxId === event.conversation.inbox_id) send(conn, frames.widget);
      }
    }
  }

  /** An inbox changed: its widget sockets that it no longer admits (disabled, deleted, blocked address, untrusted origin, session ended) are closed. */
  async function recheckInbox(inbox: { id: number; uuid: string }): Promise<void> {
    const conns = [...widgets.values()].flatMap((set) => [...set]).filter((conn) => conn.inboxId === inbox.id);
    if (conns.length === 0) return;
    try {
      const fresh = await findWidgetInbox(deps, inbox.uuid);
      const live = await liveSessionHashes(
        deps.db,
        conns.map((conn) => conn.sessionHash),
        deps.clock.now(),
      );
      for (const conn of conns) {
        const admitted =
          fresh !== null &&
          live.has(conn.sessionHash) &&
          !isAddressBlocked(fresh.config.blocked_ips ?? [], conn.address) &&
          (conn.origin === undefined || isOriginTrusted(fresh.config.trusted_domains ?? [], conn.origin));
        if (!admitted) conn.socket.close(CLOSE_POLICY, 'the inbox no longer admits this socket');
      }
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not check the widget sockets of a changed inbox');
    }
  }

  function deliverEphemeral(message: Ephemeral): void {
    if (message.kind === 'contact_update') {
      const data = frame('contact_update', message.data);
      const conversations = Array.isArray(message.conversations) ? message.conversations : [];
      for (const conn of allAgents()) {
        // The contact access rule (conversations/contacts.access.ts) on the contact's newest conversations.
        if (conn.principal.permissions.has('contacts:read') && canReadContact(conn.principal, conversations)) send(conn, data);
      }
      return;
    }
    const c = message.conversation;
    const data = frame('typing', { conversation_uuid: c.uuid, is_typing: message.is_typing });
    if (message.from === 'agent') {
      const toAgents = frame('typing', {
        conversation_uuid: c.uuid,
        is_typing: message.is_typing,
        is_private: message.private,
        agent_id: message.agent_id,
      });
      for (const conn of allAgents()) {
        if (conn.agentId !== message.agent_id && conn.subscriptions.has(c.uuid) && canReadConversation(conn.principal, c)) {
          send(conn, toAgents);
        }
      }
      if (!message.private && c.livechat) {
        for (const conn of widgets.get(c.contact_id) ?? []) if (conn.inboxId === c.inbox_id) send(conn, data);
      }
      return;
    }
    const fromContact = frame('typing', { conversation_uuid: c.uuid, is_typing: message.is_typing, contact_id: message.contact_id });
    for (const conn of allAgents()) {
      if (conn.subscriptions.has(c.uuid) && canReadConversation(conn.principal, c)) send(conn, fromContact);
    }
  }

  async function refresh(conns: AgentConn[]): Promise<void> {
    await Promise.all(
      conns.map(async (conn) => {
        try {
          conn.principal = await conn.reauthenticate();
          conn.checkedAt = now();
        } catch (error) {
          // Only a credential that no longer holds closes the socket; a database hiccup is retried at the next sweep.
          if (error instanceof UnauthorizedError || error instanceof PermissionError) {
            conn.socket.close(CLOSE_POLICY, 'credentials no longer valid');
          } else {
            log.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not re-read an agent socket principal');
          }
        }
      }),
    );
  }

  const unsubscribe = await Promise.all([
    deps.bus.subscribe(EVENTS_CHANNEL, (message) => {
      const events = message['events'];
      if (!Array.isArray(events)) return;
      for (const event of events as RelayedEvent[]) {
        try {
          deliver(event);
        } catch (error) {
          log.warn({ err: error instanceof Error ? error.message : String(error), event: event?.id }, 'could not deliver an event');
        }
      }
    }),
    deps.bus.subscribe(EPHEMERAL_CHANNEL, (message) => {
      if (isObject(message) && (message['kind'] === 'typing' || message['kind'] === 'contact_update')) {
        deliverEphemeral(message as unknown as Ephemeral);
      }
    }),
    deps.bus.subscribe(INVALIDATE_CHANNEL, (message) => {
      const userId = message['userId'];
      const affected = typeof userId === 'number' ? [...(agents.get(userId) ?? [])] : [...allAgents()];
      // After the credential cache has dropped its entries (its listener may run after this one).
      setImmediate(() => void refresh(affected));
    }),
  ]);

  const sweep = setInterval(() => {
    const t = now();
    const due: AgentConn[] = [];
    for (const conn of [...allAgents(), ...[...widgets.values()].flatMap((set) => [...set])]) {
      if (t - conn.heardAt > SILENT_CLOSE_MS) {
        conn.socket.terminate();
        continue;
      }
      if (t - conn.pingedAt >= PING_EVERY_MS) {
        conn.pingedAt = t;
        try {
          conn.socket.ping();
        } catch {
          // A socket closing under us: its close handler removes it.
        }
      }
      if ('principal' in conn && t - conn.checkedAt >= PRINCIPAL_REFRESH_MS) {
        conn.checkedAt = t;
        due.push(conn);
      }
    }
    if (due.length > 0) void refresh(due);
    if (t - presenceAt >= PRESENCE_TOUCH_MS && agents.size > 0) {
      presenceAt = t;
      touchPresence(deps.db, [...agents.keys()], new Date(t)).catch((error: unknown) => {
        log.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not record agent presence');
      });
    }
  }, options.sweepMs ?? 1_000);
  sweep.unref();

  async function publish(message: Ephemeral): Promise<void> {
    await deps.bus.publish(EPHEMERAL_CHANNEL, message as unknown as Record<string, unknown>);
  }

  const heard = (conn: Conn) => () => {
    conn.heardAt = now();
  };

  return {
    addAgent(conn) {
      let set = agents.get(conn.agentId);
      if (!set) {
        set = new Set();
        agents.set(conn.agentId, set);
      }
      set.add(conn);
      deps.metrics.sockets.inc({ kind: 'agent' });
      conn.socket.on('pong', heard(conn));
      conn.socket.on('close', () => {
        deps.metrics.sockets.dec({ kind: 'agent' });
        set.delete(conn);
        if (set.size === 0 && agents.get(conn.agentId) === set) agents.delete(conn.agentId);
        // The agent was here until now: the 5 minutes of absence start at this moment.
        touchPresence(deps.db, [conn.agentId], deps.clock.now()).catch(() => undefined);
      });
    },
    addWidget(conn) {
      let set = widgets.get(conn.contactId);
      if (!set) {
        set = new Set();
        widgets.set(conn.contactId, set);
      }
      set.add(conn);
      deps.metrics.sockets.inc({ kind: 'widget' });
      conn.socket.on('pong', heard(conn));
      conn.socket.on('close', () => {
        deps.metrics.sockets.dec({ kind: 'widget' });
        set.delete(conn);
        if (set.size === 0 && widgets.get(conn.contactId) === set) {
          widgets.delete(conn.contactId);
          // The contact's last socket on this instance (docs/api.md, "Realtime": presence is per instance).
          contactConversationFacts(deps.db, conn.contactId)
            .then((conversations) =>
              publish({
                kind: 'contact_update',
                contact_id: conn.contactId,
                conversations,
                data: { contact_id: conn.contactId, presence: 'offline' },
              }),
            )
            .catch((error: unknown) =>
              log.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not publish presence'),
            );
        }
      });
    },
    publish,
    hasAgents: () => agents.size > 0,
    toReaders(conversation, data) {
      for (const conn of allAgents()) if (canReadConversation(conn.principal, conversation)) send(conn, data);
    },
    widgetCount: (contactId) => widgets.get(contactId)?.size ?? 0,
    closeAll(code, reason) {
      for (const conn of allAgents()) conn.socket.close(code, reason);
      for (const set of widgets.values()) for (const conn of set) conn.socket.close(code, reason);
    },
    async stop() {
      clearInterval(sweep);
      await Promise.all(unsubscribe.map((stop) => stop()));
    },
  };
}
