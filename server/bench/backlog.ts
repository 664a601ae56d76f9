// What a scenario leaves queued: jobs its requests enqueued that were still pending when its
// measured window closed, and how long Parley's workers then took to finish them. A reply's
// delivery is such a job: replies accepted faster than they are delivered are not a reply
// rate, so the reply's target counts the time the deliveries took after the window too.
import pg from 'pg';

export interface LeftBehind {
  /** The scenario's job kinds pending (neither completed nor dead) when the window closed. */
  jobs: number;
  /** Seconds from the first look after the window (within a few ms of its end) until none was pending, to POLL_MS; or until the wait gave up. */
  drainSeconds: number;
  /** False when the wait gave up with jobs still pending. */
  drained: boolean;
}

const POLL_MS = 100;

async function pendingJobs(client: pg.Client, kinds: readonly string[]): Promise<number> {
  const { rows } = await client.query<{ pending: number }>(
    'select count(*)::int as pending from jobs where kind = any($1::text[]) and completed_at is null and failed_at is null',
    [kinds],
  );
  return rows[0]?.pending ?? 0;
}

/** Waits (polling the database) until no job of `kinds` is pending, at most `timeoutMs`. */
export async function waitForJobs(databaseUrl: string, kinds: readonly string[], timeoutMs: number): Promise<LeftBehind> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    const jobs = await pendingJobs(client, kinds);
    let pending = jobs;
    while (pending > 0 && performance.now() - started < timeoutMs) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      pending = await pendingJobs(client, kinds);
    }
    return { jobs, drainSeconds: jobs === 0 ? 0 : (performance.now() - started) / 1000, drained: pending === 0 };
  } finally {
    await client.end();
  }
}
