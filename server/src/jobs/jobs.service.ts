// The job queue's public side: enqueue (inside the caller's transaction), the
// wake-up signal runners listen to, and the queue's own housekeeping.
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { deleteCompletedJobs, insertJob, markLostJobsDead, type QueueDepth, queueDepths } from './jobs.queries.ts';

export type { QueueDepth } from './jobs.queries.ts';

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

export interface JobSignals {
  /** Tells this app's runners and wake relay that a job was recorded. */
  announce(signal: JobEnqueuedSignal): void;
  /** Listens to the announcements; returns the function that stops listening. */
  subscribe(listener: (signal: JobEnqueuedSignal) => void): () => void;
}

/**
 * The wake-up signal of one app (built with its dependencies, so two apps in one process
 * never wake each other's runners). It carries no work: the jobs table is the queue, and
 * a runner that misses a signal finds the job at its next poll.
 */
export function createJobSignals(): JobSignals {
  const listeners = new Set<(signal: JobEnqueuedSignal) => void>();
  return {
    announce(signal) {
      for (const listener of listeners) listener(signal);
    },
    subscribe(listener) {
      // A wrapper per subscription, so that one listener subscribed twice is also removed twice.
      const entry = (signal: JobEnqueuedSignal) => listener(signal);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
  };
}

/**
 * Records a job. Pass the caller's transaction as `db` so the job exists if and only if
 * the change that caused it commits (the outbox pattern). Runners of this app are woken
 * at once; other instances find it at their next poll, or sooner through the bus.
 */
export async function enqueueJob(deps: Pick<AppDeps, 'jobSignals'>, db: DB, job: EnqueueJobInput): Promise<void> {
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
  announceJob(deps, job.kind, job.runAt ?? null, db.isTransaction);
}

/** Wakes the runners for a job inserted by a statement of another domain (one that writes the job with its cause). */
export function announceJob(deps: Pick<AppDeps, 'jobSignals'>, kind: string, runAt: Date | null, inTransaction: boolean): void {
  deps.jobSignals.announce({ kind, runAt, inTransaction });
}

/**
 * Forwards this app's enqueue signals to the other instances through the Redis bus
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
  const unsubscribe = deps.jobSignals.subscribe((signal) => {
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

/**
 * Deletes completed jobs older than COMPLETED_JOB_RETENTION_MS, and those of the kinds in
 * `shorter` older than their own time (the bookkeeping made for every message, which nobody
 * inspects after a day).
 */
export async function purgeCompletedJobs(deps: AppDeps, shorter: Readonly<Record<string, number>> = {}): Promise<number> {
  const batch = 1000;
  let total = 0;
  for (const [kind, olderThanMs] of [...Object.entries(shorter), [undefined, COMPLETED_JOB_RETENTION_MS] as const]) {
    // Bounded, so that one run never holds the database for long; the next run continues.
    for (let round = 0; round < 100; round += 1) {
      const deleted = await deleteCompletedJobs(deps.db, { olderThanMs, batch, clockNow: deps.clock.now(), ...(kind ? { kind } : {}) });
      total += deleted;
      if (deleted < batch) break;
    }
  }
  return total;
}

/** Jobs whose worker died during their last attempt are left dead (they have no attempt left). */
export async function reapLostJobs(deps: AppDeps): Promise<number> {
  return markLostJobsDead(deps.db, deps.clock.now());
}

/** The queue's depth per kind and how long its oldest due job has waited (read by the metrics at scrape time). */
export async function readQueueDepths(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<QueueDepth[]> {
  return queueDepths(deps.db, deps.clock.now());
}
