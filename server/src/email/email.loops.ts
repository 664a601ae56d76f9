// No mail loops (docs/email.md): recognising mail a machine wrote, so that it never causes mail
// back, and delivery status notifications (bounces), which are not messages but the fate of
// one we sent. Pure functions over a parsed mail's raw headers and parts.
import { messageIdsOf } from './email.addresses.ts';

/** A mail's top-level header fields: lower-case name → unfolded values, in order. */
export type RawHeaders = ReadonlyMap<string, readonly string[]>;

/** The first value of a header field, trimmed, or null. */
export function headerOf(headers: RawHeaders, name: string): string | null {
  return headers.get(name)?.[0]?.trim() ?? null;
}

const AUTOMATIC_PRECEDENCE = new Set(['auto_reply', 'bulk', 'junk', 'list']);

/**
 * Why this mail was written by a machine (an out-of-office reply, a list or bulk mail), or null
 * for a person's mail: `Auto-Submitted` other than `no` (RFC 3834), `X-Autoreply`,
 * `X-Autorespond`, `Precedence: auto_reply|bulk|junk|list`, or a read receipt
 * (`multipart/report; report-type=disposition-notification`, RFC 8098), which many clients send
 * without any of those headers and which must not reopen a conversation.
 */
export function automaticReason(headers: RawHeaders, reportType: string | null = null): string | null {
  if (reportType?.toLowerCase() === 'disposition-notification') return 'a read receipt (disposition-notification report)';
  const submitted = headerOf(headers, 'auto-submitted');
  if (submitted !== null) {
    const keyword = (submitted.split(';')[0] ?? '').trim().toLowerCase();
    if (keyword !== 'no' && keyword !== '') return `Auto-Submitted: ${keyword}`;
  }
  for (const name of ['x-autoreply', 'x-autorespond']) {
    const value = headerOf(headers, name);
    if (value !== null && !/^(no|false|0)$/i.test(value)) return `${name === 'x-autoreply' ? 'X-Autoreply' : 'X-Autorespond'}: ${value}`;
  }
  const precedence = headerOf(headers, 'precedence')?.toLowerCase() ?? null;
  if (precedence !== null && AUTOMATIC_PRECEDENCE.has(precedence)) return `Precedence: ${precedence}`;
  return null;
}

/** The parts of a parsed mail a bounce is read from. */
export interface ReportParts {
  /** `multipart/report` with its `report-type` parameter, when that is the mail's type. */
  reportType: string | null;
  /** The `Return-Path` as written (`<>` for a null return path), or null. */
  returnPath: string | null;
  /** The sender's address, or null. */
  fromAddress: string | null;
  /** The decoded text of the mail, the `message/delivery-status` fields included. */
  text: string;
  /** The returned message (`message/rfc822`) or its headers (`text/rfc822-headers`), as text. */
  returned: readonly string[];
}

export interface Bounce {
  /** The Message-ID of the mail that was returned, or null when the report does not say. */
  originalMessageId: string | null;
  /** The remote server's words: the Diagnostic-Code, else the Status, else a generic reason. */
  reason: string;
  /** False for a report that is not a failure (`Action: delayed`, `delivered`, `relayed`, `expanded`). */
  failed: boolean;
}

const DAEMON = /^(mailer-daemon|postmaster)$/i;

/**
 * Whether a mail is a delivery status notification: `multipart/report;
 * report-type=delivery-status`, or a null return path from MAILER-DAEMON or postmaster.
 */
export function isDeliveryReport(parts: Pick<ReportParts, 'reportType' | 'returnPath' | 'fromAddress'>): boolean {
  if (parts.reportType?.toLowerCase() === 'delivery-status') return true;
  const nullPath = parts.returnPath !== null && /^<\s*>$/.test(parts.returnPath.trim());
  const local = parts.fromAddress?.slice(0, parts.fromAddress.lastIndexOf('@')) ?? '';
  return nullPath && DAEMON.test(local);
}

/** Fields of the delivery-status block (`Name: value`, continuation lines unfolded), every occurrence. */
function statusFields(text: string, name: string): string[] {
  const unfolded = text.replace(/\r?\n[ \t]+/g, ' ');
  const pattern = new RegExp(`^${name}:[ \\t]*(.+)$`, 'gim');
  return [...unfolded.matchAll(pattern)].map((m) => (m[1] as string).trim()).filter((v) => v !== '');
}

/** The Message-ID in a returned message's (or its headers') header block. */
function returnedMessageId(returned: string): string | null {
  const head = returned.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const value = statusFields(head, 'message-id')[0];
  return value === undefined ? null : (messageIdsOf(value)[0] ?? null);
}

/** Reads a delivery report: which of our mails came back, and why. */
export function readBounce(parts: ReportParts): Bounce {
  let originalMessageId: string | null = null;
  for (const returned of parts.returned) {
    originalMessageId = returnedMessageId(returned);
    if (originalMessageId !== null) break;
  }
  // A report without a returned part (plain-text bounces) often quotes the original headers.
  if (originalMessageId === null) {
    const quoted = statusFields(parts.text, 'message-id')[0];
    originalMessageId = quoted === undefined ? null : (messageIdsOf(quoted)[0] ?? null);
  }
  const actions = statusFields(parts.text, 'action').map((a) => a.toLowerCase());
  const failed = actions.length === 0 || actions.some((action) => action.startsWith('failed'));
  const diagnostic = statusFields(parts.text, 'diagnostic-code')[0];
  const status = statusFields(parts.text, 'status')[0];
  const reason = diagnostic
    ? diagnostic.replace(/^smtp\s*;\s*/i, '')
    : status
      ? `Delivery failed with status ${status}`
      : 'The mail was returned as undeliverable';
  return { originalMessageId, reason: reason.slice(0, 1000), failed };
}
