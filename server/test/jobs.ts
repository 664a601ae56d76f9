// Shared by the job queue tests (server/src/jobs/jobs.*.test.ts): waiting for a condition,
// sleeping, and reading the jobs of a kind.
import assert from 'node:assert/strict';
import { findJob, type JobRow } from '../src/jobs/jobs.queries.ts';
import type { TestApp } from './helpers.ts';

export const DAY = 24 * 3600 * 1000;

export async function waitFor<T>(
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

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The jobs of a kind, read through findJob (in the app `app()` answers). */
export function jobQueries(app: () => TestApp) {
  async function jobsOf(kind: string): Promise<JobRow[]> {
    const rows = await app().deps.db.selectFrom('jobs').select('id').where('kind', '=', kind).orderBy('id').execute();
    const jobs: JobRow[] = [];
    for (const row of rows) {
      const job = await findJob(app().deps.db, row.id);
      if (job) jobs.push(job);
    }
    return jobs;
  }

  async function onlyJob(kind: string): Promise<JobRow> {
    const jobs = await jobsOf(kind);
    assert.equal(jobs.length, 1, `one ${kind} job`);
    return jobs[0];
  }
  return { jobsOf, onlyJob };
}
