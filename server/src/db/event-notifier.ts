// The NOTIFY that tells other processes of this one's committed domain events (event-commits.ts).
// It has a session of its own, opened on first use and again after a failure, so that it never
// waits in the pool's queue behind requests; a NOTIFY or a connection that does not answer
// within NOTIFY_TIMEOUT_MS is given up with its session (the next commit opens another; the
// relays' safety poll covers what was missed). The payload is this process's origin, so that its
// own relay, already woken in-process, can leave its own notifications aside.
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { EVENTS_CHANNEL_PREFIX, NOTIFY_GAP_MS, throttled } from './event-commits.ts';

export const NOTIFY_TIMEOUT_MS = 5_000;
/** Failures are logged at most this often. */
const WARN_EVERY_MS = 60_000;

export interface Notifier {
  notify(): void;
  /** Waits (at most NOTIFY_TIMEOUT_MS) for what was asked, then ends the session. */
  close(): Promise<void>;
}

interface NotifierOptions {
  databaseUrl: string | null;
  schema?: string;
  log?: FastifyBaseLogger;
}

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${NOTIFY_TIMEOUT_MS} ms`)), NOTIFY_TIMEOUT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export function openNotifier(options: NotifierOptions, origin: string): Notifier {
  let session: pg.Client | null = null;
  let closed = false;
  let warnedAt = Number.NEGATIVE_INFINITY;
  const drop = (client: pg.Client) => {
    if (session === client) session = null;
    client.end().catch(() => undefined);
  };
  const open = async (): Promise<pg.Client> => {
    if (session) return session;
    const client = new pg.Client({
      connectionString: options.databaseUrl ?? undefined,
      ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: NOTIFY_TIMEOUT_MS,
    });
    client.on('error', () => drop(client));
    client.on('end', () => {
      if (session === client) session = null;
    });
    await client.connect();
    session = client;
    return client;
  };
  const send = async () => {
    if (closed) return;
    const client = await open();
    try {
      await withTimeout(client.query('select pg_notify($1 || current_schema(), $2)', [EVENTS_CHANNEL_PREFIX, origin]), 'a NOTIFY');
    } catch (error) {
      drop(client);
      throw error;
    }
  };
  const ask = throttled(
    () =>
      send().catch((error: unknown) => {
        const now = Date.now();
        if (now - warnedAt < WARN_EVERY_MS) return;
        warnedAt = now;
        options.log?.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'could not tell other processes of committed events (they find them within their relay’s safety poll)',
        );
      }),
    NOTIFY_GAP_MS,
  );
  return {
    notify: () => ask(),
    async close() {
      await withTimeout(ask.settled(), 'the last NOTIFY').catch(() => undefined);
      closed = true;
      if (session) drop(session);
    },
  };
}
