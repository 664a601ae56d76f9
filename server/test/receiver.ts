// A webhook receiver for tests: a real HTTP server on 127.0.0.1 (port 0) that records every
// request (headers and the exact body) and answers as the test programs it: a status, a delay,
// a redirect, or no answer at all (hang). Plus a helper that writes a webhook row directly.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { encryptSecret } from '../src/security/encryption.ts';
import type { WebhookEvent } from '../src/webhooks/webhooks.events.ts';
import type { TestApp } from './helpers.ts';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as sent (what the signature covers). */
  body: string;
  /** performance.now() when the whole body had arrived. */
  at: number;
}

export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Answer after this many ms. */
  delayMs?: number;
  /** Never answer (the connection stays open until the client gives up or the receiver closes). */
  hang?: boolean;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** The answer to every next request (default: 200 "ok"), or a function choosing it per request. */
  answer(answer: Answer | ((request: ReceivedRequest, index: number) => Answer)): void;
  /** Waits (polling, bounded) until at least `count` requests arrived; throws after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Requests still being answered (delayed or hanging). */
  pending(): number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let choose: (request: ReceivedRequest, index: number) => Answer = () => ({});
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let open = 0;

  const reply = (response: ServerResponse, answer: Answer) => {
    open -= 1;
    if (response.destroyed) return;
    response.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
    response.end(answer.body ?? 'ok');
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      const index = requests.length;
      requests.push(received);
      const answer = choose(received, index);
      open += 1;
      if (answer.hang) return;
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          reply(response, answer);
        }, answer.delayMs);
        timers.add(timer);
      } else reply(response, answer);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    answer(answer) {
      choose = typeof answer === 'function' ? answer : () => answer;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${requests.length} of ${count} requests within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return requests;
    },
    pending: () => open,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface TestWebhook {
  id: number;
  secret: string;
}

/** Writes a webhook row directly (encrypted secret), enabled and subscribed to `events` unless told otherwise. */
export async function insertWebhook(
  t: Pick<TestApp, 'deps'>,
  input: {
    url: string;
    events: readonly WebhookEvent[];
    name?: string;
    secret?: string;
    headers?: Record<string, string>;
    enabled?: boolean;
  },
): Promise<TestWebhook> {
  const secret = input.secret ?? newWebhookSecret();
  const row = await t.deps.db
    .insertInto('webhooks')
    .values({
      name: input.name ?? `hook-${randomBytes(4).toString('hex')}`,
      url: input.url,
      events: [...input.events],
      headers: JSON.stringify(input.headers ?? {}),
      secret: encryptSecret(t.deps.config.secretKey, secret),
      enabled: input.enabled ?? true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, secret };
}

/** Polls `probe` until it answers truthy; throws after `timeoutMs`. */
export async function waitUntil<T>(what: string, probe: () => Promise<T> | T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
