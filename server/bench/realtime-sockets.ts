// The socket side of the realtime load generator: opens agent and widget sockets (a bounded
// number at a time), joins and subscribes them as the web app and the widget do, and records
// when each `new_message` frame arrives on each socket. Used by realtime-client.ts.
import { createRequire } from 'node:module';
import { agentAddress, type RealtimePlan, visitorAddress } from './realtime-plan.ts';
import { agentKey, widgetKey } from './realtime-stats.ts';

/** Where Parley's sockets are (docs/api.md, WebSockets). */
export const AGENT_SOCKET_PATH = '/ws';
export const WIDGET_SOCKET_PATH = '/widget/ws';
const OPEN_TIMEOUT_MS = 20_000;

// The `ws` client (installed with @fastify/websocket). The project has no type declarations for
// it, so it is loaded untyped and given the few members used here.
interface WsClient {
  readonly readyState: number;
  send(data: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer) => void): WsClient;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): WsClient;
  on(event: 'error', listener: (error: Error) => void): WsClient;
  once(event: 'open', listener: () => void): WsClient;
  once(event: 'close', listener: (code: number) => void): WsClient;
  once(event: 'error', listener: (error: Error) => void): WsClient;
  once(event: 'unexpected-response', listener: (request: unknown, response: { statusCode?: number }) => void): WsClient;
  off(event: 'error', listener: (error: Error) => void): WsClient;
  removeAllListeners(event: string): WsClient;
}
interface WsClientConstructor {
  new (url: string, options: { headers: Record<string, string>; perMessageDeflate: boolean; localAddress?: string }): WsClient;
  readonly OPEN: number;
}
const WebSocket = (createRequire(import.meta.url)('ws') as { WebSocket: WsClientConstructor }).WebSocket;

export interface FrameLog {
  /** message uuid → socket key → first arrival (performance.now()). */
  arrivals: Map<string, Map<string, number>>;
  /** Every frame received, by type. */
  byType: Map<string, number>;
  /** Arrival times of all frames while counting (for frames per second). */
  counting: { from: number; until: number; frames: number };
  /** Sockets closed after they were ready. */
  closedAfterReady: number;
  /** A few close reasons or errors. */
  samples: string[];
}

export function newFrameLog(): FrameLog {
  return {
    arrivals: new Map(),
    byType: new Map(),
    counting: { from: Number.POSITIVE_INFINITY, until: Number.POSITIVE_INFINITY, frames: 0 },
    closedAfterReady: 0,
    samples: [],
  };
}

function wsUrl(base: string, path: string): string {
  return base.replace(/^http/, 'ws') + path;
}

/** The message uuid a `new_message` frame carries: `data.uuid`, or `data.message.uuid`. */
export function messageUuidOf(data: unknown): string | null {
  if (data === null || typeof data !== 'object') return null;
  const record = data as Record<string, unknown>;
  if (typeof record['uuid'] === 'string') return record['uuid'];
  const inner = record['message'];
  if (inner !== null && typeof inner === 'object' && typeof (inner as Record<string, unknown>)['uuid'] === 'string')
    return (inner as Record<string, unknown>)['uuid'] as string;
  return null;
}

export class ClientSocket {
  readonly key: string;
  readonly ws: WsClient;
  ready = false;
  pongs = 0;
  private onFrame: ((type: string, frame: Record<string, unknown>) => void) | null = null;

  constructor(key: string, url: string, headers: Record<string, string>, log: FrameLog, localAddress?: string) {
    this.key = key;
    this.ws = new WebSocket(url, { headers, perMessageDeflate: false, ...(localAddress ? { localAddress } : {}) });
    // Listeners first: frames that arrive at once are not lost.
    this.ws.on('message', (raw) => {
      const at = performance.now();
      let frame: unknown;
      try {
        frame = JSON.parse(raw.toString());
      } catch {
        return;
      }
      if (frame === null || typeof frame !== 'object') return;
      const record = frame as Record<string, unknown>;
      const type = typeof record['type'] === 'string' ? record['type'] : '?';
      log.byType.set(type, (log.byType.get(type) ?? 0) + 1);
      if (at >= log.counting.from && at < log.counting.until) log.counting.frames++;
      if (type === 'pong') this.pongs++;
      if (type === 'new_message') {
        const uuid = messageUuidOf(record['data']);
        if (uuid) {
          let sockets = log.arrivals.get(uuid);
          if (!sockets) {
            sockets = new Map();
            log.arrivals.set(uuid, sockets);
          }
          if (!sockets.has(this.key)) sockets.set(this.key, at);
        }
      }
      this.onFrame?.(type, record);
    });
    this.ws.on('close', (code, reason) => {
      if (this.ready) {
        log.closedAfterReady++;
        if (log.samples.length < 5) log.samples.push(`${this.key} closed: ${code} ${reason.toString()}`);
      }
      this.ready = false;
    });
    this.ws.on('error', (error) => {
      if (log.samples.length < 5) log.samples.push(`${this.key}: ${error.message}`);
    });
  }

  send(frame: Record<string, unknown>): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  /** Resolves once open and `setUp` has resolved; rejects on an error, a close or a timeout first. */
  open(setUp: (socket: ClientSocket) => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`${this.key}: not ready within ${OPEN_TIMEOUT_MS / 1000} s`)), OPEN_TIMEOUT_MS);
      const fail = (error: Error) => {
        clearTimeout(timer);
        this.ws.terminate();
        reject(error);
      };
      this.ws.once('unexpected-response', (_request, response) => fail(new Error(`${this.key}: upgrade answered ${response.statusCode}`)));
      this.ws.once('error', fail);
      this.ws.once('close', (code) => fail(new Error(`${this.key}: closed (${code}) before it was ready`)));
      this.ws.once('open', () => {
        setUp(this).then(() => {
          clearTimeout(timer);
          this.ws.off('error', fail);
          this.ws.removeAllListeners('unexpected-response');
          this.ready = true;
          resolve();
        }, fail);
      });
    });
  }

  /** The next frame of one of these types. */
  next(types: readonly string[]): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.onFrame = (type, frame) => {
        if (!types.includes(type)) return;
        this.onFrame = null;
        resolve(frame);
      };
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

/** An agent's tab: authenticated by its API credentials on the upgrade, then subscribed to its conversations. */
export function agentSocket(plan: RealtimePlan, index: number, log: FrameLog): { socket: ClientSocket; ready: Promise<void> } {
  const spec = plan.agentSockets[index];
  if (!spec) throw new Error(`no agent socket ${index}`);
  const agent = plan.agents[spec.agent] as { authorization: string };
  const socket = new ClientSocket(
    agentKey(index),
    wsUrl(plan.instances[spec.instance] as string, AGENT_SOCKET_PATH),
    { authorization: agent.authorization },
    log,
    agentAddress(spec.agent),
  );
  const ready = socket.open(async (s) => {
    for (const conversation of spec.subscribe)
      s.send({ type: 'subscribe', data: { conversation_uuid: (plan.conversations[conversation] as { uuid: string }).uuid } });
  });
  return { socket, ready };
}

/** A visitor's widget: joins with its session token and the inbox's uuid, ready on `joined`. */
export function widgetSocket(plan: RealtimePlan, index: number, log: FrameLog): { socket: ClientSocket; ready: Promise<void> } {
  const spec = plan.widgetSockets[index];
  if (!spec) throw new Error(`no widget socket ${index}`);
  const conversation = plan.conversations[spec.conversation] as { token: string };
  const socket = new ClientSocket(
    widgetKey(index),
    wsUrl(plan.instances[spec.instance] as string, WIDGET_SOCKET_PATH),
    {},
    log,
    visitorAddress(spec.conversation),
  );
  const ready = socket.open(async (s) => {
    const answer = s.next(['joined', 'error']);
    s.send({ type: 'join', token: conversation.token, data: { inbox_id: plan.inboxUuid } });
    const frame = await answer;
    if (frame['type'] !== 'joined') throw new Error(`${s.key}: join refused: ${JSON.stringify(frame['data'])}`);
  });
  return { socket, ready };
}

/** Runs `open(i)` for i in [0, count), at most `concurrency` at once; returns the failures. */
export async function openAll(count: number, concurrency: number, open: (i: number) => Promise<void>): Promise<Error[]> {
  const failures: Error[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      try {
        await open(i);
      } catch (error) {
        failures.push(error instanceof Error ? error : new Error(String(error)));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return failures;
}
