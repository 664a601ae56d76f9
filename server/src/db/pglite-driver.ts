// A Kysely driver for the embedded PGlite database. PGlite is one connection,
// so connections are handed out one at a time (a transaction holds it).
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';

class PGliteConnection implements DatabaseConnection {
  readonly #pg: PGlite;
  constructor(pg: PGlite) {
    this.#pg = pg;
  }
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.#pg.query<R>(query.sql, query.parameters as unknown[]);
    const kind = query.query.kind;
    const isWrite = kind === 'InsertQueryNode' || kind === 'UpdateQueryNode' || kind === 'DeleteQueryNode' || kind === 'MergeQueryNode';
    return {
      rows: result.rows,
      ...(isWrite && result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }
  // biome-ignore lint/correctness/useYield: streaming is not offered by PGlite; fail loudly if asked.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite driver does not support streaming');
  }
}

/** The one connection's use, for the metrics: held or not, and how many wait for it. */
export interface PGliteUse {
  held: boolean;
  waiting: number;
}

class PGliteDriver implements Driver {
  readonly #pg: PGlite;
  readonly #connection: PGliteConnection;
  readonly #use: PGliteUse;
  #queue: Promise<void> = Promise.resolve();
  #release: (() => void) | null = null;
  constructor(pg: PGlite, use: PGliteUse) {
    this.#pg = pg;
    this.#connection = new PGliteConnection(pg);
    this.#use = use;
  }
  async init(): Promise<void> {
    await this.#pg.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#use.waiting += 1;
    await previous;
    this.#use.waiting -= 1;
    this.#use.held = true;
    this.#release = release;
    return this.#connection;
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = null;
    this.#use.held = false;
    release?.();
  }
  async destroy(): Promise<void> {
    await this.#queue;
    if (!this.#pg.closed) await this.#pg.close();
  }
}

export function pgliteDialect(pg: PGlite, use: PGliteUse = { held: false, waiting: 0 }): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(pg, use),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
