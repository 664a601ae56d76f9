// Raw mails for the email channel's tests: RFC 5322 messages built with nodemailer's
// MailComposer (what real clients send), a few hand-written samples of what real servers and
// clients produce (an Outlook reply without References, a DSN bounce, an out-of-office reply,
// a malformed mail), an email inbox as the channel loads it, and the reader's positions.
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { type EmailInbox, loadEmailInbox } from '../src/email/email.inbox.ts';
import type { MailSource } from '../src/email/email.cursor.ts';
import { createInbox, testEmailConfig, uniqueNumber } from './factories.ts';
import type { TestApp } from './helpers.ts';

/** A new email inbox, loaded as the reader and the sender see it. */
export async function emailInbox(t: TestApp, config: Record<string, unknown> = {}): Promise<EmailInbox> {
  const n = uniqueNumber();
  const created = await createInbox(t, {
    channel: 'email',
    from: `Support ${n} <support-${n}@example.com>`,
    ...(Object.keys(config).length > 0 ? { config: { ...testEmailConfig(), ...config } } : {}),
  });
  const inbox = await loadEmailInbox(t.deps, created.id);
  if (!inbox) throw new Error(`email inbox ${created.id} did not load`);
  return inbox;
}

let uid = 0;
/** The next position in the test mailbox, as the reader would pass it. */
export function nextSource(mailbox = 'INBOX', uidvalidity = 1): MailSource {
  uid += 1;
  return { mailbox, uidvalidity, uid };
}

/** A Message-ID (without brackets) unique in the process. */
export function newMessageId(domain = 'mail.example.org'): string {
  return `m${process.pid}.${uniqueNumber()}.${Date.now().toString(36)}@${domain}`;
}

export interface MailOptions {
  from: string;
  to: string | string[];
  cc?: string | string[];
  subject?: string;
  text?: string;
  html?: string;
  /** Without brackets; a fresh one by default. */
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
  attachments?: Mail.Attachment[];
  date?: Date;
}

/** A mail as a mail client sends it (MailComposer: MIME, encodings, a Date). */
export async function buildMail(options: MailOptions): Promise<Buffer> {
  const messageId = options.messageId ?? newMessageId();
  return new MailComposer({
    from: options.from,
    to: options.to,
    ...(options.cc !== undefined ? { cc: options.cc } : {}),
    subject: options.subject ?? 'A question',
    ...(options.text !== undefined || options.html === undefined ? { text: options.text ?? 'Hello, I have a question.' } : {}),
    ...(options.html !== undefined ? { html: options.html } : {}),
    messageId: `<${messageId}>`,
    ...(options.inReplyTo !== undefined ? { inReplyTo: `<${options.inReplyTo}>` } : {}),
    ...(options.references !== undefined ? { references: options.references.map((id) => `<${id}>`) } : {}),
    ...(options.headers !== undefined ? { headers: options.headers } : {}),
    ...(options.attachments !== undefined ? { attachments: options.attachments } : {}),
    date: options.date ?? new Date('2026-01-15T09:00:00Z'),
  })
    .compile()
    .build();
}

const crlf = (text: string) => Buffer.from(text.replace(/\r?\n/g, '\r\n'));

/**
 * A reply as Outlook writes one when it drops the thread headers: no In-Reply-To, no References,
 * a Thread-Index, `RE:` and our `[#ref]` in the subject, the quote in a `-----Original Message-----` block.
 */
export function outlookReply(options: { from: string; to: string; subject: string; messageId?: string; text?: string }): Buffer {
  return crlf(`Received: from EX01.corp.example.net (10.0.0.1) by EX02.corp.example.net
Thread-Topic: ${options.subject.replace(/^RE:\s*/i, '')}
Thread-Index: AdqA1B2C3D4E5F6G7H8I9J0KLMNOPQ==
From: ${options.from}
To: ${options.to}
Subject: ${options.subject}
Date: Thu, 15 Jan 2026 10:30:00 +0000
Message-ID: <${options.messageId ?? newMessageId('EX02.corp.example.net')}>
Accept-Language: en-US
Content-Language: en-US
X-MS-Has-Attach:
X-MS-TNEF-Correlator:
MIME-Version: 1.0
Content-Type: text/plain; charset="us-ascii"
Content-Transfer-Encoding: quoted-printable

${options.text ?? 'Thanks, that worked.'}

-----Original Message-----
From: Support <support@example.com>
Sent: Thursday, January 15, 2026 10:00 AM
Subject: ${options.subject.replace(/^RE:\s*/i, '')}

Please try again.
`);
}

/**
 * A delivery status notification as Postfix writes one (RFC 3464): multipart/report with the
 * human part, the machine-readable `message/delivery-status` and the returned message's
 * headers (`text/rfc822-headers`) or the whole message (`message/rfc822`).
 */
export function dsnBounce(options: {
  to: string;
  originalMessageId: string;
  recipient?: string;
  action?: string;
  status?: string;
  diagnostic?: string;
  returned?: 'headers' | 'message';
  messageId?: string;
}): Buffer {
  const recipient = options.recipient ?? 'nobody@example.org';
  const returnedType = options.returned === 'message' ? 'message/rfc822' : 'text/rfc822-headers';
  return crlf(`Return-Path: <>
Received: by mx.example.org (Postfix) id 4ABC123
Date: Thu, 15 Jan 2026 10:31:00 +0000 (UTC)
From: MAILER-DAEMON@mx.example.org (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: ${options.to}
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
	boundary="4ABC123.1768473060/mx.example.org"
Message-Id: <${options.messageId ?? newMessageId('mx.example.org')}>

This is a MIME-encapsulated message.

--4ABC123.1768473060/mx.example.org
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.example.org.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients.

--4ABC123.1768473060/mx.example.org
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org
X-Postfix-Queue-ID: 4ABC123
Arrival-Date: Thu, 15 Jan 2026 10:30:59 +0000 (UTC)

Final-Recipient: rfc822; ${recipient}
Original-Recipient: rfc822;${recipient}
Action: ${options.action ?? 'failed'}
Status: ${options.status ?? '5.1.1'}
Remote-MTA: dns; mail.example.org
Diagnostic-Code: ${
    options.diagnostic ??
    `smtp; 550 5.1.1 <${recipient}>: Recipient address
    rejected: User unknown in virtual mailbox table`
  }

--4ABC123.1768473060/mx.example.org
Content-Description: Undelivered Message${options.returned === 'message' ? '' : ' Headers'}
Content-Type: ${returnedType}

Return-Path: <${options.to}>
From: Support <${options.to}>
To: ${recipient}
Subject: Re: Your order [#1]
Message-ID: <${options.originalMessageId}>
Date: Thu, 15 Jan 2026 10:30:58 +0000
${options.returned === 'message' ? '\nWe shipped your order.\n' : ''}
--4ABC123.1768473060/mx.example.org--
`);
}

/** An out-of-office reply as Exchange sends one: Auto-Submitted, X-Auto-Response-Suppress, threaded by In-Reply-To. */
export function outOfOffice(options: { from: string; to: string; inReplyTo: string; subject?: string; messageId?: string }): Buffer {
  return crlf(`From: ${options.from}
To: ${options.to}
Subject: Automatic reply: ${options.subject ?? 'Your request'}
Date: Thu, 15 Jan 2026 11:00:00 +0000
Message-ID: <${options.messageId ?? newMessageId('EX02.corp.example.net')}>
In-Reply-To: <${options.inReplyTo}>
References: <${options.inReplyTo}>
Auto-Submitted: auto-replied
X-Auto-Response-Suppress: All
X-MS-Exchange-Inbox-Rules-Loop: ${options.from.replace(/^.*<|>.*$/g, '')}
MIME-Version: 1.0
Content-Type: text/plain; charset="us-ascii"

I am out of the office until Monday and will reply when I am back.
`);
}

/** Not a mail: no header block, binary noise (what a broken server or a truncated download can hand over). */
export function malformedMail(): Buffer {
  return Buffer.concat([Buffer.from('\r\n\r\n'), Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80]), Buffer.from(' no headers at all\r\n')]);
}

/** A mail whose From is not an address at all (a header block, but no sender to answer). */
export function senderlessMail(options: { to: string; messageId?: string }): Buffer {
  return crlf(`From: undisclosed-sender:;
To: ${options.to}
Subject: Who am I
Message-ID: <${options.messageId ?? newMessageId()}>
MIME-Version: 1.0
Content-Type: text/plain

No sender.
`);
}

/** A plain mail written without a Message-ID (some scripts and old clients). */
export function mailWithoutMessageId(options: { from: string; to: string; subject: string; text?: string }): Buffer {
  return crlf(`From: ${options.from}
To: ${options.to}
Subject: ${options.subject}
Date: Thu, 15 Jan 2026 12:00:00 +0000
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

${options.text ?? 'Sent from a script without a Message-ID.'}
`);
}

/** A read receipt (RFC 8098 disposition notification) as Outlook sends it: no Auto-Submitted, a "Read:" subject. */
export function readReceipt(options: { from: string; to: string; originalMessageId: string; subject?: string }): Buffer {
  return crlf(`From: ${options.from}
To: ${options.to}
Subject: Read: ${options.subject ?? 'Where is my parcel'}
Date: Thu, 15 Jan 2026 11:00:00 +0000
Message-ID: <${newMessageId()}>
In-Reply-To: <${options.originalMessageId}>
References: <${options.originalMessageId}>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=disposition-notification;
	boundary="mdn-boundary"

--mdn-boundary
Content-Type: text/plain; charset=utf-8

Your message was read on Thursday, 15 January 2026 11:00:00 (UTC).

--mdn-boundary
Content-Type: message/disposition-notification

Reporting-UA: mail.example.org; Microsoft Outlook 16.0
Final-Recipient: rfc822;${options.from}
Original-Message-ID: <${options.originalMessageId}>
Disposition: manual-action/MDN-sent-manually; displayed

--mdn-boundary--
`);
}
