import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrations } from './migrations/index.ts';
import { openDatabase } from './database.ts';
import { CUSTOM_PLAN_MARKER, StatementNames } from './prepared.ts';

const databaseUrl = process.env['DATABASE_URL'] ?? null;

describe('migrations', () => {
  it('are listed in name order, each dated', () => {
    const names = Object.keys(migrations);
    assert.deepEqual(names, [...names].sort());
    for (const name of names) assert.match(name, /^\d{4}_\d{2}_\d{2}_\d{4}_[a-z_]+$/);
  });
});

describe('StatementNames', () => {
  it('names data statements once, the same name for the same text', () => {
    const names = new StatementNames();
    const a = names.nameFor('select 1 where $1::int = 1');
    assert.ok(a?.startsWith('k'));
    assert.equal(names.nameFor('select 1 where $1::int = 1'), a);
    assert.notEqual(names.nameFor('select 2'), a);
    assert.ok(names.nameFor('WITH x as (select 1) select * from x'));
    assert.ok(names.nameFor('  insert into t values ($1)'));
  });

  it('never names transaction control, settings or DDL', () => {
    const names = new StatementNames();
    for (const text of ['begin', 'commit', 'rollback', 'set local x = 1', 'create index i on t (a)', 'selected']) {
      assert.equal(names.nameFor(text), null, text);
    }
  });

  it('leaves statements marked for a custom plan unnamed', () => {
    assert.equal(new StatementNames().nameFor(`select ${CUSTOM_PLAN_MARKER} * from t where a like $1`), null);
  });

  it('stops naming new texts at its bound, and never names a huge text', () => {
    const names = new StatementNames();
    for (let i = 0; i < 600; i++) names.nameFor(`select ${i}`);
    assert.equal(names.size, 500);
    assert.equal(names.nameFor('select 9999'), null);
    assert.ok(names.nameFor('select 1'));
    assert.equal(new StatementNames().nameFor(`select '${'x'.repeat(20_000)}'`), null);
  });
});

describe('prepared statements on PostgreSQL', { skip: databaseUrl ? false : 'DATABASE_URL not set' }, () => {
  it('prepares a statement once per connection and reuses it', async () => {
    const handle = await openDatabase({ databaseUrl, pgliteDir: null, poolSize: 1 });
    try {
      for (let i = 0; i < 3; i++) {
        const { rows } = await sql<{ v: number }>`select ${i}::int + 1 as v`.execute(handle.db);
        assert.equal(rows[0]?.v, i + 1);
      }
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_prepared_statements where statement like 'select $1::int + 1 as v%'`.execute(handle.db);
      assert.equal(rows[0]?.n, 1);
    } finally {
      await handle.close();
    }
  });

  it('a parameter that cannot be sent does not break the statement for later queries', async () => {
    const handle = await openDatabase({ databaseUrl, pgliteDir: null, poolSize: 1 });
    try {
      const run = (value: unknown) => sql<{ v: string }>`select ${value}::jsonb ->> 'a' as v`.execute(handle.db);
      assert.equal((await run(JSON.stringify({ a: 'one' }))).rows[0]?.v, 'one');
      const circular: Record<string, unknown> = {};
      circular['self'] = circular;
      await assert.rejects(run(circular));
      assert.equal((await run(JSON.stringify({ a: 'two' }))).rows[0]?.v, 'two');
      assert.equal((await run(JSON.stringify({ a: 'three' }))).rows[0]?.v, 'three');
    } finally {
      await handle.close();
    }
  });

  it('sessions of the pool run without JIT compilation, in the schema asked for', async () => {
    const handle = await openDatabase({ databaseUrl, pgliteDir: null, poolSize: 1, schema: 'jit_probe' });
    try {
      const { rows } = await sql<{
        jit: string;
        path: string;
      }>`select current_setting('jit') as jit, current_setting('search_path') as path`.execute(handle.db);
      assert.deepEqual(rows, [{ jit: 'off', path: 'jit_probe,public' }]);
    } finally {
      await handle.close();
    }
  });

  it('can be turned off', async () => {
    const handle = await openDatabase({ databaseUrl, pgliteDir: null, poolSize: 1, preparedStatements: false });
    try {
      await sql`select 41 + 1 as unnamed_probe`.execute(handle.db);
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_prepared_statements where statement like '%unnamed_probe%'`.execute(handle.db);
      assert.equal(rows[0]?.n, 0);
    } finally {
      await handle.close();
    }
  });
});
