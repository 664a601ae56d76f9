// No mail loops, and mail that is not a person's message: auto-replies are filed without
// reopening anything or causing mail back, bounces fail the reply they report, our own mail
// coming back is never taken in, and a blocked sender's mail is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markMessageStatus } from '../messages/messages.queries.ts';
import { outgoingMessageId } from './email.addresses.ts';
import { ingestMail } from './email.ingest.ts';
import { recordMailId } from './email.mail-ids.ts';
import { uniqueEmail } from '../../test/factories.ts';
import { ingestSuite } from '../../test/email-ingest.ts';
import { dataOf } from '../../test/helpers.ts';
import { buildMail, dsnBounce, newMessageId, nextSource, outOfOffice, readReceipt } from '../../test/mail.ts';

type Message = { uuid: string; type: string; status: string; meta: Record<string, unknown>; text_content: string };

describe('email loops, auto-replies, bounces and refusals', () => {
  const suite = ingestSuite<Message>();

  /** A conversation from a customer with an agent's reply, sent as the sender does it: its Message-ID recorded, then `sent`. */
  async function answered(customer: string) {
    const start = await suite.stored(await buildMail({ from: customer, to: suite.inbox.from, subject: 'Where is my parcel' }));
    const reply = dataOf<{ id: number; uuid: string }>(
      await suite.t.call({
        method: 'POST',
        url: `/api/v1/conversations/${start.conversationUuid}/messages`,
        payload: { message: '<p>On its way.</p>' },
      }),
    );
    const headerId = outgoingMessageId(reply.uuid, suite.inbox.address);
    const record = await suite.conversation(start.conversationUuid);
    const values = {
      inboxId: suite.inbox.id,
      headerId,
      conversationId: record.id,
      messageId: reply.id,
      direction: 'outgoing',
      outcome: 'sent',
    } as const;
    assert.equal(await recordMailId(suite.t.deps.db, values, suite.t.deps.clock.now()), true);
    assert.ok(await markMessageStatus(suite.t.deps.db, reply.id, { from: ['pending'], to: 'sent', now: suite.t.deps.clock.now() }));
    return { start, reply, headerId };
  }

  it('files an out-of-office reply in its thread without reopening it or causing mail back', async () => {
    const customer = uniqueEmail('away');
    const { start, headerId } = await answered(customer);
    dataOf(
      await suite.t.call({ method: 'PUT', url: `/api/v1/conversations/${start.conversationUuid}/status`, payload: { status: 'Resolved' } }),
    );
    const jobs = await suite.count('jobs');
    const outcome = await ingestMail(
      suite.t.deps,
      suite.inbox,
      outOfOffice({ from: customer, to: suite.inbox.from, inReplyTo: headerId }),
      nextSource(),
    );
    assert.deepEqual(outcome, { kind: 'auto_reply', conversationUuid: start.conversationUuid });
    const record = await suite.conversation(start.conversationUuid);
    assert.equal(record.status, 'Resolved');
    assert.notEqual(record.resolved_at, null);
    const auto = (await suite.messages(start.conversationUuid)).find((m) => m.meta.auto_submitted === true);
    assert.equal(auto?.type, 'incoming');
    assert.match(auto?.text_content ?? '', /out of the office/);
    assert.equal(auto?.meta.auto_submitted_reason, 'Auto-Submitted: auto-replied');
    assert.equal(await suite.count('jobs'), jobs, 'no job (no mail) was queued');
  });

  it('files a read receipt (disposition-notification, no Auto-Submitted) without reopening its conversation', async () => {
    const customer = uniqueEmail('reader');
    const { start, headerId } = await answered(customer);
    dataOf(
      await suite.t.call({ method: 'PUT', url: `/api/v1/conversations/${start.conversationUuid}/status`, payload: { status: 'Resolved' } }),
    );
    const raw = readReceipt({ from: customer, to: suite.inbox.from, originalMessageId: headerId });
    const outcome = await ingestMail(suite.t.deps, suite.inbox, raw, nextSource());
    assert.deepEqual(outcome, { kind: 'auto_reply', conversationUuid: start.conversationUuid });
    assert.equal((await suite.conversation(start.conversationUuid)).status, 'Resolved');
    const receipt = (await suite.messages(start.conversationUuid)).find((m) => m.meta.auto_submitted === true);
    assert.equal(receipt?.meta.auto_submitted_reason, 'a read receipt (disposition-notification report)');
  });

  it('notes an automatic mail that answers no conversation without starting one (Precedence: bulk, X-Autoreply)', async () => {
    const before = { conversations: await suite.count('conversations'), users: await suite.count('users') };
    const automatic: Record<string, string>[] = [{ Precedence: 'bulk' }, { 'X-Autoreply': 'yes' }, { 'Auto-Submitted': 'auto-generated' }];
    for (const headers of automatic) {
      const messageId = newMessageId();
      const raw = await buildMail({ from: uniqueEmail('newsletter'), to: suite.inbox.from, subject: 'Our news', headers, messageId });
      assert.deepEqual(await ingestMail(suite.t.deps, suite.inbox, raw, nextSource()), { kind: 'auto_reply', conversationUuid: null });
      const row = await suite.t.deps.db
        .selectFrom('mail_ids')
        .where('header_id', '=', messageId)
        .select(['outcome', 'conversation_id'])
        .executeTakeFirst();
      assert.deepEqual(row, { outcome: 'auto_reply', conversation_id: null });
      // Listed for admins (GET /inboxes/{id}/email/skipped), so that no mail disappears unseen.
      const skipped = await suite.t.deps.db
        .selectFrom('email_skipped')
        .where('header_id', '=', messageId)
        .select('reason')
        .executeTakeFirst();
      assert.match(skipped?.reason ?? '', /^an automatic mail \(.+\) that answers none of the inbox's conversations/);
    }
    assert.deepEqual({ conversations: await suite.count('conversations'), users: await suite.count('users') }, before);
    // `Auto-Submitted: no` is a person's mail.
    const person = await ingestMail(
      suite.t.deps,
      suite.inbox,
      await buildMail({ from: uniqueEmail('person'), to: suite.inbox.from, headers: { 'Auto-Submitted': 'no' } }),
      nextSource(),
    );
    assert.equal(person.kind, 'stored');
  });

  it('marks the reply a bounce reports as failed with the remote reason, and stores no message', async () => {
    const customer = uniqueEmail('gone');
    const { start, reply, headerId } = await answered(customer);
    const before = await suite.messages(start.conversationUuid);
    const outcome = await ingestMail(
      suite.t.deps,
      suite.inbox,
      dsnBounce({ to: suite.inbox.address.address, originalMessageId: headerId, recipient: customer }),
      nextSource(),
    );
    assert.deepEqual(outcome, { kind: 'bounce', failedMessageUuid: reply.uuid });
    const after = await suite.messages(start.conversationUuid);
    assert.equal(after.length, before.length, 'a bounce is not a message');
    const failed = after.find((m) => m.uuid === reply.uuid);
    assert.equal(failed?.status, 'failed');
    assert.match(
      String(failed?.meta.delivery_error),
      /^550 5\.1\.1 <.+>: Recipient address rejected: User unknown in virtual mailbox table$/,
    );
    const event = await suite.t.deps.db
      .selectFrom('domain_events')
      .where('type', '=', 'message.updated')
      .where(({ ref }) => ref('payload', '->>').key('message_uuid'), '=', reply.uuid)
      .select('payload')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    assert.equal((event?.payload as { status?: string } | undefined)?.status, 'failed');
  });

  it('takes a delivery report without a From as a bounce, not as a mail without a sender', async () => {
    const customer = uniqueEmail('nofrom');
    const { reply, headerId } = await answered(customer);
    const raw = dsnBounce({ to: suite.inbox.address.address, originalMessageId: headerId, recipient: customer })
      .toString('utf8')
      .replace(/^From: .*\r\n/m, '');
    assert.ok(!/^From:/m.test(raw.split('\r\n\r\n')[0] as string));
    const outcome = await ingestMail(suite.t.deps, suite.inbox, Buffer.from(raw), nextSource());
    assert.deepEqual(outcome, { kind: 'bounce', failedMessageUuid: reply.uuid });
  });

  it('reads the returned message of a bounce (message/rfc822), and ignores a delay report', async () => {
    const { reply, headerId } = await answered(uniqueEmail('slow'));
    const delayed = dsnBounce({
      to: suite.inbox.address.address,
      originalMessageId: headerId,
      action: 'delayed',
      status: '4.4.1',
      diagnostic: 'smtp; 451 try later',
    });
    assert.deepEqual(await ingestMail(suite.t.deps, suite.inbox, delayed, nextSource()), { kind: 'bounce', failedMessageUuid: null });
    const bounce = dsnBounce({
      to: suite.inbox.address.address,
      originalMessageId: headerId,
      returned: 'message',
      diagnostic: 'smtp; 552 5.2.2 Mailbox full',
    });
    assert.deepEqual(await ingestMail(suite.t.deps, suite.inbox, bounce, nextSource()), { kind: 'bounce', failedMessageUuid: reply.uuid });
    // A bounce of a mail we do not know marks nothing.
    const stray = dsnBounce({ to: suite.inbox.address.address, originalMessageId: newMessageId() });
    assert.deepEqual(await ingestMail(suite.t.deps, suite.inbox, stray, nextSource()), { kind: 'bounce', failedMessageUuid: null });
  });

  it('never takes in our own mail coming back: a known Message-ID is a duplicate, X-Parley-Conversation from us is refused', async () => {
    const { start, headerId } = await answered(uniqueEmail('copy'));
    const before = await suite.messages(start.conversationUuid);
    const copy = await buildMail({ from: suite.inbox.from, to: uniqueEmail('x'), subject: 'Re: Where is my parcel', messageId: headerId });
    assert.deepEqual(await ingestMail(suite.t.deps, suite.inbox, copy, nextSource()), { kind: 'duplicate' });
    const looped = await buildMail({
      from: suite.inbox.from,
      to: suite.inbox.from,
      subject: 'Re: loop',
      headers: { 'X-Parley-Conversation': start.conversationUuid },
    });
    const outcome = await ingestMail(suite.t.deps, suite.inbox, looped, nextSource());
    assert.equal(outcome.kind, 'skipped');
    assert.match(outcome.kind === 'skipped' ? outcome.reason : '', /X-Parley-Conversation.*mail loop/);
    assert.equal((await suite.messages(start.conversationUuid)).length, before.length);
  });

  it("refuses a blocked contact's mail (recorded as skipped), new or in an existing conversation", async () => {
    const customer = uniqueEmail('blocked');
    const start = await suite.stored(await buildMail({ from: customer, to: suite.inbox.from, subject: 'Spam' }));
    const contactId = (await suite.conversation(start.conversationUuid)).contact.id;
    dataOf(await suite.t.call({ method: 'PUT', url: `/api/v1/contacts/${contactId}/block`, payload: { enabled: false } }));
    const conversations = await suite.count('conversations');
    const messageId = newMessageId();
    const outcome = await ingestMail(
      suite.t.deps,
      suite.inbox,
      await buildMail({ from: customer, to: suite.inbox.from, subject: 'More spam', messageId }),
      nextSource(),
    );
    assert.deepEqual(outcome, { kind: 'skipped', reason: `the sender ${customer} is blocked: their mail is refused` });
    assert.equal(await suite.count('conversations'), conversations);
    const skipped = await suite.t.deps.db
      .selectFrom('email_skipped')
      .where('header_id', '=', messageId)
      .select(['sender', 'subject'])
      .executeTakeFirst();
    assert.deepEqual(skipped, { sender: customer, subject: 'More spam' });
    // Someone else writing into the blocked contact's conversation is refused too.
    const other = await ingestMail(
      suite.t.deps,
      suite.inbox,
      await buildMail({
        from: uniqueEmail('friend'),
        to: suite.inbox.from,
        subject: 'Re: Spam',
        inReplyTo: String((await suite.messages(start.conversationUuid))[0]?.meta.message_id),
      }),
      nextSource(),
    );
    assert.equal(other.kind, 'skipped');
    assert.equal((await suite.messages(start.conversationUuid)).length, 1);
  });
});
