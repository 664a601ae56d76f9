// The agent socket (`/ws`, docs/api.md "Realtime"): one connection per tab, authenticated by the
// session cookie, reconnecting with a growing delay (1 s doubling to 30 s, with jitter). Frames
// are parsed here and handed on as they are; realtime/cache.ts decides what they change. The
// frames' types are generated from the server's schemas (frames.gen.ts), which the server's
// tests hold every frame it sends to.
import type { ClientFrame, ServerFrame } from './frames.gen';

export type SocketState = 'connecting' | 'open' | 'reconnecting' | 'closed';

interface Options {
  onFrame: (frame: ServerFrame) => void;
  onState: (state: SocketState) => void;
  /** After a reconnect (not the first open): whatever was missed must be read again over HTTP. */
  onResync: () => void;
  /** The server closed the socket because its credentials no longer hold (1008: the session was ended, the agent disabled). */
  onRefused?: () => void;
  url?: string;
}

const MAX_DELAY_MS = 30_000;
const CLOSE_POLICY = 1008;
const PING_MS = 25_000;

/** A frame: an object with a type (a type this app does not know is ignored by its reader). */
function isFrame(value: unknown): value is ServerFrame {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}

export class AgentSocket {
  #options: Options;
  #socket: WebSocket | null = null;
  #subscriptions = new Map<string, number>();
  /** Conversations a screen of this tab shows (`viewing`, docs/api.md "Presence"), counted like subscriptions. */
  #viewing = new Map<string, number>();
  #attempt = 0;
  #opened = false;
  #timer = 0;
  #ping = 0;
  #stopped = false;

  constructor(options: Options) {
    this.#options = options;
  }

  start(): void {
    this.#stopped = false;
    this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    window.clearTimeout(this.#timer);
    window.clearInterval(this.#ping);
    this.#socket?.close(1000);
    this.#socket = null;
    this.#options.onState('closed');
  }

  /** Counted: two screens showing one conversation subscribe once, and the last to leave unsubscribes. */
  subscribe(conversationUuid: string): () => void {
    const count = this.#subscriptions.get(conversationUuid) ?? 0;
    this.#subscriptions.set(conversationUuid, count + 1);
    if (count === 0) this.send({ type: 'subscribe', data: { conversation_uuid: conversationUuid } });
    return () => {
      const left = (this.#subscriptions.get(conversationUuid) ?? 1) - 1;
      if (left > 0) this.#subscriptions.set(conversationUuid, left);
      else {
        this.#subscriptions.delete(conversationUuid);
        this.send({ type: 'unsubscribe', data: { conversation_uuid: conversationUuid } });
      }
    };
  }

  /** Who is viewing: `viewing` when the first screen opens the conversation, `viewing_stopped` when the last one goes. */
  view(conversationUuid: string): () => void {
    const count = this.#viewing.get(conversationUuid) ?? 0;
    this.#viewing.set(conversationUuid, count + 1);
    if (count === 0) this.send({ type: 'viewing', data: { conversation_uuid: conversationUuid } });
    return () => {
      const left = (this.#viewing.get(conversationUuid) ?? 1) - 1;
      if (left > 0) this.#viewing.set(conversationUuid, left);
      else {
        this.#viewing.delete(conversationUuid);
        this.send({ type: 'viewing_stopped', data: { conversation_uuid: conversationUuid } });
      }
    };
  }

  send(frame: ClientFrame): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(frame));
  }

  #connect(): void {
    const url = this.#options.url ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    this.#options.onState(this.#opened ? 'reconnecting' : 'connecting');
    const socket = new WebSocket(url);
    this.#socket = socket;
    socket.addEventListener('open', () => {
      const reconnected = this.#opened;
      this.#opened = true;
      this.#attempt = 0;
      this.#options.onState('open');
      for (const uuid of this.#subscriptions.keys()) this.send({ type: 'subscribe', data: { conversation_uuid: uuid } });
      for (const uuid of this.#viewing.keys()) this.send({ type: 'viewing', data: { conversation_uuid: uuid } });
      window.clearInterval(this.#ping);
      this.#ping = window.setInterval(() => this.send({ type: 'ping' }), PING_MS);
      if (reconnected) this.#options.onResync();
    });
    socket.addEventListener('message', (message) => {
      if (typeof message.data !== 'string') return;
      let frame: unknown;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (isFrame(frame)) this.#options.onFrame(frame);
    });
    socket.addEventListener('close', (event) => {
      window.clearInterval(this.#ping);
      if (this.#socket !== socket || this.#stopped) return;
      if (event.code === CLOSE_POLICY) this.#options.onRefused?.();
      this.#socket = null;
      this.#options.onState(this.#opened ? 'reconnecting' : 'connecting');
      const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** this.#attempt) * (0.75 + Math.random() * 0.5);
      this.#attempt += 1;
      this.#timer = window.setTimeout(() => this.#connect(), delay);
    });
  }
}
