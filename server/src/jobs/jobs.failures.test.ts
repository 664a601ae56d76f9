// The durable job queue: failing jobs (backoff, dead jobs, PermanentJobError, timeouts) and how
// their errors are described; on the real database of a test app.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, fakeClock, type TestApp } from '../../test/helpers.ts';
import { DAY, jobQueries, sleep, waitFor } from '../../test/jobs.ts';
import { describeJobError, PermanentJobError, startJobRunner } from './jobs.runner.ts';
import { enqueueJob } from './jobs.service.ts';

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

  const { onlyJob } = jobQueries(() => t);

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
});
