// Addresses and identifiers of the email channel (docs/email.md): the inbox's own address,
// plus addresses that carry a conversation, Message-IDs, and the reference in subjects. Pure
// functions: the outbound sender writes these, the inbound reader reads them back.
import { createHash } from 'node:crypto';
import { splitNamedAddress } from '../http/formats.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const PLUS_TAG = new RegExp(`^conv-(${UUID})$`, 'i');
/** `[#123]` in a subject: the conversation's reference number. */
const SUBJECT_REFERENCE = /\[#(\d{1,18})\]/g;
const REPLY_PREFIX = /^\s*((re|aw|sv|antw|vs|ref|rif|r|fw|fwd|wg|tr|enc)\s*(\[\d+\])?\s*:\s*)+/i;

export interface MailAddress {
  /** The display name, or '' when there is none. */
  name: string;
  address: string;
  local: string;
  /** Lower case. */
  domain: string;
}

/** `Support <support@example.com>` or `support@example.com` (inbox `from` was validated on save). */
export function parseAddress(value: string): MailAddress {
  const { name, address } = splitNamedAddress(value);
  const at = address.lastIndexOf('@');
  return { name, address, local: address.slice(0, at), domain: address.slice(at + 1).toLowerCase() };
}

/** The address replies are asked to go to when plus addressing is on: `support+conv-<uuid>@example.com`. */
export function plusAddress(inbox: MailAddress, conversationUuid: string): string {
  return `${inbox.local}+conv-${conversationUuid.toLowerCase()}@${inbox.domain}`;
}

/** The conversation a plus address of this inbox names, or null (another local part, another domain, no tag). */
export function conversationOfPlusAddress(inbox: MailAddress, candidate: string): string | null {
  const at = candidate.lastIndexOf('@');
  if (at < 1 || candidate.slice(at + 1).toLowerCase() !== inbox.domain) return null;
  // The inbox's own local part may hold a `+` (support+eu@…): the tag is what follows it and one more `+`.
  const local = candidate.slice(0, at);
  const prefix = `${inbox.local.toLowerCase()}+`;
  if (!local.toLowerCase().startsWith(prefix)) return null;
  return PLUS_TAG.exec(local.slice(prefix.length))?.[1]?.toLowerCase() ?? null;
}

/** The Message-ID (without brackets) of an outgoing message: stable, so every retry sends the same one. */
export function outgoingMessageId(messageUuid: string, inbox: MailAddress): string {
  return `${messageUuid.toLowerCase()}@${inbox.domain}`;
}

/** A Message-ID for a mail that came without one: a digest of its bytes, so that reading it again finds it again. */
export function fallbackMessageId(raw: Uint8Array, inbox: MailAddress): string {
  return `missing-${createHash('sha256').update(raw).digest('hex').slice(0, 40)}@${inbox.domain}`;
}

/** Message-IDs of an In-Reply-To or References header, in order, without brackets, each once. */
export function messageIdsOf(header: string | readonly string[] | undefined): string[] {
  if (header === undefined) return [];
  const text = typeof header === 'string' ? header : header.join(' ');
  const ids = [...text.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1] as string);
  // Some clients write ids without brackets: take whitespace-separated tokens with an @.
  const found = ids.length > 0 ? ids : text.split(/[\s,]+/).filter((token) => /^[^<>\s@]+@[^<>\s@]+$/.test(token));
  return [...new Set(found)];
}

/** The last `[#n]` reference of a subject, or null. */
export function referenceOfSubject(subject: string): string | null {
  const all = [...subject.matchAll(SUBJECT_REFERENCE)];
  return all.length === 0 ? null : (all[all.length - 1]?.[1] ?? null);
}

/** A subject without its reply/forward prefixes and without our reference: for display and comparison. */
export function bareSubject(subject: string): string {
  return subject.replace(SUBJECT_REFERENCE, '').replace(REPLY_PREFIX, '').replace(/\s+/g, ' ').trim();
}

/** The subject of a reply: `Re: <subject> [#ref]`, never piling up prefixes or references. */
export function replySubject(subject: string, reference: string): string {
  const bare = bareSubject(subject);
  return `${bare === '' ? '' : `Re: ${bare} `}[#${reference}]`;
}

/** The subject of the first mail of a conversation an agent starts: `<subject> [#ref]`. */
export function firstSubject(subject: string, reference: string): string {
  const bare = bareSubject(subject);
  return `${bare === '' ? '' : `${bare} `}[#${reference}]`;
}
