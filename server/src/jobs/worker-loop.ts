// The claim loop shared by the job runner (jobs.runner.ts) and the webhook dispatcher
// (webhooks/webhooks.dispatcher.ts): what is claimed, run and recorded is theirs; the loop
// owns the rest.
//
// - Claiming: while there is room (concurrency minus what is in flight, at most one batch),
//   claim; again at once after a full batch or a wake-up, otherwise after pollIntervalMs.
//   A failing claim is logged once per outage (then every 60th failure) and retried after
//   pollIntervalMs.
// - Wake-ups: wake() looks again now (an idle wait ends at once); recheckSoon() looks again
//   in 50 ms, for a signal sent inside a transaction whose rows are visible once it commits.
//   Every entry leaving the in-flight map wakes the loop.
// - Stopping: no new claims (a batch claimed meanwhile is released at once); the caller's
//   subscriptions are closed; entries in flight get stopTimeoutMs to finish; those still
//   interruptible are then aborted and their claims released; those being written get 2 s
//   more before stop() resolves (with the number of claims released).
import type { FastifyBaseLogger } from 'fastify';

/** One claimed item in flight. `done` settles when its work has ended (whatever the outcome). */
export interface WorkerEntry<Claim> {
  claim: Claim;
  /** Set by stop() when it gives the claim back: the outcome then belongs to the next holder. */
  released: boolean;
  abort: AbortController;
  done: Promise<void>;
}

export interface WorkerLoopSpec<Item, Claim, Entry extends WorkerEntry<Claim>> {
  log: FastifyBaseLogger;
  /** Items in flight at once. */
  concurrency: number;
  /** Items claimed by one statement at most (default: no bound but the concurrency). */
  batch?: number;
  pollIntervalMs: number;
  /** How long stop() waits for the entries in flight before aborting them. */
  stopTimeoutMs: number;
  /** Claims up to `limit` due items. */
  claim(limit: number): Promise<readonly Item[]>;
  /** The claim of an item, to release it. */
  claimOf(item: Item): Claim;
  /** Takes claimed items in (never called with none): each goes through track(). */
  admit(items: readonly Item[]): void;
  /** Gives claims back; resolves with how many were released (never rejects). */
  release(claims: Claim[]): Promise<number>;
  /** The error of a failed claim, as logged. */
  describeError(error: unknown): string;
  /** Logged when a claim fails. */
  claimFailedMessage: string;
  /** Entries that stop() aborts and releases once its wait is over (those not yet released). */
  interruptible(entry: Entry): boolean;
  /** Entries that stop() still waits for (bounded) after the others were released. */
  settling(entry: Entry): boolean;
  /** The reason given to the aborted entries. */
  stopReason: string;
  /** Closes the caller's subscriptions; called by stop() once the loop has ended. */
  unsubscribe(): Promise<void>;
}

export interface WorkerLoop<Entry> {
  /** The entries in flight, by id. */
  readonly inFlight: ReadonlyMap<number, Entry>;
  readonly stopping: boolean;
  /** Look for due items now. */
  wake(): void;
  /** Look again in 50 ms (a signal sent inside a transaction). */
  recheckSoon(): void;
  /** Counts the entry in flight until its work settles, then wakes the loop. */
  track(id: number, entry: Entry, work: () => Promise<void>): void;
  /** Starts claiming. */
  start(): void;
  /** Stops (once): resolves with the number of claims released. */
  stop(): Promise<number>;
}

export function createWorkerLoop<Item, Claim, Entry extends WorkerEntry<Claim>>(
  spec: WorkerLoopSpec<Item, Claim, Entry>,
): WorkerLoop<Entry> {
  const { log, concurrency, pollIntervalMs, stopTimeoutMs } = spec;
  const batch = spec.batch ?? Number.POSITIVE_INFINITY;
  const inFlight = new Map<number, Entry>();
  let stopping = false;
  let wakeRequested = false;
  let wakeIdle: (() => void) | null = null;
  let recheckTimer: NodeJS.Timeout | null = null;
  let looping: Promise<void> = Promise.resolve();

  function wake(): void {
    wakeRequested = true;
    const resolve = wakeIdle;
    wakeIdle = null;
    resolve?.();
  }

  function recheckSoon(): void {
    if (stopping || recheckTimer !== null) return;
    recheckTimer = setTimeout(() => {
      recheckTimer = null;
      wake();
    }, 50);
    recheckTimer.unref();
  }

  function idle(ms: number): Promise<void> {
    if (wakeRequested || stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        wakeIdle = null;
        resolve();
      }, ms);
      timer.unref();
      wakeIdle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  function track(id: number, entry: Entry, work: () => Promise<void>): void {
    inFlight.set(id, entry);
    entry.done = work().finally(() => {
      inFlight.delete(id);
      wake();
    });
  }

  async function loop(): Promise<void> {
    let failures = 0;
    while (!stopping) {
      wakeRequested = false;
      const room = Math.min(batch, concurrency - inFlight.size);
      let full = false;
      if (room > 0) {
        let claimed: readonly Item[];
        try {
          claimed = await spec.claim(room);
          failures = 0;
        } catch (error) {
          if (stopping) break;
          failures += 1;
          // One line per outage, not one per poll.
          if (failures === 1 || failures % 60 === 0) log.error({ err: spec.describeError(error), failures }, spec.claimFailedMessage);
          await idle(pollIntervalMs);
          continue;
        }
        if (stopping) {
          await spec.release(claimed.map(spec.claimOf));
          break;
        }
        if (claimed.length > 0) spec.admit(claimed);
        full = claimed.length === room;
      }
      if (full || wakeRequested) continue;
      await idle(pollIntervalMs);
    }
  }

  /** Waits for `promises` to settle, or `ms` at most. */
  async function bounded(promises: Array<Promise<void>>, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(promises),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
    clearTimeout(timer);
  }

  let stopped: Promise<number> | null = null;
  return {
    inFlight,
    get stopping() {
      return stopping;
    },
    wake,
    recheckSoon,
    track,
    start() {
      looping = loop();
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        if (recheckTimer !== null) clearTimeout(recheckTimer);
        wake();
        await looping;
        await spec.unsubscribe();

        await bounded(
          [...inFlight.values()].map((entry) => entry.done),
          stopTimeoutMs,
        );
        // Entries still running: abort them and give their claims back, for another instance at once.
        const unfinished = [...inFlight.values()].filter((entry) => !entry.released && spec.interruptible(entry));
        for (const entry of unfinished) {
          entry.released = true;
          entry.abort.abort(new Error(spec.stopReason));
        }
        const released = await spec.release(unfinished.map((entry) => entry.claim));
        // Outcomes being written finish quickly: wait for them (bounded) before the database closes.
        const settling = [...inFlight.values()].filter(spec.settling).map((entry) => entry.done);
        if (settling.length > 0) await bounded(settling, 2000);
        return released;
      })();
      return stopped;
    },
  };
}
