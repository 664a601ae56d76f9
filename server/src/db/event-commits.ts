// Who waits for domain events (the realtime relay) is told when a transaction that recorded some
// has committed. Until migration 0030 a statement-level trigger on domain_events sent a NOTIFY
// from inside every such transaction; PostgreSQL serialises the commits of all notifying
// transactions on one lock held through their WAL flush, which capped a reply's throughput
// (PostgreSQL alone: 1,220 → 1,890 reply transactions a second without it, docs/performance.md).
//
// Now the database layer sees it happen instead: a wrapped Kysely driver notes, per connection,
// that a statement inserted into domain_events, and on the commit that follows (or at once, for a
// statement outside a transaction) tells this process's listeners. Other processes are told by a
// NOTIFY sent afterwards, outside any writer's transaction and coalesced (`throttled`): at most
// one per NOTIFY_GAP_MS, the first at once (event-notifier.ts). A commit that fails, or a
// rollback, tells no one; a COMMIT of a transaction a failed statement aborted answers without
// error (PostgreSQL rolls it back) and tells, needlessly.
// A signal is only a wake-up (the outbox table is the truth): a spurious one costs a read, a
// lost one at most the relay's safety poll.
import { randomUUID } from 'node:crypto';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';

/** The NOTIFY channel of committed events is this prefix and the schema (notifications are database-wide, schemas are not). */
export const EVENTS_CHANNEL_PREFIX = 'parley_events_';
/** The least time between two NOTIFYs of one process: bounds them at 200 a second under load; another instance hears of a commit up to 5 ms later. */
export const NOTIFY_GAP_MS = 5;

const WRITES_EVENTS = /\binsert\s+into\s+(?:"?\w+"?\.)?"?domain_events"?[\s(]/i;
const BEGINS = /^\s*(?:begin|start\s+transaction)\b/i;
const COMMITS = /^\s*(?:commit|end)\b/i;
/** A whole rollback, not `rollback to savepoint` (events after the savepoint may still be undone: then a spurious wake-up). */
const ROLLS_BACK = /^\s*(?:rollback|abort)\b(?!\s+to\b)/i;

export type Listener = () => void;

/** This process's listeners of committed events. */
export class EventCommits {
  readonly #listeners = new Set<Listener>();
  /** This process's mark on its NOTIFYs (event-notifier.ts): its own relay, woken in-process, leaves them aside. */
  readonly origin = randomUUID();

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Called by the watching driver after a commit that recorded events. */
  committed(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the others are still told.
      }
    }
  }
}

/** Kysely's dialect, its driver's connections watched for commits of recorded events. */
export function watchingEventCommits(dialect: Dialect, commits: EventCommits): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new WatchingDriver(dialect.createDriver(), () => commits.committed()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

class WatchedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  readonly #committed: () => void;
  #inTransaction = false;
  #wroteEvents = false;

  constructor(inner: DatabaseConnection, committed: () => void) {
    this.inner = inner;
    this.#committed = committed;
  }

  /** A connection handed out again starts with nothing noted. */
  reset(): void {
    this.#inTransaction = false;
    this.#wroteEvents = false;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const text = query.sql;
    if (BEGINS.test(text)) {
      const result = await this.inner.executeQuery<R>(query);
      this.#inTransaction = true;
      this.#wroteEvents = false;
      return result;
    }
    if (COMMITS.test(text) || ROLLS_BACK.test(text)) {
      const tell = COMMITS.test(text) && this.#wroteEvents;
      this.reset();
      const result = await this.inner.executeQuery<R>(query);
      if (tell) this.#committed();
      return result;
    }
    // Noted before the statement runs: a COMMIT sent while it is still in flight still tells.
    const writesEvents = WRITES_EVENTS.test(text);
    const inTransaction = this.#inTransaction;
    if (writesEvents && inTransaction) this.#wroteEvents = true;
    const result = await this.inner.executeQuery<R>(query);
    if (writesEvents && !inTransaction) this.#committed();
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class WatchingDriver implements Driver {
  readonly #inner: Driver;
  readonly #committed: () => void;
  readonly #watched = new WeakMap<DatabaseConnection, WatchedConnection>();

  constructor(inner: Driver, committed: () => void) {
    this.#inner = inner;
    this.#committed = committed;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.#inner.acquireConnection();
    let watched = this.#watched.get(inner);
    if (!watched) {
      watched = new WatchedConnection(inner, this.#committed);
      this.#watched.set(inner, watched);
    }
    watched.reset();
    return watched;
  }

  // The inner driver's transaction statements go through the watched connection (they are
  // plain statements on it): the watch sees them as it sees a raw `begin` or `commit`.
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) => {
    if (!this.#inner.savepoint) throw new Error('the driver has no savepoints');
    return this.#inner.savepoint(connection, name, compile);
  };

  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) => {
    if (!this.#inner.rollbackToSavepoint) throw new Error('the driver has no savepoints');
    return this.#inner.rollbackToSavepoint(connection, name, compile);
  };

  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) => {
    if (!this.#inner.releaseSavepoint) throw new Error('the driver has no savepoints');
    return this.#inner.releaseSavepoint(connection, name, compile);
  };

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(connection instanceof WatchedConnection ? connection.inner : connection);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

/**
 * Runs `send` when told, at most once per `gapMs`: the first call at once, calls during a send or
 * within the gap after it make one more send at the gap's end. `settled()` waits for what was asked.
 */
export function throttled(send: () => Promise<void>, gapMs: number): { (): void; settled(): Promise<void> } {
  let running: Promise<void> | null = null;
  let wanted = false;
  const loop = async (): Promise<void> => {
    do {
      wanted = false;
      const started = performance.now();
      await send().catch(() => undefined);
      const wait = gapMs - (performance.now() - started);
      if (wanted && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    } while (wanted);
    running = null;
  };
  const ask = () => {
    if (running) wanted = true;
    else running = loop();
  };
  ask.settled = async () => {
    while (running) await running;
  };
  return ask;
}
