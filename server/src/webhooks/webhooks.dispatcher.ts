// The webhook dispatcher (docs/api.md, "Webhooks" → "Delivery"): claims due deliveries with a
// lease (FOR UPDATE SKIP LOCKED, one short statement), sends them concurrently and writes each
// outcome as the lease's holder. Started by startWorkers (workers.ts) on every instance with
// WORKERS on; any number of instances share the work through the database.
//
// - Concurrency: at most WEBHOOK_CONCURRENCY requests in flight per instance, and at most
//   WEBHOOK_CONCURRENCY_PER_WEBHOOK of them to one webhook: the claim itself leaves out what a
//   saturated webhook has due, so a slow or dead receiver holds its own slots and no others.
// - Wake-ups: at once when events are recorded (the realtime relay's publication on the bus,
//   heard by every instance, and this app's job signals of kind `webhooks.deliver`); a poll
//   every second otherwise; again at once after a full batch or a finished request.
// - Guarantees: an outcome is written only by the claim's holder (instance and attempt
//   number); a claim whose instance died expires after its lease (the request timeout plus a
//   margin) and the delivery is claimed again. Delivery is at least once; never again once a
//   success was recorded. Receivers deduplicate by `webhook-id`.
// - Stopping: no new claims; requests in flight finish (bounded), the rest are aborted and
//   their claims released, so another instance sends them at once.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppDeps } from '../deps.ts';
import { JOB_WAKE_CHANNEL } from '../jobs/jobs.service.ts';
import { createWorkerLoop, type WorkerEntry } from '../jobs/worker-loop.ts';
import { EVENTS_CHANNEL } from '../realtime/relay.ts';
import {
  type AttemptResult,
  createWebhookSender,
  type FinishedAttempt,
  finishAttempts,
  leaseMsOf,
  prepareBodies,
  type ReadyDelivery,
  sendAttempt,
  type WebhookSender,
} from './webhooks.attempt.ts';
import { type ClaimedDelivery, claimDueDeliveries, type DeliveryClaim, releaseClaims } from './webhooks.dispatch.queries.ts';
import { WEBHOOK_EVENTS } from './webhooks.events.ts';

/** The job-signal kind that wakes the dispatchers (announceJob from jobs.service.ts). */
export const WEBHOOK_WAKE_KIND = 'webhooks.deliver';
const SUBSCRIBED = new Set<string>(WEBHOOK_EVENTS);

export interface DispatcherOptions {
  /** Requests in flight at once on this instance (default WEBHOOK_CONCURRENCY). */
  concurrency?: number;
  /** Of those, to one webhook (default WEBHOOK_CONCURRENCY_PER_WEBHOOK). */
  perWebhook?: number;
  /** Request timeout (default WEBHOOK_TIMEOUT_SECONDS). */
  timeoutMs?: number;
  /** Poll when nothing wakes the dispatcher (default 1000 ms). */
  pollIntervalMs?: number;
  /** Deliveries claimed by one statement at most (default 64). */
  batch?: number;
  /** How long stop() waits for requests in flight before aborting them (default 5 s). */
  stopTimeoutMs?: number;
  /** Source of the retry jitter (tests). */
  random?: () => number;
  /** The name written in locked_by (default host:pid:random). */
  dispatcherId?: string;
}

export interface WebhookDispatcher {
  /** Look for due deliveries now. */
  wake(): void;
  stop(): Promise<void>;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`webhook dispatcher: ${name} must be a positive number, got ${value}`);
  return value;
}

function dispatcherName(): string {
  return `${hostname()}:${process.pid}:webhooks:${randomBytes(4).toString('hex')}`;
}

/**
 * Claims due deliveries once, sends them all and waits for every outcome: the dispatcher's
 * work, step by step, for tests (with a fake clock) and tools. Returns what each attempt did.
 */
export async function dispatchOnce(
  deps: AppDeps,
  options: Pick<DispatcherOptions, 'concurrency' | 'perWebhook' | 'timeoutMs' | 'random' | 'dispatcherId'> = {},
): Promise<AttemptResult[]> {
  const sender = createWebhookSender(deps, options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {});
  const lockedBy = options.dispatcherId ?? dispatcherName();
  try {
    const claimed = await claimDueDeliveries(deps.db, {
      limit: options.concurrency ?? deps.config.webhookConcurrency,
      perWebhook: options.perWebhook ?? deps.config.webhookConcurrencyPerWebhook,
      inFlight: new Map(),
      lockedBy,
      leaseMs: leaseMsOf(sender),
      clockNow: deps.clock.now(),
    });
    const ready = await prepareBodies(deps, claimed);
    // The outcomes in the order the requests ended, written together as the dispatcher does.
    const finished: FinishedAttempt[] = [];
    await Promise.all(
      ready.map(async (delivery) => {
        const sent = await sendAttempt(deps, sender, delivery);
        finished.push({ claim: { id: delivery.id, lockedBy, attempts: delivery.attempts }, delivery, sent });
      }),
    );
    return await finishAttempts(deps, finished, { manual: false, ...(options.random ? { random: options.random } : {}) });
  } finally {
    sender.close();
  }
}

interface InFlight extends WorkerEntry<DeliveryClaim> {
  webhookId: number;
  /** preparing: its body is being built and frozen; sending: the request runs; finishing: its outcome is being written. */
  phase: 'preparing' | 'sending' | 'finishing';
}

export function startWebhookDispatcher(deps: AppDeps, options: DispatcherOptions = {}): WebhookDispatcher {
  const concurrency = positive('concurrency', options.concurrency ?? deps.config.webhookConcurrency);
  const perWebhook = positive('perWebhook', options.perWebhook ?? deps.config.webhookConcurrencyPerWebhook);
  const pollIntervalMs = positive('pollIntervalMs', options.pollIntervalMs ?? 1000);
  const batch = positive('batch', options.batch ?? 64);
  const stopTimeoutMs = positive('stopTimeoutMs', options.stopTimeoutMs ?? 5000);
  const random = options.random ?? Math.random;
  const lockedBy = options.dispatcherId ?? dispatcherName();
  const sender: WebhookSender = createWebhookSender(deps, options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {});
  const leaseMs = leaseMsOf(sender);
  const log = deps.log.child({ component: 'webhooks', dispatcher: lockedBy });

  const perWebhookCount = new Map<number, number>();
  const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
  const claimOf = (delivery: ClaimedDelivery): DeliveryClaim => ({ id: delivery.id, lockedBy, attempts: delivery.attempts });

  const worker = createWorkerLoop<ClaimedDelivery, DeliveryClaim, InFlight>({
    log,
    concurrency,
    batch,
    pollIntervalMs,
    stopTimeoutMs,
    claim: (limit) =>
      claimDueDeliveries(deps.db, { limit, perWebhook, inFlight: perWebhookCount, lockedBy, leaseMs, clockNow: deps.clock.now() }),
    claimOf,
    admit,
    release,
    describeError: describe,
    claimFailedMessage: 'could not claim webhook deliveries; retrying',
    interruptible: (entry) => entry.phase !== 'finishing',
    // Outcomes being written, and bodies being frozen.
    settling: (entry) => entry.phase !== 'sending',
    stopReason: 'the webhook dispatcher is stopping',
    async unsubscribe() {
      stopSignals();
      for (const unsubscribe of await subscriptions) await unsubscribe().catch(() => undefined);
    },
  });

  const stopSignals = deps.jobSignals.subscribe((signal) => {
    if (signal.kind !== WEBHOOK_WAKE_KIND) return;
    worker.wake();
    // A signal sent inside a transaction: its rows are visible once it commits; look again shortly.
    if (signal.inTransaction) worker.recheckSoon();
  });

  // Events committed on any instance (the relay publishes them after commit), and wake-ups
  // forwarded from other instances' job signals.
  const subscriptions = Promise.all([
    deps.bus.subscribe(EVENTS_CHANNEL, (message) => {
      const events = message['events'];
      if (Array.isArray(events) && events.some((e) => typeof e === 'object' && e !== null && SUBSCRIBED.has(String(e['type'])))) {
        worker.wake();
      }
    }),
    deps.bus.subscribe(JOB_WAKE_CHANNEL, (message) => {
      const kinds = message['kinds'];
      if (Array.isArray(kinds) && kinds.includes(WEBHOOK_WAKE_KIND)) {
        worker.wake();
        worker.recheckSoon();
      }
    }),
  ]).catch((error: unknown) => {
    log.warn({ err: describe(error) }, 'webhooks: could not subscribe to wake-ups; polling only');
    return [] as Array<() => Promise<void>>;
  });

  function count(webhookId: number, delta: number): void {
    const next = (perWebhookCount.get(webhookId) ?? 0) + delta;
    if (next <= 0) perWebhookCount.delete(webhookId);
    else perWebhookCount.set(webhookId, next);
  }

  // Outcomes are written in batches: while one statement runs, the attempts that end meanwhile
  // queue up, and the next statement writes them all (no waiting added, far fewer statements).
  const outcomes: Array<{ finished: FinishedAttempt; written: () => void }> = [];
  let writing = false;

  function recordOutcome(finished: FinishedAttempt): Promise<void> {
    return new Promise((resolve) => {
      outcomes.push({ finished, written: resolve });
      if (!writing) void writeOutcomes();
    });
  }

  async function writeOutcomes(): Promise<void> {
    writing = true;
    while (outcomes.length > 0) {
      const batch = outcomes.splice(0, 500);
      try {
        const results = await finishAttempts(
          deps,
          batch.map((b) => b.finished),
          { manual: false, random },
        );
        results.forEach((result, i) => {
          if (!result.recorded) {
            log.warn(
              { deliveryId: batch[i]?.finished.delivery.id },
              'webhook attempt finished after its lease was lost; another instance has it',
            );
          }
        });
      } catch (error) {
        log.error(
          { count: batch.length, err: describe(error) },
          'could not record webhook attempts; those deliveries are sent again when their leases expire',
        );
      }
      for (const b of batch) b.written();
    }
    writing = false;
  }

  async function run(delivery: ReadyDelivery, entry: InFlight): Promise<void> {
    const sent = await sendAttempt(deps, sender, delivery, entry.abort.signal);
    // stop() gave the claim back while the request ran: the outcome belongs to the next holder.
    if (entry.released) return;
    entry.phase = 'finishing';
    await recordOutcome({ claim: entry.claim, delivery, sent });
  }

  /**
   * Takes claimed deliveries in: counted in flight at once, their bodies built and frozen
   * (one batch), then sent. The claim loop does not wait for the bodies: it can claim again
   * while they are built.
   */
  function admit(claimed: readonly ClaimedDelivery[]): void {
    const entries = claimed.map((delivery): InFlight => {
      count(delivery.webhook_id, 1);
      return {
        claim: claimOf(delivery),
        webhookId: delivery.webhook_id,
        phase: 'preparing',
        released: false,
        abort: new AbortController(),
        done: Promise.resolve(),
      };
    });
    const prepared = prepareBodies(deps, claimed).then(
      (ready) => new Map(ready.map((delivery) => [delivery.id, delivery])),
      async (error: unknown) => {
        log.error({ err: describe(error) }, 'could not build webhook bodies; releasing the claims');
        const open = entries.filter((entry) => !entry.released);
        for (const entry of open) entry.released = true;
        await release(open.map((entry) => entry.claim));
        return new Map<number, ReadyDelivery>();
      },
    );
    for (const entry of entries) {
      worker.track(entry.claim.id, entry, async () => {
        try {
          const delivery = (await prepared).get(entry.claim.id);
          if (!delivery || entry.released) return;
          entry.phase = 'sending';
          await run(delivery, entry);
        } finally {
          count(entry.webhookId, -1);
        }
      });
    }
  }

  async function release(claims: DeliveryClaim[]): Promise<number> {
    if (claims.length === 0) return 0;
    try {
      return await releaseClaims(deps.db, claims, deps.clock.now());
    } catch (error) {
      log.error(
        { err: describe(error), count: claims.length },
        'could not release webhook claims; they are sent again when their leases expire',
      );
      return 0;
    }
  }

  worker.start();
  log.info({ concurrency, perWebhook, timeoutMs: sender.timeoutMs }, 'webhook dispatcher started');

  let stopped: Promise<void> | null = null;
  return {
    wake: worker.wake,
    stop() {
      stopped ??= worker.stop().then((released) => {
        sender.close();
        log.info({ released }, 'webhook dispatcher stopped');
      });
      return stopped;
    },
  };
}
