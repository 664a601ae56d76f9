// The `email.deliver` job (docs/email.md, Outbound): an agent's public reply on an email inbox,
// enqueued by appendMessage with the message, goes out through the inbox's SMTP pool. In order:
// the message must still be pending; the inbox must be a live, enabled email inbox; the mail is
// built; its Message-ID is stored on the message (source_id) and in mail_ids BEFORE sending, so
// that an answer arriving at once finds its thread; then SMTP. The message becomes `sent` or
// `failed` with `message.updated`, its meta saying what was sent (and why it failed).
//
// Failures: an SMTP 5xx answer (other than 503), no recipient, an inbox gone, disabled or not
// email, a password that no longer decrypts, an attachment missing from storage: the message
// fails at once (PermanentJobError). An SMTP 4xx, a connection or TLS failure, a timeout: the
// job is retried with the runner's backoff, and the last attempt fails the message.
import type { AppDeps } from '../deps.ts';
import { DataError } from '../errors.ts';
import { describeJobError, type JobContext, PermanentJobError } from '../jobs/jobs.runner.ts';
import { readMessageFiles } from '../media/media.service.ts';
import {
  type DeliveryMessage,
  findMessageForDelivery,
  hasEarlierExchange,
  markMessageStatus,
  setMessageSourceId,
} from '../messages/messages.queries.ts';
import { outgoingMessageId } from './email.addresses.ts';
import { type ComposedMail, composeMail, MAX_REFERENCES, type MailFile, type SentMeta } from './email.compose.ts';
import { type EmailInbox, loadEmailInbox } from './email.inbox.ts';
import { conversationMailIds, recordMailId } from './email.mail-ids.ts';
import { closeInboxTransport, sendThroughInbox } from './email.transport.ts';

/** A delivery_error is at most this long. */
const MAX_REASON_LENGTH = 1000;

/** A failure that retrying cannot cure: the message fails at once with `reason`. */
class Undeliverable extends Error {
  override name = 'Undeliverable';
}

function messageIdOf(payload: Record<string, unknown>): number {
  const id = payload['message_id'];
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1)
    throw new PermanentJobError('email.deliver: payload.message_id must be a positive integer');
  return id;
}

interface SmtpFailure {
  code?: string;
  command?: string;
  recipient?: string;
  responseCode?: number;
  response?: string;
  permanent?: boolean;
  rejectedErrors?: SmtpFailure[];
}

/** An SMTP reply is for good when 5xx, except 503 (a session in the wrong state: a new connection may do). */
function permanentReply(failure: SmtpFailure): boolean {
  const code = failure.responseCode ?? 0;
  return failure.permanent ?? (code >= 500 && code < 600 && code !== 503);
}

/**
 * Whether an SMTP failure is for good, and its reason: the server's own answer with the command
 * it answered ("SMTP RCPT TO <a@example.com>: 550 5.1.1 No such user"), or what went wrong on our
 * side (connection, TLS, timeout). Every recipient refused is for good only when each refusal is.
 */
export function classifySmtpFailure(error: unknown): { permanent: boolean; reason: string } {
  const failure = (typeof error === 'object' && error !== null ? error : {}) as SmtpFailure;
  const refusals = failure.rejectedErrors ?? [];
  if (refusals.length > 0) {
    const each = refusals.map((r) => `<${r.recipient ?? '?'}>: ${r.response ?? 'refused'}`).join('; ');
    return { permanent: refusals.every(permanentReply), reason: bounded(`SMTP RCPT TO ${each}`) };
  }
  if (typeof failure.responseCode === 'number') {
    const command = failure.command ? ` ${failure.command}` : '';
    return { permanent: permanentReply(failure), reason: bounded(`SMTP${command}: ${failure.response ?? failure.responseCode}`) };
  }
  // No SMTP answer: missing credentials and a bad configuration cannot heal; the network can.
  return { permanent: failure.code === 'ENOAUTH' || failure.code === 'ECONFIG', reason: bounded(describeJobError(error)) };
}

function bounded(reason: string): string {
  return reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH - 1)}…` : reason;
}

/** The live enabled email inbox of the message; Undeliverable otherwise. */
async function inboxFor(deps: AppDeps, message: DeliveryMessage): Promise<EmailInbox> {
  let inbox: EmailInbox | null;
  try {
    inbox = await loadEmailInbox(deps, message.inbox_id);
  } catch (error) {
    if (error instanceof DataError) throw new Undeliverable(error.message);
    throw error;
  }
  if (!inbox) {
    closeInboxTransport(deps, message.inbox_id);
    throw new Undeliverable('The inbox is deleted or is not an email inbox');
  }
  if (!inbox.enabled) {
    closeInboxTransport(deps, message.inbox_id);
    throw new Undeliverable('The inbox is disabled');
  }
  return inbox;
}

/**
 * The conversation's earlier mails, oldest first, without this message's own Message-ID and
 * what was recorded after it (a retry threads like the first attempt did).
 */
function earlierThan(ids: readonly string[], ownId: string): string[] {
  const own = ids.indexOf(ownId);
  return (own === -1 ? ids : ids.slice(0, own)).slice(-MAX_REFERENCES);
}

async function filesFor(deps: AppDeps, message: DeliveryMessage): Promise<MailFile[]> {
  const files = await readMessageFiles(deps, message.id);
  const missing = files.find((file) => file.content === null);
  if (missing) throw new Undeliverable(`The attachment ${JSON.stringify(missing.filename)} is missing from storage`);
  return files as MailFile[];
}

/** The inbox and the mail, read in parallel (one round trip's wait instead of four). */
async function prepare(deps: AppDeps, message: DeliveryMessage): Promise<{ inbox: EmailInbox; composed: ComposedMail }> {
  const [inbox, mailIds, exchanged, files] = await Promise.all([
    inboxFor(deps, message),
    conversationMailIds(deps.db, message.conversation_id, MAX_REFERENCES + 1),
    hasEarlierExchange(deps.db, message.conversation_id, message.id),
    filesFor(deps, message),
  ]);
  const earlier = earlierThan(mailIds, outgoingMessageId(message.uuid, inbox.address));
  const composed = composeMail(inbox, message, { earlier, first: !exchanged }, files, deps.clock.now());
  if (composed.recipients.length === 0)
    throw new Undeliverable('No recipient address: the contact has no email address and none was given');
  return { inbox, composed };
}

/**
 * The Message-ID on the message (source_id) and in mail_ids, before the mail leaves. Both writes
 * are idempotent and the mail only leaves once both are done, so they need no transaction: a
 * failure between them is repaired by the retry.
 */
async function recordMessageId(deps: AppDeps, inbox: EmailInbox, message: DeliveryMessage): Promise<void> {
  const headerId = outgoingMessageId(message.uuid, inbox.address);
  const values = {
    inboxId: inbox.id,
    headerId,
    conversationId: message.conversation_id,
    messageId: message.id,
    direction: 'outgoing',
    outcome: 'sent',
  } as const;
  await Promise.all([setMessageSourceId(deps.db, message.id, headerId), recordMailId(deps.db, values, deps.clock.now())]);
}

async function markFailed(deps: AppDeps, message: DeliveryMessage, reason: string, sent: SentMeta | null): Promise<void> {
  await markMessageStatus(deps.db, message.id, {
    from: ['pending'],
    to: 'failed',
    now: deps.clock.now(),
    meta: { ...sent, delivery_error: reason },
  });
}

/** The `email.deliver` job handler (registered in workers.ts). */
export async function deliverEmailMessage(deps: AppDeps, payload: Record<string, unknown>, job: JobContext): Promise<void> {
  const message = await findMessageForDelivery(deps.db, messageIdOf(payload));
  // Deleted with its conversation, or already sent or failed (a retried job): nothing to do.
  if (!message || message.status !== 'pending') return;
  if (message.type !== 'outgoing' || message.private) throw new PermanentJobError('email.deliver: only public replies are mailed');
  try {
    await deliver(deps, message, job);
  } catch (error) {
    // Anything else that went wrong (the database, storage) on the last attempt: the message must not stay pending.
    if (!(error instanceof PermanentJobError) && job.attempts >= job.maxAttempts) {
      await markFailed(deps, message, describeJobError(error), null).catch(() => undefined);
    }
    throw error;
  }
}

async function deliver(deps: AppDeps, message: DeliveryMessage, job: JobContext): Promise<void> {
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(deps, message);
  } catch (error) {
    if (!(error instanceof Undeliverable)) throw error;
    await markFailed(deps, message, error.message, null);
    throw new PermanentJobError(error.message);
  }
  const { inbox, composed } = prepared;

  await recordMessageId(deps, inbox, message);
  let rejected: string[];
  try {
    const info = await sendThroughInbox(deps, inbox, composed.mail, job.signal);
    rejected = info.rejected.map(String);
  } catch (error) {
    const { permanent, reason } = classifySmtpFailure(error);
    if (permanent || job.attempts >= job.maxAttempts) await markFailed(deps, message, reason, composed.meta);
    throw permanent ? new PermanentJobError(reason) : error;
  }
  // Some recipients refused while others took it: the mail is sent; the refused ones are noted.
  const outcome = rejected.length > 0 ? { ...composed.meta, rejected_recipients: rejected } : composed.meta;
  await markMessageStatus(deps.db, message.id, { from: ['pending'], to: 'sent', now: deps.clock.now(), meta: { ...outcome } });
}
