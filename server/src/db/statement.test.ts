import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { type DatabaseHandle, openDatabase } from './database.ts';
import { compiledOnce, compiledPerShape } from './statement.ts';

type Probe = Record<string, { name: string; kind: string; n: number }>;

describe('compiledOnce', () => {
  let handle: DatabaseHandle;
  const table = `statement_probe_${randomBytes(4).toString('hex')}`;
  before(async () => {
    handle = await openDatabase({ databaseUrl: process.env['DATABASE_URL'] ?? null, pgliteDir: null, poolSize: 2 });
    await sql`create table ${sql.table(table)} (name text, kind text, n int)`.execute(handle.db);
    await sql`insert into ${sql.table(table)} values ('a', 'x', 1), ('b', 'y', 2), ('b', 'x', 3)`.execute(handle.db);
  });
  after(async () => {
    await sql`drop table ${sql.table(table)}`.execute(handle.db);
    await handle.close();
  });

  // A constant (n > 0) stays in the statement; the two arguments are substituted.
  const byName = compiledOnce((db, name: string, kind: string) =>
    (db as unknown as Kysely<Probe>)
      .selectFrom(table)
      .select(['name', 'kind', 'n'])
      .where('name', '=', name)
      .where('kind', '=', kind)
      .where('n', '>', 0),
  );

  it("substitutes each call's values into the statement compiled once", async () => {
    assert.deepEqual(await byName.execute(handle.db, 'b', 'x'), [{ name: 'b', kind: 'x', n: 3 }]);
    assert.deepEqual(await byName.execute(handle.db, 'a', 'x'), [{ name: 'a', kind: 'x', n: 1 }]);
    assert.equal(await byName.executeTakeFirst(handle.db, 'a', 'y'), undefined);
  });

  it('runs inside a transaction on its connection', async () => {
    const rows = await handle.db.transaction().execute((trx) => byName.execute(trx, 'b', 'y'));
    assert.deepEqual(rows, [{ name: 'b', kind: 'y', n: 2 }]);
  });

  it('refuses a builder that does not pass an argument through as a parameter', async () => {
    const transformed = compiledOnce((db, name: string) => db.selectNoFrom(sql<string>`${name.toUpperCase()}`.as('v')));
    await assert.rejects(transformed.execute(handle.db, 'x'), /argument 0 is not used as a plain query parameter/);
    const inlined = compiledOnce((db, name: string) => db.selectNoFrom(sql.lit(name).as('v')));
    await assert.rejects(inlined.execute(handle.db, 'x'), /not used as a plain query parameter/);
  });

  it('compiles each shape once: a list of ids is one array parameter, the shape names what is not an argument', async () => {
    const probe = (db: unknown) => (db as Kysely<Probe>).selectFrom(table).select(['name', 'kind', 'n']);
    const execute = compiledPerShape<{ name: string; kind: string; n: number }>();
    let builds = 0;
    const list = (ns: readonly number[], order: 'asc' | 'desc') =>
      execute(handle.db, `ns ${order}`, [ns], (db, values) => {
        builds += 1;
        return probe(db).where('n', '=', sql<number>`any(${values}::int[])`).orderBy('n', order);
      });
    assert.deepEqual(
      (await list([1, 3], 'asc')).map((r) => r.n),
      [1, 3],
    );
    assert.deepEqual(
      (await list([2, 3, 1], 'asc')).map((r) => r.n),
      [1, 2, 3],
    );
    assert.deepEqual(
      (await list([2, 3], 'desc')).map((r) => r.n),
      [3, 2],
    );
    assert.deepEqual(
      (await list([3], 'desc')).map((r) => r.n),
      [3],
    );
    assert.equal(builds, 2, 'one build per shape');
  });
});
