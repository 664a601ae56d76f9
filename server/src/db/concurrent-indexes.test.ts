// Indexes built after the migrations' transaction (concurrent-indexes.ts): built once, rebuilt
// when an earlier build left an INVALID index, once only when two instances start together.
// On PGlite always; on PostgreSQL too when DATABASE_URL is set.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { buildTestApp, dropSchema } from '../../test/helpers.ts';
import { buildConcurrentIndexes, type ConcurrentIndex, indexesToBuild } from './concurrent-indexes.ts';
import { type DatabaseHandle, openDatabase } from './database.ts';

const databaseUrl = process.env['DATABASE_URL'] ?? null;
const INDEX: ConcurrentIndex = { name: 'things_label_idx', create: 'on things (lower(label))' };

async function validity(handle: DatabaseHandle): Promise<boolean | null> {
  const { rows } = await sql<{ valid: boolean }>`
    select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
    join pg_namespace n on n.oid = c.relnamespace
    where c.relname = ${INDEX.name} and n.nspname = current_schema()
  `.execute(handle.db);
  return rows[0]?.valid ?? null;
}

/** Marks the index as a failed build would leave it (superuser: the tests' databases). */
async function invalidate(handle: DatabaseHandle): Promise<void> {
  await sql`update pg_index set indisvalid = false where indexrelid = to_regclass(${INDEX.name})`.execute(handle.db);
}

describe('indexes built after the migrations', () => {
  it('PGlite: builds a missing index once, rebuilds an invalid one', async () => {
    const handle = await openDatabase({ databaseUrl: null, pgliteDir: null });
    try {
      await sql`create table things (id int, label text)`.execute(handle.db);
      assert.deepEqual(await buildConcurrentIndexes(handle.db, 'pglite', [INDEX]), [INDEX.name]);
      assert.equal(await validity(handle), true);
      assert.deepEqual(await buildConcurrentIndexes(handle.db, 'pglite', [INDEX]), []);
      await invalidate(handle);
      assert.equal(await validity(handle), false);
      assert.deepEqual(await buildConcurrentIndexes(handle.db, 'pglite', [INDEX]), [INDEX.name]);
      assert.equal(await validity(handle), true);
      await assert.rejects(buildConcurrentIndexes(handle.db, 'pglite', [{ name: 'bad name; drop', create: 'on things (id)' }]), RangeError);
    } finally {
      await handle.close();
    }
  });

  it('migrations leave the search index of message windows built and valid, and the index it replaced gone', async () => {
    const t = await buildTestApp();
    try {
      const { rows } = await sql<{ name: string; valid: boolean }>`
        select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
        join pg_namespace n on n.oid = c.relnamespace
        where c.relname in ('messages_search_idx', 'messages_search_window_idx') and n.nspname = current_schema()
      `.execute(t.deps.db);
      assert.deepEqual(rows, [{ name: 'messages_search_window_idx', valid: true }]);
    } finally {
      await t.close();
    }
  });

  it('an index that replaces another: the other is never built, and dropped once the replacement is valid', async () => {
    const replacement: ConcurrentIndex = { name: 'things_label_upper_idx', create: 'on things (upper(label))', replaces: INDEX.name };
    assert.deepEqual(indexesToBuild([INDEX, replacement]), [replacement]);
    const handle = await openDatabase({ databaseUrl: null, pgliteDir: null });
    try {
      await sql`create table things (id int, label text)`.execute(handle.db);
      await buildConcurrentIndexes(handle.db, 'pglite', [INDEX]);
      assert.equal(await validity(handle), true);
      assert.deepEqual(await buildConcurrentIndexes(handle.db, 'pglite', [replacement]), [replacement.name]);
      assert.equal(await validity(handle), null);
      assert.deepEqual(await buildConcurrentIndexes(handle.db, 'pglite', [replacement]), []);
    } finally {
      await handle.close();
    }
  });

  it('PostgreSQL: two instances at once build it once; an invalid leftover is rebuilt', { skip: databaseUrl === null }, async () => {
    const url = databaseUrl as string;
    const schema = `t_ci_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const first = await openDatabase({ databaseUrl: url, pgliteDir: null, schema, poolSize: 2 });
    const second = await openDatabase({ databaseUrl: url, pgliteDir: null, schema, poolSize: 2 });
    try {
      await sql`create table things (id int, label text)`.execute(first.db);
      await sql`insert into things select g, 'label ' || g from generate_series(1, 20000) g`.execute(first.db);
      const built = await Promise.all([
        buildConcurrentIndexes(first.db, 'postgres', [INDEX]),
        buildConcurrentIndexes(second.db, 'postgres', [INDEX]),
      ]);
      assert.deepEqual(built.flat(), [INDEX.name]);
      assert.equal(await validity(first), true);
      await invalidate(first);
      assert.deepEqual(await buildConcurrentIndexes(second.db, 'postgres', [INDEX]), [INDEX.name]);
      assert.equal(await validity(first), true);
      // Nothing to do: no lock taken, nothing built.
      assert.deepEqual(await buildConcurrentIndexes(first.db, 'postgres', [INDEX]), []);
      // A replacement: built, and the index it replaces dropped (concurrently).
      const replacement: ConcurrentIndex = { name: 'things_label_upper_idx', create: 'on things (upper(label))', replaces: INDEX.name };
      assert.deepEqual(await buildConcurrentIndexes(second.db, 'postgres', [replacement]), [replacement.name]);
      assert.equal(await validity(first), null);
      assert.deepEqual(await buildConcurrentIndexes(first.db, 'postgres', [replacement]), []);
    } finally {
      await first.close();
      await second.close();
      await admin.end();
      await dropSchema(url, schema);
    }
  });
});
