// Completing jobs together: one statement for the jobs a runner finished meanwhile, each claim
// checked on its own (a claim lost to another runner is not completed), and the runner gathering
// the completions of jobs that end at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { claimDueJobs, completeJobs, findJob } from './jobs.queries.ts';
import { startJobRunner } from './jobs.runner.ts';
import { enqueueJob } from './jobs.service.ts';

describe('completing jobs in batches', () => {
  let t: TestApp;
  let counter = 0;
  const newKind = () => `test.complete.${process.pid}.${++counter}`;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t.close();
  });

  async function claimAll(kind: string, count: number, lockedBy: string) {
    for (let i = 0; i < count; i++) await enqueueJob(t.deps, t.deps.db, { kind, payload: { i } });
    return claimDueJobs(t.deps.db, { kinds: [kind], limit: count, lockedBy, leaseMs: 60_000, clockNow: new Date() });
  }

  it('completes every claim still held, and none whose claim is another runner’s or of another attempt', async () => {
    const kind = newKind();
    const jobs = await claimAll(kind, 4, 'runner-a');
    assert.equal(jobs.length, 4);
    const [a, b, c, d] = jobs as [(typeof jobs)[0], (typeof jobs)[0], (typeof jobs)[0], (typeof jobs)[0]];
    const recorded = await completeJobs(
      t.deps.db,
      [
        { id: a.id, lockedBy: 'runner-a', attempts: a.attempts },
        { id: b.id, lockedBy: 'runner-b', attempts: b.attempts },
        { id: c.id, lockedBy: 'runner-a', attempts: c.attempts + 1 },
        { id: d.id, lockedBy: 'runner-a', attempts: d.attempts },
      ],
      new Date(),
    );
    assert.deepEqual(recorded, [true, false, false, true]);
    const rows = await Promise.all(jobs.map((job) => findJob(t.deps.db, job.id)));
    assert.deepEqual(
      rows.map((row) => [row?.completed_at !== null, row?.locked_by ?? null]),
      [
        [true, null],
        [false, 'runner-a'],
        [false, 'runner-a'],
        [true, null],
      ],
    );
    // Completing again changes nothing and says so.
    assert.deepEqual(await completeJobs(t.deps.db, [{ id: a.id, lockedBy: 'runner-a', attempts: a.attempts }], new Date()), [false]);
    assert.deepEqual(await completeJobs(t.deps.db, [], new Date()), []);
  });

  it('the runner completes each of many jobs ending together exactly once', async () => {
    const kind = newKind();
    const total = 40;
    const runs = new Map<number, number>();
    // Every handler waits for the last one to start, so that they all end together.
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (let i = 0; i < total; i++) await enqueueJob(t.deps, t.deps.db, { kind, payload: { i } });
    const runner = startJobRunner(
      t.deps,
      {
        [kind]: async (_deps, payload) => {
          const i = Number(payload['i']);
          runs.set(i, (runs.get(i) ?? 0) + 1);
          if (runs.size === total) release();
          await allStarted;
        },
      },
      { concurrency: total, pollIntervalMs: 20 },
    );
    try {
      const done = async () => {
        const rows = await t.deps.db
          .selectFrom('jobs')
          .where('kind', '=', kind)
          .where('completed_at', 'is not', null)
          .select('id')
          .execute();
        return rows.length;
      };
      for (let waited = 0; (await done()) < total && waited < 600; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await done(), total);
    } finally {
      await runner.stop();
    }
    assert.equal(runs.size, total);
    assert.ok(
      [...runs.values()].every((n) => n === 1),
      'each job ran once',
    );
    const jobs = await t.deps.db.selectFrom('jobs').where('kind', '=', kind).select(['attempts', 'locked_by', 'failed_at']).execute();
    assert.ok(jobs.every((job) => job.attempts === 1 && job.locked_by === null && job.failed_at === null));
  });
});
