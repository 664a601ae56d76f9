// The durable job queue (runner, backoff, dead jobs, leases, shutdown) and periodic tasks,
// on the real database of a test app.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { buildTestApp, fakeClock, type TestApp } from '../../test/helpers.ts';
import { periodicTasks, startWorkers } from '../workers.ts';
import { findJob, type JobRow } from './jobs.queries.ts';
import { describeJobError, type JobHandler, PermanentJobError, startJobRunner } from './jobs.runner.ts';
import { startPeriodicTasks } from './jobs.scheduler.ts';
import { enqueueJob, JOB_WAKE_CHANNEL, purgeCompletedJobs, reapLostJobs, startJobWakeRelay } from './jobs.service.ts';

const DAY = 24 * 3600 * 1000;

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

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

  async function jobsOf(kind: string): Promise<JobRow[]> {
    const rows = await t.deps.db.selectFrom('jobs').select('id').where('kind', '=', kind).orderBy('id').execute();
    const jobs: JobRow[] = [];
    for (const row of rows) {
      const job = await findJob(t.deps.db, row.id);
      if (job) jobs.push(job);
    }
    return jobs;
  }

  async function onlyJob(kind: string): Promise<JobRow> {
    const jobs = await jobsOf(kind);
    assert.equal(jobs.length, 1, `one ${kind} job`);
    return jobs[0];
  }

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

  it('retries a failing job with exponential backoff, then leaves it dead with its last error', async () => {
    const kind = newKind('failing');
    const attempts: number[] = [];
    // The fake clock ahead of the database's: the queue's time is the app clock's alone.
    clock.set(new Date(Math.max(Date.now(), clock.now().getTime()) + 10 * 60_000));
    const runner = startJobRunner(
      t.deps,
      {
        [kind]: async (_deps, _payload, job) => {
          attempts.push(job.attempts);
          throw new Error(`smtp refused: password=hunter2 attempt ${job.attempts}`);
        },
      },
      { pollIntervalMs: 10, baseDelayMs: 60_000, maxDelayMs: 100_000, random: () => 0.5 },
    );
    try {
      await enqueueJob(t.deps, t.deps.db, { kind, payload: {}, maxAttempts: 3 });
      // Attempt 1 fails: the next is due in 0.5 · 60 s.
      let job = await waitFor('first failure', async () => {
        const row = await onlyJob(kind);
        return row.last_error !== null && row.locked_by === null ? row : null;
      });
      assert.equal(job.attempts, 1);
      assert.equal(job.run_at.getTime() - clock.now().getTime(), 30_000, 'first backoff: 0.5 · 60 s');
      assert.match(job.last_error ?? '', /^Error: smtp refused: password=\[redacted\] attempt 1$/);
      await sleep(100);
      assert.deepEqual(attempts, [1], 'not retried before its time');

      clock.advance(30_500);
      job = await waitFor('second failure', async () => {
        const row = await onlyJob(kind);
        return row.attempts === 2 && row.locked_by === null ? row : null;
      });
      assert.equal(job.run_at.getTime() - clock.now().getTime(), 50_000, 'second backoff: 0.5 · min(100 s, 2 · 60 s)');
      assert.equal(job.failed_at, null);

      clock.advance(50_500);
      job = await waitFor('death', async () => {
        const row = await onlyJob(kind);
        return row.failed_at !== null ? row : null;
      });
      assert.deepEqual(attempts, [1, 2, 3]);
      assert.equal(job.attempts, 3);
      assert.equal(job.completed_at, null);
      assert.equal(job.locked_by, null);
      assert.equal(job.last_error, 'Error: smtp refused: password=[redacted] attempt 3');

      clock.advance(DAY);
      await sleep(100);
      assert.deepEqual(attempts, [1, 2, 3], 'a dead job is never retried');
    } finally {
      await runner.stop();
    }
  });

  it('leaves a job dead at once on PermanentJobError', async () => {
    const kind = newKind('permanent');
    let runs = 0;
    const runner = startJobRunner(
      t.deps,
      {
        [kind]: async () => {
          runs += 1;
          throw new PermanentJobError('the conversation no longer exists');
        },
      },
      { pollIntervalMs: 10 },
    );
    try {
      await enqueueJob(t.deps, t.deps.db, { kind, payload: {} });
      const job = await waitFor('death', async () => {
        const row = await onlyJob(kind);
        return row.failed_at ? row : null;
      });
      assert.equal(runs, 1);
      assert.equal(job.last_error, 'PermanentJobError: the conversation no longer exists');
    } finally {
      await runner.stop();
    }
  });

  it('two runners (two instances, on PostgreSQL two connection pools) run each of 200 jobs exactly once', async (ctx) => {
    const kind = newKind('many');
    const executions = new Map<string, number>();
    let concurrent = 0;
    let maxConcurrent = 0;
    const perRunner = [0, 0];
    const handler =
      (runnerIndex: number): JobHandler =>
      async (_deps, payload, job) => {
        concurrent += 1;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        executions.set(job.id, (executions.get(job.id) ?? 0) + 1);
        assert.equal(typeof payload['n'], 'number');
        await sleep(Math.floor(Math.random() * 3));
        perRunner[runnerIndex] += 1;
        concurrent -= 1;
      };
    const second = await t.secondInstance();
    const runners = [
      startJobRunner(t.deps, { [kind]: handler(0) }, { pollIntervalMs: 10, concurrency: 4 }),
      startJobRunner(second.deps, { [kind]: handler(1) }, { pollIntervalMs: 10, concurrency: 4 }),
    ];
    try {
      const started = Date.now();
      for (let batch = 0; batch < 4; batch += 1) {
        await t.deps.db.transaction().execute(async (trx) => {
          for (let i = 0; i < 50; i += 1) await enqueueJob(t.deps, trx, { kind, payload: { n: batch * 50 + i } });
        });
      }
      await waitFor(
        '200 completions',
        async () => {
          const row = await t.deps.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('kind', '=', kind)
            .where('completed_at', 'is not', null)
            .executeTakeFirstOrThrow();
          return Number(row.n) === 200;
        },
        60_000,
      );
      const elapsed = Date.now() - started;
      assert.equal(executions.size, 200);
      for (const [id, count] of executions) assert.equal(count, 1, `job ${id} ran ${count} times`);
      assert.ok(maxConcurrent <= 8, `at most 2 × 4 in flight, saw ${maxConcurrent}`);
      assert.ok(perRunner[0] > 0 && perRunner[1] > 0, `both runners worked: ${perRunner.join(' + ')}`);
      ctx.diagnostic(`200 jobs, 2 runners × concurrency 4: ${elapsed} ms (${perRunner.join(' + ')})`);
      const stuck = await t.deps.db.selectFrom('jobs').select('id').where('kind', '=', kind).where('attempts', '!=', 1).execute();
      assert.deepEqual(stuck, []);
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
      await second.close();
    }
  });

  it('takes again a job whose claim expired (its worker died), and never one whose claim is live', async () => {
    const kind = newKind('orphan');
    let runs = 0;
    await enqueueJob(t.deps, t.deps.db, { kind, payload: { which: 'dead' } });
    await enqueueJob(t.deps, t.deps.db, { kind, payload: { which: 'alive' } });
    const [dead, alive] = await jobsOf(kind);
    const now = clock.now().getTime();
    await t.deps.db
      .updateTable('jobs')
      .set({ locked_by: 'crashed-worker', locked_until: new Date(Math.max(now, Date.now()) - 1000), attempts: 1 })
      .where('id', '=', dead.id)
      .execute();
    await t.deps.db
      .updateTable('jobs')
      .set({ locked_by: 'busy-worker', locked_until: new Date(Math.max(now, Date.now()) + 60_000), attempts: 1 })
      .where('id', '=', alive.id)
      .execute();
    const ran: unknown[] = [];
    const runner = startJobRunner(
      t.deps,
      {
        [kind]: async (_deps, payload, job) => {
          runs += 1;
          ran.push({ which: payload['which'], attempts: job.attempts });
        },
      },
      { pollIntervalMs: 10 },
    );
    try {
      await waitFor('the orphaned job', () => runs === 1, 2000);
      assert.deepEqual(ran, [{ which: 'dead', attempts: 2 }]);
      await waitFor('completion', async () => (await findJob(t.deps.db, dead.id))?.completed_at, 2000);
      await sleep(100);
      assert.equal(runs, 1, 'the job with a live claim is left to its holder');
      const held = await findJob(t.deps.db, alive.id);
      assert.equal(held?.locked_by, 'busy-worker');
    } finally {
      await runner.stop();
    }

    // A worker that died during the last attempt: the job is left dead, not lost.
    const lastKind = newKind('orphan-last');
    await enqueueJob(t.deps, t.deps.db, { kind: lastKind, payload: {}, maxAttempts: 2 });
    const last = await onlyJob(lastKind);
    await t.deps.db
      .updateTable('jobs')
      .set({ locked_by: 'crashed-worker', locked_until: new Date(Math.max(now, Date.now()) - 1000), attempts: 2 })
      .where('id', '=', last.id)
      .execute();
    assert.ok((await reapLostJobs(t.deps)) >= 1);
    const reaped = await findJob(t.deps.db, last.id);
    assert.ok(reaped?.failed_at);
    assert.equal(reaped?.locked_by, null);
    assert.match(reaped?.last_error ?? '', /claim expired/);
  });

  it('counts a handler that exceeds its timeout as failed (and aborts its signal)', async () => {
    const kind = newKind('slow');
    let aborted: unknown = null;
    const runner = startJobRunner(
      t.deps,
      {
        [kind]: (_deps, _payload, job) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 5000);
            job.signal.addEventListener('abort', () => {
              aborted = job.signal.reason;
              clearTimeout(timer);
              resolve();
            });
          }),
      },
      { pollIntervalMs: 10, handlerTimeoutMs: 100 },
    );
    try {
      const started = Date.now();
      await enqueueJob(t.deps, t.deps.db, { kind, payload: {}, maxAttempts: 1 });
      const job = await waitFor('the timeout', async () => {
        const row = await onlyJob(kind);
        return row.failed_at ? row : null;
      });
      assert.ok(Date.now() - started < 3000);
      assert.equal(job.completed_at, null);
      assert.equal(job.last_error, 'JobTimeoutError: the handler did not finish within 100 ms');
      assert.ok(aborted instanceof Error && aborted.name === 'JobTimeoutError');
    } finally {
      await runner.stop();
    }
  });

  it('stop() waits for a running handler to finish', async () => {
    const kind = newKind('finishing');
    let started = false;
    const runner = startJobRunner(
      t.deps,
      {
        [kind]: async () => {
          started = true;
          await sleep(150);
        },
      },
      { pollIntervalMs: 10, stopTimeoutMs: 5000 },
    );
    await enqueueJob(t.deps, t.deps.db, { kind, payload: {} });
    await waitFor('the handler to start', () => started, 2000);
    await runner.stop();
    const job = await onlyJob(kind);
    assert.ok(job.completed_at, 'completed before stop() returned');
  });

  it('stop() releases the claim of a job that did not finish, and another runner takes it at once', async () => {
    const kind = newKind('unfinished');
    let started = false;
    let abortedBy: unknown = null;
    const first = startJobRunner(
      t.deps,
      {
        [kind]: (_deps, _payload, job) =>
          new Promise<void>((_resolve, reject) => {
            started = true;
            job.signal.addEventListener('abort', () => {
              abortedBy = job.signal.reason;
              reject(new Error('aborted'));
            });
          }),
      },
      { pollIntervalMs: 10, stopTimeoutMs: 100, runnerId: 'first-runner' },
    );
    await enqueueJob(t.deps, t.deps.db, { kind, payload: {} });
    await waitFor('the handler to start', () => started, 2000);
    const claimed = await onlyJob(kind);
    assert.equal(claimed.locked_by, 'first-runner');
    assert.equal(claimed.attempts, 1);
    const stopStarted = Date.now();
    await first.stop();
    assert.ok(Date.now() - stopStarted < 2000, 'stop() is bounded');
    assert.ok(abortedBy instanceof Error);
    const released = await onlyJob(kind);
    assert.equal(released.locked_by, null);
    assert.equal(released.locked_until, null);
    assert.equal(released.attempts, 0, 'an interrupted attempt is not counted');
    assert.equal(released.completed_at, null);
    assert.equal(released.failed_at, null);
    assert.equal(released.last_error, null);

    const seen: number[] = [];
    const second = startJobRunner(t.deps, { [kind]: async (_deps, _payload, job) => void seen.push(job.attempts) }, { pollIntervalMs: 10 });
    try {
      await waitFor('the second runner', async () => (await onlyJob(kind)).completed_at, 2000);
      assert.deepEqual(seen, [1]);
    } finally {
      await second.stop();
    }
  });

  it('purges completed jobs older than 7 days, keeps recent and dead ones', async () => {
    const kind = newKind('purge');
    for (let i = 0; i < 4; i += 1) await enqueueJob(t.deps, t.deps.db, { kind, payload: { i } });
    const [old, recent, dead, pending] = await jobsOf(kind);
    const now = Math.max(clock.now().getTime(), Date.now());
    await t.deps.db
      .updateTable('jobs')
      .set({ completed_at: new Date(now - 8 * DAY) })
      .where('id', '=', old.id)
      .execute();
    await t.deps.db
      .updateTable('jobs')
      .set({ completed_at: new Date(now - 6 * DAY) })
      .where('id', '=', recent.id)
      .execute();
    await t.deps.db
      .updateTable('jobs')
      .set({ failed_at: new Date(now - 30 * DAY) })
      .where('id', '=', dead.id)
      .execute();
    const purged = await purgeCompletedJobs(t.deps);
    assert.ok(purged >= 1);
    assert.deepEqual(
      (await jobsOf(kind)).map((job) => job.id),
      [recent.id, dead.id, pending.id],
    );

    // startWorkers runs the purge among its periodic tasks (and the domains' tasks, on this empty database).
    const registered = new Map(periodicTasks.map((task) => [task.name, task.everyMs]));
    for (const [name, everyMs] of [
      ['jobs.purge_completed', 3600_000],
      ['jobs.reap_lost', 60_000],
      ['conversations.wake_snoozed', 30_000],
      ['conversations.place_waiting', 15_000],
      ['conversations.fold_counts', 10_000],
      ['media.purge_orphans', 3600_000],
    ] as const) {
      assert.equal(registered.get(name), everyMs, name);
    }
    await t.deps.db
      .updateTable('jobs')
      .set({ completed_at: new Date(now - 9 * DAY) })
      .where('id', '=', recent.id)
      .execute();
    const workers = startWorkers(t.deps, { periodic: { firstRunWithinMs: 1 } });
    try {
      await waitFor('the periodic purge', async () => !(await findJob(t.deps.db, recent.id)), 5000);
    } finally {
      await workers.stop();
    }
  });

  it('describes errors without secrets or stack traces, bounded', () => {
    const cases: Array<[unknown, string]> = [
      [new Error('connect ECONNREFUSED 10.0.0.1:25'), 'Error: connect ECONNREFUSED 10.0.0.1:25'],
      [
        new TypeError('fetch https://user:s3cret@hooks.example.com/x failed'),
        'TypeError: fetch https://[redacted]@hooks.example.com/x failed',
      ],
      [new Error('401 with Authorization: Bearer abcdefghijklmnop'), 'Error: 401 with Authorization: [redacted] [redacted]'],
      [new Error('sent Bearer abcdefghijklmnop'), 'Error: sent Bearer [redacted]'],
      [new Error('GET /hook?token=abc123&x=1'), 'Error: GET /hook?token=[redacted]&x=1'],
      [new Error('{"api_secret": "zzz", "ok": 1}'), 'Error: {"api_secret": "[redacted]", "ok": 1}'],
      ['plain string', 'plain string'],
      [42, 'non-Error value thrown (number)'],
    ];
    for (const [input, expected] of cases) assert.equal(describeJobError(input), expected);
    const long = describeJobError(new Error('x'.repeat(10_000)));
    assert.equal(long.length, 2000);
    assert.ok(!describeJobError(new Error('boom')).includes('at '), 'no stack trace');
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

  describe('periodic tasks', () => {
    it('run at their interval, never overlap with themselves, survive errors, and stop', async () => {
      let ticks = 0;
      let slowRuns = 0;
      let slowActive = 0;
      let overlapped = false;
      let failures = 0;
      const tasks = startPeriodicTasks(
        t.deps,
        [
          { name: 'tick', everyMs: 20, run: async () => ++ticks },
          {
            name: 'slow',
            everyMs: 5,
            run: async () => {
              slowActive += 1;
              if (slowActive > 1) overlapped = true;
              await sleep(40);
              slowActive -= 1;
              slowRuns += 1;
            },
          },
          {
            name: 'failing',
            everyMs: 10,
            run: async () => {
              failures += 1;
              throw new Error('database unavailable');
            },
          },
        ],
        { firstRunWithinMs: 5 },
      );
      let stopped = false;
      try {
        await waitFor('several runs of each', () => ticks >= 4 && slowRuns >= 3 && failures >= 4, 5000);
        assert.equal(overlapped, false, 'a slow task never overlaps with itself');
        // stop() waits for the running task.
        await waitFor('the slow task to be running', () => slowActive === 1, 2000);
        await tasks.stop();
        stopped = true;
        assert.equal(slowActive, 0, 'stop() waited for the running task');
        const after = { ticks, slowRuns, failures };
        await sleep(80);
        assert.deepEqual({ ticks, slowRuns, failures }, after, 'nothing runs after stop()');
      } finally {
        if (!stopped) await tasks.stop();
      }
    });

    it('keep their interval (with jitter) and run the first time soon', async () => {
      const times: number[] = [];
      const started = Date.now();
      const tasks = startPeriodicTasks(t.deps, [{ name: 'interval', everyMs: 50, run: async () => void times.push(Date.now()) }], {
        firstRunWithinMs: 10,
      });
      try {
        await waitFor('four runs', () => times.length >= 4, 5000);
      } finally {
        await tasks.stop();
      }
      assert.ok(times[0] - started < 200, `first run after ${times[0] - started} ms`);
      for (let i = 1; i < 4; i += 1) {
        const gap = times[i] - times[i - 1];
        assert.ok(gap >= 44, `gap ${gap} ms ≥ 50 ms − 10 % jitter`);
      }
    });
  });
});
