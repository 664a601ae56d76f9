// Reading raw mails: identifiers, people, bodies, files, and what a machine wrote.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAddress } from './email.addresses.ts';
import { automaticReason, isDeliveryReport, readBounce } from './email.loops.ts';
import { parseMail, UnreadableMail } from './email.parse.ts';
import { buildMail, dsnBounce, mailWithoutMessageId, malformedMail, outlookReply, outOfOffice } from '../../test/mail.ts';

const inbox = parseAddress('Support <support@example.com>');
const headers = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k.toLowerCase(), [v]]));

describe('parsing mail', () => {
  it('reads identifiers, people, subject, bodies and attachments', async () => {
    const raw = await buildMail({
      from: '"Doe, Jane" <Jane.Doe@Example.org>',
      to: ['Support <support@example.com>', 'Team: a@example.org, b@example.org;'],
      cc: 'c@example.org',
      subject: '  Re:  Çà   marche [#12] ',
      html: '<p>Hi <img src="cid:img1@x"></p>',
      text: 'Hi',
      messageId: 'abc@example.org',
      inReplyTo: 'prev@example.com',
      references: ['root@example.com', 'prev@example.com'],
      headers: { 'Delivered-To': 'support+conv-0f8b6a52-7d1c-4d0e-9a3b-2c5e8f1a6b7d@example.com', 'Reply-To': 'jane@home.example' },
      attachments: [
        { filename: 'a.png', content: Buffer.from('89504e470d0a1a0a00', 'hex'), cid: 'img1@x' },
        { filename: 'notes.txt', content: 'some notes' },
        { filename: 'empty.txt', content: '' },
      ],
    });
    const mail = await parseMail(raw, inbox);
    assert.equal(mail.headerId, 'abc@example.org');
    assert.equal(mail.hasHeaderId, true);
    assert.deepEqual(mail.inReplyTo, ['prev@example.com']);
    assert.deepEqual(mail.references, ['root@example.com', 'prev@example.com']);
    assert.deepEqual(mail.from, { address: 'Jane.Doe@example.org', name: 'Doe, Jane' });
    assert.deepEqual(
      mail.to.map((p) => p.address),
      ['support@example.com', 'a@example.org', 'b@example.org'],
    );
    assert.deepEqual(mail.cc, [{ address: 'c@example.org', name: '' }]);
    assert.deepEqual(mail.replyTo, [{ address: 'jane@home.example', name: '' }]);
    assert.deepEqual(mail.deliveredTo, ['support+conv-0f8b6a52-7d1c-4d0e-9a3b-2c5e8f1a6b7d@example.com']);
    assert.equal(mail.subject, 'Re: Çà marche [#12]');
    assert.equal(mail.html, '<p>Hi <img src="cid:img1@x"></p>');
    assert.equal(mail.text?.trim(), 'Hi');
    assert.deepEqual(
      mail.attachments.map((a) => ({ filename: a.filename, contentId: a.contentId, inline: a.inline, size: a.content.length })),
      [
        { filename: 'a.png', contentId: 'img1@x', inline: true, size: 9 },
        { filename: 'notes.txt', contentId: null, inline: false, size: 10 },
      ],
    );
    assert.equal(mail.automatic, null);
    assert.equal(mail.bounce, null);
  });

  it('derives a stable Message-ID for a mail without one, and refuses a mail without headers', async () => {
    const raw = mailWithoutMessageId({ from: 'a@example.org', to: 'support@example.com', subject: 'x' });
    const first = await parseMail(raw, inbox);
    assert.equal(first.hasHeaderId, false);
    assert.equal((await parseMail(Buffer.from(raw), inbox)).headerId, first.headerId);
    await assert.rejects(parseMail(malformedMail(), inbox), UnreadableMail);
  });

  it('reads an Outlook reply: no thread headers, the reference in the subject', async () => {
    const mail = await parseMail(
      outlookReply({ from: 'Ann <ann@example.org>', to: 'support@example.com', subject: 'RE: Login [#42]' }),
      inbox,
    );
    assert.deepEqual([mail.inReplyTo, mail.references], [[], []]);
    assert.equal(mail.subject, 'RE: Login [#42]');
    assert.equal(mail.html, null);
    assert.match(mail.text ?? '', /^Thanks, that worked\./);
  });

  it('recognises auto-replies by their headers, and a person’s mail as none', async () => {
    assert.equal(automaticReason(headers({ 'Auto-Submitted': 'auto-replied; owner-email="x@y"' })), 'Auto-Submitted: auto-replied');
    assert.equal(automaticReason(headers({ 'Auto-Submitted': 'No' })), null);
    assert.equal(automaticReason(headers({}), 'disposition-notification'), 'a read receipt (disposition-notification report)');
    assert.equal(automaticReason(headers({}), 'delivery-status'), null);
    assert.equal(automaticReason(headers({ 'X-Autoreply': 'yes' })), 'X-Autoreply: yes');
    assert.equal(automaticReason(headers({ 'X-Autorespond': 'Out of office' })), 'X-Autorespond: Out of office');
    for (const value of ['auto_reply', 'bulk', 'junk', 'LIST']) assert.ok(automaticReason(headers({ Precedence: value })), value);
    assert.equal(automaticReason(headers({ Precedence: 'first-class', 'List-Id': '<x.example.org>' })), null);
    const mail = await parseMail(outOfOffice({ from: 'a@example.org', to: 'support@example.com', inReplyTo: 'x@example.com' }), inbox);
    assert.equal(mail.automatic, 'Auto-Submitted: auto-replied');
  });

  it('reads a DSN: the returned Message-ID (headers or whole message), the reason, and whether it failed', async () => {
    const headersOnly = await parseMail(dsnBounce({ to: 'support@example.com', originalMessageId: 'orig-1@example.com' }), inbox);
    assert.deepEqual(headersOnly.bounce, {
      originalMessageId: 'orig-1@example.com',
      reason: '550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
      failed: true,
    });
    assert.deepEqual(headersOnly.attachments, [], 'a bounce keeps no files');
    const whole = await parseMail(
      dsnBounce({ to: 'support@example.com', originalMessageId: 'orig-2@example.com', returned: 'message', diagnostic: '' }),
      inbox,
    );
    assert.equal(whole.bounce?.originalMessageId, 'orig-2@example.com');
    assert.equal(whole.bounce?.reason, 'Delivery failed with status 5.1.1');
    const delayed = await parseMail(dsnBounce({ to: 'support@example.com', originalMessageId: 'o@x', action: 'delayed' }), inbox);
    assert.equal(delayed.bounce?.failed, false);
  });

  it('takes a null return path from MAILER-DAEMON or postmaster as a bounce, and reads a quoted Message-ID', () => {
    assert.equal(isDeliveryReport({ reportType: null, returnPath: '<>', fromAddress: 'MAILER-DAEMON@mx.example.org' }), true);
    assert.equal(isDeliveryReport({ reportType: null, returnPath: '<>', fromAddress: 'postmaster@mx.example.org' }), true);
    assert.equal(isDeliveryReport({ reportType: null, returnPath: '<>', fromAddress: 'ann@example.org' }), false);
    assert.equal(isDeliveryReport({ reportType: null, returnPath: '<bounces@x>', fromAddress: 'postmaster@x' }), false);
    assert.equal(isDeliveryReport({ reportType: 'disposition-notification', returnPath: null, fromAddress: 'a@x' }), false);
    const plain = readBounce({
      reportType: null,
      returnPath: '<>',
      fromAddress: 'MAILER-DAEMON@x',
      text: 'Hi. This is the qmail-send program.\n<bob@x>:\nSorry, no mailbox here by that name.\n--- Below this line is a copy of the message.\n\nMessage-ID: <sent-9@example.com>\nSubject: Re: hi\n',
      returned: [],
    });
    assert.deepEqual(plain, { originalMessageId: 'sent-9@example.com', reason: 'The mail was returned as undeliverable', failed: true });
  });
});
