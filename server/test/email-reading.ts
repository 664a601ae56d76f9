// Helpers for the IMAP reader's tests: an email inbox that reads a test Dovecot, the intake the
// readers hand mails to (email.ingest.ts) observed, each call recorded with its outcome, and the
// readers' supervisor started with short intervals.
import type { AppDeps } from '../src/deps.ts';
import type { MailSource } from '../src/email/email.cursor.ts';
import { ingestBatch, skipMail } from '../src/email/email.ingest.ts';
import type { EmailIntake } from '../src/email/email.reader.ts';
import { type EmailReaders, type EmailReadersOptions, startEmailReaders } from '../src/email/email.readers.ts';
import { type Dovecot, dovecotEmailConfig } from './dovecot.ts';
import { createInbox, type Inbox } from './factories.ts';
import { dataOf, type TestApp } from './helpers.ts';
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
    async ingestBatch(deps, inbox, mails) {
      const outcomes = await intake.ingestBatch(deps, inbox, mails);
      for (const [i, outcome] of outcomes.entries()) {
        const { raw, source } = mails[i]!;
        const conversation = outcome.kind === 'stored' ? { conversationUuid: outcome.conversationUuid } : {};
        handed.push({ inboxId: inbox.id, source, kind: outcome.kind, size: raw.length, ...conversation });
      }
      return outcomes;
    },
    async skipMail(deps, inbox, source, details) {
      await intake.skipMail(deps, inbox, source, details);
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
