// Building the mail of an agent's reply (docs/email.md, Outbound): addressing, subject with the
// conversation's reference, threading headers, the HTML body with its plain-text alternative
// and the inbox's signature, attachments and inline images. Pure: the sender (email.send.ts)
// reads what it needs and hands it in, and records `meta`, what was sent, on the message.
import type { Attachment, SendMailOptions } from 'nodemailer';
import { InputError } from '../errors.ts';
import type { MessageFile } from '../media/media.service.ts';
import { prepareContent } from '../messages/messages.content.ts';
import type { DeliveryMessage } from './email.send.queries.ts';
import { firstSubject, outgoingMessageId, plusAddress, replySubject } from './email.addresses.ts';
import type { EmailInbox } from './email.inbox.ts';

/** What a mail carried, as the message's `meta` records it (Message-IDs as written in the headers, with brackets). */
export interface SentMeta {
  from: string[];
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  message_id: string;
  in_reply_to: string | null;
  references: string[];
  reply_to: string | null;
}

export interface Thread {
  /** The Message-IDs (bare) of the conversation's earlier mails, oldest first: References, the last of them In-Reply-To. */
  earlier: readonly string[];
  /** The first mail of a conversation an agent started: its subject has no "Re:". */
  first: boolean;
}

/** A message file with its bytes (the sender refuses a message whose file is missing from storage). */
export type MailFile = MessageFile & { content: Buffer };

export interface ComposedMail {
  mail: SendMailOptions;
  meta: SentMeta;
  /** Every envelope recipient (To, Cc and Bcc), each once. */
  recipients: string[];
}

/** References carry at most this many Message-IDs (the newest). */
export const MAX_REFERENCES = 20;

const INLINE_IMAGE = /(<img\b[^>]*?\ssrc=")([^"]*)(")/gi;
const MEDIA_PATH = /\/api\/v1\/media\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[?#]|$)/i;

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()) : [];
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * To, Cc and Bcc: as the agent gave them, To falling back to the contact's address. An address
 * is sent once, in the first list that names it (To, then Cc, then Bcc).
 */
export function addressing(message: DeliveryMessage): { to: string[]; cc: string[]; bcc: string[] } {
  const seen = new Set<string>();
  const once = (list: string[]) =>
    list.filter((address) => {
      const key = address.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const given = stringList(message.meta['to']);
  const to = once(given.length > 0 ? given : message.contact_email ? [message.contact_email] : []);
  return { to, cc: once(stringList(message.meta['cc'])), bcc: once(stringList(message.meta['bcc'])) };
}

/** Signatures already sanitised, by their raw text: every mail of an inbox carries the same one. */
const signatures = new Map<string, { html: string; text: string }>();
const MAX_CACHED_SIGNATURES = 200;

/** The inbox's signature, sanitised like a message (HTML and text); empty when there is none or it cannot be kept. */
export function signatureOf(inbox: EmailInbox): { html: string; text: string } {
  const raw = inbox.settings.signature ?? '';
  if (raw.trim() === '') return { html: '', text: '' };
  const cached = signatures.get(raw);
  if (cached) return cached;
  let signature = { html: '', text: '' };
  try {
    const prepared = prepareContent(raw, 'html', 'signature');
    signature = { html: prepared.content, text: prepared.textContent };
  } catch (error) {
    // Nested too deeply to be sanitised: the reply goes out without it.
    if (!(error instanceof InputError)) throw error;
  }
  if (signatures.size >= MAX_CACHED_SIGNATURES) signatures.clear();
  signatures.set(raw, signature);
  return signature;
}

/**
 * The HTML body with images of the message's own inline files turned into `cid:` parts (an
 * `<img>` naming a file by `cid:<uuid>` or by its media URL, whose signature would expire),
 * and the attachments: the referenced inline files with their Content-ID, every other file
 * as an attachment.
 */
function inlineParts(html: string, files: readonly MailFile[], domain: string): { html: string; attachments: Attachment[] } {
  const byUuid = new Map(files.map((file) => [file.uuid.toLowerCase(), file]));
  const cids = new Map<string, string>();
  const rewritten = html.replace(INLINE_IMAGE, (whole, before: string, src: string, after: string) => {
    const named = src.toLowerCase().startsWith('cid:') ? src.slice(4).split('@')[0] : MEDIA_PATH.exec(src)?.[1];
    const file = named ? byUuid.get(named.toLowerCase()) : undefined;
    if (!file || file.disposition !== 'inline') return whole;
    const cid = `${file.uuid.toLowerCase()}@${domain}`;
    cids.set(file.uuid, cid);
    return `${before}cid:${cid}${after}`;
  });
  const attachments = files.map((file): Attachment => {
    const cid = cids.get(file.uuid);
    return {
      filename: file.filename,
      contentType: file.contentType,
      content: file.content,
      contentDisposition: cid ? 'inline' : 'attachment',
      ...(cid ? { cid } : {}),
    };
  });
  return { html: rewritten, attachments };
}

/** The mail of an agent's reply, and what the message's meta records of it. */
export function composeMail(
  inbox: EmailInbox,
  message: DeliveryMessage,
  thread: Thread,
  files: readonly MailFile[],
  now: Date,
): ComposedMail {
  const { to, cc, bcc } = addressing(message);
  const subject = (thread.first ? firstSubject : replySubject)(message.subject, message.reference_number);
  const references = thread.earlier.slice(-MAX_REFERENCES).map((id) => `<${id}>`);
  const inReplyTo = references.length > 0 ? (references[references.length - 1] as string) : null;
  const messageId = `<${outgoingMessageId(message.uuid, inbox.address)}>`;
  const replyTo = inbox.settings.plus_addressing ? plusAddress(inbox.address, message.conversation_uuid) : null;

  const signature = signatureOf(inbox);
  const bodyHtml = message.content_type === 'html' ? message.content : escapeHtml(message.content).replace(/\r?\n/g, '<br>\n');
  const bodyText = message.content_type === 'html' ? message.text_content : message.content;
  const { html, attachments } = inlineParts(bodyHtml, files, inbox.address.domain);

  const mail: SendMailOptions = {
    from: inbox.from,
    to,
    cc,
    bcc,
    ...(replyTo ? { replyTo: inbox.address.name ? { name: inbox.address.name, address: replyTo } : replyTo } : {}),
    subject,
    messageId,
    ...(inReplyTo ? { inReplyTo, references } : {}),
    date: now,
    html: signature.html ? `${html}\n<br><div class="parley-signature">${signature.html}</div>` : html,
    text: signature.text ? `${bodyText}\n\n-- \n${signature.text}` : bodyText,
    attachments,
    headers: { 'X-Parley-Conversation': message.conversation_uuid },
    xMailer: false,
    // Everything is handed in as bytes: never let a path or URL in the mail make nodemailer read it.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  // Ids in meta as in mail_ids and source_id, without angle brackets, like a received mail's meta.
  const bare = (id: string) => id.slice(1, -1);
  const meta: SentMeta = {
    from: [inbox.from],
    to,
    cc,
    bcc,
    subject,
    message_id: bare(messageId),
    in_reply_to: inReplyTo === null ? null : bare(inReplyTo),
    references: references.map(bare),
    reply_to: replyTo,
  };
  return { mail, meta, recipients: [...to, ...cc, ...bcc] };
}
