// Opens the database: embedded PGlite under DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set. Both speak through the same Kysely code path.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.ts';
import { pgliteDialect } from './pglite-driver.ts';
import { preparingPool } from './prepared.ts';
import type { Database } from './types.ts';

export type DB = Kysely<Database>;

export interface DatabaseHandle {
  readonly db: DB;
  readonly kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when null the embedded database is used. */
  databaseUrl: string | null;
  /** Folder of the embedded database; null keeps it in memory (tests). */
  pgliteDir: string | null;
  /** PostgreSQL schema to use (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
  /** Run statements as named prepared statements (PostgreSQL only; default true). */
  preparedStatements?: boolean;
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
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: options.preparedStatements === false ? pool : preparingPool(pool) }) });
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  let dataDir: string | undefined;
  if (options.pgliteDir) {
    mkdirSync(options.pgliteDir, { recursive: true });
    dataDir = join(options.pgliteDir, 'pgdata');
  }
  const lite = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    parsers: { [INT8_OID]: (value: string) => Number(value), [NUMERIC_OID]: (value: string) => Number(value) },
  });
  const db = new Kysely<Database>({ dialect: pgliteDialect(lite) });
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** Applies every pending migration, forward only. Safe to run from several processes at once. */
export async function migrateToLatest(db: DB): Promise<string[]> {
  // The migration tables live in the schema the connection works in (tests use one schema each).
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({
    db,
    migrationTableSchema: rows[0]?.schema ?? 'public',
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
    // 0004 and 0005 were written in parallel and landed out of name order: a database may
    // hold either one first. Both are independent, so a pending one is applied whatever
    // its name sorts after; a fresh database still runs them in name order.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
