// No mail loops, and mail that is not a person's message: auto-replies are filed without
// reopening anything or causing mail back, bounces fail the reply they report, our own mail
// coming back is never taken in, and a blocked sender's mail is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { markMessageStatus } from '../messages/messages.queries.ts';
import { outgoingMessageId } from './email.addresses.ts';
import type { EmailInbox } from './email.inbox.ts';
import { ingestMail, type IngestOutcome } from './email.ingest.ts';
import { recordMailId } from './email.mail-ids.ts';
import { type Conversation, uniqueEmail } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { buildMail, dsnBounce, emailInbox, newMessageId, nextSource, outOfOffice } from '../../test/mail.ts';

type Message = { uuid: string; type: string; status: string; meta: Record<string, unknown>; text_content: string };

describe('email loops, auto-replies, bounces and refusals', () => {
  let t: TestApp;
  let inbox: EmailInbox;

  before(async () => {
    t = await buildTestApp();
    inbox = await emailInbox(t);
  });
  after(() => t.close());

  const conversation = async (uuid: string) => dataOf<Conversation>(await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` }));
  const messages = async (uuid: string) =>
    dataOf<{ results: Message[] }>(
      await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}/messages?page_size=100` }),
    ).results.filter((m) => m.type !== 'activity');
  const countOf = async (table: 'jobs' | 'conversations' | 'users' | 'messages') =>
    Number(
      (
        await t.deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  async function stored(raw: Buffer): Promise<Extract<IngestOutcome, { kind: 'stored' }>> {
    const outcome = await ingestMail(t.deps, inbox, raw, nextSource());
    if (outcome.kind !== 'stored') throw new Error(`expected a stored mail, got ${JSON.stringify(outcome)}`);
    return outcome;
  }

  /** A conversation from a customer with an agent's reply, sent as the sender does it: its Message-ID recorded, then `sent`. */
  async function answered(customer: string) {
    const start = await stored(await buildMail({ from: customer, to: inbox.from, subject: 'Where is my parcel' }));
    const reply = dataOf<{ id: number; uuid: string }>(
      await t.call({
        method: 'POST',
        url: `/api/v1/conversations/${start.conversationUuid}/messages`,
        payload: { message: '<p>On its way.</p>' },
      }),
    );
    const headerId = outgoingMessageId(reply.uuid, inbox.address);
    const record = await conversation(start.conversationUuid);
    const values = {
      inboxId: inbox.id,
      headerId,
      conversationId: record.id,
      messageId: reply.id,
      direction: 'outgoing',
      outcome: 'sent',
    } as const;
    assert.equal(await recordMailId(t.deps.db, values, t.deps.clock.now()), true);
    assert.ok(await markMessageStatus(t.deps.db, reply.id, 'pending', 'sent', t.deps.clock.now()));
    return { start, reply, headerId };
  }

  it('files an out-of-office reply in its thread without reopening it or causing mail back', async () => {
    const customer = uniqueEmail('away');
    const { start, headerId } = await answered(customer);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${start.conversationUuid}/status`, payload: { status: 'Resolved' } }));
    const jobs = await countOf('jobs');
    const outcome = await ingestMail(t.deps, inbox, outOfOffice({ from: customer, to: inbox.from, inReplyTo: headerId }), nextSource());
    assert.deepEqual(outcome, { kind: 'auto_reply', conversationUuid: start.conversationUuid });
    const record = await conversation(start.conversationUuid);
    assert.equal(record.status, 'Resolved');
    assert.notEqual(record.resolved_at, null);
    const auto = (await messages(start.conversationUuid)).find((m) => m.meta.auto_submitted === true);
    assert.equal(auto?.type, 'incoming');
    assert.match(auto?.text_content ?? '', /out of the office/);
    assert.equal(auto?.meta.auto_submitted_reason, 'Auto-Submitted: auto-replied');
    assert.equal(await countOf('jobs'), jobs, 'no job (no mail) was queued');
  });

  it('notes an automatic mail that answers no conversation without starting one (Precedence: bulk, X-Autoreply)', async () => {
    const before = { conversations: await countOf('conversations'), users: await countOf('users') };
    const automatic: Record<string, string>[] = [{ Precedence: 'bulk' }, { 'X-Autoreply': 'yes' }, { 'Auto-Submitted': 'auto-generated' }];
    for (const headers of automatic) {
      const messageId = newMessageId();
      const raw = await buildMail({ from: uniqueEmail('newsletter'), to: inbox.from, subject: 'Our news', headers, messageId });
      assert.deepEqual(await ingestMail(t.deps, inbox, raw, nextSource()), { kind: 'auto_reply', conversationUuid: null });
      const row = await t.deps.db
        .selectFrom('mail_ids')
        .where('header_id', '=', messageId)
        .select(['outcome', 'conversation_id'])
        .executeTakeFirst();
      assert.deepEqual(row, { outcome: 'auto_reply', conversation_id: null });
    }
    assert.deepEqual({ conversations: await countOf('conversations'), users: await countOf('users') }, before);
    // `Auto-Submitted: no` is a person's mail.
    const person = await ingestMail(
      t.deps,
      inbox,
      await buildMail({ from: uniqueEmail('person'), to: inbox.from, headers: { 'Auto-Submitted': 'no' } }),
      nextSource(),
    );
    assert.equal(person.kind, 'stored');
  });

  it('marks the reply a bounce reports as failed with the remote reason, and stores no message', async () => {
    const customer = uniqueEmail('gone');
    const { start, reply, headerId } = await answered(customer);
    const before = await messages(start.conversationUuid);
    const outcome = await ingestMail(
      t.deps,
      inbox,
      dsnBounce({ to: inbox.address.address, originalMessageId: headerId, recipient: customer }),
      nextSource(),
    );
    assert.deepEqual(outcome, { kind: 'bounce', failedMessageUuid: reply.uuid });
    const after = await messages(start.conversationUuid);
    assert.equal(after.length, before.length, 'a bounce is not a message');
    const failed = after.find((m) => m.uuid === reply.uuid);
    assert.equal(failed?.status, 'failed');
    assert.match(
      String(failed?.meta.delivery_error),
      /^550 5\.1\.1 <.+>: Recipient address rejected: User unknown in virtual mailbox table$/,
    );
    const event = await t.deps.db
      .selectFrom('domain_events')
      .where('type', '=', 'message.updated')
      .where(({ ref }) => ref('payload', '->>').key('message_uuid'), '=', reply.uuid)
      .select('payload')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    assert.equal((event?.payload as { status?: string } | undefined)?.status, 'failed');
  });

  it('reads the returned message of a bounce (message/rfc822), and ignores a delay report', async () => {
    const { reply, headerId } = await answered(uniqueEmail('slow'));
    const delayed = dsnBounce({
      to: inbox.address.address,
      originalMessageId: headerId,
      action: 'delayed',
      status: '4.4.1',
      diagnostic: 'smtp; 451 try later',
    });
    assert.deepEqual(await ingestMail(t.deps, inbox, delayed, nextSource()), { kind: 'bounce', failedMessageUuid: null });
    const bounce = dsnBounce({
      to: inbox.address.address,
      originalMessageId: headerId,
      returned: 'message',
      diagnostic: 'smtp; 552 5.2.2 Mailbox full',
    });
    assert.deepEqual(await ingestMail(t.deps, inbox, bounce, nextSource()), { kind: 'bounce', failedMessageUuid: reply.uuid });
    // A bounce of a mail we do not know marks nothing.
    const stray = dsnBounce({ to: inbox.address.address, originalMessageId: newMessageId() });
    assert.deepEqual(await ingestMail(t.deps, inbox, stray, nextSource()), { kind: 'bounce', failedMessageUuid: null });
  });

  it('never takes in our own mail coming back: a known Message-ID is a duplicate, X-Parley-Conversation from us is refused', async () => {
    const { start, headerId } = await answered(uniqueEmail('copy'));
    const before = await messages(start.conversationUuid);
    const copy = await buildMail({ from: inbox.from, to: uniqueEmail('x'), subject: 'Re: Where is my parcel', messageId: headerId });
    assert.deepEqual(await ingestMail(t.deps, inbox, copy, nextSource()), { kind: 'duplicate' });
    const looped = await buildMail({
      from: inbox.from,
      to: inbox.from,
      subject: 'Re: loop',
      headers: { 'X-Parley-Conversation': start.conversationUuid },
    });
    const outcome = await ingestMail(t.deps, inbox, looped, nextSource());
    assert.equal(outcome.kind, 'skipped');
    assert.match(outcome.kind === 'skipped' ? outcome.reason : '', /X-Parley-Conversation.*mail loop/);
    assert.equal((await messages(start.conversationUuid)).length, before.length);
  });

  it("refuses a blocked contact's mail (recorded as skipped), new or in an existing conversation", async () => {
    const customer = uniqueEmail('blocked');
    const start = await stored(await buildMail({ from: customer, to: inbox.from, subject: 'Spam' }));
    const contactId = (await conversation(start.conversationUuid)).contact.id;
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/contacts/${contactId}/block`, payload: { enabled: false } }));
    const conversations = await countOf('conversations');
    const messageId = newMessageId();
    const outcome = await ingestMail(
      t.deps,
      inbox,
      await buildMail({ from: customer, to: inbox.from, subject: 'More spam', messageId }),
      nextSource(),
    );
    assert.deepEqual(outcome, { kind: 'skipped', reason: `the sender ${customer} is blocked: their mail is refused` });
    assert.equal(await countOf('conversations'), conversations);
    const skipped = await t.deps.db
      .selectFrom('email_skipped')
      .where('header_id', '=', messageId)
      .select(['sender', 'subject'])
      .executeTakeFirst();
    assert.deepEqual(skipped, { sender: customer, subject: 'More spam' });
    // Someone else writing into the blocked contact's conversation is refused too.
    const other = await ingestMail(
      t.deps,
      inbox,
      await buildMail({
        from: uniqueEmail('friend'),
        to: inbox.from,
        subject: 'Re: Spam',
        inReplyTo: String((await messages(start.conversationUuid))[0]?.meta.message_id),
      }),
      nextSource(),
    );
    assert.equal(other.kind, 'skipped');
    assert.equal((await messages(start.conversationUuid)).length, 1);
  });
});
