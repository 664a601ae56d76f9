// Periodic tasks (interval, jitter, no overlap, errors, stop) and the purge of completed jobs;
// on the real database of a test app.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, fakeClock, type TestApp } from '../../test/helpers.ts';
import { DAY, jobQueries, sleep, waitFor } from '../../test/jobs.ts';
import { periodicTasks, startWorkers } from '../workers.ts';
import { findJob } from './jobs.queries.ts';
import { startPeriodicTasks } from './jobs.scheduler.ts';
import { enqueueJob, purgeCompletedJobs } from './jobs.service.ts';

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

  const { jobsOf } = jobQueries(() => t);

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

  it('purges the kinds given a shorter retention after their own time, the others after 7 days', async () => {
    const brief = newKind('brief');
    const other = newKind('other');
    await enqueueJob(t.deps, t.deps.db, { kind: brief, payload: {} });
    await enqueueJob(t.deps, t.deps.db, { kind: brief, payload: {} });
    await enqueueJob(t.deps, t.deps.db, { kind: other, payload: {} });
    const [stale, fresh] = await jobsOf(brief);
    const [kept] = await jobsOf(other);
    const now = Math.max(clock.now().getTime(), Date.now());
    const complete = (id: number, agoMs: number) =>
      t.deps.db
        .updateTable('jobs')
        .set({ completed_at: new Date(now - agoMs) })
        .where('id', '=', id)
        .execute();
    await complete(stale.id, 2 * DAY);
    await complete(fresh.id, DAY / 2);
    await complete(kept.id, 2 * DAY);
    await purgeCompletedJobs(t.deps, { [brief]: DAY });
    assert.deepEqual(
      (await jobsOf(brief)).map((job) => job.id),
      [fresh.id],
    );
    assert.deepEqual(
      (await jobsOf(other)).map((job) => job.id),
      [kept.id],
      'another kind keeps its 7 days',
    );
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
