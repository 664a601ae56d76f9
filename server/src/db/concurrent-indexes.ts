// Indexes built after the migrations' transaction. Kysely's migrator runs the pending migrations
// in one transaction, and an index built there blocks every write to its table until the
// transaction commits: minutes on a large table. A migration lists such an index instead in
// `concurrentIndexes`; once the migrations committed, migrateToLatest builds each missing one
// with CREATE INDEX CONCURRENTLY (writes go on meanwhile). On PGlite, one session and no
// concurrent writers, a plain CREATE INDEX does the same.
import { type Migration, sql } from 'kysely';
import type { DB } from './database.ts';

export interface ConcurrentIndex {
  /** The index's name (plain: lower case letters, digits and underscores). */
  name: string;
  /** What follows `create index <name>`: `on table using … (…) [where …]`. */
  create: string;
  /**
   * An index of an earlier migration that this one takes the place of: it is dropped once this
   * one is built and valid (concurrently on PostgreSQL), and never built again.
   */
  replaces?: string;
}

/** The indexes to build: each listed one that no later one replaces (its name, its replacement). */
export function indexesToBuild(all: readonly ConcurrentIndex[]): ConcurrentIndex[] {
  const replaced = new Set(all.flatMap((index) => (index.replaces === undefined ? [] : [index.replaces])));
  return all.filter((index) => !replaced.has(index.name));
}

/** A migration module: Kysely's up/down, and the indexes to build after the transaction. */
export type ParleyMigration = Migration & { concurrentIndexes?: readonly ConcurrentIndex[] };

/** How long a second instance waits between looks at the lock while another one builds. */
const LOCK_POLL_MS = 500;

function plainName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new RangeError(`not a plain index name: ${name}`);
  return name;
}

function checkedName(index: ConcurrentIndex): string {
  return plainName(index.name);
}

/** The replaced indexes still present. */
async function leftovers(db: DB, wanted: readonly ConcurrentIndex[]): Promise<string[]> {
  const names = wanted.flatMap((index) => (index.replaces === undefined ? [] : [plainName(index.replaces)]));
  const states = await Promise.all(names.map((name) => indexState(db, name)));
  return names.filter((_, i) => states[i] !== 'missing');
}

/** Whether the index exists in the connection's schema, and whether a build of it completed. */
async function indexState(db: DB, name: string): Promise<'missing' | 'valid' | 'invalid'> {
  const { rows } = await sql<{ valid: boolean }>`
    select i.indisvalid as valid
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_index i on i.indexrelid = c.oid
    where c.relname = ${name} and n.nspname = current_schema()
  `.execute(db);
  const row = rows[0];
  return row === undefined ? 'missing' : row.valid ? 'valid' : 'invalid';
}

/**
 * Builds every index of `wanted` that is missing or whose earlier build failed (an INVALID
 * leftover, dropped first), drops the indexes they replace, and returns the names built. On PostgreSQL all of it happens on one
 * connection of its own, holding a session advisory lock for the schema: two instances starting
 * at once build each index once. The lock is taken by polling pg_try_advisory_lock, never by
 * waiting in pg_advisory_lock: a waiting statement holds a snapshot, which the other instance's
 * CREATE INDEX CONCURRENTLY would wait for in turn (a deadlock).
 */
export async function buildConcurrentIndexes(
  db: DB,
  kind: 'pglite' | 'postgres',
  wanted: readonly ConcurrentIndex[],
  onIndex?: (name: string) => void,
): Promise<string[]> {
  if (wanted.length === 0) return [];
  const built: string[] = [];
  if (kind === 'pglite') {
    for (const index of wanted) {
      const name = checkedName(index);
      const state = await indexState(db, name);
      if (state === 'valid') continue;
      onIndex?.(name);
      if (state === 'invalid') await sql.raw(`drop index ${name}`).execute(db);
      await sql.raw(`create index ${name} ${index.create}`).execute(db);
      built.push(name);
    }
    for (const name of await leftovers(db, wanted)) await sql.raw(`drop index ${name}`).execute(db);
    return built;
  }
  // Nothing to do is the common start: look without the lock first.
  const states = await Promise.all(wanted.map((index) => indexState(db, checkedName(index))));
  if (states.every((state) => state === 'valid') && (await leftovers(db, wanted)).length === 0) return [];
  await db.connection().execute(async (conn) => {
    const key = sql`hashtext('parley concurrent indexes ' || current_schema())`;
    for (;;) {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}) as locked`.execute(conn);
      if (rows[0]?.locked === true) break;
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    try {
      for (const index of wanted) {
        const name = checkedName(index);
        // Looked at again under the lock: another instance may have built it meanwhile.
        const state = await indexState(conn, name);
        if (state === 'valid') continue;
        onIndex?.(name);
        // A failed or interrupted concurrent build leaves an INVALID index behind; nobody else is building it (we hold the lock).
        if (state === 'invalid') await sql.raw(`drop index concurrently ${name}`).execute(conn);
        await sql.raw(`create index concurrently ${name} ${index.create}`).execute(conn);
        built.push(name);
      }
      // Each replacement is valid now: what it replaces goes, without blocking writes.
      for (const name of await leftovers(conn, wanted)) await sql.raw(`drop index concurrently if exists ${name}`).execute(conn);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
  return built;
}
