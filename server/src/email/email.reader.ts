// The IMAP reader of one email inbox (docs/email.md): connects with the inbox's settings, opens
// its mailbox read-only, takes in what is new, then waits for more, and does it again, until it
// is stopped. Started and stopped by the supervisor (email.readers.ts), which holds the inbox's
// lease; the reader writes its state (email.reader-state.ts) under that lease.
//
// - What is new: with a cursor of the same mailbox and UIDVALIDITY, the UIDs above its last
//   one; without one (a first connection, or a mailbox renumbered), the mails received in the
//   last `import_since_hours` (mail_ids recognises those taken in before).
// - Each mail, in UID order: its RFC822.SIZE first; over EMAIL_MAX_MESSAGE_MB it is listed as
//   skipped without being downloaded. The others are downloaded in small batches (the next
//   batch while the current one is taken in) and handed to ingestBatch, which takes them in
//   a few dozen per transaction with the cursor: a crash repeats at most the mails in hand.
// - Waiting: IDLE when the server has it (a new mail is read within moments), re-issued at
//   least every poll_interval_seconds (and every 25 minutes at most); otherwise a check every
//   poll_interval_seconds.
// - Errors of any kind (connection, login, a mailbox that is gone, the database): the state
//   becomes `failing` with the error (never a password), the connection is dropped, and the
//   reader connects again after an exponential backoff with jitter (1 s … 5 min).
import type { ImapFlow } from 'imapflow';
import type { AppDeps } from '../deps.ts';
import { advanceCursor, type MailSource, readCursor } from './email.cursor.ts';
import { describeMailError, imapClientFor, uidSet } from './email.imap.ts';
import type { EmailInbox } from './email.inbox.ts';
import type { ingestBatch, skipMail } from './email.ingest.ts';
import { holdLease, type ReaderStateChange, recordReaderState } from './email.reader-state.ts';

/** Where mails go: email.ingest.ts (injected, so that tests can watch what the reader hands over). */
export interface EmailIntake {
  ingestBatch: typeof ingestBatch;
  skipMail: typeof skipMail;
}

export interface ReaderOptions {
  /** The instance holding the inbox's lease: state is written only under it. */
  holder: string;
  intake: EmailIntake;
  /** The longest one IDLE lasts before it is re-issued (default 25 min). */
  idleRestartMs?: number;
  /** Reconnection delays: the first, and the longest (default 1 s and 5 min). */
  backoffMs?: { min: number; max: number };
  random?: () => number;
  /** Mails and bytes downloaded by one FETCH at most (default 100 and 16 MB). */
  batch?: { mails: number; bytes: number };
}

export interface EmailReader {
  readonly inboxId: number;
  /** The inbox's updated_at when the reader started: a newer one means its settings changed. */
  readonly updatedAt: Date;
  /** Closes the connection and ends the reader (the mail being taken in is finished first). */
  stop(): Promise<void>;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Waits for `promise`, or `ms` at most. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise,
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

type Listed = { uid: number; size: number; date: Date | null };

export function startEmailReader(deps: AppDeps, inbox: EmailInbox, options: ReaderOptions): EmailReader {
  const imap = inbox.settings.imap;
  const secrets = [imap.password];
  const log = deps.log.child({ component: 'email.reader', inboxId: inbox.id });
  const idleRestartMs = options.idleRestartMs ?? 25 * MINUTE;
  const backoff = options.backoffMs ?? { min: 1000, max: 5 * MINUTE };
  const random = options.random ?? Math.random;
  const batchLimit = options.batch ?? { mails: 100, bytes: 16 * 1024 * 1024 };
  const timeoutMs = deps.config.emailTimeoutSeconds * 1000;
  // Every write of mail is made under the inbox's lease (email.reader-state.ts holdLease).
  const fence = { holder: options.holder };

  let stopping = false;
  let client: ImapFlow | null = null;
  // The wait between checks ends early on a new mail, an error of the connection, or stop().
  let wakeRequested = false;
  let connectionError: Error | null = null;
  let wakeUp: (() => void) | null = null;
  const wake = () => {
    wakeRequested = true;
    const resolve = wakeUp;
    wakeUp = null;
    resolve?.();
  };

  async function state(change: ReaderStateChange): Promise<void> {
    try {
      await recordReaderState(deps.db, inbox.id, options.holder, change, deps.clock.now());
    } catch (error) {
      log.warn({ err: describeMailError(error, secrets) }, 'could not record the email reader state');
    }
  }

  /** Waits `ms`, or less when woken; answers whether the whole time passed. */
  function sleep(ms: number): Promise<boolean> {
    if (wakeRequested || stopping) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        wakeUp = null;
        resolve(true);
      }, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve(false);
      };
    });
  }

  async function connect(): Promise<ImapFlow> {
    const fresh = await imapClientFor(imap, log, timeoutMs);
    // Events of a connection already given up (its close, late errors) change nothing.
    fresh.on('error', (error: Error) => {
      if (client !== fresh) return;
      connectionError ??= error;
      wake();
    });
    fresh.on('close', () => {
      if (client !== fresh) return;
      connectionError ??= new Error('the IMAP server closed the connection');
      wake();
    });
    fresh.on('exists', () => {
      if (client === fresh) wake();
    });
    return fresh;
  }

  /** The mails to take in now, in UID order, with their sizes. */
  async function listNew(imapClient: ImapFlow, source: Omit<MailSource, 'uid'>): Promise<{ mails: Listed[]; window: boolean }> {
    const box = imapClient.mailbox;
    const cursor = await readCursor(deps.db, inbox.id);
    const sameBox = cursor !== undefined && cursor.mailbox === source.mailbox && cursor.uidvalidity === source.uidvalidity;
    // An empty mailbox still sets the cursor when it has none (window), so that its first mail is read by UID.
    if (!box || box.exists === 0) return { mails: [], window: !sameBox };
    let range: string;
    let since: Date | null = null;
    if (sameBox) range = `${cursor.last_uid + 1}:*`;
    else {
      since = new Date(deps.clock.now().getTime() - imap.import_since_hours * 3600_000);
      // SEARCH SINCE compares dates only (the server's day): a day earlier, then the exact time below.
      const found = await imapClient.search({ since: new Date(since.getTime() - DAY) }, { uid: true });
      if (!found || found.length === 0) return { mails: [], window: true };
      range = uidSet(found);
    }
    const floor = sameBox ? cursor.last_uid + 1 : 1;
    const listed = await imapClient.fetchAll(range, { uid: true, size: true, internalDate: true }, { uid: true });
    const mails = listed
      .filter((m) => m.uid >= floor)
      .map((m) => ({ uid: m.uid, size: m.size ?? 0, date: m.internalDate ? new Date(m.internalDate) : null }))
      .filter((m) => since === null || m.date === null || m.date >= since)
      .sort((a, b) => a.uid - b.uid);
    return { mails, window: !sameBox };
  }

  /** Groups the mails to download: in UID order, each group within the batch limits; an oversized mail alone. */
  function plan(mails: Listed[]): Array<{ skip: Listed } | { download: Listed[] }> {
    const steps: Array<{ skip: Listed } | { download: Listed[] }> = [];
    let current: Listed[] = [];
    let bytes = 0;
    const flush = () => {
      if (current.length > 0) steps.push({ download: current });
      current = [];
      bytes = 0;
    };
    for (const mail of mails) {
      if (mail.size > deps.config.emailMaxMessageBytes) {
        flush();
        steps.push({ skip: mail });
        continue;
      }
      if (current.length >= batchLimit.mails || (current.length > 0 && bytes + mail.size > batchLimit.bytes)) flush();
      current.push(mail);
      bytes += mail.size;
    }
    flush();
    return steps;
  }

  async function skipOversized(imapClient: ImapFlow, source: Omit<MailSource, 'uid'>, mail: Listed): Promise<void> {
    const found = await imapClient.fetchOne(String(mail.uid), { uid: true, envelope: true }, { uid: true });
    const envelope = found ? found.envelope : undefined;
    const sender = envelope?.from?.[0];
    const limitMb = Math.round(deps.config.emailMaxMessageBytes / 1024 / 1024);
    await options.intake.skipMail(
      deps,
      inbox,
      { ...source, uid: mail.uid },
      {
        size: mail.size,
        reason: `larger than the ${limitMb} MB limit (EMAIL_MAX_MESSAGE_MB): ${mail.size} bytes; not downloaded`,
        headerId: envelope?.messageId?.replace(/^<|>$/g, '') ?? null,
        sender: sender ? (sender.name ? `${sender.name} <${sender.address ?? ''}>` : (sender.address ?? null)) : null,
        subject: envelope?.subject ?? null,
      },
      fence,
    );
  }

  async function download(imapClient: ImapFlow, mails: Listed[]): Promise<Map<number, Buffer>> {
    const fetched = await imapClient.fetchAll(uidSet(mails.map((m) => m.uid)), { uid: true, source: true }, { uid: true });
    const sources = new Map(fetched.filter((m) => m.source !== undefined).map((m) => [m.uid, m.source as Buffer]));
    // A server may answer a FETCH of many in part (a mail it could not read just then): each one
    // missing is asked for alone; only one still missing is taken as expunged.
    for (const mail of mails) {
      if (sources.has(mail.uid)) continue;
      const alone = await imapClient.fetchOne(String(mail.uid), { uid: true, source: true }, { uid: true });
      if (alone && alone.source !== undefined) sources.set(mail.uid, alone.source);
    }
    return sources;
  }

  /** Takes in what is new; answers how many mails were handed over. */
  async function catchUp(imapClient: ImapFlow): Promise<number> {
    const box = imapClient.mailbox;
    if (!box) throw new Error(`the mailbox ${imap.mailbox} is not open`);
    const source = { mailbox: imap.mailbox, uidvalidity: Number(box.uidValidity) };
    // The mailbox as it was before the search: every UID below its UIDNEXT is in the window or left out.
    const uidNext = box.uidNext;
    const { mails, window } = await listNew(imapClient, source);
    if (mails.length > 0) await state({ state: 'reading' });
    const steps = plan(mails);
    let handed = 0;
    const sizeOf = (mails: Listed[]) => mails.reduce((sum, mail) => sum + mail.size, 0);
    // The next batch is downloaded while the current one is taken in, unless either is larger
    // than a batch (a single big mail): then one is in memory at a time.
    const prefetch = (index: number): Promise<Map<number, Buffer>> | null => {
      const step = steps[index];
      if (!step || !('download' in step) || sizeOf(step.download) > batchLimit.bytes) return null;
      const pending = download(imapClient, step.download);
      pending.catch(() => undefined);
      return pending;
    };
    let next = prefetch(0);
    for (let index = 0; index < steps.length && !stopping; index += 1) {
      const step = steps[index] as (typeof steps)[number];
      if ('skip' in step) {
        await skipOversized(imapClient, source, step.skip);
        handed += 1;
        next = prefetch(index + 1);
        continue;
      }
      const sources = await (next ?? download(imapClient, step.download));
      next = sizeOf(step.download) > batchLimit.bytes ? null : prefetch(index + 1);
      // Expunged since it was listed: nothing to take in.
      const batch = step.download.flatMap((mail) => {
        const raw = sources.get(mail.uid);
        return raw === undefined ? [] : [{ raw, source: { ...source, uid: mail.uid } }];
      });
      if (batch.length > 0) await options.intake.ingestBatch(deps, inbox, batch, fence);
      handed += batch.length;
    }
    // A first read of the window: remember how far it went, so that the next one starts there.
    if (window && !stopping && uidNext >= 1) {
      await deps.db.transaction().execute(async (trx) => {
        const now = deps.clock.now();
        await holdLease(trx, inbox.id, options.holder, now);
        await advanceCursor(trx, inbox.id, { ...source, uid: uidNext - 1 }, now);
      });
    }
    return handed;
  }

  async function session(healthy: () => void): Promise<void> {
    connectionError = null;
    wakeRequested = false;
    const imapClient = await connect();
    // Stopped while imapflow was loading (the first session): nothing connects.
    if (stopping) {
      imapClient.close();
      return;
    }
    client = imapClient;
    await state({ state: 'connecting' });
    await imapClient.connect();
    await imapClient.mailboxOpen(imap.mailbox, { readOnly: true });
    const idle = imapClient.capabilities.has('IDLE');
    await state({ state: 'reading', connectedAt: deps.clock.now() });
    log.info({ mailbox: imap.mailbox, idle }, 'email reader connected');
    let idleSession = 0;
    let scheduled = false;
    while (!stopping) {
      if (connectionError) throw connectionError;
      wakeRequested = false;
      // A scheduled check opens the mailbox again: the server then tells a new UIDVALIDITY (a
      // mailbox deleted and made again), which a session that keeps it open may never hear of.
      if (scheduled) await imapClient.mailboxOpen(imap.mailbox, { readOnly: true });
      const handed = await catchUp(imapClient);
      if (handed > 0) log.debug({ handed }, 'mails taken in');
      await state({ state: idle ? 'idle' : 'polling', checkedAt: deps.clock.now() });
      healthy();
      if (stopping || connectionError) continue;
      if (idle && !wakeRequested) {
        idleSession += 1;
        const mine = idleSession;
        // Runs until the next command breaks it; one that ends on its own (the server, the keepalive) wakes the wait.
        imapClient
          .idle()
          .catch(() => undefined)
          .then(() => {
            if (mine === idleSession) wake();
          });
      }
      scheduled = await sleep(Math.min(imap.poll_interval_seconds * 1000, idleRestartMs));
      idleSession += 1;
    }
  }

  function backoffDelay(failures: number): number {
    const base = Math.min(backoff.max, backoff.min * 2 ** Math.min(failures - 1, 30));
    return Math.min(backoff.max, Math.round(base * (1 + 0.25 * random())));
  }

  async function closeClient(): Promise<void> {
    const open = client;
    client = null;
    if (!open) return;
    if (open.usable && !connectionError) {
      await within(
        open.logout().catch(() => undefined),
        2000,
      );
    }
    open.close();
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!stopping) {
      try {
        await session(() => {
          failures = 0;
        });
      } catch (error) {
        if (stopping) break;
        failures += 1;
        const message = describeMailError(error, secrets);
        const delay = backoffDelay(failures);
        log.warn({ err: message, failures, retryInMs: delay }, 'email reader failed; reconnecting after a delay');
        await closeClient();
        await state({ state: 'failing', error: message });
        wakeRequested = false;
        await sleep(delay);
      }
    }
    await closeClient();
  }

  const running = run();
  let stopped: Promise<void> | null = null;
  return {
    inboxId: inbox.id,
    updatedAt: inbox.updatedAt,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wake();
        // A connection waiting in IDLE or a download ends now; the mail being taken in finishes.
        client?.close();
        await within(running, 10_000);
      })();
      return stopped;
    },
  };
}
