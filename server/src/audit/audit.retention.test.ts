// Retention: the periodic task `audit.purge` (workers.ts) deletes the entries older than
// AUDIT_RETENTION_DAYS by the app's clock, in bounded transactions, and nothing when it is 0.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type KyselyPlugin, sql } from 'kysely';
import { buildTestApp, fakeClock, type TestApp } from '../../test/helpers.ts';
import { periodicTasks } from '../workers.ts';
import { purgeAuditLog, recordAudit, SYSTEM_ACTOR } from './audit.service.ts';

const DAY = 24 * 3600 * 1000;
const task = periodicTasks.find((candidate) => candidate.name === 'audit.purge');

async function names(t: TestApp): Promise<string[]> {
  const rows = await t.deps.db
    .selectFrom('audit_log')
    .select('resource_name')
    .where('resource_type', '=', 'retention_test')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.resource_name);
}

async function write(t: TestApp, name: string, at: Date): Promise<void> {
  await recordAudit(t.deps.db, SYSTEM_ACTOR, { action: 'settings.updated', resource: { type: 'retention_test', id: null, name } }, at);
}

describe('audit log retention', () => {
  const clock = fakeClock(new Date('2026-06-01T00:00:00Z'));
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock, env: { AUDIT_RETENTION_DAYS: '30' } });
  });
  after(() => t.close());

  it('is a periodic task of the workers, run hourly', () => {
    assert.ok(task);
    assert.equal(task.everyMs, 3600 * 1000);
  });

  it('deletes the entries older than AUDIT_RETENTION_DAYS as the clock moves, and only those', async () => {
    const now = clock.now().getTime();
    await write(t, 'day-40', new Date(now - 40 * DAY));
    await write(t, 'day-31', new Date(now - 31 * DAY));
    await write(t, 'day-29', new Date(now - 29 * DAY));
    await write(t, 'today', new Date(now));
    assert.ok(task);
    await task.run(t.deps);
    assert.deepEqual(await names(t), ['day-29', 'today']);
    clock.advance(2 * DAY);
    await task.run(t.deps);
    assert.deepEqual(await names(t), ['today']);
    clock.advance(30 * DAY);
    await task.run(t.deps);
    assert.deepEqual(await names(t), []);
    // The cutoff lived only in the purge's transactions.
    await write(t, 'kept', new Date(now));
    await assert.rejects(sql`delete from audit_log where resource_type = 'retention_test'`.execute(t.deps.db), /append-only/);
  });

  it('purges a large backlog in bounded transactions, oldest first', async () => {
    await sql`
      insert into audit_log (created_at, actor_type, actor_name, action, resource_type, resource_name)
      select timestamptz '2020-01-01T00:00:00Z' + g * interval '1 minute', 'system', 'System', 'settings.updated', 'retention_bulk', g::text
      from generate_series(1, 2500) g`.execute(t.deps.db);
    let transactions = 0;
    let deleted: number[] = [];
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        if (args.node.kind === 'DeleteQueryNode') transactions += 1;
        return args.node;
      },
      transformResult: async (args) => {
        if (args.result.numAffectedRows !== undefined) deleted.push(Number(args.result.numAffectedRows));
        return args.result;
      },
    };
    const db = t.deps.db.withPlugin(counting);
    // At most 2 batches of 1000 this run: the next run goes on.
    assert.equal(await purgeAuditLog(db, new Date('2021-01-01T00:00:00Z'), { batch: 1000, maxBatches: 2 }), 2000);
    assert.deepEqual([transactions, deleted], [2, [1000, 1000]]);
    const left = await t.deps.db
      .selectFrom('audit_log')
      .select(['resource_name'])
      .where('resource_type', '=', 'retention_bulk')
      .orderBy('id')
      .execute();
    // Oldest first: what is left is the newest 500.
    assert.deepEqual(
      left.map((row) => row.resource_name),
      Array.from({ length: 500 }, (_, i) => String(2001 + i)),
    );
    transactions = 0;
    deleted = [];
    assert.equal(await purgeAuditLog(db, new Date('2021-01-01T00:00:00Z'), { batch: 1000 }), 500);
    assert.equal(transactions, 1);
  });
});

describe('audit log retention of 0', () => {
  const clock = fakeClock(new Date('2026-06-01T00:00:00Z'));
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock, env: { AUDIT_RETENTION_DAYS: '0' } });
  });
  after(() => t.close());

  it('keeps every entry', async () => {
    await write(t, 'ancient', new Date('2000-01-01T00:00:00Z'));
    assert.ok(task);
    assert.equal(await task.run(t.deps), 0);
    assert.deepEqual(await names(t), ['ancient']);
  });
});
