// Taking mail in: a new mail becomes a conversation of its sender, a reply finds its thread, a
// mail read twice only moves the cursor, and every write of a mail is one transaction.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCursor } from './email.cursor.ts';
import { ingestMail, skipMail } from './email.ingest.ts';
import { createContact, uniqueEmail } from '../../test/factories.ts';
import { ingestSuite } from '../../test/email-ingest.ts';
import { buildMail, mailWithoutMessageId, malformedMail, newMessageId, nextSource, senderlessMail } from '../../test/mail.ts';

type Message = {
  uuid: string;
  type: string;
  status: string;
  content: string;
  content_type: string;
  text_content: string;
  sender_id: number;
  meta: Record<string, unknown>;
};

describe('email ingestion', () => {
  const suite = ingestSuite<Message>({ env: { EMAIL_MAX_MESSAGE_MB: '1' } });

  it('makes a new mail a conversation of its sender, created as a contact, with the mail in meta', async () => {
    const sender = uniqueEmail('Ann');
    const messageId = newMessageId();
    const source = nextSource();
    const raw = await buildMail({
      from: `"Ann Example" <${sender}>`,
      to: suite.inbox.from,
      cc: 'colleague@example.org',
      subject: 'My order has not arrived',
      html: '<p>Hello, where is <b>my order</b>?</p><script>alert(1)</script>',
      text: 'Hello, where is my order?',
      messageId,
    });
    const outcome = await ingestMail(suite.t.deps, suite.inbox, raw, source);
    assert.equal(outcome.kind, 'stored');
    if (outcome.kind !== 'stored') return;
    assert.equal(outcome.newConversation, true);
    const record = await suite.conversation(outcome.conversationUuid);
    assert.equal(record.inbox_id, suite.inbox.id);
    assert.equal(record.subject, 'My order has not arrived');
    assert.equal(record.status, 'Open');
    const contact = await suite.t.deps.db
      .selectFrom('users')
      .where('id', '=', record.contact.id)
      .select(['email', 'first_name', 'last_name', 'type'])
      .executeTakeFirstOrThrow();
    assert.deepEqual(contact, { email: sender.toLowerCase(), first_name: 'Ann', last_name: 'Example', type: 'contact' });
    const [message, ...others] = await suite.messages(outcome.conversationUuid);
    assert.equal(others.length, 0);
    assert.equal(message?.uuid, outcome.messageUuid);
    assert.equal(message?.type, 'incoming');
    assert.equal(message?.status, 'received');
    assert.equal(message?.content_type, 'html');
    assert.equal(message?.content, '<p>Hello, where is <b>my order</b>?</p>');
    assert.equal(message?.text_content, 'Hello, where is my order?');
    assert.equal(message?.sender_id, record.contact.id);
    assert.deepEqual(message?.meta.from, [sender]);
    assert.deepEqual(message?.meta.to, [suite.inbox.address.address]);
    assert.deepEqual(message?.meta.cc, ['colleague@example.org']);
    assert.equal(message?.meta.subject, 'My order has not arrived');
    assert.equal(message?.meta.message_id, messageId);
    assert.equal(message?.meta.in_reply_to, null);
    assert.deepEqual(message?.meta.references, []);
    const [row] = await suite.mailIdRows(messageId);
    assert.equal(row?.direction, 'incoming');
    assert.equal(row?.outcome, 'stored');
    assert.equal(row?.conversation_id, record.id);
    assert.notEqual(row?.message_id, null);
    const cursor = await readCursor(suite.t.deps.db, suite.inbox.id);
    assert.deepEqual(
      { ...cursor, uidvalidity: Number(cursor?.uidvalidity), last_uid: Number(cursor?.last_uid) },
      {
        mailbox: 'INBOX',
        uidvalidity: 1,
        last_uid: source.uid,
      },
    );
  });

  it('files a reply by In-Reply-To, and by References when In-Reply-To names a mail it does not know', async () => {
    const sender = uniqueEmail('bob');
    const first = newMessageId();
    const start = await suite.stored(await buildMail({ from: sender, to: suite.inbox.from, subject: 'Invoice', messageId: first }));
    const reply = await suite.stored(
      await buildMail({ from: sender, to: suite.inbox.from, subject: 'Re: Invoice', inReplyTo: first, references: [first] }),
    );
    assert.equal(reply.conversationUuid, start.conversationUuid);
    assert.equal(reply.newConversation, false);
    // A colleague in Cc answers, quoting a mail we never saw: References still finds the thread.
    const other = await suite.stored(
      await buildMail({
        from: uniqueEmail('colleague'),
        to: suite.inbox.from,
        subject: 'Re: Invoice',
        inReplyTo: newMessageId(),
        references: [first, newMessageId()],
      }),
    );
    assert.equal(other.conversationUuid, start.conversationUuid);
    const list = await suite.messages(start.conversationUuid);
    assert.equal(list.length, 3);
    const replyMeta = list.find((m) => m.uuid === reply.messageUuid)?.meta;
    assert.equal(replyMeta?.in_reply_to, first);
    assert.deepEqual(replyMeta?.references, [first]);
  });

  it('takes a mail read twice once: the second time only the cursor moves', async () => {
    const messageId = newMessageId();
    const raw = await buildMail({ from: uniqueEmail('twice'), to: suite.inbox.from, subject: 'Twice', messageId });
    const first = await suite.stored(raw);
    // Read again after a UIDVALIDITY change: other numbers, the same mail.
    const again = nextSource('INBOX', 7);
    assert.deepEqual(await ingestMail(suite.t.deps, suite.inbox, raw, again), { kind: 'duplicate' });
    assert.equal((await suite.messages(first.conversationUuid)).length, 1);
    assert.equal((await suite.mailIdRows(messageId)).length, 1);
    const cursor = await readCursor(suite.t.deps.db, suite.inbox.id);
    assert.equal(Number(cursor?.uidvalidity), 7);
    assert.equal(Number(cursor?.last_uid), again.uid);
  });

  it('recognises a mail without a Message-ID by its bytes', async () => {
    const raw = mailWithoutMessageId({ from: uniqueEmail('script'), to: suite.inbox.from, subject: 'Nightly report' });
    const first = await suite.stored(raw);
    assert.deepEqual(await ingestMail(suite.t.deps, suite.inbox, raw, nextSource()), { kind: 'duplicate' });
    const [message] = await suite.messages(first.conversationUuid);
    assert.match(String(message?.meta.message_id), /^missing-[0-9a-f]{40}@example\.com$/);
    assert.equal(message?.content_type, 'text');
    assert.equal(message?.content, 'Sent from a script without a Message-ID.');
  });

  it('finds an existing contact by email whatever its case, and keeps the text of a plain mail', async () => {
    const contact = await createContact(suite.t, { email: uniqueEmail('known').toLowerCase() });
    const outcome = await suite.stored(
      await buildMail({ from: `Known <${contact.email?.toUpperCase()}>`, to: suite.inbox.from, text: 'Line one\n\n<b>not html</b>' }),
    );
    const record = await suite.conversation(outcome.conversationUuid);
    assert.equal(record.contact.id, contact.id);
    const [message] = await suite.messages(outcome.conversationUuid);
    assert.equal(message?.content_type, 'text');
    assert.equal(message?.content, 'Line one\n\n<b>not html</b>');
  });

  it('records an unreadable mail and a mail without a sender as skipped, and moves past them', async () => {
    const before = (await suite.skippedRows()).length;
    const bad = nextSource();
    const outcome = await ingestMail(suite.t.deps, suite.inbox, malformedMail(), bad);
    assert.equal(outcome.kind, 'skipped');
    assert.equal(Number((await readCursor(suite.t.deps.db, suite.inbox.id))?.last_uid), bad.uid);
    const noSender = await ingestMail(suite.t.deps, suite.inbox, senderlessMail({ to: suite.inbox.from }), nextSource());
    assert.deepEqual(noSender, { kind: 'skipped', reason: 'the mail has no sender address (From)' });
    const rows = (await suite.skippedRows()).slice(before);
    assert.equal(rows.length, 2);
    assert.equal(Number(rows[0]?.uid), bad.uid);
    assert.match(rows[0]?.reason ?? '', /no header|could not be parsed/);
    assert.equal(rows[1]?.subject, 'Who am I');
    // Read again, neither is listed twice.
    assert.deepEqual(await ingestMail(suite.t.deps, suite.inbox, malformedMail(), nextSource()), { kind: 'duplicate' });
    assert.equal((await suite.skippedRows()).length, before + 2);
  });

  it('records a mail over the size limit as skipped without reading it (skipMail), and one handed over anyway', async () => {
    const source = nextSource();
    await skipMail(suite.t.deps, suite.inbox, source, {
      size: 40_000_000,
      reason: 'over the size limit',
      headerId: 'big-1@example.org',
      sender: 'x@example.org',
      subject: 'Huge',
    });
    const [row] = (await suite.skippedRows()).filter((r) => r.header_id === 'big-1@example.org');
    assert.equal(row?.size, 40_000_000);
    assert.equal(row?.sender, 'x@example.org');
    assert.equal(Number(row?.uid), source.uid);
    assert.equal(Number((await readCursor(suite.t.deps.db, suite.inbox.id))?.last_uid), source.uid);
    // Skipped again (a renumbered mailbox): the cursor moves, the list does not grow.
    await skipMail(suite.t.deps, suite.inbox, nextSource(), {
      size: 40_000_000,
      reason: 'over the size limit',
      headerId: 'big-1@example.org',
    });
    assert.equal((await suite.skippedRows()).filter((r) => r.header_id === 'big-1@example.org').length, 1);

    const limit = suite.t.deps.config.emailMaxMessageBytes;
    const huge = await buildMail({ from: uniqueEmail('huge'), to: suite.inbox.from, text: 'x'.repeat(limit + 10) });
    const outcome = await ingestMail(suite.t.deps, suite.inbox, huge, nextSource());
    assert.equal(outcome.kind, 'skipped');
    assert.match(outcome.kind === 'skipped' ? outcome.reason : '', /larger than the limit/);
  });

  it('takes in a mail carrying NUL characters (raw or encoded) without them: it never holds the inbox back', async () => {
    const messageId = newMessageId();
    const raw = Buffer.from(
      [
        `From: =?utf-8?B?${Buffer.from('Nu\u0000l').toString('base64')}?= <nul-${Date.now()}@example.org>`,
        `To: ${suite.inbox.address.address}`,
        `Subject: =?utf-8?B?${Buffer.from('A\u0000B').toString('base64')}?=`,
        `Message-ID: <${messageId}>`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        'one\u0000two',
        '',
      ].join('\r\n'),
    );
    const outcome = await ingestMail(suite.t.deps, suite.inbox, raw, nextSource());
    assert.equal(outcome.kind, 'stored', JSON.stringify(outcome));
    if (outcome.kind !== 'stored') return;
    assert.equal((await suite.conversation(outcome.conversationUuid)).subject, 'AB');
    const [message] = await suite.messages(outcome.conversationUuid);
    assert.equal(message?.text_content.includes('\u0000'), false);
    assert.match(String(message?.text_content), /onetwo/);
  });
});
