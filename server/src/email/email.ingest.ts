// Taking mail in (docs/email.md, "Exactly once, inbound"): the IMAP reader hands over a batch of
// raw mails, in UID order, with where it found them. Each chunk of the batch (at most
// BATCH_LIMITS) is read first (parsed, checked against the Message-IDs the inbox knows, its
// files stored), then written in ONE transaction: what each mail became (email.ingest.take.ts)
// and, last, the inbox's cursor at the chunk's last UID. A person's mail is written inside a
// savepoint, so that a mail whose Message-ID turns out to be taken meanwhile leaves nothing. A
// bad mail is recorded as skipped and passed; only a database or storage failure throws, and
// then the chunk writes nothing (files stored before it are purged as orphans) and is taken
// again one mail per transaction: the mails before a failing one are taken in, and the failing
// one alone is left for the reader to retry.
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/failures.ts';
import { findLiveContactByEmail } from '../contacts/contacts.service.ts';
import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { MAX_ATTACHMENTS, storeMedia } from '../media/media.service.ts';
import { fallbackMessageId } from './email.addresses.ts';
import { advanceCursor, type MailSource } from './email.cursor.ts';
import type { EmailInbox } from './email.inbox.ts';
import {
  AlreadyKnown,
  blockedSender,
  type IngestOutcome,
  passOver,
  refusalOf,
  refuse,
  type SkipDetails,
  takeBounce,
  takeMessage,
} from './email.ingest.take.ts';
import { knownMailIds } from './email.mail-ids.ts';
import { type InboundMail, parseMail, UnreadableMail } from './email.parse.ts';
import { holdLease, LeaseLost } from './email.reader-state.ts';

export type { IngestOutcome, SkipDetails } from './email.ingest.take.ts';

export interface MailToIngest {
  raw: Buffer;
  source: MailSource;
}

/**
 * One transaction takes in at most this many mails and about this many bytes of them (one
 * mail at least): its conversation locks are held for a fraction of a second, and each mail's
 * savepoint stays within PostgreSQL's 64 cached subtransactions.
 */
export const BATCH_LIMITS = { mails: 50, bytes: 4 * 1024 * 1024 };

/** A mail read and checked, before the transaction: what it is to become. */
type Prepared = { source: MailSource } & (
  | { kind: 'pass'; details: SkipDetails }
  | { kind: 'duplicate' }
  | { kind: 'refuse'; mail: InboundMail; reason: string }
  | { kind: 'bounce'; mail: InboundMail }
  | { kind: 'message'; mail: InboundMail; mediaUuids: string[] }
);

/** A mail read: too large or unreadable (passed), refused at sight, a bounce, or a message (its files not yet stored). */
async function read(deps: AppDeps, inbox: EmailInbox, { raw, source }: MailToIngest): Promise<Prepared> {
  const limit = deps.config.emailMaxMessageBytes;
  if (raw.length > limit)
    return { source, kind: 'pass', details: { size: raw.length, reason: `the mail is larger than the limit of ${limit} bytes` } };
  let mail: InboundMail;
  try {
    mail = await parseMail(raw, inbox.address);
  } catch (error) {
    if (!(error instanceof UnreadableMail)) throw error;
    return { source, kind: 'pass', details: { size: raw.length, reason: error.message, headerId: fallbackMessageId(raw, inbox.address) } };
  }
  // A delivery report first: some come without a From, and must still fail the reply they report.
  if (mail.bounce !== null) return { source, kind: 'bounce', mail };
  const refusal = refusalOf(inbox, mail);
  if (refusal !== null) return { source, kind: 'refuse', mail, reason: refusal };
  return { source, kind: 'message', mail, mediaUuids: [] };
}

const headerIdOf = (prepared: Prepared): string | null =>
  prepared.kind === 'pass' ? (prepared.details.headerId ?? null) : 'mail' in prepared ? prepared.mail.headerId : null;

/** The mail's files, stored before the transaction as unattached uploads (at most MAX_ATTACHMENTS). */
async function storeAttachments(deps: AppDeps, mail: InboundMail): Promise<string[]> {
  const uuids: string[] = [];
  for (const attachment of mail.attachments.slice(0, MAX_ATTACHMENTS)) {
    const stored = await storeMedia(deps, deps.db, {
      filename: attachment.filename,
      contentType: attachment.contentType,
      data: attachment.content,
      uploaderId: null,
      contentId: attachment.contentId?.slice(0, 500) ?? null,
    });
    uuids.push(stored.uuid);
  }
  return uuids;
}

/**
 * The chunk read and checked: Message-IDs the inbox knows (one look-up for the chunk), or that
 * came earlier in it, are duplicates; a message's files are stored, unless its sender is
 * blocked (then it is refused; a mail without files is checked in the transaction only).
 */
async function prepare(deps: AppDeps, inbox: EmailInbox, mails: MailToIngest[]): Promise<Prepared[]> {
  const readMails: Prepared[] = [];
  for (const mail of mails) readMails.push(await read(deps, inbox, mail));
  const ids = readMails.map(headerIdOf).filter((id) => id !== null);
  const known = await knownMailIds(deps.db, inbox.id, ids);
  const prepared: Prepared[] = [];
  for (const item of readMails) {
    const headerId = headerIdOf(item);
    if (headerId !== null && known.has(headerId)) {
      prepared.push({ source: item.source, kind: 'duplicate' });
      continue;
    }
    if (headerId !== null) known.add(headerId);
    if (item.kind === 'message' && item.mail.attachments.length > 0) {
      const from = item.mail.from!.address;
      const contact = await findLiveContactByEmail(deps.db, from);
      if (contact && !contact.enabled) {
        prepared.push({ source: item.source, kind: 'refuse', mail: item.mail, reason: blockedSender(from) });
        continue;
      }
      item.mediaUuids = await storeAttachments(deps, item.mail);
    }
    prepared.push(item);
  }
  return prepared;
}

/** What one prepared mail becomes, in the chunk's transaction. */
async function take(deps: AppDeps, trx: DB, inbox: EmailInbox, item: Prepared): Promise<IngestOutcome> {
  const now = deps.clock.now();
  switch (item.kind) {
    case 'duplicate':
      return { kind: 'duplicate' };
    case 'pass':
      return passOver(trx, inbox, item.source, item.details, now);
    case 'refuse':
      return refuse(trx, inbox, item.source, item.mail, item.reason, now);
    case 'bounce':
      return takeBounce(trx, inbox, item.mail, now);
    case 'message':
      await sql`savepoint mail`.execute(trx);
      try {
        const outcome = await takeMessage(deps, trx, inbox, item.source, item.mail, item.mediaUuids);
        await sql`release savepoint mail`.execute(trx);
        return outcome;
      } catch (error) {
        // Another reader (or an earlier mail of this chunk) took this Message-ID meanwhile.
        if (!(error instanceof AlreadyKnown)) throw error;
        await sql`rollback to savepoint mail`.execute(trx);
        await sql`release savepoint mail`.execute(trx);
        return { kind: 'duplicate' };
      }
  }
}

/** Where the cursor stands after these mails, as if moved after each in turn (advanceCursor's rule). */
function cursorAfter(sources: MailSource[]): MailSource {
  const last = sources.at(-1)!;
  let uid = last.uid;
  for (let i = sources.length - 2; i >= 0; i -= 1) {
    const source = sources[i]!;
    if (source.mailbox !== last.mailbox || source.uidvalidity !== last.uidvalidity) break;
    uid = Math.max(uid, source.uid);
  }
  return { ...last, uid };
}

/** A mail set aside (it failed every attempt): recorded as skipped in the transaction of the mail after it. */
interface SetAside {
  source: MailSource;
  details: SkipDetails;
}

/** Who may write: the instance holding the inbox's lease (the reader's); absent in tests that call the intake directly. */
export interface Fence {
  holder: string;
}

/**
 * One chunk in one transaction (under the fence, when given): the mails set aside first, then
 * every mail's outcome, in order, and the cursor after the last.
 */
async function takeChunk(
  deps: AppDeps,
  inbox: EmailInbox,
  chunk: MailToIngest[],
  fence: Fence | undefined,
  setAside: SetAside[] = [],
): Promise<IngestOutcome[]> {
  const prepared = await prepare(deps, inbox, chunk);
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    if (fence) await holdLease(trx, inbox.id, fence.holder, now);
    const outcomes: IngestOutcome[] = [];
    for (const item of setAside) outcomes.push(await passOver(trx, inbox, item.source, item.details, now));
    for (const item of prepared) outcomes.push(await take(deps, trx, inbox, item));
    const sources = [...setAside.map((item) => item.source), ...chunk.map((mail) => mail.source)];
    await advanceCursor(trx, inbox.id, cursorAfter(sources), now);
    return outcomes;
  });
}

/** The batch cut in chunks of at most BATCH_LIMITS, in order. */
function chunksOf(mails: MailToIngest[]): MailToIngest[][] {
  const chunks: MailToIngest[][] = [];
  let current: MailToIngest[] = [];
  let bytes = 0;
  for (const mail of mails) {
    if (current.length >= BATCH_LIMITS.mails || (current.length > 0 && bytes + mail.raw.length > BATCH_LIMITS.bytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(mail);
    bytes += mail.raw.length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Times one mail alone is tried before it is set aside, and the waits between (docs/email.md, "A mail that fails"). */
export const MAIL_ATTEMPTS = { count: 3, delaysMs: [100, 500] };

/** Failures that are nobody's mail's fault: thrown at once, for the reader to retry later. */
const notTheMail = (error: unknown) => error instanceof LeaseLost || isDatabaseUnavailable(error);

/** Failures of the data itself (SQLSTATE 22 and 23, a refused input): a mail failing so is set aside without a follower. */
const theMailsOwn = (error: unknown) =>
  error instanceof AppError || (typeof (error as { code?: unknown })?.code === 'string' && /^2[23]/.test((error as { code: string }).code));

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What email_skipped says of a mail that failed every attempt: its sender and subject when it can be read. */
async function poisonDetails(inbox: EmailInbox, mail: MailToIngest, error: unknown): Promise<SkipDetails> {
  const reason = `the mail could not be taken in (${MAIL_ATTEMPTS.count} attempts): ${describeError(error)}`;
  try {
    const parsed = await parseMail(mail.raw, inbox.address);
    const sender = parsed.from ? (parsed.from.name ? `${parsed.from.name} <${parsed.from.address}>` : parsed.from.address) : null;
    return { size: mail.raw.length, reason, headerId: parsed.headerId, sender, subject: parsed.subject };
  } catch {
    return { size: mail.raw.length, reason, headerId: fallbackMessageId(mail.raw, inbox.address) };
  }
}

function setAsideLogged(deps: AppDeps, inbox: EmailInbox, setAside: SetAside): void {
  deps.log.error(
    { inboxId: inbox.id, uid: setAside.source.uid, err: setAside.details.reason },
    'a mail that cannot be taken in was set aside',
  );
}

/** One mail in its own transaction, tried MAIL_ATTEMPTS.count times: its outcomes, or the last failure. */
async function takeAlone(
  deps: AppDeps,
  inbox: EmailInbox,
  mail: MailToIngest,
  fence: Fence | undefined,
): Promise<{ outcomes: IngestOutcome[] } | { failure: unknown }> {
  let failure: unknown;
  for (let attempt = 0; attempt < MAIL_ATTEMPTS.count; attempt += 1) {
    if (attempt > 0) await delay(MAIL_ATTEMPTS.delaysMs[attempt - 1] ?? 500);
    try {
      return { outcomes: await takeChunk(deps, inbox, [mail], fence) };
    } catch (error) {
      if (notTheMail(error)) throw error;
      failure = error;
    }
  }
  return { failure };
}

/**
 * Takes raw mails in, in the order given (the reader's: UID order), answering each one's outcome
 * in that order. A bad mail (unreadable, too large, refused) is recorded as skipped and the
 * cursor moves past it. A chunk that fails writes nothing and is taken again one mail per
 * transaction; a mail that fails alone is tried MAIL_ATTEMPTS.count times, then set aside
 * (recorded as skipped) — at once when the failure is its data's, otherwise only when the mail
 * after it goes in or fails otherwise: a failure the next mail meets too (a bug, a broken
 * schema) sets nothing aside and throws. A database that is away, or a lease lost, throws at once. After a throw the mails
 * before the one that failed are taken in (the cursor past them), nothing of it or after it is
 * written, and the reader tries again from there.
 */
export async function ingestBatch(deps: AppDeps, inbox: EmailInbox, mails: MailToIngest[], fence?: Fence): Promise<IngestOutcome[]> {
  return countedMail(deps, takeBatch(deps, inbox, mails, fence));
}

/** Counts what the mails became (or a failed intake, which the reader retries) in the metrics. */
async function countedMail(deps: AppDeps, taking: Promise<IngestOutcome[]>): Promise<IngestOutcome[]> {
  try {
    const outcomes = await taking;
    deps.metrics.countMail('email', outcomes);
    return outcomes;
  } catch (error) {
    deps.metrics.countMail('email', 'failed');
    throw error;
  }
}

async function takeBatch(deps: AppDeps, inbox: EmailInbox, mails: MailToIngest[], fence?: Fence): Promise<IngestOutcome[]> {
  const outcomes: IngestOutcome[] = [];
  const chunks = chunksOf(mails);
  // A mail that failed, waiting for the next one to show that the failure was its own.
  let pending: { setAside: SetAside; failure: unknown } | null = null;
  for (const chunk of chunks) {
    if (chunk.length > 1 && pending === null) {
      try {
        outcomes.push(...(await takeChunk(deps, inbox, chunk, fence)));
        continue;
      } catch (error) {
        if (notTheMail(error)) throw error;
        deps.log.warn(
          { inboxId: inbox.id, mails: chunk.length, err: describeError(error) },
          'a batch of mails failed; taking them in one at a time',
        );
      }
    }
    for (const mail of chunk) {
      if (pending !== null) {
        const { setAside, failure } = pending;
        pending = null;
        try {
          outcomes.push(...(await takeChunk(deps, inbox, [mail], fence, [setAside])));
          setAsideLogged(deps, inbox, setAside);
          continue;
        } catch (error) {
          // The next mail fails the same way: the failure is not the first mail's own. Nothing is set aside.
          if (notTheMail(error) || describeError(error) === describeError(failure)) throw notTheMail(error) ? error : failure;
        }
        // The next mail fails otherwise: each has a fault of its own. The first is set aside; the next is tried alone.
        outcomes.push(...(await takeChunk(deps, inbox, [], fence, [setAside])));
        setAsideLogged(deps, inbox, setAside);
      }
      const result = await takeAlone(deps, inbox, mail, fence);
      if ('outcomes' in result) {
        outcomes.push(...result.outcomes);
        continue;
      }
      const setAside = { source: mail.source, details: await poisonDetails(inbox, mail, result.failure) };
      if (!theMailsOwn(result.failure)) {
        pending = { setAside, failure: result.failure };
        continue;
      }
      outcomes.push(...(await takeChunk(deps, inbox, [], fence, [setAside])));
      setAsideLogged(deps, inbox, setAside);
    }
  }
  // The last mail failed and none came after it: the reader tries it again (and sets it aside once another mail goes in).
  if (pending !== null) throw pending.failure;
  return outcomes;
}

/** One mail: the batch of one (its own transaction). */
export async function ingestMail(deps: AppDeps, inbox: EmailInbox, raw: Buffer, source: MailSource, fence?: Fence): Promise<IngestOutcome> {
  const [outcome] = await ingestBatch(deps, inbox, [{ raw, source }], fence);
  if (!outcome) throw new Error('ingestBatch answered no outcome for one mail');
  return outcome;
}

/** A mail the reader will not download (over deps.config.emailMaxMessageBytes): recorded and passed, cursor moved, one transaction. */
export async function skipMail(deps: AppDeps, inbox: EmailInbox, source: MailSource, details: SkipDetails, fence?: Fence): Promise<void> {
  await takeChunk(deps, inbox, [], fence, [{ source, details }]);
  deps.metrics.countMail('email', [{ kind: 'skipped' }]);
}
