// Helpers for the IMAP reader's tests: an email inbox that reads a test Dovecot, the intake the
// readers hand mails to, observed (each call recorded with its outcome), and the readers'
// supervisor started with short intervals and stopped after the test.
import type { AppDeps } from '../src/deps.ts';
import { advanceCursor, type MailSource, recordSkipped } from '../src/email/email.cursor.ts';
import type { EmailInbox } from '../src/email/email.inbox.ts';
import { recordMailId } from '../src/email/email.mail-ids.ts';
import type { EmailIntake, SkipDetails } from '../src/email/email.reader.ts';
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
}

export interface ObservedIntake extends EmailIntake {
  readonly handed: Handed[];
  /** The mails of one inbox, in the order they were handed over. */
  of(inboxId: number): Handed[];
}

/** The Message-ID of a raw mail (its header), or null. */
function headerIdOf(raw: Buffer): string | null {
  const head = raw.subarray(0, Math.min(raw.length, 64 * 1024)).toString('latin1');
  return /^Message-ID:\s*<([^>\r\n]+)>/im.exec(head)?.[1] ?? null;
}

/**
 * An intake that records the mail's Message-ID and moves the cursor in one transaction, as
 * ingestMail does (without making conversations): a duplicate is recognised by mail_ids.
 */
export const cursorOnlyIntake: EmailIntake = {
  async ingestMail(deps: AppDeps, inbox: EmailInbox, raw: Buffer, source: MailSource) {
    const headerId = headerIdOf(raw) ?? `missing-${source.uidvalidity}-${source.uid}@test`;
    const now = deps.clock.now();
    const fresh = await deps.db.transaction().execute(async (trx) => {
      const recorded = await recordMailId(
        trx,
        { inboxId: inbox.id, headerId, conversationId: null, messageId: null, direction: 'incoming', outcome: 'stored' },
        now,
      );
      await advanceCursor(trx, inbox.id, source, now);
      return recorded;
    });
    return { kind: fresh ? 'stored' : 'duplicate' };
  },
  async skipMail(deps: AppDeps, inbox: EmailInbox, source: MailSource, details: SkipDetails) {
    const now = deps.clock.now();
    await deps.db.transaction().execute(async (trx) => {
      await recordSkipped(
        trx,
        inbox.id,
        {
          source,
          headerId: details.headerId ?? null,
          sender: details.sender ?? null,
          subject: details.subject ?? null,
          size: details.size,
          reason: details.reason,
        },
        now,
      );
      await advanceCursor(trx, inbox.id, source, now);
    });
  },
};

/** Wraps an intake: every mail handed over is recorded with what became of it. */
export function observe(intake: EmailIntake): ObservedIntake {
  const handed: Handed[] = [];
  return {
    handed,
    of: (inboxId) => handed.filter((h) => h.inboxId === inboxId),
    async ingestMail(deps, inbox, raw, source) {
      const outcome = await intake.ingestMail(deps, inbox, raw, source);
      handed.push({ inboxId: inbox.id, source, kind: outcome.kind, size: raw.length });
      return outcome;
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
