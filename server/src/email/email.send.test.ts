// Outbound mail, what goes out: agent replies and agent-started conversations delivered by the
// real job runner to a real SMTP server on loopback, read back with mailparser. Addressing,
// subject, threading headers, Message-ID, the parts, signature, attachments, plus addresses,
// the message's status and meta as the API answers them, and the permanent refusals before SMTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ParsedMail, simpleParser } from 'mailparser';
import { createContact, createConversation, createInbox, type Inbox, testEmailConfig, uniqueEmail } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { waitUntil } from '../../test/receiver.ts';
import { type ReceivedMail, smtpSettingsFor, startMailRunner, startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';
import { storeMedia } from '../media/media.service.ts';
import { recordMailId } from './email.mail-ids.ts';

type Meta = Record<string, unknown> & { to: string[]; cc: string[]; bcc: string[]; from: string[]; subject: string };
type Message = { id: number; uuid: string; type: string; status: string; meta: Meta; conversation_id: number };
type Conversation = { id: number; uuid: string; reference_number: string; subject: string };

describe('email replies go out over SMTP', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let runner: { stop(): Promise<void> };
  let inbox: Inbox;

  before(async () => {
    t = await buildTestApp();
    smtp = await startSmtpServer();
    runner = startMailRunner(t.deps);
    inbox = await emailInbox({ plus_addressing: true, signature: '<p>Kind regards,<br><b>The Support Team</b></p><script>x()</script>' });
  });
  after(async () => {
    await runner.stop();
    await smtp.close();
    await t.close();
  });

  async function emailInbox(config: Record<string, unknown> = {}) {
    const settings = { imap: testEmailConfig().imap, smtp: smtpSettingsFor(smtp), ...config };
    return createInbox(t, { channel: 'email', from: `Acme Support <support-${Date.now()}@acme.test>`, config: settings });
  }

  async function reply(conversation: Conversation, payload: Record<string, unknown>): Promise<Message> {
    return dataOf<Message>(await t.call({ method: 'POST', url: `/api/v1/conversations/${conversation.uuid}/messages`, payload }));
  }

  /** The message once delivery decided (sent or failed), as GET …/messages answers it. */
  async function settled(conversationUuid: string, messageUuid: string): Promise<Message> {
    const found = await waitUntil('the delivery outcome', async () => {
      const page = dataOf<{ results: Message[] }>(
        await t.call({ method: 'GET', url: `/api/v1/conversations/${conversationUuid}/messages` }),
      );
      const found = page.results.find((m) => m.uuid === messageUuid);
      return found && found.status !== 'pending' ? found : null;
    });
    return found as Message;
  }

  async function mailNumber(n: number): Promise<{ received: ReceivedMail; parsed: ParsedMail }> {
    const received = (await smtp.waitFor(n))[n - 1] as ReceivedMail;
    return { received, parsed: await simpleParser(received.raw, { skipImageLinks: true }) };
  }

  async function sourceId(messageId: number) {
    const row = await t.deps.db.selectFrom('messages').where('id', '=', messageId).select('source_id').executeTakeFirstOrThrow();
    return row.source_id;
  }

  it('sends a reply with its envelope, headers, parts, signature and plus-address Reply-To, and records what was sent', async () => {
    const customer = uniqueEmail('customer');
    const conversation = await createConversation(t, { inbox_id: inbox.id, contact_email: customer, subject: 'Broken invoice' });
    const cc = uniqueEmail('cc');
    const bcc = uniqueEmail('bcc');
    const before = smtp.mails.length;
    const sent = await reply(conversation, { message: '<p>We fixed <b>your</b> invoice.</p>', cc: [cc], bcc: [bcc] });
    assert.equal(sent.status, 'pending');
    const done = await settled(conversation.uuid, sent.uuid);
    assert.equal(done.status, 'sent', JSON.stringify(done.meta));

    const { received, parsed } = await mailNumber(before + 1);
    const address = inbox.from?.match(/<(.+)>/)?.[1] as string;
    assert.equal(received.mailFrom, address);
    assert.deepEqual([...received.rcptTo].sort(), [customer, cc, bcc].sort());
    assert.deepEqual(parsed.from?.value, [{ name: 'Acme Support', address }]);
    assert.deepEqual(addressesOf(parsed.to), [customer]);
    assert.deepEqual(addressesOf(parsed.cc), [cc]);
    assert.equal(parsed.headers.has('bcc'), false, 'Bcc is not a header');
    assert.ok(!received.raw.toString('latin1').toLowerCase().includes(bcc.toLowerCase()), 'the Bcc address is nowhere in the mail');
    assert.equal(parsed.subject, `Re: Broken invoice [#${conversation.reference_number}]`);
    assert.equal(parsed.headers.has('auto-submitted'), false);
    assert.equal(parsed.headers.get('x-parley-conversation'), conversation.uuid);
    assert.equal(parsed.inReplyTo, undefined, 'nothing to reply to: the conversation had no mail yet');

    // Message-ID: derived from the message, stored as source_id and in mail_ids before sending.
    const domain = address.split('@')[1];
    assert.equal(parsed.messageId, `<${sent.uuid}@${domain}>`);
    assert.equal(await sourceId(sent.id), `${sent.uuid}@${domain}`);
    const mailId = await t.deps.db.selectFrom('mail_ids').where('message_id', '=', sent.id).selectAll().executeTakeFirstOrThrow();
    assert.deepEqual(
      [mailId.header_id, mailId.direction, mailId.outcome, mailId.conversation_id, mailId.inbox_id],
      [`${sent.uuid}@${domain}`, 'outgoing', 'sent', conversation.id, inbox.id],
    );

    // Reply-To: the conversation's plus address (plus_addressing is on).
    assert.deepEqual(addressesOf(parsed.replyTo), [address.replace('@', `+conv-${conversation.uuid}@`)]);

    // HTML with the sanitised signature, and a plain-text alternative with it.
    assert.equal(
      parsed.html,
      '<p>We fixed <b>your</b> invoice.</p>\n<br><div class="parley-signature"><p>Kind regards,<br /><b>The Support Team</b></p></div>',
    );
    assert.equal(parsed.text, 'We fixed your invoice.\n\n-- \nKind regards,\nThe Support Team');
    // Both are real parts of a multipart/alternative (mailparser would derive a text from the HTML otherwise).
    const raw = received.raw.toString('latin1');
    assert.match(raw, /Content-Type: multipart\/alternative;/i);
    assert.match(raw, /Content-Type: text\/plain; charset=utf-8/i);
    assert.match(raw, /Content-Type: text\/html; charset=utf-8/i);

    // The message answered by the API: sent, with exactly what went out.
    assert.deepEqual(done.meta.to, [customer]);
    assert.deepEqual(done.meta.cc, [cc]);
    assert.deepEqual(done.meta.bcc, [bcc]);
    assert.deepEqual(done.meta.from, [inbox.from]);
    assert.equal(done.meta.subject, parsed.subject);
    assert.equal(`<${done.meta['message_id']}>`, parsed.messageId);
    assert.equal(done.meta['in_reply_to'], null);
    assert.deepEqual(done.meta['references'], []);
    assert.equal(done.meta['delivery_error'], undefined);

    // message.updated: recorded with the new status.
    const events = await t.deps.db
      .selectFrom('domain_events')
      .where('type', '=', 'message.updated')
      .select('payload')
      .execute()
      .then((rows) => rows.map((r) => r.payload as Record<string, unknown>).filter((p) => p['message_uuid'] === sent.uuid));
    assert.deepEqual(
      events.map((p) => p['status']),
      ['sent'],
    );
  });

  it('threads a reply: In-Reply-To the last mail of the conversation, References the earlier ones, oldest first', async () => {
    const conversation = await createConversation(t, { inbox_id: inbox.id, subject: 'Re: RE: Order 42' });
    // The customer's mail that started it, as the reader would have recorded it.
    await recordMailId(
      t.deps.db,
      {
        inboxId: inbox.id,
        headerId: 'first.mail@customer.example',
        conversationId: conversation.id,
        messageId: null,
        direction: 'incoming',
        outcome: 'stored',
      },
      new Date(),
    );
    const first = await reply(conversation, { message: 'First answer' });
    await settled(conversation.uuid, first.uuid);
    const second = await reply(conversation, { message: 'Second answer' });
    const done = await settled(conversation.uuid, second.uuid);
    const { parsed } = await mailNumber(smtp.mails.length);

    const firstId = `<${await sourceId(first.id)}>`;
    assert.equal(parsed.subject, `Re: Order 42 [#${conversation.reference_number}]`, 'prefixes do not pile up');
    assert.equal(parsed.inReplyTo, firstId);
    assert.deepEqual(referencesOf(parsed), ['<first.mail@customer.example>', firstId]);
    // meta holds the ids as mail_ids does, without brackets (like a received mail's meta).
    assert.equal(done.meta['in_reply_to'], firstId.slice(1, -1));
    assert.deepEqual(done.meta['references'], ['first.mail@customer.example', firstId.slice(1, -1)]);
  });

  it('attaches the message files, and an inline image the HTML shows as a cid: part', async () => {
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    const pdf = Buffer.from('%PDF-1.4\n% a small test document\n');
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const upload = (filename: string, contentType: string, data: Buffer) =>
      storeMedia(t.deps, t.deps.db, { filename, contentType, data, uploaderId: t.admin.id });
    const doc = await upload('invoice.pdf', 'application/pdf', pdf);
    const image = await upload('logo.png', 'image/png', png);
    assert.equal(image.disposition, 'inline');
    const sent = await reply(conversation, {
      message: `<p>See the logo: <img src="${image.url}" alt="logo"></p>`,
      attachments: [doc.uuid, image.uuid],
    });
    assert.equal((await settled(conversation.uuid, sent.uuid)).status, 'sent');
    const { parsed } = await mailNumber(smtp.mails.length);

    const byName = new Map(parsed.attachments.map((a) => [a.filename, a]));
    const attachedPdf = byName.get('invoice.pdf');
    const inlinePng = byName.get('logo.png');
    assert.ok(attachedPdf && inlinePng, `attachments: ${[...byName.keys()]}`);
    assert.equal(attachedPdf.contentType, 'application/pdf');
    assert.equal(attachedPdf.contentDisposition, 'attachment');
    assert.deepEqual(attachedPdf.content, pdf);
    assert.deepEqual(inlinePng.content, png);
    assert.equal(inlinePng.contentDisposition, 'inline');
    const cid = inlinePng.cid;
    assert.ok(cid?.startsWith(image.uuid), `cid ${cid}`);
    assert.ok((parsed.html || '').includes(`src="cid:${cid}"`), 'the image points at its part, not at an expiring URL');
    assert.ok(!(parsed.html || '').includes('/api/v1/media/'), parsed.html || '');
  });

  it('fails at once a reply whose attachment is gone from storage', async () => {
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    const doc = await storeMedia(t.deps, t.deps.db, {
      filename: 'gone.pdf',
      contentType: 'application/pdf',
      data: Buffer.from('%PDF'),
      uploaderId: t.admin.id,
    });
    const row = await t.deps.db.selectFrom('media').where('uuid', '=', doc.uuid).select('storage_key').executeTakeFirstOrThrow();
    await t.deps.storage.delete(row.storage_key);
    const before = smtp.mails.length;
    const sent = await reply(conversation, { message: 'Here is the file', attachments: [doc.uuid] });
    const failed = await settled(conversation.uuid, sent.uuid);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.meta['delivery_error'], 'The attachment "gone.pdf" is missing from storage');
    assert.equal(smtp.mails.length, before);
  });

  it('sends the first mail of a conversation an agent starts, without "Re:", to the contact', async () => {
    const customer = uniqueEmail('new-customer');
    const before = smtp.mails.length;
    const conversation = dataOf<Conversation>(
      await t.call({
        method: 'POST',
        url: '/api/v1/conversations',
        payload: { inbox_id: inbox.id, contact_email: customer, subject: 'Your subscription', content: '<p>Hello from Acme</p>' },
      }),
    );
    const { received, parsed } = await mailNumber(before + 1);
    assert.deepEqual(received.rcptTo, [customer]);
    assert.equal(parsed.subject, `Your subscription [#${conversation.reference_number}]`);
    assert.equal(parsed.inReplyTo, undefined);
    const page = dataOf<{ results: Message[] }>(
      await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}/messages` }),
    );
    const first = page.results.find((m) => m.type === 'outgoing');
    assert.ok(first, 'the first message is the agent’s');
    const done = await settled(conversation.uuid, first.uuid);
    assert.equal(done.status, 'sent');
    assert.equal(`<${done.meta['message_id']}>`, parsed.messageId);
  });

  it('sends to the addresses the agent gave instead of the contact', async () => {
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    const other = uniqueEmail('colleague');
    const sent = await reply(conversation, { message: 'Forwarding to your colleague', to: [other] });
    const done = await settled(conversation.uuid, sent.uuid);
    assert.equal(done.status, 'sent');
    assert.deepEqual(done.meta.to, [other]);
    assert.deepEqual(smtp.mails.at(-1)?.rcptTo, [other]);
  });

  it('fails at once, before SMTP, a reply with no recipient address and a reply from a disabled inbox', async () => {
    const before = smtp.mails.length;
    const contact = await createContact(t, { email: null, external_user_id: `ext-${Date.now()}` } as never);
    const noAddress = await createConversation(t, { inbox_id: inbox.id, contact_id: contact.id });
    const unaddressed = await reply(noAddress, { message: 'Anyone there?' });
    const failed = await settled(noAddress.uuid, unaddressed.uuid);
    assert.equal(failed.status, 'failed');
    assert.match(String(failed.meta['delivery_error']), /No recipient address/);

    const disabledInbox = await emailInbox();
    const conversation = await createConversation(t, { inbox_id: disabledInbox.id });
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${disabledInbox.id}/toggle`, payload: { enabled: false } }));
    const pending = await reply(conversation, { message: 'Hello' });
    const refused = await settled(conversation.uuid, pending.uuid);
    assert.equal(refused.status, 'failed');
    assert.equal(refused.meta['delivery_error'], 'The inbox is disabled');

    // Left dead after one attempt, with the reason.
    const jobs = await waitUntil('both jobs left dead', async () => {
      const rows = await t.deps.db
        .selectFrom('jobs')
        .where('kind', '=', 'email.deliver')
        .where((eb) => eb(eb.ref('payload', '->>').key('message_uuid'), 'in', [unaddressed.uuid, pending.uuid]))
        .where('failed_at', 'is not', null)
        .select(['attempts', 'last_error'])
        .execute();
      return rows.length === 2 ? rows : null;
    }).then((rows) => rows ?? []);
    for (const job of jobs) assert.equal(job.attempts, 1, JSON.stringify(job));
    assert.match(jobs.map((j) => j.last_error).join(' '), /PermanentJobError: The inbox is disabled/);
    assert.equal(smtp.mails.length, before, 'nothing was sent');
  });
});

function addressesOf(field: ParsedMail['to']): string[] {
  if (!field) return [];
  const list = Array.isArray(field) ? field : [field];
  return list.flatMap((group) => group.value.map((v) => v.address ?? ''));
}

function referencesOf(parsed: ParsedMail): string[] {
  const refs = parsed.references;
  return refs === undefined ? [] : Array.isArray(refs) ? refs : [refs];
}
