// Real WebSocket clients for tests: a listening app on 127.0.0.1, sockets that buffer every
// frame, and bounded waits (nextFrame, noFrame), so a missing frame fails instead of hanging.
// Every frame received is checked against the socket's schema (realtime/frames.schema.ts): a
// frame of another shape fails the test at its next wait.
import { type AddressInfo, connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { buildAjv } from '../src/http/validation.ts';
import { AgentServerFrame, WidgetServerFrame } from '../src/realtime/frames.schema.ts';

const ajv = buildAjv({ coerceTypes: false, useDefaults: false, allErrors: true });
const checkAgentFrame = ajv.compile(AgentServerFrame);
const checkWidgetFrame = ajv.compile(WidgetServerFrame);

/** Why a frame of the socket at `url` (the agent's `/ws` or the widget's `/widget/ws`) breaks its schema, or null. */
export function frameViolation(url: string, frame: unknown): string | null {
  const check = new URL(url).pathname.endsWith('/widget/ws') ? checkWidgetFrame : checkAgentFrame;
  if (check(frame)) return null;
  const errors = (check.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  return `a frame of ${new URL(url).pathname} does not match its schema (frames.schema.ts): ${JSON.stringify(frame).slice(0, 600)}; ${errors.join('; ')}`;
}

const violations = new WeakMap<TestSocket, string[]>();

/** Fails with the first frame received that broke its schema. */
export function assertFramesValid(socket: TestSocket): void {
  const [first] = violations.get(socket) ?? [];
  if (first) throw new Error(first);
}

export interface Frame {
  type: string;
  data?: unknown;
  event?: { id: number; created_at: string };
  [key: string]: unknown;
}

export interface TestSocket {
  ws: WebSocket;
  /** Frames received and not yet taken by nextFrame. */
  frames: Frame[];
  send(frame: unknown): void;
  /** The close code and reason, once closed. */
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (a free port) and answers the ws:// base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}`;
}

const waiters = new WeakMap<TestSocket, Set<() => void>>();

export function openSocket(url: string, headers: Record<string, string> = {}): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const frames: Frame[] = [];
    let closedResolve!: (value: { code: number; reason: string }) => void;
    const closed = new Promise<{ code: number; reason: string }>((r) => {
      closedResolve = r;
    });
    const socket: TestSocket = {
      ws,
      frames,
      send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
      closed,
      async close() {
        if (ws.readyState !== 3) {
          ws.close();
          await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
        }
        assertFramesValid(socket);
      },
    };
    waiters.set(socket, new Set());
    violations.set(socket, []);
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as Frame;
      const violation = frameViolation(url, frame);
      if (violation) violations.get(socket)?.push(violation);
      frames.push(frame);
      for (const wake of waiters.get(socket) ?? []) wake();
    });
    ws.on('close', (code: number, reason: Buffer) => {
      closedResolve({ code, reason: reason.toString('utf8') });
      for (const wake of waiters.get(socket) ?? []) wake();
    });
    ws.on('open', () => resolve(socket));
    ws.on('unexpected-response', (_req: unknown, res: import('node:http').IncomingMessage) => {
      reject(new Error(`upgrade refused: ${res.statusCode}`));
    });
    ws.on('error', (error: Error) => reject(error));
  });
}

/**
 * Presence broadcasts: any agent's socket opening may make that agent available, and every agent
 * socket hears of it, at any moment. A test waits for them by name; "the next frame" skips them.
 */
const notPresence = (frame: Frame) => frame.type !== 'agent_availability_update';

/**
 * The first buffered or coming frame matching `predicate` (taken from the buffer); fails after
 * timeoutMs. Without a predicate: the next frame other than a presence broadcast.
 */
export async function nextFrame(socket: TestSocket, predicate: (frame: Frame) => boolean = notPresence, timeoutMs = 5000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    assertFramesValid(socket);
    const index = socket.frames.findIndex(predicate);
    if (index >= 0) return socket.frames.splice(index, 1)[0] as Frame;
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(socket.frames).slice(0, 1000)}`);
    await new Promise<void>((resolve) => {
      const set = waiters.get(socket) ?? new Set();
      const wake = () => {
        set.delete(wake);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(wake, left);
      set.add(wake);
    });
  }
}

/** Asserts that no frame matching `predicate` arrives within `ms`. */
export async function noFrame(socket: TestSocket, predicate: (frame: Frame) => boolean, ms = 500): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
  assertFramesValid(socket);
  const found = socket.frames.find(predicate);
  if (found) throw new Error(`unexpected frame: ${JSON.stringify(found).slice(0, 500)}`);
}

/** A socket's close, bounded. */
export async function closeOf(socket: TestSocket, timeoutMs = 5000): Promise<{ code: number; reason: string }> {
  assertFramesValid(socket);
  return Promise.race([
    socket.closed,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`socket not closed within ${timeoutMs} ms`)), timeoutMs)),
  ]);
}

/** An upgrade request the server refuses before upgrading: its status and JSON body (read from a raw TCP socket). */
export function refusedUpgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const target = new URL(url.replace(/^ws/, 'http'));
  const lines = [
    `GET ${target.pathname} HTTP/1.1`,
    `Host: ${target.host}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer to the upgrade within 5 s: ${text}`));
    }, 5000);
    const finish = () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? -1);
      if (status === 101) {
        clearTimeout(timer);
        socket.destroy();
        reject(new Error('the upgrade was accepted'));
        return true;
      }
      if (length < 0 || Buffer.byteLength(body) < length) return false;
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve({ status, body: JSON.parse(body) as Record<string, unknown> });
      } catch {
        reject(new Error(`not JSON: ${text}`));
      }
      return true;
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      finish();
    });
    socket.on('end', () => {
      if (!finish()) reject(new Error(`incomplete answer: ${text}`));
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
