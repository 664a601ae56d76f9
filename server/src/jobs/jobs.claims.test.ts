// The durable job queue: claims (two runners, expired leases) and shutdown (stop() waits or
// releases); on the real database of a test app.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, fakeClock, type TestApp } from '../../test/helpers.ts';
import { jobQueries, sleep, waitFor } from '../../test/jobs.ts';
import { findJob } from './jobs.queries.ts';
import { type JobHandler, startJobRunner } from './jobs.runner.ts';
import { enqueueJob, reapLostJobs } from './jobs.service.ts';

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
});
