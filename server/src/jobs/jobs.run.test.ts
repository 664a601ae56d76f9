// The durable job queue: running a job (at once, at run_at, once per dedupe key), wake-ups
// across instances and apps, malformed jobs, kinds without a handler; on a test app's database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { buildTestApp, fakeClock, type TestApp } from '../../test/helpers.ts';
import { jobQueries, sleep, waitFor } from '../../test/jobs.ts';
import { startJobRunner } from './jobs.runner.ts';
import { enqueueJob, JOB_WAKE_CHANNEL, startJobWakeRelay } from './jobs.service.ts';

describe('job queue and periodic tasks', { timeout: 120_000 }, () => {
  let t: TestApp;
  const clock = fakeClock(new Date());
  let kindCounter = 0;
  const newKind = (label: string) => `test.${label}.${++kindCounter}`;

  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(async () => {
    await t?.close();
  });

  const { jobsOf, onlyJob } = jobQueries(() => t);

  it('runs a job once, right after it is enqueued (no waiting for a poll), and completes it', async () => {
    const kind = newKind('once');
    const seen: Array<{ payload: Record<string, unknown>; id: string; attempts: number }> = [];
    const runner = startJobRunner(
      t.deps,
      {
        [kind]: async (_deps, payload, job) => {
          seen.push({ payload, id: job.id, attempts: job.attempts });
        },
      },
      { pollIntervalMs: 60_000 },
    );
    try {
      await sleep(20); // the runner's first (empty) claim is behind it
      const startedAt = Date.now();
      await enqueueJob(t.deps, t.deps.db, { kind, payload: { conversation: 7, note: 'héllo' } });
      const done = await waitFor('completion', async () => (await onlyJob(kind)).completed_at, 2000);
      assert.ok(done instanceof Date);
      assert.ok(Date.now() - startedAt < 2000, 'woken by the enqueue, not by the 60 s poll');
      const job = await onlyJob(kind);
      assert.equal(seen.length, 1);
      assert.deepEqual(seen[0], { payload: { conversation: 7, note: 'héllo' }, id: String(job.id), attempts: 1 });
      assert.equal(job.attempts, 1);
      assert.equal(job.locked_by, null);
      assert.equal(job.locked_until, null);
      assert.equal(job.failed_at, null);
      assert.equal(job.last_error, null);
      await sleep(50);
      assert.equal(seen.length, 1, 'a completed job never runs again');

      // Enqueued inside a transaction (the outbox): runs once the transaction commits.
      const kindTx = kind;
      await t.deps.db.transaction().execute(async (trx) => {
        await enqueueJob(t.deps, trx, { kind: kindTx, payload: { n: 2 } });
      });
      await waitFor('the job of the transaction', () => seen.length === 2, 2000);
      // A rolled back transaction leaves no job.
      await assert.rejects(
        t.deps.db.transaction().execute(async (trx) => {
          await enqueueJob(t.deps, trx, { kind: kindTx, payload: { n: 3 } });
          throw new Error('rollback');
        }),
        /rollback/,
      );
      await sleep(100);
      assert.equal(seen.length, 2);
      assert.equal((await jobsOf(kind)).length, 2);
    } finally {
      await runner.stop();
    }
  });

  it('waits for run_at, and keeps at most one pending job per dedupe key', async () => {
    const kind = newKind('later');
    let runs = 0;
    // The app clock ten minutes ahead of the database's, so that only the app clock can make the job due.
    clock.set(new Date(Math.max(Date.now(), clock.now().getTime()) + 10 * 60_000));
    const runner = startJobRunner(t.deps, { [kind]: async () => void runs++ }, { pollIntervalMs: 10 });
    try {
      await enqueueJob(t.deps, t.deps.db, { kind, payload: {}, runAt: new Date(clock.now().getTime() + 60_000), dedupeKey: `k-${kind}` });
      await enqueueJob(t.deps, t.deps.db, { kind, payload: { second: true }, dedupeKey: `k-${kind}` });
      assert.equal((await jobsOf(kind)).length, 1, 'the second enqueue was absorbed by the pending job');
      await sleep(100);
      assert.equal(runs, 0, 'not due yet');
      clock.advance(61_000);
      await waitFor('the delayed job', () => runs === 1, 2000);
      await waitFor('completion', async () => (await onlyJob(kind)).completed_at, 2000);
      // Once completed, the key is free again.
      await enqueueJob(t.deps, t.deps.db, { kind, payload: {}, dedupeKey: `k-${kind}` });
      await waitFor('the new job with the key', () => runs === 2, 2000);
      assert.equal((await jobsOf(kind)).length, 2);
    } finally {
      await runner.stop();
    }
  });

  it('wakes up on a wake-up from another instance (through the bus), and relays its own enqueues', async () => {
    const kind = newKind('remote');
    let runs = 0;
    const runner = startJobRunner(t.deps, { [kind]: async () => void runs++ }, { pollIntervalMs: 60_000 });
    try {
      await sleep(20);
      // As another instance would: the row appears without a local signal, then the bus says so.
      await t.deps.db
        .insertInto('jobs')
        .values({ kind, payload: JSON.stringify({}) })
        .execute();
      await sleep(50);
      assert.equal(runs, 0, 'no poll within 60 s');
      await t.deps.bus.publish(JOB_WAKE_CHANNEL, { kinds: ['some.other.kind', kind] });
      await waitFor('the remotely woken job', () => runs === 1, 2000);
    } finally {
      await runner.stop();
    }

    // The relay forwards this instance's enqueues to the others (only a Redis bus crosses processes).
    if (t.deps.bus.kind === 'redis') {
      const heard: unknown[] = [];
      const unsubscribe = await t.deps.bus.subscribe(JOB_WAKE_CHANNEL, (message) => void heard.push(message));
      const relay = startJobWakeRelay(t.deps);
      try {
        await enqueueJob(t.deps, t.deps.db, { kind, payload: {} });
        await enqueueJob(t.deps, t.deps.db, { kind, payload: {} });
        await waitFor('the relayed wake-up', () => heard.length > 0, 2000);
        assert.deepEqual(heard[0], { kinds: [kind] }, 'coalesced into one message');
      } finally {
        await relay.stop();
        await unsubscribe();
      }
    }
  });

  it('two apps in one process do not wake each other’s runners: the wake-up signal belongs to the app', async () => {
    const kind = newKind('isolated');
    const other = await buildTestApp();
    let runs = 0;
    const runner = startJobRunner(other.deps, { [kind]: async () => void runs++ }, { pollIntervalMs: 60_000 });
    try {
      await sleep(20); // the runner's first (empty) claim is behind it
      // A job of the other app that nothing announced: only a wake-up (or a poll in 60 s) finds it.
      await other.deps.db
        .insertInto('jobs')
        .values({ kind, payload: JSON.stringify({}) })
        .execute();
      await enqueueJob(t.deps, t.deps.db, { kind, payload: {} });
      await sleep(150);
      assert.equal(runs, 0, 'an enqueue in this app did not wake the other app’s runner');
      await enqueueJob(other.deps, other.deps.db, { kind, payload: {} });
      await waitFor('the other app’s own jobs', () => runs === 2, 2000);
    } finally {
      await runner.stop();
      await other.close();
    }
    await sql`delete from jobs where kind = ${kind}`.execute(t.deps.db);
  });

  it('rejects a malformed job', async () => {
    await assert.rejects(enqueueJob(t.deps, t.deps.db, { kind: '', payload: {} }), RangeError);
    await assert.rejects(enqueueJob(t.deps, t.deps.db, { kind: 'x', payload: {}, maxAttempts: 0 }), RangeError);
    await assert.rejects(enqueueJob(t.deps, t.deps.db, { kind: 'x', payload: {}, runAt: new Date('nope') }), RangeError);
    await assert.rejects(enqueueJob(t.deps, t.deps.db, { kind: 'x', payload: {}, dedupeKey: '' }), RangeError);
    const count = await t.deps.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'x')
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  });

  it('leaves jobs of kinds it has no handler for to other runners', async () => {
    const kind = newKind('foreign');
    const mine = newKind('mine');
    let runs = 0;
    const runner = startJobRunner(t.deps, { [mine]: async () => void runs++ }, { pollIntervalMs: 10 });
    try {
      await enqueueJob(t.deps, t.deps.db, { kind, payload: {} });
      await enqueueJob(t.deps, t.deps.db, { kind: mine, payload: {} });
      await waitFor('my job', () => runs === 1, 2000);
      await sleep(50);
      const foreign = await onlyJob(kind);
      assert.equal(foreign.attempts, 0);
      assert.equal(foreign.locked_by, null);
    } finally {
      await runner.stop();
    }
    // Not left behind for other tests' runners.
    await sql`delete from jobs where kind = ${kind}`.execute(t.deps.db);
  });
});
