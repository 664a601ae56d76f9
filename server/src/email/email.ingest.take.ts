// What one mail becomes, written in the caller's transaction (email.ingest.ts runs a batch of
// mails in one): a message of a new or existing conversation, a bounce, an auto-reply, or a
// refusal, each with its mail_ids row. The cursor is the caller's. The mail_ids row is the
// mail's claim: when its Message-ID turns out to be taken meanwhile (another reader, or the same
// mail twice in a batch), the taker throws AlreadyKnown before its own writes are kept — having
// written nothing (refusals, bounces, passes claim first), or inside a savepoint the caller
// rolls back (a person's message, whose row names the message it wrote).
import { appendMessage, contactMessage } from '../conversations/conversations.append.ts';
import { enterDefaultTeam } from '../conversations/conversations.changes.ts';
import { startContactConversation } from '../conversations/conversations.create.ts';
import { findLiveContact, findLiveContactByEmail, findOrCreateContactByEmail, noteContactActive } from '../contacts/contacts.service.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { InputError } from '../errors.ts';
import { isEmailAddress } from '../http/formats.ts';
import { attachMediaToMessage } from '../media/media.service.ts';
import { type PreparedContent, prepareContent } from '../messages/messages.content.ts';
import { markMessageStatus } from '../messages/messages.queries.ts';
import { conversationOfPlusAddress } from './email.addresses.ts';
import { type MailSource, recordSkipped } from './email.cursor.ts';
import type { EmailInbox } from './email.inbox.ts';
import { findMailIds, type MailIdValues, recordMailId } from './email.mail-ids.ts';
import type { InboundMail, MailPerson } from './email.parse.ts';
import { decideThread } from './email.thread.ts';

export type IngestOutcome =
  | { kind: 'stored'; conversationUuid: string; messageUuid: string; newConversation: boolean }
  /** The inbox already knew this Message-ID: only the cursor moved. */
  | { kind: 'duplicate' }
  | { kind: 'bounce'; failedMessageUuid: string | null }
  | { kind: 'auto_reply'; conversationUuid: string | null }
  /** Recorded in email_skipped. */
  | { kind: 'skipped'; reason: string };

/** Thrown when the mail's Message-ID was taken meanwhile: what the mail wrote must not be kept; it is a duplicate. */
export class AlreadyKnown extends Error {}

/** Details of a mail passed over (too large, unreadable): what email_skipped lists. */
export type SkipDetails = {
  size: number | null;
  reason: string;
  headerId?: string | null;
  sender?: string | null;
  subject?: string | null;
};

function describe(person: MailPerson | null): string | null {
  if (person === null) return null;
  return person.name ? `${person.name} <${person.address}>` : person.address;
}

/**
 * A mail passed over: with a Message-ID (or digest), noted as seen so that a re-read is not
 * listed twice; its email_skipped row. Answers `duplicate` when the Message-ID was known (then
 * nothing is written).
 */
export async function passOver(trx: DB, inbox: EmailInbox, source: MailSource, details: SkipDetails, now: Date): Promise<IngestOutcome> {
  const headerId = details.headerId ?? null;
  const seen = { inboxId: inbox.id, conversationId: null, messageId: null, direction: 'incoming', outcome: 'ignored' } as const;
  if (headerId !== null && !(await recordMailId(trx, { ...seen, headerId }, now))) return { kind: 'duplicate' };
  const { size, reason } = details;
  await recordSkipped(
    trx,
    inbox.id,
    { source, headerId, sender: details.sender ?? null, subject: details.subject ?? null, size, reason },
    now,
  );
  return { kind: 'skipped', reason };
}

/** A refused mail: its Message-ID (so that a re-read is a duplicate) and its email_skipped row; `duplicate` when already known. */
export function refuse(
  trx: DB,
  inbox: EmailInbox,
  source: MailSource,
  mail: InboundMail,
  reason: string,
  now: Date,
): Promise<IngestOutcome> {
  const details = { headerId: mail.headerId, sender: describe(mail.from), subject: mail.subject, size: null, reason };
  return passOver(trx, inbox, source, details, now);
}

/** Whether an address is the inbox's own, or one of its plus addresses. */
function isOwnAddress(inbox: EmailInbox, address: string): boolean {
  const lower = address.toLowerCase();
  return lower === inbox.address.address.toLowerCase() || conversationOfPlusAddress(inbox.address, address) !== null;
}

/** Why a mail is refused before anything else is read, or null. */
export function refusalOf(inbox: EmailInbox, mail: InboundMail): string | null {
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

export const blockedSender = (address: string) => `the sender ${address} is blocked: their mail is refused`;

/** A bounce: the outgoing message it reports is marked failed with the reason; no message is stored. Claims first. */
export async function takeBounce(trx: DB, inbox: EmailInbox, mail: InboundMail, now: Date): Promise<IngestOutcome> {
  const bounce = mail.bounce!;
  const known = bounce.originalMessageId === null ? [] : await findMailIds(trx, inbox.id, [bounce.originalMessageId]);
  const original = known.find((row) => row.direction === 'outgoing' && row.message_id !== null);
  const values = {
    headerId: mail.headerId,
    conversationId: original?.conversation_id ?? null,
    messageId: null,
    outcome: 'bounce',
  } as const;
  if (!(await recordMailId(trx, { ...values, inboxId: inbox.id, direction: 'incoming' }, now))) return { kind: 'duplicate' };
  let failedMessageUuid: string | null = null;
  if (original?.message_id != null && bounce.failed) {
    failedMessageUuid =
      (
        await markMessageStatus(trx, original.message_id, {
          from: ['pending', 'sent'],
          to: 'failed',
          now,
          meta: { delivery_error: bounce.reason },
          outgoingOnly: true,
        })
      )?.uuid ?? null;
  }
  return { kind: 'bounce', failedMessageUuid };
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

/** Records the mail's Message-ID; a Message-ID taken meanwhile throws AlreadyKnown (the caller rolls back to its savepoint). */
async function claim(trx: DB, inbox: EmailInbox, values: Omit<MailIdValues, 'inboxId' | 'direction'>, now: Date): Promise<void> {
  if (!(await recordMailId(trx, { ...values, inboxId: inbox.id, direction: 'incoming' }, now))) throw new AlreadyKnown();
}

/**
 * A person's mail (or an auto-reply): the contact, the thread, the message and its files, in the
 * caller's transaction, inside a savepoint of the caller's: AlreadyKnown means roll back to it.
 */
export async function takeMessage(
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
  const refused = async (reason: string) => {
    const outcome = await refuse(trx, inbox, source, mail, reason, now);
    if (outcome.kind === 'duplicate') throw new AlreadyKnown();
    return outcome;
  };
  if (automatic && thread.kind === 'new') {
    // An auto-reply (or bulk mail) that answers none of our conversations: noted, never a conversation
    // (nor a contact); a blocked sender's is refused like their other mail.
    const known = await findLiveContactByEmail(trx, from.address);
    if (known && !known.enabled) return refused(blockedSender(from.address));
    await claim(trx, inbox, { headerId: mail.headerId, conversationId: null, messageId: null, outcome: 'auto_reply' }, now);
    // Listed for admins all the same: a mail read and not shown anywhere must be findable.
    const reason = `an automatic mail (${mail.automatic}) that answers none of the inbox's conversations: not made a conversation`;
    await recordSkipped(
      trx,
      inbox.id,
      { source, headerId: mail.headerId, sender: describe(from), subject: mail.subject, size: null, reason },
      now,
    );
    return { kind: 'auto_reply', conversationUuid: null };
  }
  const contact = await findOrCreateContactByEmail(trx, { email: from.address, name: from.name }, now);
  if (!contact.enabled) return refused(blockedSender(from.address));
  if (thread.kind === 'existing' && thread.conversation.contact_id !== contact.id) {
    const owner = await findLiveContact(trx, thread.conversation.contact_id);
    if (!owner?.enabled) return refused("the conversation's contact is blocked: mail into it is refused");
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
  // A mail the contact wrote (not an auto-reply) is the contact being active.
  if (!automatic) await noteContactActive(trx, contact.id, now);
  if (thread.kind === 'new') await enterDefaultTeam(deps, trx, conversation, now);
  await attachMediaToMessage(deps, trx, { mediaUuids, uploaderId: null, messageId: message.id });
  const outcome = automatic ? 'auto_reply' : 'stored';
  await claim(trx, inbox, { headerId: mail.headerId, conversationId: conversation.id, messageId: message.id, outcome }, now);
  if (automatic) return { kind: 'auto_reply', conversationUuid: conversation.uuid };
  return { kind: 'stored', conversationUuid: conversation.uuid, messageUuid: message.uuid, newConversation: thread.kind === 'new' };
}
