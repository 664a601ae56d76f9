// The job runner: claims due jobs with FOR UPDATE SKIP LOCKED (in one short statement),
// runs them outside any transaction, several at once, and records the outcome.
//
// Guarantees, with any number of runners on one PostgreSQL:
// - a job is run by one runner at a time: a claim holds it until its lease (the handler
//   timeout plus a margin) runs out, and a handler that outlives its timeout is counted as
//   failed before the lease can expire (JavaScript cannot kill it: handlers should pass
//   job.signal to their I/O, so that a timed-out attempt really stops);
// - no job is lost: a claim whose runner died expires and the job is claimed again;
//   outcomes are written only by the claim's holder (runner and attempt number);
// - delivery is at least once: a handler that succeeded but whose runner died before it
//   recorded the success runs again. Handlers must be idempotent.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { batched } from '../db/batched.ts';
import type { AppDeps } from '../deps.ts';
import { type ClaimedJob, type ClaimRef, claimDueJobs, completeJobs, failJob, releaseJob } from './jobs.queries.ts';
import { JOB_WAKE_CHANNEL } from './jobs.service.ts';
import { createWorkerLoop, type WorkerEntry } from './worker-loop.ts';

export interface JobContext {
  /** The job's id (a bigint, as a string). */
  id: string;
  /** This attempt's number: 1 for the first run. */
  attempts: number;
  /** The job's last attempt is the one whose `attempts` reaches this. */
  maxAttempts: number;
  /** Aborted when the handler times out or the runner stops without waiting for it. */
  signal: AbortSignal;
}

export type JobHandler = (deps: AppDeps, payload: Record<string, unknown>, job: JobContext) => Promise<void>;

/** Thrown by a handler for a job that can never succeed: the job is left dead at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export class JobTimeoutError extends Error {
  override name = 'JobTimeoutError';
  constructor(ms: number) {
    super(`the handler did not finish within ${ms} ms`);
  }
}

export interface JobRunnerOptions {
  /** Jobs in flight at once (default: JOB_CONCURRENCY). */
  concurrency?: number;
  /** How often to look for due jobs when nothing wakes the runner (default 1000 ms). */
  pollIntervalMs?: number;
  /** A handler running longer fails with JobTimeoutError (default 60 s). */
  handlerTimeoutMs?: number;
  /** The claim's lease is the handler timeout plus this (default 30 s). */
  leaseMarginMs?: number;
  /** Retry n waits a random time in [0, min(maxDelayMs, baseDelayMs · 2^(n−1))) (full jitter). Default 10 s. */
  baseDelayMs?: number;
  /** Default 1 hour. */
  maxDelayMs?: number;
  /** How long stop() waits for running handlers before releasing their claims (default 10 s). */
  stopTimeoutMs?: number;
  /** Source of randomness for the jitter (tests). */
  random?: () => number;
  /** The name written in locked_by (default host:pid:random). */
  runnerId?: string;
}

interface Running extends WorkerEntry<ClaimRef> {
  /** running: the handler runs; finishing: its outcome is being written. */
  phase: 'running' | 'finishing';
}

const MAX_ERROR_LENGTH = 2000;

/** A failure as stored in last_error and logged: name and message only (no stack), secrets masked, bounded. */
export function describeJobError(error: unknown): string {
  let text: string;
  if (error instanceof Error) text = error.message ? `${error.name}: ${error.message}` : error.name;
  else if (typeof error === 'string') text = error;
  else text = `non-Error value thrown (${typeof error})`;
  text = text
    // Credentials inside URLs: scheme://user:password@host
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1[redacted]@')
    // Authorization header values
    .replace(/\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]')
    // key=value and "key": "value" pairs whose key names a secret
    .replace(
      /\b((?:[a-z0-9_-]*_)?(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|authorization|credentials?)["']?\s*[=:]\s*["']?)[^\s"'&,;}]+/gi,
      '$1[redacted]',
    );
  return text.length > MAX_ERROR_LENGTH ? text.slice(0, MAX_ERROR_LENGTH - 1) + '…' : text;
}

export function startJobRunner(
  deps: AppDeps,
  handlers: Record<string, JobHandler>,
  options: JobRunnerOptions = {},
): { stop(): Promise<void> } {
  const kinds = Object.keys(handlers);
  const concurrency = positive('concurrency', options.concurrency ?? deps.config.jobConcurrency);
  const pollIntervalMs = positive('pollIntervalMs', options.pollIntervalMs ?? 1000);
  const handlerTimeoutMs = positive('handlerTimeoutMs', options.handlerTimeoutMs ?? 60_000);
  const leaseMs = handlerTimeoutMs + positive('leaseMarginMs', options.leaseMarginMs ?? 30_000);
  const baseDelayMs = positive('baseDelayMs', options.baseDelayMs ?? 10_000);
  const maxDelayMs = positive('maxDelayMs', options.maxDelayMs ?? 3_600_000);
  const stopTimeoutMs = positive('stopTimeoutMs', options.stopTimeoutMs ?? 10_000);
  const random = options.random ?? Math.random;
  const runnerId = options.runnerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const log = deps.log.child({ component: 'jobs', runner: runnerId });
  // The jobs that end while one completion is written are completed together by the next statement.
  const complete = batched((claims: ClaimRef[]) => completeJobs(deps.db, claims, deps.clock.now()), { max: concurrency });

  function handles(kind: unknown): boolean {
    return typeof kind === 'string' && Object.hasOwn(handlers, kind);
  }

  function backoffMs(attempt: number): number {
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(attempt - 1, 40));
    return Math.floor(random() * ceiling);
  }

  async function runHandler(job: ClaimedJob, abort: AbortController): Promise<void> {
    const handler = handlers[job.kind];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new JobTimeoutError(handlerTimeoutMs);
        abort.abort(error);
        reject(error);
      }, handlerTimeoutMs);
    });
    // Called inside an async function so that a handler throwing synchronously is a rejection too.
    const work = (async () =>
      handler(deps, job.payload, { id: String(job.id), attempts: job.attempts, maxAttempts: job.max_attempts, signal: abort.signal }))();
    try {
      await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function run(job: ClaimedJob, entry: Running): Promise<void> {
    const started = Date.now();
    let failure: unknown = null;
    let succeeded = false;
    try {
      await runHandler(job, entry.abort);
      succeeded = true;
    } catch (error) {
      failure = error;
    }
    // stop() gave the claim back while the handler ran: the outcome belongs to the next runner.
    if (entry.released) return;
    entry.phase = 'finishing';
    const context = { jobId: job.id, kind: job.kind, attempt: job.attempts, ms: Date.now() - started };
    try {
      if (succeeded) {
        const recorded = await complete(entry.claim);
        if (recorded) log.debug(context, 'job completed');
        else log.warn(context, 'job finished after its claim was lost; another runner has it');
        return;
      }
      const dead = failure instanceof PermanentJobError || job.attempts >= job.max_attempts;
      const retryInMs = dead ? null : backoffMs(job.attempts);
      const error = describeJobError(failure);
      const recorded = await failJob(deps.db, entry.claim, { error, retryInMs, clockNow: deps.clock.now() });
      if (!recorded) log.warn({ ...context, err: error }, 'job failed after its claim was lost; another runner has it');
      else if (dead) log.error({ ...context, maxAttempts: job.max_attempts, err: error }, 'job failed for the last time; it is left dead');
      else log.warn({ ...context, maxAttempts: job.max_attempts, retryInMs, err: error }, 'job failed; it will be retried');
    } catch (error) {
      log.error(
        { ...context, err: describeJobError(error) },
        'could not record the outcome of a job; it will run again when its claim expires',
      );
    }
  }

  async function release(claims: ClaimRef[]): Promise<number> {
    const results = await Promise.allSettled(claims.map((claim) => releaseJob(deps.db, claim, deps.clock.now())));
    let released = 0;
    for (const result of results) {
      if (result.status === 'fulfilled') {
        if (result.value) released += 1;
      } else {
        log.error({ err: describeJobError(result.reason) }, 'could not release a job claim; it will run again when the claim expires');
      }
    }
    return released;
  }

  const claimOf = (job: ClaimedJob): ClaimRef => ({ id: job.id, lockedBy: runnerId, attempts: job.attempts });

  const worker = createWorkerLoop<ClaimedJob, ClaimRef, Running>({
    log,
    concurrency,
    pollIntervalMs,
    stopTimeoutMs,
    claim: (limit) => claimDueJobs(deps.db, { kinds, limit, lockedBy: runnerId, leaseMs, clockNow: deps.clock.now() }),
    claimOf,
    admit(claimed) {
      for (const job of claimed) {
        const entry: Running = {
          claim: claimOf(job),
          phase: 'running',
          released: false,
          abort: new AbortController(),
          done: Promise.resolve(),
        };
        worker.track(job.id, entry, () => run(job, entry));
      }
    },
    release,
    describeError: describeJobError,
    claimFailedMessage: 'could not claim jobs; retrying',
    interruptible: (entry) => entry.phase === 'running',
    settling: (entry) => entry.phase === 'finishing',
    stopReason: 'the job runner is stopping',
    async unsubscribe() {
      stopListening();
      const unsubscribe = await busSubscription;
      if (unsubscribe) await unsubscribe().catch(() => undefined);
    },
  });

  const stopListening = deps.jobSignals.subscribe((signal) => {
    if (!handles(signal.kind)) return;
    if (signal.runAt !== null && signal.runAt.getTime() > Math.max(Date.now(), deps.clock.now().getTime())) return;
    worker.wake();
    // A job enqueued in a transaction is visible once it commits: look again shortly.
    if (signal.inTransaction) worker.recheckSoon();
  });

  // Wake-ups from other instances (their enqueue relays, when the bus is Redis).
  const busSubscription: Promise<(() => Promise<void>) | null> =
    kinds.length > 0
      ? deps.bus
          .subscribe(JOB_WAKE_CHANNEL, (message) => {
            const wanted = message['kinds'];
            if (Array.isArray(wanted) && wanted.some(handles)) {
              worker.wake();
              worker.recheckSoon();
            }
          })
          .catch((error: unknown) => {
            log.warn({ err: describeJobError(error) }, 'could not subscribe to job wake-ups; polling only');
            return null;
          })
      : Promise.resolve(null);

  if (kinds.length > 0) worker.start();
  log.info({ kinds, concurrency }, 'job runner started');

  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= worker.stop().then((released) => {
        log.info({ released }, 'job runner stopped');
      });
      return stopped;
    },
  };
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`job runner: ${name} must be a positive number, got ${value}`);
  return value;
}
