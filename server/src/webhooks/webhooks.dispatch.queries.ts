// Every SQL statement of the webhook delivery engine (docs/api.md, "Webhooks"): the claim, the
// frozen bodies, the outcome of an attempt, the manual attempts (test, retry), disabling a
// webhook that failed for a day, releasing claims, reaping and retention.
//
// Time, as in the job queue: "now" is the later of the database clock and the app clock
// (deps.clock), so that a test's fake clock moved forward makes retries due at once, and one
// left in the past never holds back a delivery the database says is due.
import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { WebhookAttemptOutcome, WebhookDeliveryStatus } from '../db/types.ts';

function nowOf(clockNow: Date): RawBuilder<Date> {
  return sql<Date>`greatest(now(), ${clockNow}::timestamptz)`;
}

function plusMs(clockNow: Date, ms: number): RawBuilder<Date> {
  return sql<Date>`(greatest(now(), ${clockNow}::timestamptz) + ${ms}::double precision * interval '1 millisecond')`;
}

/** A delivery held by a lease, with what its attempt needs of its webhook. */
export interface ClaimedDelivery {
  id: number;
  /** The webhook-id header. */
  uuid: string;
  webhook_id: number;
  event_type: string;
  event_payload: Record<string, unknown>;
  /** Null until frozen by the first attempt. */
  body: string | null;
  /** The attempt this claim makes (1 for the first). */
  attempts: number;
  max_attempts: number;
  /** When the event happened (the outbox row's time; the delivery's own once the event was pruned). */
  event_at: Date;
  url: string;
  headers: Record<string, string>;
  /** Encrypted (security/encryption.ts). */
  secret: string;
  webhook_updated_at: Date;
}

/** Identifies one claim: the delivery, who holds it, and the attempt it started. */
export interface DeliveryClaim {
  id: number;
  lockedBy: string;
  attempts: number;
}

type ClaimRow = Omit<ClaimedDelivery, 'id' | 'headers'> & { id: number | string; headers: unknown };

function toClaimed(row: ClaimRow): ClaimedDelivery {
  const headers: Record<string, string> = {};
  if (typeof row.headers === 'object' && row.headers !== null && !Array.isArray(row.headers)) {
    for (const [name, value] of Object.entries(row.headers)) if (typeof value === 'string') headers[name] = value;
  }
  return { ...row, id: Number(row.id), headers };
}

const RETURNED = sql`d.id, d.uuid::text as uuid, d.webhook_id, d.event_type, d.event_payload, d.body, d.attempts, d.max_attempts,
  coalesce((select e.created_at from domain_events e where e.id = d.event_id), d.created_at) as event_at,
  w.url, w.headers, w.secret, w.updated_at as webhook_updated_at`;

/**
 * Claims due deliveries of enabled webhooks in one statement: for each webhook, its oldest due
 * deliveries up to the room it has left on this instance (`perWebhook` minus what is in flight,
 * `inFlight`), the oldest of all first, at most `limit`. Rows another instance holds are skipped,
 * not waited for; a lease that ran out (a dead instance) is due again. The attempt is counted at
 * claim time, so a delivery that kills its instance is bounded too.
 */
export async function claimDueDeliveries(
  db: DB,
  input: {
    limit: number;
    perWebhook: number;
    inFlight: ReadonlyMap<number, number>;
    lockedBy: string;
    leaseMs: number;
    clockNow: Date;
  },
): Promise<ClaimedDelivery[]> {
  if (input.limit <= 0) return [];
  const now = nowOf(input.clockNow);
  const busyIds = [...input.inFlight.keys()];
  const busyCounts = busyIds.map((id) => input.inFlight.get(id) ?? 0);
  const { rows } = await sql<ClaimRow>`
    with room as (
      select w.id, ${input.perWebhook}::int - coalesce(f.n, 0) as room
      from webhooks w
      left join unnest(${busyIds}::int[], ${busyCounts}::int[]) as f (webhook_id, n) on f.webhook_id = w.id
      where w.enabled and ${input.perWebhook}::int - coalesce(f.n, 0) > 0
    ),
    due as (
      select x.id, x.next_attempt_at
      from room r
      cross join lateral (
        select d.id, d.next_attempt_at
        from webhook_deliveries d
        where d.webhook_id = r.id
          and d.status in ('pending', 'failed')
          and d.next_attempt_at <= ${now}
          and (d.locked_until is null or d.locked_until < ${now})
          and d.attempts < d.max_attempts
        order by d.next_attempt_at, d.id
        limit r.room
        for update of d skip locked
      ) x
      order by x.next_attempt_at, x.id
      limit ${input.limit}
    )
    update webhook_deliveries d
    set locked_by = ${input.lockedBy}, locked_until = ${plusMs(input.clockNow, input.leaseMs)}, attempts = d.attempts + 1, updated_at = ${now}
    from due, webhooks w
    where d.id = due.id and w.id = d.webhook_id
    returning ${RETURNED}`.execute(db);
  return rows.map(toClaimed).sort((a, b) => a.id - b.id);
}

/**
 * Freezes the bodies of claimed deliveries that have none yet, and answers the stored body of
 * each: every attempt of a delivery sends the same bytes.
 */
export async function freezeBodies(db: DB, bodies: ReadonlyArray<{ id: number; body: string }>): Promise<Map<number, string>> {
  if (bodies.length === 0) return new Map();
  const { rows } = await sql<{ id: number | string; body: string }>`
    update webhook_deliveries d set body = coalesce(d.body, v.body)
    from unnest(${bodies.map((b) => b.id)}::bigint[], ${bodies.map((b) => b.body)}::text[]) as v (id, body)
    where d.id = v.id
    returning d.id, d.body`.execute(db);
  return new Map(rows.map((row) => [Number(row.id), row.body]));
}

export interface AttemptRecord {
  outcome: WebhookAttemptOutcome;
  /** The delivery's status afterwards. */
  status: WebhookDeliveryStatus;
  /** For `failed`: the next attempt comes this long after now. */
  retryInMs: number | null;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  snippet: string | null;
  manual: boolean;
  startedAt: Date;
}

/** What recordAttempts answers for each attempt. */
export interface RecordedAttempt {
  id: number;
  /** False when the claim was lost meanwhile (another holder has the delivery): nothing was written. */
  recorded: boolean;
  webhookId: number | null;
  /** The webhook's failing_since afterwards (null when healthy). */
  failingSince: Date | null;
}

/**
 * Writes the outcomes of attempts in one statement, each only for its claim's holder: the
 * delivery's status and last_* columns, the attempt's row, and each webhook's failing_since.
 * For a webhook, the attempts of the batch are taken in the order given (the order they
 * ended): when the last one succeeded, failing_since is cleared; when it failed, failing_since
 * is set if it was clear, or restarted now if a success came earlier in the batch. A delivery
 * made dead meanwhile (its webhook was disabled while the attempt ran) stays dead after a
 * failure. Answers, in the order given, whether each was written and its webhook's
 * failing_since afterwards.
 */
export async function recordAttempts(
  db: DB,
  attempts: ReadonlyArray<{ claim: DeliveryClaim; record: AttemptRecord }>,
  clockNow: Date,
): Promise<RecordedAttempt[]> {
  if (attempts.length === 0) return [];
  const now = nowOf(clockNow);
  const column = <T>(pick: (a: { claim: DeliveryClaim; record: AttemptRecord }) => T) => attempts.map(pick);
  const { rows } = await sql<{ id: number | string; webhook_id: number | null; failing_since: Date | null }>`
    with v as (
      select *
      from unnest(
        ${column((a) => a.claim.id)}::bigint[], ${column((a) => a.claim.lockedBy)}::text[], ${column((a) => a.claim.attempts)}::int[],
        ${column((a) => a.record.status)}::text[], ${column((a) => a.record.retryInMs)}::double precision[],
        ${column((a) => a.record.outcome)}::text[], ${column((a) => a.record.statusCode)}::int[], ${column((a) => a.record.latencyMs)}::int[],
        ${column((a) => a.record.error)}::text[], ${column((a) => a.record.snippet)}::text[], ${column((a) => a.record.manual)}::boolean[],
        ${column((a) => a.record.startedAt.toISOString())}::timestamptz[]
      ) with ordinality as v (id, locked_by, attempts, status, retry_ms, outcome, status_code, latency_ms, error, snippet, manual, started_at, ord)
    ),
    d as (
      update webhook_deliveries d
      set status = case when d.status = 'dead' and v.status = 'failed' then 'dead' else v.status end,
          next_attempt_at = case
            when (d.status = 'dead' and v.status = 'failed') or v.retry_ms is null then null
            else ${now} + v.retry_ms * interval '1 millisecond'
          end,
          last_status_code = v.status_code, last_error = v.error, last_latency_ms = v.latency_ms,
          locked_by = null, locked_until = null, updated_at = ${now}
      from v
      where d.id = v.id and d.locked_by = v.locked_by and d.attempts = v.attempts
      returning d.id, d.webhook_id
    ),
    a as (
      insert into webhook_attempts (delivery_id, attempt, manual, outcome, status_code, latency_ms, error, response_snippet, started_at)
      select v.id, v.attempts, v.manual, v.outcome, v.status_code, v.latency_ms, v.error, v.snippet, v.started_at
      from v join d on d.id = v.id
    ),
    last as (
      select distinct on (d.webhook_id) d.webhook_id, v.outcome = 'succeeded' as succeeded,
             bool_or(v.outcome = 'succeeded') over (partition by d.webhook_id) as any_success
      from d join v on v.id = d.id
      order by d.webhook_id, v.ord desc
    ),
    cleared as (
      update webhooks w set failing_since = null
      from last where w.id = last.webhook_id and last.succeeded and w.failing_since is not null
    ),
    failing as (
      update webhooks w set failing_since = ${now}
      from last where w.id = last.webhook_id and not last.succeeded and (w.failing_since is null or last.any_success)
      returning w.id, w.failing_since
    )
    select v.id, d.webhook_id,
           case when last.succeeded then null else coalesce(f.failing_since, w.failing_since) end as failing_since
    from v
    left join d on d.id = v.id
    left join last on last.webhook_id = d.webhook_id
    left join failing f on f.id = d.webhook_id
    left join webhooks w on w.id = d.webhook_id
    order by v.ord`.execute(db);
  return rows.map((row) => ({
    id: Number(row.id),
    recorded: row.webhook_id !== null,
    webhookId: row.webhook_id,
    failingSince: row.failing_since,
  }));
}

/** Gives claims back unfinished (shutdown): due again at once, the attempt not counted. Returns how many. */
export async function releaseClaims(db: DB, claims: readonly DeliveryClaim[], clockNow: Date): Promise<number> {
  if (claims.length === 0) return 0;
  const { rows } = await sql<{ id: number }>`
    update webhook_deliveries d
    set locked_by = null, locked_until = null, attempts = d.attempts - 1, updated_at = ${nowOf(clockNow)}
    from unnest(${claims.map((c) => c.id)}::bigint[], ${claims.map((c) => c.lockedBy)}::text[], ${claims.map((c) => c.attempts)}::int[])
      as c (id, locked_by, attempts)
    where d.id = c.id and d.locked_by = c.locked_by and d.attempts = c.attempts
    returning d.id`.execute(db);
  return rows.length;
}

/**
 * Disables a webhook that has failed since `failingBefore` or earlier (it is still enabled and
 * still failing), and marks its waiting deliveries dead with the reason, those being sent too
 * (their failure then leaves them dead: recordAttempts). Run in the transaction that records the
 * event. Answers whether it did.
 */
export async function disableFailingWebhook(
  trx: DB,
  input: { webhookId: number; reason: string; failingBefore: Date; clockNow: Date },
): Promise<boolean> {
  const now = nowOf(input.clockNow);
  const disabled = await trx
    .updateTable('webhooks')
    .set({ enabled: false, disabled_reason: input.reason, updated_at: now })
    .where('id', '=', input.webhookId)
    .where('enabled', '=', true)
    .where('failing_since', '<=', input.failingBefore)
    .returning('id')
    .executeTakeFirst();
  if (!disabled) return false;
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'dead', next_attempt_at: null, last_error: input.reason, updated_at: now })
    .where('webhook_id', '=', input.webhookId)
    .where('status', 'in', ['pending', 'failed'])
    .execute();
  return true;
}

/**
 * `POST /webhooks/{id}/test`: a `webhook.test` delivery written already claimed (one attempt,
 * no event), so that no dispatcher sends it. Undefined when the webhook does not exist.
 */
export async function insertClaimedTestDelivery(
  db: DB,
  input: { webhookId: number; lockedBy: string; leaseMs: number; clockNow: Date },
): Promise<ClaimedDelivery | undefined> {
  const now = nowOf(input.clockNow);
  const { rows } = await sql<ClaimRow>`
    with w as (select id, name, url, headers, secret, updated_at from webhooks where id = ${input.webhookId}),
    d as (
      insert into webhook_deliveries
        (webhook_id, event_id, event_type, event_payload, status, attempts, max_attempts, next_attempt_at, locked_by, locked_until, created_at, updated_at)
      select w.id, null, 'webhook.test', jsonb_build_object('webhook_id', w.id, 'name', w.name), 'pending', 1, 1, null,
             ${input.lockedBy}, ${plusMs(input.clockNow, input.leaseMs)}, ${now}, ${now}
      from w
      returning *
    )
    select ${RETURNED} from d join w on w.id = d.webhook_id`.execute(db);
  const row = rows[0];
  return row ? toClaimed(row) : undefined;
}

/**
 * `POST …/deliveries/{delivery_id}/retry`: claims one delivery of this webhook for a manual
 * attempt, unless it succeeded or is being sent now. A dead or refused delivery gets one more
 * attempt (max_attempts raised to this one). Undefined when it cannot be claimed (see
 * deliveryState for why).
 */
export async function claimForRetry(
  db: DB,
  input: { webhookId: number; deliveryId: number; lockedBy: string; leaseMs: number; clockNow: Date },
): Promise<ClaimedDelivery | undefined> {
  const now = nowOf(input.clockNow);
  const { rows } = await sql<ClaimRow>`
    update webhook_deliveries d
    set locked_by = ${input.lockedBy}, locked_until = ${plusMs(input.clockNow, input.leaseMs)}, attempts = d.attempts + 1,
        max_attempts = case when d.status in ('dead', 'refused') then d.attempts + 1 else greatest(d.max_attempts, d.attempts + 1) end,
        updated_at = ${now}
    from webhooks w
    where d.id = ${input.deliveryId} and d.webhook_id = ${input.webhookId} and w.id = d.webhook_id
      and d.status <> 'succeeded' and (d.locked_until is null or d.locked_until < ${now})
    returning ${RETURNED}`.execute(db);
  const row = rows[0];
  return row ? toClaimed(row) : undefined;
}

/** Why a delivery could not be claimed for a retry: unknown (for this webhook), succeeded, or leased now. */
export async function deliveryState(db: DB, webhookId: number, deliveryId: number, clockNow: Date) {
  return db
    .selectFrom('webhook_deliveries')
    .select(['status', sql<boolean>`coalesce(locked_until >= ${nowOf(clockNow)}, false)`.as('leased')])
    .where('id', '=', deliveryId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
}

/** Deliveries whose instance died during their last attempt: dead, since no attempt is left. */
export async function reapLostDeliveries(db: DB, clockNow: Date): Promise<number> {
  const now = nowOf(clockNow);
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status: 'dead',
      next_attempt_at: null,
      locked_by: null,
      locked_until: null,
      last_error: 'the instance stopped during the last attempt (its lease expired)',
      updated_at: now,
    })
    .where('status', 'in', ['pending', 'failed'])
    .where('locked_until', '<', now)
    .whereRef('attempts', '>=', 'max_attempts')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Retention: deletes up to `batch` deliveries (their attempts go by cascade) that succeeded
 * more than `succeededMs` ago, or were created more than `othersMs` ago whatever their status;
 * never one being sent. Returns how many.
 */
export async function deleteOldDeliveries(db: DB, input: { succeededMs: number; othersMs: number; batch: number; clockNow: Date }) {
  const now = nowOf(input.clockNow);
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', (qb) =>
      qb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where((eb) =>
          eb.or([
            eb('created_at', '<', plusMs(input.clockNow, -input.othersMs)),
            eb.and([eb('status', '=', 'succeeded'), eb('created_at', '<', plusMs(input.clockNow, -input.succeededMs))]),
          ]),
        )
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .limit(input.batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
