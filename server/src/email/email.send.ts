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
import { batched } from '../db/batched.ts';
import type { AppDeps } from '../deps.ts';
import { DataError } from '../errors.ts';
import { channelHas } from '../inboxes/channels.ts';
import { describeJobError, type JobContext, PermanentJobError } from '../jobs/jobs.runner.ts';
import { readMessageFiles } from '../media/media.service.ts';
import { markMessagesStatus, type StatusChangeItem } from '../messages/messages.queries.ts';
import { outgoingMessageId } from './email.addresses.ts';
import { type ComposedMail, composeMail, MAX_REFERENCES, type MailFile, type SentMeta } from './email.compose.ts';
import { type EmailInbox, emailInboxAt } from './email.inbox.ts';
import { type OutgoingMailId, recordOutgoingMailIds } from './email.mail-ids.ts';
import { type Delivery, findDeliveries } from './email.send.queries.ts';
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

/** At most MAX_REASON_LENGTH, and without U+0000 (a JSON text the database would refuse in meta). */
function bounded(text: string): string {
  const reason = text.replaceAll('\u0000', '');
  return reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH - 1)}…` : reason;
}

/**
 * The database work of deliveries, shared by the jobs running at once in this app: the reads of
 * the messages to send, the Message-IDs written before SMTP and the outcomes written after it
 * are each gathered into one statement while the previous one runs (db/batched.ts).
 */
interface DeliveryIo {
  read(messageId: number): Promise<Delivery | undefined>;
  recordMessageId(mail: OutgoingMailId): Promise<void>;
  /** True when the message moved (it was still pending). */
  mark(change: StatusChangeItem): Promise<boolean>;
}

const ioByApp = new WeakMap<AppDeps, DeliveryIo>();

function ioOf(deps: AppDeps): DeliveryIo {
  let io = ioByApp.get(deps);
  if (io) return io;
  io = {
    read: batched(async (ids: number[]) => {
      const found = new Map((await findDeliveries(deps.db, ids)).map((row) => [row.id, row]));
      return ids.map((id) => found.get(id));
    }),
    recordMessageId: batched(async (mails: OutgoingMailId[]) => {
      await recordOutgoingMailIds(deps.db, mails, deps.clock.now());
      return mails.map(() => undefined);
    }),
    mark: batched(async (changes: StatusChangeItem[]) => {
      const moved = await markMessagesStatus(deps.db, changes, { from: ['pending'], now: deps.clock.now() });
      const ids = new Set(moved.map((row) => Number(row.id)));
      return changes.map((change) => ids.has(change.id));
    }),
  };
  ioByApp.set(deps, io);
  return io;
}

/** The live enabled email inbox of the message (its decrypted settings kept while they stay the same); Undeliverable otherwise. */
async function inboxFor(deps: AppDeps, delivery: Delivery): Promise<EmailInbox> {
  const gone = () => {
    closeInboxTransport(deps, delivery.inbox_id);
    return new Undeliverable('The inbox is deleted or is not an email inbox');
  };
  if (!channelHas(delivery.inbox_channel, 'threadsByMail') || delivery.inbox_version === null || delivery.inbox_updated_at === null)
    throw gone();
  if (!delivery.inbox_enabled) {
    closeInboxTransport(deps, delivery.inbox_id);
    throw new Undeliverable('The inbox is disabled');
  }
  let inbox: EmailInbox | null;
  try {
    inbox = await emailInboxAt(deps, delivery.inbox_id, delivery.inbox_version, delivery.inbox_updated_at);
  } catch (error) {
    if (error instanceof DataError) throw new Undeliverable(error.message);
    throw error;
  }
  if (!inbox) throw gone();
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

async function filesFor(deps: AppDeps, delivery: Delivery): Promise<MailFile[]> {
  if (!delivery.has_files) return [];
  const files = await readMessageFiles(deps, delivery.id);
  const missing = files.find((file) => file.content === null);
  if (missing) throw new Undeliverable(`The attachment ${JSON.stringify(missing.filename)} is missing from storage`);
  return files as MailFile[];
}

/** The inbox and the mail: everything else was read with the message. */
async function prepare(deps: AppDeps, delivery: Delivery): Promise<{ inbox: EmailInbox; composed: ComposedMail }> {
  const [inbox, files] = await Promise.all([inboxFor(deps, delivery), filesFor(deps, delivery)]);
  const earlier = earlierThan(delivery.mail_ids, outgoingMessageId(delivery.uuid, inbox.address));
  const composed = composeMail(inbox, delivery, { earlier, first: !delivery.exchanged }, files, deps.clock.now());
  if (composed.recipients.length === 0)
    throw new Undeliverable('No recipient address: the contact has no email address and none was given');
  return { inbox, composed };
}

async function markFailed(io: DeliveryIo, delivery: Delivery, reason: string, sent: SentMeta | null): Promise<void> {
  await io.mark({ id: delivery.id, to: 'failed', meta: { ...sent, delivery_error: reason } });
}

/** The `email.deliver` job handler (registered in workers.ts). */
export async function deliverEmailMessage(deps: AppDeps, payload: Record<string, unknown>, job: JobContext): Promise<void> {
  const io = ioOf(deps);
  const delivery = await io.read(messageIdOf(payload));
  // Deleted with its conversation, or already sent or failed (a retried job): nothing to do.
  if (!delivery || delivery.status !== 'pending') return;
  if (delivery.type !== 'outgoing' || delivery.private) throw new PermanentJobError('email.deliver: only public replies are mailed');
  try {
    await deliver(deps, io, delivery, job);
  } catch (error) {
    // Anything else that went wrong (the database, storage) on the last attempt: the message must not stay pending.
    if (!(error instanceof PermanentJobError) && job.attempts >= job.maxAttempts) {
      await markFailed(io, delivery, describeJobError(error), null).catch(() => undefined);
    }
    throw error;
  }
}

async function deliver(deps: AppDeps, io: DeliveryIo, delivery: Delivery, job: JobContext): Promise<void> {
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(deps, delivery);
  } catch (error) {
    if (!(error instanceof Undeliverable)) throw error;
    await markFailed(io, delivery, error.message, null);
    throw new PermanentJobError(error.message);
  }
  const { inbox, composed } = prepared;

  // The Message-ID on the message (source_id) and in mail_ids before the mail leaves, so that an
  // answer arriving at once finds its thread. Idempotent: a retry writes the same again.
  const headerId = outgoingMessageId(delivery.uuid, inbox.address);
  await io.recordMessageId({ inboxId: inbox.id, conversationId: delivery.conversation_id, messageId: delivery.id, headerId });
  let rejected: string[];
  try {
    const info = await sendThroughInbox(deps, inbox, composed.mail, job.signal);
    rejected = info.rejected.map(String);
  } catch (error) {
    const { permanent, reason } = classifySmtpFailure(error);
    if (permanent || job.attempts >= job.maxAttempts) await markFailed(io, delivery, reason, composed.meta);
    throw permanent ? new PermanentJobError(reason) : error;
  }
  // Some recipients refused while others took it: the mail is sent; the refused ones are noted.
  const outcome = rejected.length > 0 ? { ...composed.meta, rejected_recipients: rejected } : composed.meta;
  await io.mark({ id: delivery.id, to: 'sent', meta: { ...outcome } });
}
