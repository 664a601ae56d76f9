// Taking one mail in (docs/email.md, "Exactly once, inbound"): the IMAP reader hands over the
// raw bytes with where it found them; one transaction writes what the mail became (a message of
// a new or existing conversation, a bounce, an auto-reply, a refusal), its mail_ids row and the
// inbox's cursor. A mail read twice is recognised by its Message-ID and only moves the cursor.
// A bad mail is recorded as skipped and passed; only a database or storage failure throws, and
// then nothing is written (attachment files stored before the transaction are purged as orphans).
import { appendMessage, contactMessage } from '../conversations/conversations.append.ts';
import { startContactConversation } from '../conversations/conversations.create.ts';
import { findLiveContact, findLiveContactByEmail, findOrCreateContactByEmail } from '../contacts/contacts.service.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { InputError } from '../errors.ts';
import { isEmailAddress } from '../http/formats.ts';
import { attachMediaToMessage, MAX_ATTACHMENTS, storeMedia } from '../media/media.service.ts';
import { type PreparedContent, prepareContent } from '../messages/messages.content.ts';
import { failMessageDelivery } from '../messages/messages.queries.ts';
import { conversationOfPlusAddress, fallbackMessageId } from './email.addresses.ts';
import { advanceCursor, type MailSource, recordSkipped } from './email.cursor.ts';
import type { EmailInbox } from './email.inbox.ts';
import { findMailIds, knowsMailId, type MailIdValues, recordMailId } from './email.mail-ids.ts';
import { type InboundMail, type MailPerson, parseMail, UnreadableMail } from './email.parse.ts';
import { decideThread } from './email.thread.ts';

export type IngestOutcome =
  | { kind: 'stored'; conversationUuid: string; messageUuid: string; newConversation: boolean }
  /** The inbox already knew this Message-ID: only the cursor moved. */
  | { kind: 'duplicate' }
  | { kind: 'bounce'; failedMessageUuid: string | null }
  | { kind: 'auto_reply'; conversationUuid: string | null }
  /** Recorded in email_skipped. */
  | { kind: 'skipped'; reason: string };

/** Thrown inside a transaction that finds its Message-ID taken meanwhile (another reader took the mail in): rolls it back. */
class AlreadyKnown extends Error {}

type Skipped = Extract<IngestOutcome, { kind: 'skipped' }>;

function describe(person: MailPerson | null): string | null {
  if (person === null) return null;
  return person.name ? `${person.name} <${person.address}>` : person.address;
}

/** A refused mail, in the caller's transaction: its Message-ID (so a re-read is a duplicate), its email_skipped row, the cursor. */
async function refuse(
  trx: DB,
  inbox: EmailInbox,
  source: MailSource,
  mail: InboundMail,
  reason: string,
  now: Date,
): Promise<IngestOutcome> {
  const values = { inboxId: inbox.id, headerId: mail.headerId, conversationId: null, messageId: null } as const;
  if (!(await recordMailId(trx, { ...values, direction: 'incoming', outcome: 'ignored' }, now))) throw new AlreadyKnown();
  const skipped = { source, headerId: mail.headerId, sender: describe(mail.from), subject: mail.subject, size: null, reason };
  await recordSkipped(trx, inbox.id, skipped, now);
  await advanceCursor(trx, inbox.id, source, now);
  return { kind: 'skipped', reason } satisfies Skipped;
}

function pass(deps: AppDeps, inbox: EmailInbox, source: MailSource, mail: InboundMail, reason: string): Promise<IngestOutcome> {
  return deps.db.transaction().execute((trx) => refuse(trx, inbox, source, mail, reason, deps.clock.now()));
}

async function moveCursor(deps: AppDeps, inbox: EmailInbox, source: MailSource): Promise<IngestOutcome> {
  await deps.db.transaction().execute((trx) => advanceCursor(trx, inbox.id, source, deps.clock.now()));
  return { kind: 'duplicate' };
}

/** Records the mail's Message-ID and moves the cursor; a Message-ID taken meanwhile rolls everything back. */
async function finish(trx: DB, inbox: EmailInbox, source: MailSource, values: Omit<MailIdValues, 'inboxId' | 'direction'>, now: Date) {
  if (!(await recordMailId(trx, { ...values, inboxId: inbox.id, direction: 'incoming' }, now))) throw new AlreadyKnown();
  await advanceCursor(trx, inbox.id, source, now);
}

/** Whether an address is the inbox's own, or one of its plus addresses. */
function isOwnAddress(inbox: EmailInbox, address: string): boolean {
  const lower = address.toLowerCase();
  return lower === inbox.address.address.toLowerCase() || conversationOfPlusAddress(inbox.address, address) !== null;
}

/** Why a mail is refused before anything else is read, or null. */
function refusalOf(inbox: EmailInbox, mail: InboundMail): string | null {
  if (mail.from === null) return 'the mail has no sender address (From)';
  if (!isEmailAddress(mail.from.address.toLowerCase()))
    return `the sender address ${JSON.stringify(mail.from.address.slice(0, 100))} is not valid`;
  if (isOwnAddress(inbox, mail.from.address)) {
    // Our own mail coming back (a copy in the mailbox, a loop through a forwarder): never a new message.
    return mail.parleyConversation !== null
      ? 'a mail Parley sent (X-Parley-Conversation from the inbox address) came back: ignored to avoid a mail loop'
      : "a mail from the inbox's own address: ignored to avoid a mail loop";
  }
  return null;
}

/** A bounce: the outgoing message it reports is marked failed with the reason; no message is stored. */
async function takeBounce(deps: AppDeps, inbox: EmailInbox, source: MailSource, mail: InboundMail): Promise<IngestOutcome> {
  const bounce = mail.bounce!;
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const known = bounce.originalMessageId === null ? [] : await findMailIds(trx, inbox.id, [bounce.originalMessageId]);
    const original = known.find((row) => row.direction === 'outgoing' && row.message_id !== null);
    let failedMessageUuid: string | null = null;
    if (original?.message_id != null && bounce.failed) {
      failedMessageUuid = (await failMessageDelivery(trx, original.message_id, bounce.reason, now))?.uuid ?? null;
    }
    await finish(
      trx,
      inbox,
      source,
      { headerId: mail.headerId, conversationId: original?.conversation_id ?? null, messageId: null, outcome: 'bounce' },
      now,
    );
    return { kind: 'bounce', failedMessageUuid } as const;
  });
}

/** The message's content: the sanitised HTML, else the text (an HTML nested too deeply falls back to the text). */
function contentOf(mail: InboundMail): { prepared: PreparedContent; contentType: 'html' | 'text' } {
  if (mail.html !== null) {
    try {
      return { prepared: prepareContent(mail.html, 'html', 'content'), contentType: 'html' };
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
    }
  }
  return { prepared: prepareContent(mail.text ?? '', 'text', 'content'), contentType: 'text' };
}

function metaOf(mail: InboundMail, omitted: number): Record<string, unknown> {
  const addresses = (list: MailPerson[]) => list.map((person) => person.address);
  return {
    from: mail.from ? [mail.from.address] : [],
    from_name: mail.from?.name ?? '',
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    bcc: addresses(mail.bcc),
    reply_to: addresses(mail.replyTo),
    subject: mail.subject,
    message_id: mail.headerId,
    in_reply_to: mail.inReplyTo[0] ?? null,
    // The newest 50: a hostile mail can carry thousands.
    references: mail.references.slice(-50),
    ...(mail.date ? { date: mail.date.toISOString() } : {}),
    ...(mail.automatic !== null ? { auto_submitted: true, auto_submitted_reason: mail.automatic } : {}),
    ...(omitted > 0 ? { attachments_omitted: omitted } : {}),
  };
}

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

/** A person's mail: the contact, the thread, the message and its files, in the caller's transaction. */
async function takeMessage(
  deps: AppDeps,
  trx: DB,
  inbox: EmailInbox,
  source: MailSource,
  mail: InboundMail,
  mediaUuids: string[],
): Promise<IngestOutcome> {
  const now = deps.clock.now();
  const from = mail.from!;
  const thread = await decideThread(trx, inbox, mail, now);
  const automatic = mail.automatic !== null;
  if (automatic && thread.kind === 'new') {
    // An auto-reply (or bulk mail) that answers none of our conversations: noted, never a conversation.
    const conversationId = null;
    await finish(trx, inbox, source, { headerId: mail.headerId, conversationId, messageId: null, outcome: 'auto_reply' }, now);
    return { kind: 'auto_reply', conversationUuid: null };
  }
  const contact = await findOrCreateContactByEmail(trx, { email: from.address, name: from.name }, now);
  if (!contact.enabled) return refuse(trx, inbox, source, mail, `the sender ${from.address} is blocked: their mail is refused`, now);
  if (thread.kind === 'existing' && thread.conversation.contact_id !== contact.id) {
    const owner = await findLiveContact(trx, thread.conversation.contact_id);
    if (!owner?.enabled) return refuse(trx, inbox, source, mail, "the conversation's contact is blocked: mail into it is refused", now);
  }
  const conversation =
    thread.kind === 'existing'
      ? thread.conversation
      : await startContactConversation(
          trx,
          {
            inboxId: inbox.id,
            contactId: contact.id,
            subject: mail.subject,
            meta: thread.previous ? { previous_conversation_uuid: thread.previous.uuid } : {},
          },
          now,
        );
  const { prepared, contentType } = contentOf(mail);
  const extra = {
    contentType,
    meta: metaOf(mail, mail.attachments.length - mediaUuids.length),
    attachmentCount: mediaUuids.length,
    sourceId: mail.headerId,
    automatic,
  };
  const message = await appendMessage(deps, trx, conversation, contactMessage(contact.id, prepared, extra), now);
  await attachMediaToMessage(deps, trx, { mediaUuids, uploaderId: null, messageId: message.id });
  const outcome = automatic ? 'auto_reply' : 'stored';
  await finish(trx, inbox, source, { headerId: mail.headerId, conversationId: conversation.id, messageId: message.id, outcome }, now);
  if (automatic) return { kind: 'auto_reply', conversationUuid: conversation.uuid };
  return { kind: 'stored', conversationUuid: conversation.uuid, messageUuid: message.uuid, newConversation: thread.kind === 'new' };
}

/**
 * Takes one raw mail in: everything (conversation, message, attachments, mail_ids, cursor) in one
 * transaction. Never throws for a bad mail (it is recorded as skipped and the cursor moves past
 * it); throws only when the database or storage fails, and then nothing is written (the reader
 * tries again later).
 */
export async function ingestMail(deps: AppDeps, inbox: EmailInbox, raw: Buffer, source: MailSource): Promise<IngestOutcome> {
  if (raw.length > deps.config.emailMaxMessageBytes) {
    const reason = `the mail is larger than the limit of ${deps.config.emailMaxMessageBytes} bytes`;
    const fresh = await passOver(deps, inbox, source, { size: raw.length, reason });
    return fresh ? { kind: 'skipped', reason } : { kind: 'duplicate' };
  }
  let mail: InboundMail;
  try {
    mail = await parseMail(raw, inbox.address);
  } catch (error) {
    if (!(error instanceof UnreadableMail)) throw error;
    const reason = error.message;
    const fresh = await passOver(deps, inbox, source, { size: raw.length, reason, headerId: fallbackMessageId(raw, inbox.address) });
    return fresh ? { kind: 'skipped', reason } : { kind: 'duplicate' };
  }
  // Seen before (read twice, or a mail this inbox sent itself): only the cursor moves.
  if (await knowsMailId(deps.db, inbox.id, mail.headerId)) return moveCursor(deps, inbox, source);
  const refusal = refusalOf(inbox, mail);
  try {
    if (refusal !== null) return await pass(deps, inbox, source, mail, refusal);
    if (mail.bounce !== null) return await takeBounce(deps, inbox, source, mail);
    // A blocked sender's files are not even stored (checked again in the transaction).
    const known = await findLiveContactByEmail(deps.db, mail.from!.address);
    if (known && !known.enabled)
      return await pass(deps, inbox, source, mail, `the sender ${mail.from!.address} is blocked: their mail is refused`);
    const mediaUuids = await storeAttachments(deps, mail);
    return await deps.db.transaction().execute((trx) => takeMessage(deps, trx, inbox, source, mail, mediaUuids));
  } catch (error) {
    if (error instanceof AlreadyKnown) return moveCursor(deps, inbox, source);
    throw error;
  }
}

type SkipDetails = { size: number | null; reason: string; headerId?: string | null; sender?: string | null; subject?: string | null };

/** Records a mail passed over and moves the cursor, in one transaction; false when the mail was known (then only the cursor moved). */
async function passOver(deps: AppDeps, inbox: EmailInbox, source: MailSource, details: SkipDetails): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const headerId = details.headerId ?? null;
    // With a Message-ID, the mail is noted as seen: read again (a UIDVALIDITY change), it is not listed twice.
    const seen = { inboxId: inbox.id, conversationId: null, messageId: null, direction: 'incoming', outcome: 'ignored' } as const;
    const fresh = headerId === null || (await recordMailId(trx, { ...seen, headerId }, now));
    if (fresh) {
      const { size, reason } = details;
      await recordSkipped(
        trx,
        inbox.id,
        { source, headerId, sender: details.sender ?? null, subject: details.subject ?? null, size, reason },
        now,
      );
    }
    await advanceCursor(trx, inbox.id, source, now);
    return fresh;
  });
}

/** A mail the reader will not download (over deps.config.emailMaxMessageBytes): recorded and passed, cursor moved, one transaction. */
export async function skipMail(deps: AppDeps, inbox: EmailInbox, source: MailSource, details: SkipDetails): Promise<void> {
  await passOver(deps, inbox, source, details);
}
