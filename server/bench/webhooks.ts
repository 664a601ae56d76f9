// The webhooks scenario: one Parley instance on PostgreSQL delivering to receivers on
// loopback in this process. Three phases, each bounded in time: idle latency (one event at a
// time), throughput (many webhooks, a burst of events), isolation (a receiver answering after
// 10 s next to a prompt one). Events are contacts created over the API; webhooks are created
// and deleted over the API.
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Child, startParley, stopChild, tail } from './processes.ts';
import { cpuSeconds, RAISED_LIMITS, type ServerContext } from './realtime.ts';
import {
  deliveryRate,
  latencies,
  type Receipt,
  type RecordedEvent,
  type WebhookBenchReport,
  type WebhookBenchSettings,
} from './webhooks-report.ts';

type Progress = (message: string) => void;

interface BenchReceiver {
  url: string;
  receipts: Receipt[];
  inFlight(): number;
  maxInFlight: number;
  close(): Promise<void>;
}

/** A receiver answering 200 after `delayMs`, recording each body's contact id and webhook-id. */
async function startReceiver(delayMs: number): Promise<BenchReceiver> {
  const receipts: Receipt[] = [];
  let open = 0;
  const state = { maxInFlight: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      let key = '';
      try {
        const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const data = typeof body === 'object' && body !== null && 'data' in body ? body.data : null;
        if (typeof data === 'object' && data !== null && 'id' in data) key = String(data.id);
      } catch {
        // not JSON: counted, with no key
      }
      receipts.push({ key, at, webhookId: String(request.headers['webhook-id'] ?? '') });
      open += 1;
      state.maxInFlight = Math.max(state.maxInFlight, open);
      const answer = () => {
        open -= 1;
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('ok');
      };
      if (delayMs > 0) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    receipts,
    inFlight: () => open,
    get maxInFlight() {
      return state.maxInFlight;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Api {
  base: string;
  authorization: string;
  failed: number;
}

async function call(api: Api, method: string, path: string, body?: unknown): Promise<{ status: number; data: unknown }> {
  const response = await fetch(`${api.base}${path}`, {
    method,
    headers: { authorization: api.authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status < 200 || response.status >= 300) api.failed += 1;
  let data: unknown = null;
  try {
    data = (JSON.parse(text) as { data?: unknown }).data ?? null;
  } catch {
    data = null;
  }
  return { status: response.status, data };
}

const idOf = (data: unknown): number | null =>
  typeof data === 'object' && data !== null && 'id' in data && typeof data.id === 'number' ? data.id : null;

async function createWebhook(api: Api, name: string, url: string): Promise<number> {
  const { status, data } = await call(api, 'POST', '/api/v1/webhooks', { name, url, events: ['contact.created'] });
  const id = idOf(data);
  if (id === null) throw new Error(`creating a webhook answered ${status}`);
  return id;
}

let contactCounter = 0;

/** Records one event (a contact created) and answers it with its start time, or null when the request failed. */
async function recordEvent(api: Api): Promise<RecordedEvent | null> {
  contactCounter += 1;
  const startedAt = performance.now();
  const { data } = await call(api, 'POST', '/api/v1/contacts', {
    first_name: 'Hook',
    last_name: `Bench ${contactCounter}`,
    email: `hook-bench-${process.pid}-${contactCounter}@example.com`,
  });
  const id = idOf(data);
  return id === null ? null : { key: String(id), startedAt };
}

/** Waits until `done()` or the deadline; answers whether it was done. */
async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

export async function runWebhooks(
  context: ServerContext,
  authorization: string,
  settings: WebhookBenchSettings,
  progress: Progress,
): Promise<WebhookBenchReport> {
  const fast = await startReceiver(0);
  const slow = await startReceiver(settings.slowMs);
  let parley: Child | null = null;
  try {
    parley = await startParley({
      root: context.root,
      databaseUrl: context.databaseUrl,
      dataDir: context.dataDir,
      secretKey: context.secretKey,
      logDir: context.logDir,
      profileDir: context.profileDir,
      env: { ...RAISED_LIMITS, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_SECONDS: '30' },
      logName: 'parley-webhooks.log',
    });
    progress(`    Parley pid ${parley.pid} on ${parley.baseUrl}`);
    const api: Api = { base: parley.baseUrl, authorization, failed: 0 };
    const probe = await call(api, 'GET', '/api/v1/webhooks');
    if (probe.status === 404) return { settings, outcome: { kind: 'unavailable', detail: 'the webhook routes are not registered' } };
    api.failed = 0;

    // Idle: one webhook, one event at a time.
    const idleHook = await createWebhook(api, 'bench idle', `${fast.url}/idle`);
    const idleEvents: RecordedEvent[] = [];
    for (let i = 0; i < settings.idleEvents; i++) {
      const event = await recordEvent(api);
      if (event) idleEvents.push(event);
      await sleep(200);
    }
    await until(() => fast.receipts.length >= idleEvents.length, 10_000);
    const idle = latencies(idleEvents, fast.receipts);
    progress(`    idle: p50 ${idle.p50.toFixed(0)} ms, p99 ${idle.p99.toFixed(0)} ms, ${idle.missing} missing`);
    await call(api, 'DELETE', `/api/v1/webhooks/${idleHook}`);
    fast.receipts.length = 0;

    // Throughput: many webhooks, a burst of events from 16 clients.
    const hooks: number[] = [];
    for (let k = 0; k < settings.webhooks; k++) hooks.push(await createWebhook(api, `bench throughput ${k}`, `${fast.url}/t${k}`));
    const expected = settings.webhooks * settings.events;
    const cpuBefore = cpuSeconds(parley.pid);
    const started = performance.now();
    let next = 0;
    let recorded = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < settings.events) {
          next += 1;
          if (await recordEvent(api)) recorded += 1;
        }
      }),
    );
    const complete = await until(() => fast.receipts.length >= recorded * settings.webhooks, 120_000);
    const cpuAfter = cpuSeconds(parley.pid);
    const rate = deliveryRate(fast.receipts);
    const duplicates = fast.receipts.length - new Set(fast.receipts.map((r) => r.webhookId)).size;
    const cpuShare = cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / ((performance.now() - started) / 1000) : Number.NaN;
    progress(
      `    throughput: ${rate.count} of ${expected} deliveries in ${rate.seconds.toFixed(1)} s, ${rate.perSecond.toFixed(0)}/s` +
        `${complete ? '' : ' (INCOMPLETE after 120 s)'}, Parley CPU ${(cpuShare * 100).toFixed(0)}% of a core`,
    );
    for (const id of hooks) await call(api, 'DELETE', `/api/v1/webhooks/${id}`);
    fast.receipts.length = 0;

    // Isolation: a receiver answering after slowMs next to a prompt one.
    await createWebhook(api, 'bench slow', `${slow.url}/slow`);
    await createWebhook(api, 'bench prompt', `${fast.url}/prompt`);
    const isolationEvents: RecordedEvent[] = [];
    const total = settings.isolationRate * settings.isolationSeconds;
    const phaseStart = performance.now();
    for (let i = 0; i < total; i++) {
      const due = phaseStart + (i * 1000) / settings.isolationRate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const event = await recordEvent(api);
      if (event) isolationEvents.push(event);
    }
    await until(() => fast.receipts.length >= isolationEvents.length, 10_000);
    // The slow receiver's first answers, at least.
    await until(() => slow.receipts.length > 0 && slow.inFlight() < slow.receipts.length, settings.slowMs + 5_000);
    const isolation = {
      fast: latencies(isolationEvents, fast.receipts),
      slow: latencies(isolationEvents, slow.receipts),
      slowInFlightMax: slow.maxInFlight,
      slowExpected: isolationEvents.length,
    };
    progress(
      `    isolation: prompt receiver p50 ${isolation.fast.p50.toFixed(0)} ms, p99 ${isolation.fast.p99.toFixed(0)} ms; ` +
        `slow receiver ${isolation.slow.count} of ${isolation.slowExpected} arrived, at most ${isolation.slowInFlightMax} open at once`,
    );
    if (!parley.isRunning()) throw new Error(`Parley stopped during the run:\n${tail(parley.logFile)}`);
    return {
      settings,
      outcome: {
        kind: 'measured',
        result: {
          idle,
          throughput: { expected, count: rate.count, seconds: rate.seconds, perSecond: rate.perSecond, duplicates, cpuShare },
          isolation,
          failedRequests: api.failed,
        },
      },
    };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    progress(`    !!!! the webhooks scenario failed: ${detail}`);
    if (parley) progress(`    ${parley.logFile} ends with:\n${tail(parley.logFile, 10).replace(/^/gm, '      ')}`);
    return { settings, outcome: { kind: 'failed', detail: detail.split('\n')[0] ?? detail } };
  } finally {
    if (parley) await stopChild(parley.pid);
    await Promise.all([fast.close(), slow.close()]);
  }
}
