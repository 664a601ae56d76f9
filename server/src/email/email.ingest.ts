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
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { findLiveContactByEmail } from '../contacts/contacts.service.ts';
import type { AppDeps } from '../deps.ts';
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

/** One chunk in one transaction: every mail's outcome, in order, and the cursor after the last. */
async function takeChunk(deps: AppDeps, inbox: EmailInbox, chunk: MailToIngest[]): Promise<IngestOutcome[]> {
  const prepared = await prepare(deps, inbox, chunk);
  return deps.db.transaction().execute(async (trx) => {
    const outcomes: IngestOutcome[] = [];
    for (const item of prepared) outcomes.push(await take(deps, trx, inbox, item));
    await advanceCursor(trx, inbox.id, cursorAfter(chunk.map((mail) => mail.source)), deps.clock.now());
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

/**
 * Takes raw mails in, in the order given (the reader's: UID order), answering each one's outcome
 * in that order. Never throws for a bad mail (it is recorded as skipped and the cursor moves past
 * it); throws only when the database or storage fails: the mails before the one that failed are
 * taken in (and the cursor moved past them), nothing of it or after it is written, and the
 * reader tries again from there.
 */
export async function ingestBatch(deps: AppDeps, inbox: EmailInbox, mails: MailToIngest[]): Promise<IngestOutcome[]> {
  const outcomes: IngestOutcome[] = [];
  for (const chunk of chunksOf(mails)) {
    try {
      outcomes.push(...(await takeChunk(deps, inbox, chunk)));
    } catch (error) {
      if (chunk.length === 1) throw error;
      // The chunk wrote nothing: one mail per transaction now, so that one failing mail holds back only itself.
      const reason = error instanceof Error ? error.message : String(error);
      deps.log.warn({ inboxId: inbox.id, mails: chunk.length, err: reason }, 'a batch of mails failed; taking them in one at a time');
      for (const mail of chunk) outcomes.push(...(await takeChunk(deps, inbox, [mail])));
    }
  }
  return outcomes;
}

/** One mail: the batch of one (its own transaction). */
export async function ingestMail(deps: AppDeps, inbox: EmailInbox, raw: Buffer, source: MailSource): Promise<IngestOutcome> {
  const [outcome] = await ingestBatch(deps, inbox, [{ raw, source }]);
  if (!outcome) throw new Error('ingestBatch answered no outcome for one mail');
  return outcome;
}

/** A mail the reader will not download (over deps.config.emailMaxMessageBytes): recorded and passed, cursor moved, one transaction. */
export async function skipMail(deps: AppDeps, inbox: EmailInbox, source: MailSource, details: SkipDetails): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    await passOver(trx, inbox, source, details, now);
    await advanceCursor(trx, inbox.id, source, now);
  });
}
