// Helpers for the IMAP reader's tests: an email inbox that reads a test Dovecot, the intake the
// readers hand mails to (email.ingest.ts) observed, each call recorded with its outcome, the
// readers' supervisor started with short intervals, and a suite's setup (the app and Dovecot
// started and stopped, the readers started by a test stopped after it).
import { after, afterEach, before } from 'node:test';
import type { AppDeps } from '../src/deps.ts';
import type { MailSource } from '../src/email/email.cursor.ts';
import { ingestBatch, skipMail } from '../src/email/email.ingest.ts';
import type { EmailIntake } from '../src/email/email.reader.ts';
import { type EmailReaders, type EmailReadersOptions, startEmailReaders } from '../src/email/email.readers.ts';
import { type Dovecot, type DovecotOptions, dovecotEmailConfig, startDovecot } from './dovecot.ts';
import { createInbox, type Inbox } from './factories.ts';
import { buildTestApp, dataOf, type TestApp } from './helpers.ts';
import { waitUntil } from './receiver.ts';

export interface Handed {
  inboxId: number;
  source: MailSource;
  /** What the intake made of it: its outcome's kind, or `skipped`. */
  kind: string;
  size: number;
  reason?: string;
  /** The conversation a stored mail went to. */
  conversationUuid?: string;
}

export interface ObservedIntake extends EmailIntake {
  readonly handed: Handed[];
  /** The mails of one inbox, in the order they were handed over. */
  of(inboxId: number): Handed[];
}

/** The real intake (email.ingest.ts), watched: every mail handed over is recorded with what became of it. */
export function observe(intake: EmailIntake = { ingestBatch, skipMail }): ObservedIntake {
  const handed: Handed[] = [];
  return {
    handed,
    of: (inboxId) => handed.filter((h) => h.inboxId === inboxId),
    async ingestBatch(deps, inbox, mails, fence) {
      const outcomes = await intake.ingestBatch(deps, inbox, mails, fence);
      for (const [i, outcome] of outcomes.entries()) {
        const { raw, source } = mails[i]!;
        const conversation = outcome.kind === 'stored' ? { conversationUuid: outcome.conversationUuid } : {};
        handed.push({ inboxId: inbox.id, source, kind: outcome.kind, size: raw.length, ...conversation });
      }
      return outcomes;
    },
    async skipMail(deps, inbox, source, details, fence) {
      await intake.skipMail(deps, inbox, source, details, fence);
      handed.push({ inboxId: inbox.id, source, kind: 'skipped', size: details.size ?? 0, reason: details.reason });
    },
  };
}

/** An enabled email inbox reading `dovecot` (settings as dovecotEmailConfig takes them). */
export async function readingInbox(t: TestApp, dovecot: Dovecot, imap: Parameters<typeof dovecotEmailConfig>[1] = {}): Promise<Inbox> {
  return createInbox(t, { channel: 'email', config: dovecotEmailConfig(dovecot, imap) });
}

/** The readers' supervisor with short intervals (a tick every 200 ms), for tests. */
export function testReaders(deps: AppDeps, intake: EmailIntake, options: Partial<EmailReadersOptions> = {}): EmailReaders {
  return startEmailReaders(deps, {
    tickMs: 200,
    ...options,
    intake,
    reader: { backoffMs: { min: 200, max: 2000 }, ...options.reader },
  });
}

/** waitUntil (receiver.ts) for a probe that answers a value once there is one. */
export async function awaitValue<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  return (await waitUntil(what, probe, timeoutMs)) as T;
}

/** The reader's status as GET /inboxes/{id}/email/status answers it. */
export async function readerStatusOf(t: TestApp, inboxId: number): Promise<Record<string, unknown>> {
  return dataOf<Record<string, unknown>>(await t.call({ method: 'GET', url: `/api/v1/inboxes/${inboxId}/email/status` }));
}

/** What readerSuite sets up for the tests of a describe block. */
export interface ReaderSuite {
  /** The app, built before the suite's tests. */
  readonly t: TestApp;
  /** The Dovecot servers, started before the suite's tests, in the order of their options. */
  readonly servers: Dovecot[];
  /** The first of them. */
  readonly dovecot: Dovecot;
  /** The intake of the readers started last. */
  readonly intake: ObservedIntake;
  /** Readers' supervisor handing mails to `intake` (a new observed intake unless given), stopped after the test. */
  readers(deps?: AppDeps, options?: Partial<EmailReadersOptions>, intake?: ObservedIntake): EmailReaders;
  /** Stops the readers started so far. */
  stopReaders(): Promise<void>;
  /** A new mailbox on the first Dovecot, named `prefix` and a number. */
  mailbox(prefix: string): Promise<string>;
}

/**
 * For the reader tests of a describe block (call it in the block): the app and a Dovecot per
 * options started before them and stopped after; after each test, the readers it started are
 * stopped and every inbox is disabled, so the next test's readers read only its own inboxes.
 */
export function readerSuite(servers: DovecotOptions[] = [{}]): ReaderSuite {
  let app: TestApp | undefined;
  let started: Dovecot[] = [];
  let intake = observe();
  const running: EmailReaders[] = [];
  let mailboxes = 0;
  const stopReaders = async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
  };

  before(async () => {
    [app, started] = await Promise.all([buildTestApp(), Promise.all(servers.map((options) => startDovecot(options)))]);
  });
  after(async () => {
    await Promise.all([app?.close(), ...started.map((dovecot) => dovecot.stop())]);
  });
  afterEach(async () => {
    await stopReaders();
    await app?.deps.db.updateTable('inboxes').set({ enabled: false }).execute();
  });

  const suite: ReaderSuite = {
    get t() {
      if (!app) throw new Error('readerSuite: the app is built before the tests');
      return app;
    },
    get servers() {
      return started;
    },
    get dovecot() {
      const [first] = started;
      if (!first) throw new Error('readerSuite: Dovecot is started before the tests');
      return first;
    },
    get intake() {
      return intake;
    },
    readers(deps = suite.t.deps, options = {}, observed = observe()) {
      intake = observed;
      const readers = testReaders(deps, intake, options);
      running.push(readers);
      return readers;
    },
    stopReaders,
    async mailbox(prefix) {
      mailboxes += 1;
      const name = `${prefix}${mailboxes}`;
      await suite.dovecot.createMailbox(name);
      return name;
    },
  };
  return suite;
}
