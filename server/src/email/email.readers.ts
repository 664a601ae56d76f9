// The supervisor of the IMAP readers (docs/email.md), started by startWorkers (workers.ts) on
// every instance with WORKERS on: one reader per enabled, live email inbox across all
// instances, kept by a lease in email_readers (email.reader-state.ts).
//
// - Every few seconds (and at once when an inbox changes), it lists the email inboxes that
//   should be read and takes or renews their leases for this instance: holder = this instance,
//   lease_until = now + 30 s. A lease another instance holds is taken once it has expired, so
//   when a holder dies a surviving or restarted instance resumes within 30 s; the supervisor
//   looks again the moment the earliest such lease ends.
// - It runs a reader for each inbox it holds, restarts it when the inbox's settings change
//   (updated_at), and stops it when the inbox is disabled or deleted (releasing the lease) or
//   when the lease is lost (another instance has it now). If the leases cannot be renewed (the
//   database is down), readers stop once their lease has run out.
// - stop() closes every connection and releases the leases, so another instance takes over at once.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppDeps } from '../deps.ts';
import { DataError } from '../errors.ts';
import { EVENTS_CHANNEL } from '../realtime/relay.ts';
import { loadEmailInbox } from './email.inbox.ts';
import { ingestBatch, skipMail } from './email.ingest.ts';
import { type EmailIntake, type EmailReader, type ReaderOptions, startEmailReader } from './email.reader.ts';
import { claimLeases, listReadableInboxes, nextForeignExpiry, recordReaderState, releaseLeases } from './email.reader-state.ts';

export interface EmailReadersOptions {
  /** Where mails go (default: email.ingest.ts). */
  intake?: EmailIntake;
  /** The name written in email_readers.holder (default host:pid:email:random). */
  instanceId?: string;
  /** How often inboxes are listed and leases renewed (default 5 s). */
  tickMs?: number;
  /** How long a lease lasts without renewal (default 30 s). */
  leaseMs?: number;
  /** Passed to every reader. */
  reader?: Omit<ReaderOptions, 'holder' | 'intake'>;
}

export interface EmailReaders {
  readonly instanceId: string;
  /** The inboxes this instance is reading now. */
  running(): number[];
  /** Look again now (tests; inbox changes do it otherwise). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export function startEmailReaders(deps: AppDeps, options: EmailReadersOptions = {}): EmailReaders {
  const instanceId = options.instanceId ?? `${hostname()}:${process.pid}:email:${randomBytes(4).toString('hex')}`;
  const tickMs = options.tickMs ?? 5000;
  const leaseMs = options.leaseMs ?? 30_000;
  const log = deps.log.child({ component: 'email.readers', instance: instanceId });
  const intake = options.intake ?? { ingestBatch, skipMail };
  const readers = new Map<number, EmailReader>();
  /** The end of the lease of each inbox this instance holds, as last renewed. */
  const leases = new Map<number, Date>();
  /** Inboxes whose settings could not be loaded, with the updated_at that failed (not retried until it changes). */
  const unloadable = new Map<number, number>();
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  let again = false;
  let failures = 0;

  const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

  async function stopReaders(ids: number[]): Promise<void> {
    await Promise.all(
      ids.map(async (id) => {
        const reader = readers.get(id);
        readers.delete(id);
        await reader?.stop();
      }),
    );
  }

  async function start(id: number, updatedAt: Date): Promise<void> {
    if (unloadable.get(id) === updatedAt.getTime()) return;
    let inbox: Awaited<ReturnType<typeof loadEmailInbox>>;
    try {
      inbox = await loadEmailInbox(deps, id);
    } catch (error) {
      // Anything but a password that no longer decrypts (the database blinking) is tried again next tick.
      if (!(error instanceof DataError)) throw error;
      // A password that no longer decrypts: say so until an admin saves the inbox again.
      unloadable.set(id, updatedAt.getTime());
      log.error({ inboxId: id, err: describe(error) }, 'email inbox cannot be read');
      await recordReaderState(deps.db, id, instanceId, { state: 'failing', error: describe(error) }, deps.clock.now());
      return;
    }
    if (!inbox || !inbox.enabled || stopping) return;
    unloadable.delete(id);
    readers.set(id, startEmailReader(deps, inbox, { ...options.reader, holder: instanceId, intake }));
  }

  async function tickOnce(): Promise<number> {
    const wanted = await listReadableInboxes(deps.db);
    const wantedIds = wanted.map((inbox) => inbox.id);
    const held = await claimLeases(deps.db, { holder: instanceId, inboxIds: wantedIds, leaseMs, clockNow: deps.clock.now() });
    // Readers of inboxes no longer read here: disabled or deleted (their leases given back), or lost to another instance.
    const gone = [...readers.keys()].filter((id) => !held.has(id));
    const released = [...leases.keys()].filter((id) => !wantedIds.includes(id));
    leases.clear();
    for (const [id, until] of held) leases.set(id, until);
    if (gone.length > 0) log.info({ inboxes: gone }, 'email readers stop (inbox disabled, deleted, or read by another instance)');
    await stopReaders(gone);
    if (released.length > 0) await releaseLeases(deps.db, instanceId, released, deps.clock.now());
    // Settings changed: the reader starts again with the new ones.
    const changed = wanted.filter((inbox) => {
      const reader = readers.get(inbox.id);
      return reader !== undefined && reader.updatedAt.getTime() !== inbox.updated_at.getTime();
    });
    await stopReaders(changed.map((inbox) => inbox.id));
    for (const inbox of wanted) {
      if (held.has(inbox.id) && !readers.has(inbox.id) && !stopping) await start(inbox.id, inbox.updated_at);
    }
    // Leases held elsewhere: look again as soon as the first one ends.
    const foreign = await nextForeignExpiry(
      deps.db,
      instanceId,
      wantedIds.filter((id) => !held.has(id)),
    );
    return foreign ? foreign.getTime() - deps.clock.now().getTime() + 50 : tickMs;
  }

  async function tick(): Promise<void> {
    let delay = tickMs;
    try {
      delay = Math.max(50, Math.min(tickMs, await tickOnce()));
      failures = 0;
    } catch (error) {
      failures += 1;
      if (failures === 1 || failures % 60 === 0) log.error({ err: describe(error), failures }, 'email readers: could not renew leases');
      // Without renewal another instance may read these inboxes once the leases run out: stop before then.
      const now = deps.clock.now().getTime();
      const expired = [...leases].filter(([, until]) => until.getTime() <= now + tickMs).map(([id]) => id);
      for (const id of expired) leases.delete(id);
      await stopReaders(expired);
    }
    schedule(delay);
  }

  function schedule(delay: number): void {
    if (stopping) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void runTick();
    }, delay);
    timer.unref();
  }

  /** One tick at a time; one asked for meanwhile runs right after. */
  function runTick(): Promise<void> {
    if (ticking) {
      again = true;
      return ticking;
    }
    ticking = tick().finally(() => {
      ticking = null;
      if (again && !stopping) {
        again = false;
        void runTick();
      }
    });
    return ticking;
  }

  // An inbox created, changed, disabled or deleted on any instance: look now.
  const subscription = deps.bus
    .subscribe(EVENTS_CHANNEL, (message) => {
      const events = message['events'];
      if (Array.isArray(events) && events.some((e) => typeof e === 'object' && e !== null && e['type'] === 'inbox.changed')) {
        schedule(50);
      }
    })
    .catch((error: unknown) => {
      log.warn({ err: describe(error) }, 'email readers: could not subscribe to inbox changes; checking every few seconds');
      return async () => undefined;
    });

  schedule(0);
  log.info({ tickMs, leaseMs }, 'email readers started');

  let stopped: Promise<void> | null = null;
  return {
    instanceId,
    running: () => [...readers.keys()],
    tick: () => runTick(),
    stop() {
      stopped ??= (async () => {
        stopping = true;
        if (timer) clearTimeout(timer);
        await (await subscription)().catch(() => undefined);
        await ticking;
        await stopReaders([...readers.keys()]);
        try {
          await releaseLeases(deps.db, instanceId, [...leases.keys()], deps.clock.now());
        } catch (error) {
          log.warn({ err: describe(error) }, 'email readers: could not release leases; they expire on their own');
        }
        log.info('email readers stopped');
      })();
      return stopped;
    },
  };
}
