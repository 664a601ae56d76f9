// Every SQL statement of the job queue.
//
// Time: the queue's "now" is the later of the database clock and the app clock
// (deps.clock). In production the two agree; in tests a fake clock moved forward makes
// backoffs and leases expire at once, and a fake clock left in the past can never hold
// back a job that the database's clock says is due.
import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';

function queueNow(clockNow: Date): RawBuilder<Date> {
  return sql<Date>`greatest(now(), ${clockNow}::timestamptz)`;
}

function plusMs(clockNow: Date, ms: number): RawBuilder<Date> {
  return sql<Date>`greatest(now(), ${clockNow}::timestamptz) + ${ms}::double precision * interval '1 millisecond'`;
}

export interface NewJob {
  kind: string;
  payload: Record<string, unknown>;
  /** null: due at once (the database's now()). */
  runAt: Date | null;
  maxAttempts: number;
  dedupeKey: string | null;
}

/** Inserts a job; with a dedupe key already held by a pending job, inserts nothing. Returns the new id, or null. */
export async function insertJob(db: DB, job: NewJob): Promise<number | null> {
  const row = await db
    .insertInto('jobs')
    .values({
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      ...(job.runAt ? { run_at: job.runAt } : {}),
      max_attempts: job.maxAttempts,
      dedupe_key: job.dedupeKey,
    })
    .onConflict((oc) => oc.column('dedupe_key').where('completed_at', 'is', null).where('failed_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? row.id : null;
}

export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  /** The attempt this claim starts (1 for the first run). */
  attempts: number;
  max_attempts: number;
}

/**
 * Claims up to `limit` due jobs of the given kinds in one statement (its own short
 * transaction): rows another runner holds are skipped, not waited for. A claim whose
 * lease ran out (a dead worker) is due again. Counting the attempt at claim time bounds
 * jobs that crash their worker, too.
 */
export async function claimDueJobs(
  db: DB,
  input: { kinds: readonly string[]; limit: number; lockedBy: string; leaseMs: number; clockNow: Date },
): Promise<ClaimedJob[]> {
  if (input.kinds.length === 0 || input.limit <= 0) return [];
  const now = queueNow(input.clockNow);
  const rows = await db
    .with('due', (qb) =>
      qb
        .selectFrom('jobs')
        .select('id')
        .where('completed_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('kind', 'in', input.kinds)
        .where('run_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .whereRef('attempts', '<', 'max_attempts')
        .orderBy('run_at')
        .orderBy('id')
        .limit(input.limit)
        .forUpdate()
        .skipLocked(),
    )
    .updateTable('jobs')
    .from('due')
    .whereRef('jobs.id', '=', 'due.id')
    .set((eb) => ({
      locked_by: input.lockedBy,
      locked_until: plusMs(input.clockNow, input.leaseMs),
      attempts: eb('jobs.attempts', '+', 1),
      updated_at: now,
    }))
    .returning(['jobs.id', 'jobs.kind', 'jobs.payload', 'jobs.attempts', 'jobs.max_attempts'])
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
  }));
}

/** Identifies one claim: the job, the runner holding it, and the attempt it started. */
export interface ClaimRef {
  id: number;
  lockedBy: string;
  attempts: number;
}

/**
 * Marks claimed jobs done, in one statement; for each claim, false when it was lost (another
 * runner took the job).
 */
export async function completeJobs(db: DB, claims: readonly ClaimRef[], clockNow: Date): Promise<boolean[]> {
  if (claims.length === 0) return [];
  const now = queueNow(clockNow);
  const { rows } = await sql<{
    id: number;
  }>`update jobs set completed_at = ${now}, locked_by = null, locked_until = null, updated_at = ${now}
    from unnest(${claims.map((c) => c.id)}::bigint[], ${claims.map((c) => c.lockedBy)}::text[], ${claims.map((c) => c.attempts)}::int[])
      as c(id, locked_by, attempts)
    where jobs.id = c.id and jobs.locked_by = c.locked_by and jobs.attempts = c.attempts and jobs.completed_at is null
    returning jobs.id`.execute(db);
  const done = new Set(rows.map((row) => Number(row.id)));
  return claims.map((claim) => done.has(claim.id));
}

/** Marks a claimed job done. False when the claim was lost (another runner took the job). */
export async function completeJob(db: DB, claim: ClaimRef, clockNow: Date): Promise<boolean> {
  const [recorded] = await completeJobs(db, [claim], clockNow);
  return recorded === true;
}

/** Records a failed attempt: due again after `retryInMs`, or dead when `retryInMs` is null. */
export async function failJob(
  db: DB,
  claim: ClaimRef,
  input: { error: string; retryInMs: number | null; clockNow: Date },
): Promise<boolean> {
  const now = queueNow(input.clockNow);
  const result = await db
    .updateTable('jobs')
    .set({
      last_error: input.error,
      locked_by: null,
      locked_until: null,
      updated_at: now,
      ...(input.retryInMs === null ? { failed_at: now } : { run_at: plusMs(input.clockNow, input.retryInMs) }),
    })
    .where('id', '=', claim.id)
    .where('locked_by', '=', claim.lockedBy)
    .where('attempts', '=', claim.attempts)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a claim back unfinished (shutdown): due again at once, and the attempt is not counted. */
export async function releaseJob(db: DB, claim: ClaimRef, clockNow: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set((eb) => ({ locked_by: null, locked_until: null, attempts: eb('attempts', '-', 1), updated_at: queueNow(clockNow) }))
    .where('id', '=', claim.id)
    .where('locked_by', '=', claim.lockedBy)
    .where('attempts', '=', claim.attempts)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Jobs whose worker died during their last attempt: dead, since no attempt is left. */
export async function markLostJobsDead(db: DB, clockNow: Date): Promise<number> {
  const now = queueNow(clockNow);
  const result = await db
    .updateTable('jobs')
    .set({
      failed_at: now,
      locked_by: null,
      locked_until: null,
      last_error: 'the worker stopped during the last attempt (its claim expired)',
      updated_at: now,
    })
    .where('completed_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('locked_until', '<', now)
    .whereRef('attempts', '>=', 'max_attempts')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes up to `batch` jobs completed more than `olderThanMs` ago; returns how many. */
export async function deleteCompletedJobs(
  db: DB,
  input: { olderThanMs: number; batch: number; clockNow: Date; kind?: string },
): Promise<number> {
  const cutoff = plusMs(input.clockNow, -input.olderThanMs);
  const result = await db
    .deleteFrom('jobs')
    .where('id', 'in', (qb) => {
      const old = qb.selectFrom('jobs').select('id').where('completed_at', '<', cutoff);
      return (input.kind === undefined ? old : old.where('kind', '=', input.kind)).limit(input.batch);
    })
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findJob(db: DB, id: number) {
  return db
    .selectFrom('jobs')
    .select([
      'id',
      'kind',
      'payload',
      'run_at',
      'attempts',
      'max_attempts',
      'locked_by',
      'locked_until',
      'last_error',
      'completed_at',
      'failed_at',
      'dedupe_key',
      'created_at',
      'updated_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

export type JobRow = NonNullable<Awaited<ReturnType<typeof findJob>>>;

export interface QueueDepth {
  kind: string;
  /** Waiting or running: neither completed nor dead. */
  pending: number;
  /** Of those, due now and not held by a live claim. */
  due: number;
  /** How long the oldest due one has been due, in seconds (by the queue's now), or null when none is. */
  oldest_due_seconds: number | null;
}

/**
 * The queue's depth per kind, for the metrics. One statement over jobs_claim_idx (the partial
 * index of pending jobs), so its cost follows the backlog, not the table's history.
 */
export async function queueDepths(db: DB, clockNow: Date): Promise<QueueDepth[]> {
  const now = queueNow(clockNow);
  const { rows } = await sql<QueueDepth>`select kind,
      count(*)::int as pending,
      (count(*) filter (where run_at <= ${now} and (locked_until is null or locked_until < ${now})))::int as due,
      extract(epoch from ${now} - min(run_at) filter (where run_at <= ${now} and (locked_until is null or locked_until < ${now})))::float8
        as oldest_due_seconds
    from jobs where completed_at is null and failed_at is null
    group by kind`.execute(db);
  return rows;
}
