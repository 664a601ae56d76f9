// The widget socket (/widget/ws, docs/api.md "Realtime"): joins with the session token, pings,
// and reconnects after a drop with a growing, jittered delay (1 s doubling to 30 s). Nothing is
// replayed by the server, so `onJoined` tells the app to re-read what it shows over HTTP. The
// frames' types are generated from the server's schemas (frames.gen.ts); the data of a frame is
// still checked before use (frames.ts): the socket is a trust boundary.
import type { ClientFrame, ClientFrameOf, ServerFrame } from './frames.gen.ts';

export type SocketFrame = ServerFrame;
/** The frames the app sends after the join, by type. */
type Outgoing = Exclude<ClientFrame['type'], 'join'>;
/** Sends a frame on the socket, when one is open and joined; false when it could not. */
export type SendFrame = <T extends Outgoing>(type: T, data: ClientFrameOf<T>['data']) => boolean;

export interface SocketHandlers {
  onFrame(frame: SocketFrame): void;
  /** Each successful join; `again` after a reconnect (time to re-sync). */
  onJoined(again: boolean): void;
  /**
   * The server refused the join (a session no longer valid, a blocked contact, too many sockets
   * for the session…). Resolves true to try again (with the growing delay), false to stop.
   */
  onJoinFailed(message: string): Promise<boolean>;
  onStatus(connected: boolean): void;
}

export interface ChatSocket {
  send: SendFrame;
  close(): void;
}

const PING_MS = 25_000;

/** A frame: an object with a type (the app ignores a type it does not know). */
function isFrame(value: unknown): value is SocketFrame {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string';
}
const MAX_DELAY_MS = 30_000;

export function openSocket(url: string, token: string, inbox: string, handlers: SocketHandlers): ChatSocket {
  let ws: WebSocket | null = null;
  let joined = false;
  let joinedBefore = false;
  let stopped = false;
  /** A refused join waits for onJoinFailed's answer before any reconnect. */
  let deciding = false;
  let attempt = 0;
  let ping: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  function connect(): void {
    if (stopped) return;
    const socket = new WebSocket(url);
    ws = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'join', token, data: { inbox_id: inbox } }));
    socket.onmessage = (event) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (!isFrame(frame)) return;
      if (frame.type === 'joined') {
        joined = true;
        attempt = 0;
        handlers.onStatus(true);
        handlers.onJoined(joinedBefore);
        joinedBefore = true;
        clearInterval(ping);
        ping = setInterval(() => send('ping', undefined), PING_MS);
      } else if (frame.type === 'error' && !joined) {
        const data = typeof frame.data === 'object' && frame.data !== null ? frame.data : { message: '', code: undefined };
        if (data.code === 'join_failed') {
          deciding = true;
          socket.close();
          void handlers
            .onJoinFailed(data.message ?? '')
            .catch(() => false)
            .then((again) => {
              deciding = false;
              if (!again) stopped = true;
              else if (!stopped && ws === socket) later();
            });
        }
      } else if (frame.type !== 'pong') handlers.onFrame(frame);
    };
    socket.onclose = () => {
      clearInterval(ping);
      const wasJoined = joined;
      joined = false;
      if (wasJoined) handlers.onStatus(false);
      if (stopped || deciding) return;
      later();
    };
  }

  /** The next attempt, after a growing, jittered delay (reset by a successful join). */
  function later(): void {
    clearTimeout(retry);
    const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** attempt) * (0.5 + Math.random() / 2);
    attempt = Math.min(attempt + 1, 6);
    retry = setTimeout(connect, delay);
  }

  function send<T extends Outgoing>(type: T, data: ClientFrameOf<T>['data']): boolean {
    if (!ws || ws.readyState !== WebSocket.OPEN || (!joined && type !== 'ping')) return false;
    ws.send(JSON.stringify(data === undefined ? { type } : { type, data }));
    return true;
  }

  // Back online: try at once rather than wait for the delay.
  const online = () => {
    if (!joined && !stopped && !deciding) {
      clearTimeout(retry);
      if (!ws || ws.readyState === WebSocket.CLOSED) connect();
    }
  };
  addEventListener('online', online);
  connect();
  return {
    send,
    close() {
      stopped = true;
      clearInterval(ping);
      clearTimeout(retry);
      removeEventListener('online', online);
      ws?.close();
    },
  };
}
