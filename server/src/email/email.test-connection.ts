// "Test connection" for an email inbox (docs/email.md): the admin's settings, saved or not, are
// tried against the real servers before they are saved. IMAP: connect, log in, open the mailbox
// read-only, log out. SMTP: connect, TLS, AUTH (nodemailer's verify), quit. No mail is read or
// sent. Each answer says what went wrong in the admin's words, never with the password in it.
//
// Settings that point at a private or local address (loopback, private ranges, link-local…, by
// name or by number) could otherwise probe the server's own network: a refused, a reset and a
// silent port answered differently, and quickly or slowly. There a failure short of the mail
// protocol is answered as one generic class, at the test's deadline whatever happened; the
// detail goes to the server's log for the operator. An authentication failure or a missing
// mailbox (a mail server answered) is still named.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { emailSettingsWithDraft } from '../inboxes/inboxes.service.ts';
import type { EmailSettings } from './email.inbox.ts';
import { describeMailError, imapClientFor } from './email.imap.ts';
import { nodemailerPackage, smtpOptions } from './email.transport.ts';
import { isBlockedAddress } from '../webhooks/webhooks.send.ts';

/** A test waits at most this long (or EMAIL_TIMEOUT_SECONDS when shorter): an admin is watching. */
export const TEST_TIMEOUT_SECONDS = 15;

export interface ConnectionCheck {
  ok: boolean;
  message: string;
  duration_ms: number;
}

export interface ConnectionDraft {
  imap?: Record<string, unknown>;
  smtp?: Record<string, unknown>;
}

class TestTimeout extends Error {
  constructor(seconds: number) {
    super(`no answer within ${seconds} s`);
    this.name = 'TestTimeout';
  }
}

/** What the admin should look at first, from the error's code (node's, imapflow's or nodemailer's) or text. */
function kindOf(error: unknown): string {
  if (error instanceof TestTimeout) return 'Timed out';
  if (!(error instanceof Error)) return 'Failed';
  const e = error as Error & { code?: unknown; authenticationFailed?: unknown; responseCode?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const text = `${code} ${e.message}`;
  if (e.authenticationFailed === true || code === 'EAUTH') return 'Authentication failed';
  if (/ECONNREFUSED/.test(text)) return 'Connection refused';
  if (/ENOTFOUND|EAI_AGAIN/.test(text)) return 'Host not found';
  if (/TIMEOUT|ETIMEDOUT/i.test(code) || /timed? ?out/i.test(e.message)) return 'Timed out';
  if (/ETLS|CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) || /certificate|ssl|tls/i.test(e.message)) return 'TLS error';
  if (/ECONNRESET|EConnectionClosed|ClosedAfterConnect|NoConnection/.test(text)) return 'Connection closed by the server';
  return 'Failed';
}

/** Runs `attempt` within `seconds`; `abandon` tears down what it left behind when time runs out. */
async function within<T>(seconds: number, attempt: Promise<T>, abandon: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandon();
      reject(new TestTimeout(seconds));
    }, seconds * 1000);
  });
  try {
    return await Promise.race([attempt, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A host that is, or resolves to, a private, local or reserved address (the addresses webhooks never reach). */
export async function isPrivateTarget(host: string): Promise<boolean> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return isBlockedAddress(bare);
  try {
    const addresses = await lookup(bare, { all: true });
    return addresses.some((entry) => isBlockedAddress(entry.address));
  } catch {
    // Not resolved: the connection fails as "Host not found", which says nothing of a port.
    return false;
  }
}

/** Failures that say a mail server answered: named even on a private address. */
const PROTOCOL_KINDS = new Set(['Authentication failed']);

interface Target {
  protocol: 'IMAP' | 'SMTP';
  host: string;
  port: number;
  log: FastifyBaseLogger;
  seconds: number;
}

async function timed(target: Target, run: () => Promise<string>, describe: (error: unknown) => string): Promise<ConnectionCheck> {
  const start = performance.now();
  const isPrivate = isPrivateTarget(target.host);
  let ok = true;
  let message: string;
  try {
    message = await run();
  } catch (error) {
    ok = false;
    message = describe(error);
    const named = PROTOCOL_KINDS.has(kindOf(error)) || message.startsWith('Mailbox ');
    if (!named && (await isPrivate)) {
      target.log.info({ protocol: target.protocol, host: target.host, port: target.port, reason: message }, 'email connection test failed');
      message = `Could not reach an ${target.protocol} server at ${target.host}:${target.port} (a private address: the reason is in the server's log)`;
      // Answered at the deadline, whatever happened: how fast it failed says nothing either.
      await sleep(Math.max(0, target.seconds * 1000 - (performance.now() - start)));
    }
  }
  await isPrivate;
  return { ok, message, duration_ms: Math.round(performance.now() - start) };
}

/** A failed step as the admin reads it: what kind of failure, then what the server or socket said (no secrets). */
function failure(error: unknown, secrets: readonly string[]): string {
  return `${kindOf(error)}: ${describeMailError(error, secrets)}`;
}

export async function testImap(imap: EmailSettings['imap'], log: FastifyBaseLogger, seconds: number): Promise<ConnectionCheck> {
  const secrets = [imap.password];
  const client = await imapClientFor(imap, log, seconds * 1000);
  // imapflow also emits socket errors as events; the awaited calls below report them.
  client.on('error', () => undefined);
  let step: 'connect' | 'mailbox' = 'connect';
  return timed(
    { protocol: 'IMAP', host: imap.host, port: imap.port, log, seconds },
    () =>
      within(
        seconds,
        (async () => {
          try {
            await client.connect();
            step = 'mailbox';
            const mailbox = await client.mailboxOpen(imap.mailbox, { readOnly: true });
            await client.logout();
            return `Logged in to ${imap.host}:${imap.port}; mailbox "${imap.mailbox}" holds ${mailbox.exists} messages`;
          } finally {
            client.close();
          }
        })(),
        () => client.close(),
      ),
    (error) => {
      // A mailbox the server refuses to open (the connection itself still up) is named as such.
      const connectionLost = /NoConnection|EConnectionClosed|StateLogout/.test(String((error as { code?: unknown })?.code ?? ''));
      if (step === 'mailbox' && !connectionLost && !(error instanceof TestTimeout) && kindOf(error) === 'Failed')
        return `Mailbox "${imap.mailbox}" could not be opened: ${describeMailError(error, secrets)}`;
      return failure(error, secrets);
    },
  );
}

export async function testSmtp(smtp: EmailSettings['smtp'], log: FastifyBaseLogger, seconds: number): Promise<ConnectionCheck> {
  const secrets = [smtp.password];
  // Its own transport, closed after: the inbox's pool (email.transport.ts) is for sending.
  const nodemailer = await nodemailerPackage();
  const transport = nodemailer.createTransport({ ...smtpOptions(smtp, seconds), maxConnections: 1 });
  return timed(
    { protocol: 'SMTP', host: smtp.host, port: smtp.port, log, seconds },
    async () => {
      try {
        await within(seconds, transport.verify(), () => transport.close());
      } finally {
        transport.close();
      }
      const auth = smtp.username !== '' ? `, authenticated as ${smtp.username}` : '';
      return `Connected to ${smtp.host}:${smtp.port}${auth}`;
    },
    (error) => failure(error, secrets),
  );
}

/**
 * Tests the inbox's servers with `draft` in place of the stored settings (a part left out is
 * tested as stored). Both parts are tested at once; an absent part is tested only when the
 * draft is empty (then both stored servers are).
 */
export async function testEmailConnection(
  deps: AppDeps,
  log: FastifyBaseLogger,
  inboxId: number,
  draft: ConnectionDraft,
): Promise<{ imap?: ConnectionCheck; smtp?: ConnectionCheck }> {
  const settings = (await emailSettingsWithDraft(deps, inboxId, draft)) as unknown as EmailSettings;
  const both = draft.imap === undefined && draft.smtp === undefined;
  const seconds = Math.min(deps.config.emailTimeoutSeconds, TEST_TIMEOUT_SECONDS);
  const [imap, smtp] = await Promise.all([
    both || draft.imap ? testImap(settings.imap, log, seconds) : undefined,
    both || draft.smtp ? testSmtp(settings.smtp, log, seconds) : undefined,
  ]);
  return { ...(imap ? { imap } : {}), ...(smtp ? { smtp } : {}) };
}
