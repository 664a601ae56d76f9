// Opens the database: embedded PGlite under DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set. Both speak through the same Kysely code path.
import { existsSync, mkdirSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  type DatabaseIntrospector,
  Kysely,
  type LogEvent,
  type Migration,
  Migrator,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';
import pg from 'pg';
import { buildConcurrentIndexes, indexesToBuild } from './concurrent-indexes.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { EventCommits, watchingEventCommits } from './event-commits.ts';
import { openNotifier } from './event-notifier.ts';
import { readMigratedImage } from './image.ts';
import { migrations } from './migrations/index.ts';
import { type PGliteUse, pgliteDialect } from './pglite-driver.ts';
import { preparingPool } from './prepared.ts';
import type { Database } from './types.ts';

export type DB = Kysely<Database>;

export interface DatabaseHandle {
  readonly db: DB;
  readonly kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  /** A dedicated session for LISTEN and session-level advisory locks (the realtime relay's). */
  openListener(): Promise<DbListener>;
  /** Told after each commit of this process that recorded domain events (event-commits.ts). */
  readonly eventCommits: EventCommits;
  /** Connections of the pool now (PGlite: its one connection, held or idle, and who waits for it). */
  poolStats(): PoolStats;
  /** The embedded database's files as one image (`pgliteImage` opens it again); PGlite only. */
  dumpImage?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Kysely's log hook: called after each statement with its duration (the metrics count them). */
export type QueryObserver = (event: LogEvent) => void;

/**
 * A database session of its own: LISTEN on a channel (notifications arrive only for committed
 * transactions) and session-level advisory locks, which end with the session. On PostgreSQL a
 * dedicated connection outside the pool; on PGlite (one session, one process) the embedded
 * database itself, where a lock is held per listener in memory.
 */
export interface DbListener {
  /** The schema the session works in (a channel name can carry it: notifications are database-wide). */
  readonly schema: string;
  /** `onNotify` receives the notification's payload ('' when it has none). */
  listen(channel: string, onNotify: (payload: string) => void): Promise<void>;
  /** Takes the advisory lock `key` for this session when free; true when this session holds it. */
  tryLock(key: string): Promise<boolean>;
  /** Called once when the session is lost (connection error); the owner opens another. */
  onLost(handler: (error: Error) => void): void;
  close(): Promise<void>;
}

/** A channel name that needs no quoting (PGlite's LISTEN does not quote it). */
export function isPlainChannel(name: string): boolean {
  return /^[a-z_][a-z0-9_]{0,62}$/.test(name);
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when null the embedded database is used. */
  databaseUrl: string | null;
  /** Folder of the embedded database (DATA_DIR); null keeps it in memory (tests). */
  pgliteDir: string | null;
  /** An in-memory embedded database starts as this image (a `dumpImage`) instead of empty: tests start migrated. */
  pgliteImage?: Blob;
  /** Who opens the embedded database, as its lock file tells others: `server`, `cli migrate`… */
  owner?: string;
  /** Create the embedded database when DATA_DIR holds none (default true; the CLI decides). */
  create?: boolean;
  /** Where progress goes (creating the embedded database takes seconds). */
  log?: FastifyBaseLogger;
  /** PostgreSQL schema to use (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
  /** Run statements as named prepared statements (PostgreSQL only; default true). */
  preparedStatements?: boolean;
  /** Told of every statement and its duration (the metrics). */
  onQuery?: QueryObserver;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
          return pg.types.getTypeParser(oid, format);
        }) as typeof pg.types.getTypeParser,
      },
    });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it. Queries report their own errors.
    });
    // No JIT compilation: it pays off for long analytical queries, and the planner would start it
    // (milliseconds of compiling) for the search's short ones, whose folding function declares a
    // high cost. A statement, not a startup parameter, which poolers such as PgBouncer refuse; the
    // pool runs it before the connection's first query.
    pool.on('connect', (client) => {
      client.query('set jit = off').catch(() => undefined);
    });
    const eventCommits = new EventCommits();
    const db = new Kysely<Database>({
      dialect: watchingEventCommits(
        new PostgresDialect({ pool: options.preparedStatements === false ? pool : preparingPool(pool) }),
        eventCommits,
      ),
      ...(options.onQuery ? { log: options.onQuery } : {}),
    });
    // Other processes (instances, workers, the CLI's) hear of this one's committed events by a
    // NOTIFY after the commit, coalesced, on a session of its own (never queued behind the
    // pool's requests); this process's listeners at once.
    const notifier = openNotifier(options, eventCommits.origin);
    eventCommits.subscribe(notifier.notify);
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      openListener: () => openPostgresListener(options),
      eventCommits,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        await notifier.close();
        await db.destroy();
      },
    };
  }
  return openEmbedded(options);
}

/** The embedded database's folder inside DATA_DIR. */
export function embeddedDatabaseDir(dataDir: string): string {
  return join(dataDir, 'pgdata');
}

/** There while the embedded database is being created: a folder left with it is discarded. */
const CREATING_MARKER = 'pgdata.creating';

/** Whether DATA_DIR holds an embedded database (a complete one: its creation finished). */
function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(join(embeddedDatabaseDir(dataDir), 'PG_VERSION')) && !existsSync(join(dataDir, CREATING_MARKER));
}

/** DATA_DIR holds no embedded database and the opener may not create one. */
export class NoDatabaseError extends Error {
  override name = 'NoDatabaseError';
  readonly dataDir: string;
  constructor(dataDir: string) {
    super(`no database in ${embeddedDatabaseDir(dataDir)}`);
    this.dataDir = dataDir;
  }
}

async function openEmbedded(options: DatabaseOptions): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const extensions = { pg_trgm };
  const parsers = { [INT8_OID]: (value: string) => Number(value), [NUMERIC_OID]: (value: string) => Number(value) };
  if (!options.pgliteDir) {
    const lite = await PGlite.create({ extensions, parsers, ...(options.pgliteImage ? { loadDataDir: options.pgliteImage } : {}) });
    return pgliteHandle(lite, async () => undefined, options.onQuery);
  }
  const dataDir = options.pgliteDir;
  const dir = embeddedDatabaseDir(dataDir);
  if (options.create === false && !embeddedDatabaseExists(dataDir)) throw new NoDatabaseError(dataDir);
  mkdirSync(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir, options.owner ?? 'server');
  try {
    const started = performance.now();
    const marker = join(dataDir, CREATING_MARKER);
    // Checked again under the lock: another process may have created it meanwhile.
    const create = !embeddedDatabaseExists(dataDir);
    if (create) {
      if (options.create === false) throw new NoDatabaseError(dataDir);
      if (existsSync(marker)) {
        // The first start was stopped while creating the database: nothing but initdb's output is in it.
        options.log?.warn(`discarding ${dir}: its creation did not finish`);
        rmSync(dir, { recursive: true, force: true });
      } else if (existsSync(dir) && readdirSync(dir).length > 0) {
        throw new Error(`${dir} is not empty but holds no database (no PG_VERSION): move it away, or point DATA_DIR at the right folder`);
      }
      writeFileSync(marker, `${process.pid}\n`);
    }
    // A new database starts as the migrated image when `npm install` (or `npm start`) made one.
    const image = create ? readMigratedImage() : null;
    if (create)
      options.log?.info(
        image
          ? `creating the embedded database in ${dir} from the migrated image`
          : `creating the embedded database in ${dir} (first start: initdb, then pg_trgm, takes a few seconds)`,
      );
    else options.log?.info(`opening the embedded database in ${dir}`);
    const lite = await PGlite.create(dir, { extensions, parsers, ...(image ? { loadDataDir: image } : {}) });
    if (create) unlinkSync(marker);
    options.log?.info(
      { ms: Math.round(performance.now() - started) },
      create ? 'created the embedded database' : 'opened the embedded database',
    );
    return pgliteHandle(lite, async () => lock.release(), options.onQuery);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function openPostgresListener(options: DatabaseOptions): Promise<DbListener> {
  const client = new pg.Client({
    connectionString: options.databaseUrl ?? undefined,
    ...(options.schema ? { options: `-c search_path=${options.schema},public` } : {}),
    // An idle connection that a NAT or proxy drops silently is noticed by TCP keepalive, and by
    // the heartbeat below within a minute: the lock and the LISTEN move to another instance.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  let lostHandler: ((error: Error) => void) | null = null;
  let closed = false;
  const lost = (error: Error) => {
    if (closed) return;
    closed = true;
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    lostHandler?.(error);
  };
  client.on('error', lost);
  client.on('end', () => lost(new Error('the listening connection ended')));
  await client.connect();
  const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
  const handlers = new Map<string, (payload: string) => void>();
  client.on('notification', (message) => handlers.get(message.channel)?.(message.payload ?? ''));
  const heartbeat = setInterval(() => {
    let answered = false;
    const timer = setTimeout(() => {
      if (!answered) lost(new Error('the listening connection did not answer its heartbeat within 10 s'));
    }, 10_000);
    timer.unref();
    client
      .query('select 1')
      .then(() => {
        answered = true;
        clearTimeout(timer);
      })
      .catch((error: unknown) => {
        clearTimeout(timer);
        lost(error instanceof Error ? error : new Error(String(error)));
      });
  }, 30_000);
  heartbeat.unref();
  client.on('end', () => clearInterval(heartbeat));
  return {
    schema: rows[0]?.schema ?? 'public',
    async listen(channel, onNotify) {
      if (!isPlainChannel(channel)) throw new RangeError(`not a plain channel name: ${channel}`);
      handlers.set(channel, onNotify);
      await client.query(`listen ${channel}`);
    },
    async tryLock(key) {
      const result = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', [key]);
      return result.rows[0]?.locked === true;
    },
    onLost(handler) {
      lostHandler = handler;
    },
    async close() {
      clearInterval(heartbeat);
      if (closed) return;
      closed = true;
      // Ending the session releases its advisory locks and its LISTENs.
      await client.end().catch(() => undefined);
    },
  };
}

function pgliteHandle(lite: import('@electric-sql/pglite').PGlite, release: () => Promise<void>, onQuery?: QueryObserver): DatabaseHandle {
  const use: PGliteUse = { held: false, waiting: 0 };
  // One process holds the embedded database (the DATA_DIR lock): its listeners are all there are.
  const eventCommits = new EventCommits();
  const db = new Kysely<Database>({
    dialect: watchingEventCommits(pgliteDialect(lite, use), eventCommits),
    ...(onQuery ? { log: onQuery } : {}),
  });
  /** Advisory locks of the in-process listeners: key → the listener holding it. */
  const locks = new Map<string, object>();
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    eventCommits,
    poolStats: () => ({ total: 1, idle: use.held ? 0 : 1, waiting: use.waiting }),
    dumpImage: () => lite.dumpDataDir('none'),
    openListener: async () => {
      const self = {};
      const unlisten: Array<() => Promise<void>> = [];
      const { rows } = await lite.query<{ schema: string }>('select current_schema() as schema');
      return {
        schema: rows[0]?.schema ?? 'public',
        async listen(channel, onNotify) {
          if (!isPlainChannel(channel)) throw new RangeError(`not a plain channel name: ${channel}`);
          unlisten.push(await lite.listen(channel, (payload) => onNotify(payload ?? '')));
        },
        async tryLock(key) {
          const holder = locks.get(key);
          if (holder === undefined) locks.set(key, self);
          return (holder ?? self) === self;
        },
        onLost() {
          // The embedded database is in this process: its session is never lost.
        },
        async close() {
          for (const [key, holder] of locks) if (holder === self) locks.delete(key);
          if (!lite.closed) for (const stop of unlisten.splice(0)) await stop().catch(() => undefined);
        },
      };
    },
    close: async () => {
      try {
        await db.destroy();
      } finally {
        await release();
      }
    },
  };
}

/** Called before each pending migration runs: its name, its rank among the pending ones, their number. */
export type MigrationProgress = (name: string, index: number, total: number) => void;

/**
 * `db` for Kysely's migrator, whose look for its own tables reads only the connection's schema.
 * Kysely's introspector lists every column of every table of the database and resolves each
 * table by name: slow with many schemas, and refused (42P01) when a table is dropped during
 * the look, as another schema's owner may do at any time (the tests' schemas do).
 */
function withSchemaIntrospection(db: DB): DB {
  const scoped = db.withoutPlugins();
  const introspector: DatabaseIntrospector = {
    getSchemas: async () => (await sql<SchemaMetadata>`select nspname as name from pg_catalog.pg_namespace`.execute(db)).rows,
    getTables: async () => {
      const { rows } = await sql<{ name: string; schema: string; is_view: boolean }>`
        select c.relname as name, n.nspname as schema, c.relkind = 'v' as is_view
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v')`.execute(db);
      return rows.map((row): TableMetadata => ({ name: row.name, schema: row.schema, isView: row.is_view, columns: [] }));
    },
    getMetadata: async () => ({ tables: await introspector.getTables() }),
  };
  Object.defineProperty(scoped, 'introspection', { get: () => introspector });
  return scoped;
}

/**
 * Applies every pending migration, forward only, then builds the indexes the migrations left to
 * build outside their transaction (concurrent-indexes.ts), also those a failed or interrupted
 * earlier start did not finish. Safe to run from several processes at once.
 */
export async function migrateToLatest(db: DB, onMigration?: MigrationProgress, onIndex?: (name: string) => void): Promise<string[]> {
  // The migration tables live in the schema the connection works in (tests use one schema each).
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const settings = {
    db: withSchemaIntrospection(db),
    migrationTableSchema: rows[0]?.schema ?? 'public',
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
    // 0004 and 0005 were written in parallel and landed out of name order: a database may
    // hold either one first. Both are independent, so a pending one is applied whatever
    // its name sorts after; a fresh database still runs them in name order.
    allowUnorderedMigrations: true,
  };
  let provided = migrations;
  if (onMigration) {
    const pending = (await new Migrator({ ...settings, provider: { getMigrations: async () => migrations } }).getMigrations())
      .filter((m) => m.executedAt === undefined)
      .map((m) => m.name);
    provided = Object.fromEntries(
      Object.entries(migrations).map(([name, migration]): [string, Migration] => [
        name,
        {
          ...migration,
          up: async (trx) => {
            onMigration(name, pending.indexOf(name) + 1, pending.length);
            await migration.up(trx);
          },
        },
      ]),
    );
  }
  const migrator = new Migrator({ ...settings, provider: { getMigrations: async () => provided } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  const { rows: version } = await sql<{ pglite: boolean }>`select version() like '%PGlite%' as pglite`.execute(db);
  const wanted = indexesToBuild(Object.values(migrations).flatMap((migration) => migration.concurrentIndexes ?? []));
  await buildConcurrentIndexes(db, version[0]?.pglite ? 'pglite' : 'postgres', wanted, onIndex);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Whether the connection's schema holds the migration table (a database the server has set up). */
export async function hasMigrationTable(db: DB): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`
    select to_regclass(quote_ident(current_schema()) || '.schema_migrations') is not null as present
  `.execute(db);
  return rows[0]?.present === true;
}
