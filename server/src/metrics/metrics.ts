// The Prometheus metrics of one app instance (docs/operations.md, "Metrics"). One registry per
// runtime, passed in deps: two apps in one test process never share a counter. The things that
// happen (a request answered, a socket opened, a webhook attempt, a mail taken in) are counted
// where they happen, in one line; what is a state (the pool, the job queue) is read at scrape
// time by the gauges' collect functions.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats, QueryObserver } from '../db/database.ts';

export const METRICS_PREFIX = 'parley_';
/** The job queue is read at most this often, however often (and by however many scrapers) it is scraped. */
export const QUEUE_CACHE_MS = 5_000;
/** The label of a request no route matched (404s, the web app's client-side routes): one series, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/** A webhook delivery's status after an attempt (webhooks.attempt.ts `nextState`) → the outcome counted. */
const WEBHOOK_OUTCOMES: Record<string, string> = {
  succeeded: 'delivered',
  failed: 'retrying',
  dead: 'dead',
  refused: 'refused',
};

export interface QueueDepthRow {
  kind: string;
  pending: number;
  due: number;
  oldest_due_seconds: number | null;
}

/** What the gauges read at scrape time, given once the runtime is open. */
export interface MetricSources {
  engine: 'pglite' | 'postgres';
  pool: () => PoolStats;
  queue: () => Promise<QueueDepthRow[]>;
  onError: (what: string, error: unknown) => void;
}

export interface Metrics {
  readonly registry: Registry;
  /** Served somewhere (METRICS_TOKEN or METRICS_PORT): only then are requests timed and process metrics collected. */
  readonly served: boolean;
  /** A request answered: its route template (never the raw URL), method, status and duration. */
  observeRequest(route: string | undefined, method: string, statusCode: number, ms: number): void;
  /** Kysely's log hook (given to the database only when served). */
  readonly observeQuery: QueryObserver;
  /** Sockets open now on this instance, by `kind`: `agent` (/ws) or `widget` (/widget/ws). */
  readonly sockets: Gauge<'kind'>;
  /** Sockets a client broke the protocol on (too large, invalid UTF-8, …) or dropped, by `kind` and `reason`. */
  readonly socketClientErrors: Counter<'kind' | 'reason'>;
  /** Webhook attempts by the delivery's status after them (succeeded, failed, dead, refused). */
  countWebhookAttempts(statuses: readonly string[]): void;
  /** Mails an inbox took in, by what each became (stored, duplicate, bounce, auto_reply, skipped), or a failed intake. */
  countMail(channel: string, outcomes: ReadonlyArray<{ kind: string }> | 'failed'): void;
  /** Binds the gauges read at scrape time (the database pool, the job queue). */
  watch(sources: MetricSources): void;
}

export function createMetrics(options: { served: boolean }): Metrics {
  const registry = new Registry();
  if (options.served) collectDefaultMetrics({ register: registry, prefix: METRICS_PREFIX });

  const httpDuration = new Histogram({
    name: `${METRICS_PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by route template, method and status class, and how long they took',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const queryDuration = new Histogram({
    name: `${METRICS_PREFIX}db_query_duration_seconds`,
    help: 'Database statements by outcome (ok or error), and how long they took',
    labelNames: ['outcome'] as const,
    buckets: QUERY_BUCKETS,
    registers: [registry],
  });
  const sockets = new Gauge({
    name: `${METRICS_PREFIX}websockets_open`,
    help: 'WebSocket connections open on this instance: agent (/ws) and widget (/widget/ws)',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  sockets.set({ kind: 'agent' }, 0);
  sockets.set({ kind: 'widget' }, 0);
  const socketClientErrors = new Counter({
    name: `${METRICS_PREFIX}websocket_client_errors_total`,
    help: 'WebSocket clients that broke the protocol or dropped their connection, by kind (agent, widget) and reason: too_large (1009), invalid_utf8 (1007), protocol (1002), connection (reset by the client)',
    labelNames: ['kind', 'reason'] as const,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: `${METRICS_PREFIX}webhook_attempts_total`,
    help: 'Webhook delivery attempts by outcome: delivered, retrying (failed, tried again later), dead (failed, no attempt left), refused (address not allowed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const mail = new Counter({
    name: `${METRICS_PREFIX}mail_ingested_total`,
    help: 'Inbound mails by inbox channel and outcome: stored, duplicate, bounce, auto_reply, skipped (refused, unreadable, too large); failed counts intakes that failed and are retried',
    labelNames: ['channel', 'outcome'] as const,
    registers: [registry],
  });

  return {
    registry,
    served: options.served,
    observeRequest(route, method, statusCode, ms) {
      const statusClass = statusCode >= 100 && statusCode < 600 ? `${Math.floor(statusCode / 100)}xx` : 'other';
      httpDuration.observe({ route: route ?? UNMATCHED_ROUTE, method, status_class: statusClass }, ms / 1000);
    },
    observeQuery(event) {
      queryDuration.observe({ outcome: event.level === 'error' ? 'error' : 'ok' }, event.queryDurationMillis / 1000);
    },
    sockets,
    socketClientErrors,
    countWebhookAttempts(statuses) {
      for (const status of statuses) webhookAttempts.inc({ outcome: WEBHOOK_OUTCOMES[status] ?? 'other' });
    },
    countMail(channel, outcomes) {
      if (outcomes === 'failed') mail.inc({ channel, outcome: 'failed' });
      else for (const outcome of outcomes) mail.inc({ channel, outcome: outcome.kind });
    },
    watch(sources) {
      watchPool(registry, sources);
      watchQueue(registry, sources);
    },
  };
}

function watchPool(registry: Registry, sources: MetricSources): void {
  const labelNames = ['engine'] as const;
  const engine = { engine: sources.engine };
  new Gauge({
    name: `${METRICS_PREFIX}db_pool_connections`,
    help: 'Database connections open in the pool (the embedded database has one)',
    labelNames,
    registers: [registry],
    collect() {
      this.set(engine, sources.pool().total);
    },
  });
  new Gauge({
    name: `${METRICS_PREFIX}db_pool_idle_connections`,
    help: 'Database connections open and unused',
    labelNames,
    registers: [registry],
    collect() {
      this.set(engine, sources.pool().idle);
    },
  });
  new Gauge({
    name: `${METRICS_PREFIX}db_pool_waiting_clients`,
    help: 'Statements or transactions waiting for a database connection',
    labelNames,
    registers: [registry],
    collect() {
      this.set(engine, sources.pool().waiting);
    },
  });
}

/**
 * The job queue's gauges share one read, cached QUEUE_CACHE_MS. A kind seen once stays reported
 * (at 0 when it has nothing pending): a series that vanishes cannot be told from a broken scrape.
 */
function watchQueue(registry: Registry, sources: MetricSources): void {
  let cached: { at: number; rows: Promise<QueueDepthRow[]> } | null = null;
  const seen = new Set<string>();
  const read = (): Promise<QueueDepthRow[]> => {
    const now = performance.now();
    if (cached !== null && now - cached.at <= QUEUE_CACHE_MS) return cached.rows;
    const rows = sources.queue();
    cached = { at: now, rows };
    rows.catch((error: unknown) => {
      sources.onError('job queue', error);
      if (cached?.rows === rows) cached = null;
    });
    return rows;
  };
  const labelNames = ['kind'] as const;
  const each = async (gauge: Gauge<'kind'>, value: (row: QueueDepthRow) => number) => {
    let rows: QueueDepthRow[];
    try {
      rows = await read();
    } catch {
      // A failed read (logged once) leaves the gauges at their last values rather than zeros.
      return;
    }
    for (const row of rows) seen.add(row.kind);
    const byKind = new Map(rows.map((row) => [row.kind, row]));
    for (const kind of seen) {
      const row = byKind.get(kind);
      gauge.set({ kind }, row ? value(row) : 0);
    }
  };
  new Gauge({
    name: `${METRICS_PREFIX}jobs_pending`,
    help: 'Jobs waiting or running (neither completed nor dead), by kind',
    labelNames,
    registers: [registry],
    collect() {
      return each(this, (row) => row.pending);
    },
  });
  new Gauge({
    name: `${METRICS_PREFIX}jobs_due`,
    help: 'Jobs due now and not held by a worker, by kind',
    labelNames,
    registers: [registry],
    collect() {
      return each(this, (row) => row.due);
    },
  });
  new Gauge({
    name: `${METRICS_PREFIX}jobs_oldest_due_age_seconds`,
    help: 'How long the oldest due job of each kind has been waiting (0 when none is due)',
    labelNames,
    registers: [registry],
    collect() {
      return each(this, (row) => row.oldest_due_seconds ?? 0);
    },
  });
}
