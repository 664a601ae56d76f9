// Reading one raw mail (RFC 5322, MIME) into what the inbound channel needs: its identifiers,
// its people, its subject and bodies, its attachments and inline images, and whether a machine
// wrote it (email.loops.ts). mailparser does the MIME; nothing here touches the database.
import type { AddressObject, HeaderLines, ParsedMail } from 'mailparser';
import { fallbackMessageId, type MailAddress, messageIdsOf } from './email.addresses.ts';
import { automaticReason, type Bounce, headerOf, isDeliveryReport, type RawHeaders, readBounce } from './email.loops.ts';

export interface MailPerson {
  /** As written (local parts are case-sensitive); compare lower-cased. */
  address: string;
  /** The display name, or ''. */
  name: string;
}

export interface InboundAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  /** The Content-ID without brackets, which the HTML's `cid:` links name; null when there is none. */
  contentId: string | null;
  /** Shown in the body (an inline image) rather than attached. */
  inline: boolean;
}

export interface InboundMail {
  /** The Message-ID without brackets; for a mail without one, a digest of its bytes (fallbackMessageId). */
  headerId: string;
  /** Whether headerId was written in the mail (false: the digest). */
  hasHeaderId: boolean;
  inReplyTo: string[];
  /** Oldest first, as written. */
  references: string[];
  from: MailPerson | null;
  to: MailPerson[];
  cc: MailPerson[];
  bcc: MailPerson[];
  replyTo: MailPerson[];
  /** `Delivered-To` and `X-Original-To`: where the mail was delivered (a plus address, a Bcc). */
  deliveredTo: string[];
  subject: string;
  date: Date | null;
  html: string | null;
  text: string | null;
  attachments: InboundAttachment[];
  /** Why a machine wrote it (an auto-reply, bulk or list mail), or null (email.loops.ts). */
  automatic: string | null;
  /** A delivery status notification: which mail came back and why; null for any other mail. */
  bounce: Bounce | null;
  /** Our own `X-Parley-Conversation` header, which Parley writes on every mail it sends. */
  parleyConversation: string | null;
  headers: RawHeaders;
}

/** A mail mailparser could not read at all, or one with nothing to take in. */
export class UnreadableMail extends Error {
  override name = 'UnreadableMail';
}

/** The longest Message-ID kept as written; a longer one (a broken or hostile mail) is replaced by the digest. */
const MAX_HEADER_ID = 500;
const MAX_SUBJECT = 998;

function rawHeaders(lines: HeaderLines): RawHeaders {
  const headers = new Map<string, string[]>();
  for (const { key, line } of lines) {
    const colon = line.indexOf(':');
    const value = (colon < 0 ? '' : line.slice(colon + 1)).replace(/\r?\n[ \t]+/g, ' ').trim();
    const list = headers.get(key.toLowerCase());
    if (list) list.push(value);
    else headers.set(key.toLowerCase(), [value]);
  }
  return headers;
}

function people(value: AddressObject | AddressObject[] | undefined): MailPerson[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const result: MailPerson[] = [];
  const visit = (entries: AddressObject['value']) => {
    for (const entry of entries) {
      if (entry.group) visit(entry.group);
      else if (entry.address?.includes('@')) result.push({ address: entry.address.trim(), name: (entry.name ?? '').trim() });
    }
  };
  for (const object of objects) visit(object.value);
  return result;
}

/** The addresses of `Delivered-To`/`X-Original-To` (plain addresses, possibly bracketed). */
function deliveredTo(headers: RawHeaders): string[] {
  const values = [...(headers.get('delivered-to') ?? []), ...(headers.get('x-original-to') ?? [])];
  return values.map((value) => value.replace(/^<|>$/g, '').trim()).filter((value) => value.includes('@'));
}

function extensionFor(contentType: string): string {
  const subtype = contentType.split('/')[1]?.split(/[;+]/)[0]?.toLowerCase() ?? '';
  return /^[a-z0-9.-]{1,10}$/.test(subtype) ? `.${subtype === 'jpeg' ? 'jpg' : subtype === 'rfc822' ? 'eml' : subtype}` : '';
}

function attachmentsOf(parsed: ParsedMail): InboundAttachment[] {
  return parsed.attachments
    .filter((attachment) => attachment.content.length > 0)
    .map((attachment, index) => {
      const contentId = attachment.cid?.trim() || null;
      const inline = attachment.related === true || (attachment.contentDisposition === 'inline' && contentId !== null);
      const contentType = attachment.contentType || 'application/octet-stream';
      const filename = attachment.filename?.trim() || `${inline ? 'inline' : 'attachment'}-${index + 1}${extensionFor(contentType)}`;
      return { filename, contentType, content: attachment.content, contentId, inline };
    });
}

/** The returned message of a delivery report, or its headers, as text. */
function returnedParts(parsed: ParsedMail): string[] {
  return parsed.attachments
    .filter((a) => ['message/rfc822', 'text/rfc822-headers', 'message/rfc822-headers'].includes(a.contentType.toLowerCase()))
    .map((a) => a.content.toString('utf8'));
}

function reportTypeOf(parsed: ParsedMail): string | null {
  const type = parsed.headers.get('content-type');
  if (typeof type !== 'object' || type === null || !('value' in type)) return null;
  const structured = type as { value: string; params?: Record<string, string> };
  return structured.value.toLowerCase() === 'multipart/report' ? (structured.params?.['report-type'] ?? null) : null;
}

/**
 * The value with every U+0000 removed from its strings, however deep: a mail may carry NUL
 * (raw, or encoded in a header or body), and PostgreSQL text refuses it — which would make the
 * mail fail on every attempt and hold its inbox back. Buffers and dates are left as they are.
 */
function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\u0000') ? value.replaceAll('\u0000', '') : value) as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [withoutNul(k), withoutNul(v)])) as T;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNul(v)])) as T;
}

/**
 * Parses a raw mail. Throws UnreadableMail when mailparser fails or the mail has no header at
 * all; anything else (no sender, no body) is for the caller to judge.
 */
export async function parseMail(raw: Buffer, inbox: MailAddress): Promise<InboundMail> {
  // Loaded on the first mail: an installation without email never holds the package in memory.
  // Outside the try: a package that cannot load is a failure of ours (the mail is tried again),
  // not an unreadable mail to pass over.
  const { simpleParser } = await import('mailparser');
  let parsed: ParsedMail;
  try {
    // keepCidLinks: the HTML keeps its cid: links (the attachments are stored, not inlined as data: URLs).
    parsed = await simpleParser(raw, { keepCidLinks: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  } catch (error) {
    throw new UnreadableMail(`the mail could not be parsed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!parsed.headerLines.some((line) => line.key !== '')) throw new UnreadableMail('the mail has no header');
  const headers = rawHeaders(parsed.headerLines);
  const written = messageIdsOf(parsed.messageId)[0];
  const hasHeaderId = written !== undefined && written.length <= MAX_HEADER_ID;
  const from = people(parsed.from)[0] ?? null;
  const text = parsed.text?.trim() ? parsed.text : null;
  const report = {
    reportType: reportTypeOf(parsed),
    returnPath: headerOf(headers, 'return-path'),
    fromAddress: from?.address ?? null,
  };
  const bounce = isDeliveryReport(report) ? readBounce({ ...report, text: parsed.text ?? '', returned: returnedParts(parsed) }) : null;
  return withoutNul({
    headerId: hasHeaderId ? written : fallbackMessageId(raw, inbox),
    hasHeaderId,
    inReplyTo: messageIdsOf(parsed.inReplyTo),
    references: messageIdsOf(parsed.references),
    from,
    to: people(parsed.to),
    cc: people(parsed.cc),
    bcc: people(parsed.bcc),
    replyTo: people(parsed.replyTo),
    deliveredTo: deliveredTo(headers),
    subject: (parsed.subject ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_SUBJECT),
    date: parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date : null,
    html: typeof parsed.html === 'string' && parsed.html.trim() !== '' ? parsed.html : null,
    text,
    attachments: bounce ? [] : attachmentsOf(parsed),
    automatic: automaticReason(headers, report.reportType),
    bounce,
    parleyConversation: headerOf(headers, 'x-parley-conversation'),
    headers,
  });
}
