// The job queue's public side: enqueue (inside the caller's transaction), the
// wake-up signal runners listen to, and the queue's own housekeeping.
import { EventEmitter } from 'node:events';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { deleteCompletedJobs, insertJob, markLostJobsDead } from './jobs.queries.ts';

export const DEFAULT_MAX_ATTEMPTS = 8;
/** Completed jobs are kept this long (for inspection), then purged. Dead jobs are kept. */
export const COMPLETED_JOB_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** The bus channel that carries wake-ups between instances. */
export const JOB_WAKE_CHANNEL = 'jobs.wake';

export interface EnqueueJobInput {
  kind: string;
  payload: Record<string, unknown>;
  /** Not before this time; omitted: at once. */
  runAt?: Date;
  /** Attempts before the job is left dead (default 8). */
  maxAttempts?: number;
  /** At most one pending (waiting or running) job per key: while one exists, enqueueing another with the key does nothing. */
  dedupeKey?: string;
}

export interface JobEnqueuedSignal {
  kind: string;
  runAt: Date | null;
  /** Enqueued inside a transaction: visible to other connections only once it commits. */
  inTransaction: boolean;
}

// A wake-up signal for the runners of this process. It carries no work: the jobs table
// is the queue, and a runner that misses a signal finds the job at its next poll. One
// emitter per process is deliberate: enqueueJob receives only an executor (which may be
// a transaction), and a spurious wake-up costs one cheap claim query.
const enqueued = new EventEmitter();
enqueued.setMaxListeners(0);

export function onJobEnqueued(listener: (signal: JobEnqueuedSignal) => void): () => void {
  enqueued.on('job', listener);
  return () => {
    enqueued.off('job', listener);
  };
}

/**
 * Records a job. Pass the caller's transaction as `db` so the job exists if and only if
 * the change that caused it commits (the outbox pattern). Runners of this process are
 * woken at once; other instances find it at their next poll, or sooner through the bus.
 */
export async function enqueueJob(db: DB, job: EnqueueJobInput): Promise<void> {
  if (typeof job.kind !== 'string' || job.kind.length === 0 || job.kind.length > 100) {
    throw new RangeError('enqueueJob: kind must be a non-empty string of at most 100 characters');
  }
  if (typeof job.payload !== 'object' || job.payload === null || Array.isArray(job.payload)) {
    throw new TypeError('enqueueJob: payload must be an object');
  }
  const maxAttempts = job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) {
    throw new RangeError('enqueueJob: maxAttempts must be an integer between 1 and 100');
  }
  if (job.runAt !== undefined && Number.isNaN(job.runAt.getTime())) throw new RangeError('enqueueJob: runAt is an invalid date');
  if (job.dedupeKey !== undefined && (job.dedupeKey.length === 0 || job.dedupeKey.length > 500)) {
    throw new RangeError('enqueueJob: dedupeKey must be 1 to 500 characters long');
  }
  const id = await insertJob(db, {
    kind: job.kind,
    payload: job.payload,
    runAt: job.runAt ?? null,
    maxAttempts,
    dedupeKey: job.dedupeKey ?? null,
  });
  if (id === null) return;
  announceJob(job.kind, job.runAt ?? null, db.isTransaction);
}

/** Wakes the runners for a job inserted by a statement of another domain (one that writes the job with its cause). */
export function announceJob(kind: string, runAt: Date | null, inTransaction: boolean): void {
  const signal: JobEnqueuedSignal = { kind, runAt, inTransaction };
  enqueued.emit('job', signal);
}

/**
 * Forwards this process's enqueue signals to the other instances through the Redis bus
 * (coalesced, at most one message per 50 ms). With the in-memory bus there is no other
 * instance, and it does nothing. Started by every instance, with or without workers.
 */
export function startJobWakeRelay(deps: AppDeps, options: { intervalMs?: number } = {}): { stop(): Promise<void> } {
  if (deps.bus.kind !== 'redis') return { stop: async () => {} };
  const intervalMs = options.intervalMs ?? 50;
  const kinds = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let pending: Promise<void> = Promise.resolve();
  const flush = () => {
    timer = null;
    const message = { kinds: [...kinds] };
    kinds.clear();
    pending = deps.bus.publish(JOB_WAKE_CHANNEL, message).catch((error: unknown) => {
      deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not publish a job wake-up');
    });
  };
  const unsubscribe = onJobEnqueued((signal) => {
    kinds.add(signal.kind);
    // The delay also lets an enqueueing transaction commit before remote runners look.
    if (timer === null) {
      timer = setTimeout(flush, intervalMs);
      timer.unref();
    }
  });
  return {
    async stop() {
      unsubscribe();
      if (timer !== null) {
        clearTimeout(timer);
        timer = null;
      }
      await pending;
    },
  };
}

/** Deletes completed jobs older than the retention (7 days), in batches. Returns how many. */
export async function purgeCompletedJobs(deps: AppDeps): Promise<number> {
  const batch = 1000;
  let total = 0;
  // Bounded, so that one run never holds the database for long; the next run continues.
  for (let round = 0; round < 100; round += 1) {
    const deleted = await deleteCompletedJobs(deps.db, { olderThanMs: COMPLETED_JOB_RETENTION_MS, batch, clockNow: deps.clock.now() });
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}

/** Jobs whose worker died during their last attempt are left dead (they have no attempt left). */
export async function reapLostJobs(deps: AppDeps): Promise<number> {
  return markLostJobsDead(deps.db, deps.clock.now());
}
