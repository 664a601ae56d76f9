// The event relay (docs/api.md, "Realtime"): reads committed domain events from the outbox in
// id order and publishes them, enriched, on the bus; every instance's hub fans them out.
//
// - Woken when a transaction that recorded events commits: at once for this process's own
//   (db/event-commits.ts), by NOTIFY for other processes' (sent after their commit, coalesced;
//   never for a rolled-back transaction); a poll every second when LISTEN is not available,
//   every 10 s otherwise as a safety net.
// - One relay publishes for the bus's reach: with Redis, the instance holding a session-level
//   advisory lock on its dedicated LISTEN connection (the others retry every few seconds); with
//   the in-process bus, the first relay started on that bus.
// - Id gaps: a lower id can commit after a higher one. Ids below the highest seen that have not
//   appeared are kept for GAP_MS and read again; a rolled-back insert's id never appears and
//   is given up after that.
// - The cursor (everything at or below it was published or given up) is stored, so that a new
//   leader resumes where the last stopped, and pruning deletes only events the relay passed.
import type { DbListener } from '../db/database.ts';
import { EVENTS_CHANNEL_PREFIX } from '../db/event-commits.ts';
import type { AppDeps } from '../deps.ts';
import type { EventBus } from './bus.ts';
import { enrichEvents } from './relay.enrich.ts';
import { eventsAfter, eventsByIds, maxEventId, readCursor, type StoredEvent, writeCursor } from './realtime.queries.ts';

export const EVENTS_CHANNEL = 'realtime.events';
export const RELAY_CURSOR = 'relay';
const BATCH = 200;
/** How long an id below the highest seen is waited for (a long transaction commits its events late; waiting costs only a re-read). */
export const GAP_MS = 60_000;
/** A new leader does not publish events older than this (clients re-read with the HTTP API). */
const RESUME_WINDOW_MS = 60_000;

export interface RelayOptions {
  /** Poll interval when LISTEN is unavailable (default 1 s). */
  pollMs?: number;
  /** Safety poll while listening (default 10 s). */
  safetyPollMs?: number;
  /** How often a non-leader tries to take over (default 3 s). */
  leaderRetryMs?: number;
}

export interface Relay {
  /** Reads and publishes what is new now (tests; the timers do it otherwise). */
  flush(): Promise<void>;
  isLeader(): boolean;
  stop(): Promise<void>;
}

/** In-process election: the relays sharing one in-memory bus (apps on one runtime) elect one. */
const memoryLeaders = new WeakMap<EventBus, object>();

export function startRelay(deps: AppDeps, options: RelayOptions = {}): Relay {
  const pollMs = options.pollMs ?? 1_000;
  const safetyPollMs = options.safetyPollMs ?? 10_000;
  const leaderRetryMs = options.leaderRetryMs ?? 3_000;
  const log = deps.log.child({ component: 'relay' });
  const self = {};
  let stopped = false;
  let listener: DbListener | null = null;
  let listening = false;
  let leader = false;
  let cursor = 0;
  let maxSeen = 0;
  /** True from taking the lead until the first pass has published. */
  let resuming = false;
  let campaigning: Promise<void> | null = null;
  /** Ids below maxSeen not seen yet → when first missed (ms). */
  const gaps = new Map<number, number>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;

  function schedule(delayMs: number): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (leader) void wake();
      else void runCampaign();
    }, delayMs);
    timer.unref();
  }

  function runCampaign(): Promise<void> {
    campaigning ??= campaign().finally(() => {
      campaigning = null;
    });
    return campaigning;
  }

  async function campaign(): Promise<void> {
    if (stopped || leader) return;
    try {
      if (!listener) {
        listener = await deps.openDbListener();
        listener.onLost((error) => {
          log.warn({ err: error.message }, 'relay: lost its database session; trying again');
          listener = null;
          listening = false;
          resign();
          schedule(leaderRetryMs);
        });
      }
      if (stopped) return;
      const won = deps.bus.kind === 'redis' ? await listener.tryLock(`parley_relay:${listener.schema}`) : takeMemoryLead(deps.bus, self);
      if (!won) {
        schedule(leaderRetryMs);
        return;
      }
      const channel = `${EVENTS_CHANNEL_PREFIX}${listener.schema}`;
      try {
        // Not this process's own NOTIFYs: its commits woke it already (the subscription below).
        await listener.listen(channel, (origin) => {
          if (origin !== deps.eventCommits.origin) void wake();
        });
        listening = true;
      } catch (error) {
        log.warn({ err: error instanceof Error ? error.message : String(error) }, 'relay: LISTEN unavailable; polling');
      }
      const stored = await readCursor(deps.db, RELAY_CURSOR);
      const max = await maxEventId(deps.db);
      cursor = stored === null || stored > max ? max : stored;
      maxSeen = cursor;
      gaps.clear();
      resuming = true;
      leader = true;
      log.debug({ cursor }, 'relay: leading');
      await wake();
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, 'relay: could not start; trying again');
      resign();
      schedule(leaderRetryMs);
    }
  }

  function resign(): void {
    leader = false;
    if (memoryLeaders.get(deps.bus) === self) memoryLeaders.delete(deps.bus);
  }

  /** Runs one pass, or one more after the running one. */
  function wake(): Promise<void> {
    if (!leader || stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    let failed = false;
    running = (async () => {
      do {
        again = false;
        try {
          if (await pass()) again = true;
        } catch (error) {
          log.warn({ err: error instanceof Error ? error.message : String(error) }, 'relay: a pass failed; retrying');
          failed = true;
          break;
        }
      } while (again && leader && !stopped);
    })().finally(() => {
      running = null;
      // A failed pass is retried soon; nothing it read was taken as published.
      if (leader) schedule(failed || gaps.size > 0 ? Math.min(pollMs, 250) : listening ? safetyPollMs : pollMs);
    });
    return running;
  }

  /** One read and publish; true when more may be waiting. Nothing moves unless the publish succeeded. */
  async function pass(): Promise<boolean> {
    const nowMs = Date.now();
    const waited = [...gaps.keys()];
    const [fresh, late] = await Promise.all([eventsAfter(deps.db, maxSeen, BATCH), eventsByIds(deps.db, waited)]);
    const nextGaps = new Map(gaps);
    for (const row of late) nextGaps.delete(row.id);
    let previous = maxSeen;
    for (const row of fresh) {
      // Bounded: a huge hole (a sequence jump) is not waited for id by id.
      if (row.id - previous - 1 <= 1000) for (let id = previous + 1; id < row.id; id++) nextGaps.set(id, nowMs);
      previous = row.id;
    }
    const given: number[] = [];
    for (const [id, since] of nextGaps) {
      if (nowMs - since > GAP_MS) {
        nextGaps.delete(id);
        given.push(id);
      }
    }
    const publish = [...late, ...fresh];
    // A failure here (Redis, the enrichment's queries) leaves the cursor and the gaps as they
    // were: the next pass reads the same events again.
    if (publish.length > 0) await publishBatch(publish);
    if (given.length > 0) log.info({ ids: given.slice(0, 20), count: given.length }, 'relay: gave up waiting for event ids (rolled back)');
    gaps.clear();
    for (const [id, since] of nextGaps) gaps.set(id, since);
    maxSeen = previous;
    resuming = false;
    const next = gaps.size > 0 ? Math.min(...gaps.keys()) - 1 : maxSeen;
    if (next !== cursor) {
      cursor = next;
      await writeCursor(deps.db, RELAY_CURSOR, cursor, deps.clock.now());
    }
    return fresh.length === BATCH;
  }

  async function publishBatch(rows: StoredEvent[]): Promise<void> {
    // Only a relay that has just taken the lead skips what is older than the window (clients
    // re-read over HTTP); a running relay publishes everything, however late.
    const oldest = resuming ? deps.clock.now().getTime() - RESUME_WINDOW_MS : Number.NEGATIVE_INFINITY;
    const recent = rows.filter((row) => row.created_at.getTime() >= oldest);
    if (recent.length === 0) return;
    const events = await enrichEvents(deps, recent);
    await deps.bus.publish(EVENTS_CHANNEL, { events });
  }

  schedule(0);
  // This process's own commits wake it at once (wake does nothing unless leading).
  const unsubscribe = deps.eventCommits.subscribe(() => void wake());
  return {
    async flush() {
      if (!leader) await runCampaign();
      await wake();
      if (again || running) await wake();
    },
    isLeader: () => leader,
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await campaigning;
      await running;
      resign();
      await listener?.close();
      listener = null;
    },
  };
}

function takeMemoryLead(bus: EventBus, self: object): boolean {
  const holder = memoryLeaders.get(bus);
  if (holder === undefined) memoryLeaders.set(bus, self);
  return (holder ?? self) === self;
}
