// Threading (docs/email.md): headers, then a plus address, then the subject's [#reference] only
// from someone who took part; never a subject alone; the reopen window.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { plusAddress } from './email.addresses.ts';
import type { EmailInbox } from './email.inbox.ts';
import { ingestMail, type IngestOutcome } from './email.ingest.ts';
import { type Conversation, uniqueEmail } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { buildMail, emailInbox, newMessageId, nextSource, outlookReply } from '../../test/mail.ts';

const DAY = 86_400_000;

describe('email threading', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inbox: EmailInbox;

  before(async () => {
    t = await buildTestApp({ clock });
    inbox = await emailInbox(t, { reopen_window_days: 10 });
  });
  after(() => t.close());

  const conversation = async (uuid: string) => dataOf<Conversation>(await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` }));
  const setStatus = async (uuid: string, status: string) =>
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/status`, payload: { status } }));

  async function stored(raw: Buffer): Promise<Extract<IngestOutcome, { kind: 'stored' }>> {
    const outcome = await ingestMail(t.deps, inbox, raw, nextSource());
    if (outcome.kind !== 'stored') throw new Error(`expected a stored mail, got ${JSON.stringify(outcome)}`);
    return outcome;
  }

  /** A conversation started by a first mail from `from` (optionally with people in Cc). */
  async function started(from: string, subject: string, cc?: string) {
    const messageId = newMessageId();
    const outcome = await stored(await buildMail({ from, to: inbox.from, subject, messageId, ...(cc ? { cc } : {}) }));
    assert.equal(outcome.newConversation, true);
    return { ...outcome, messageId, record: await conversation(outcome.conversationUuid) };
  }

  it("files an Outlook reply without References by the subject's [#reference] when the contact sends it", async () => {
    const ann = uniqueEmail('ann');
    const start = await started(ann, 'Broken login');
    const reply = await stored(
      outlookReply({ from: `Ann <${ann.toUpperCase()}>`, to: inbox.from, subject: `RE: Broken login [#${start.record.reference_number}]` }),
    );
    assert.equal(reply.conversationUuid, start.conversationUuid);
    assert.equal(reply.newConversation, false);
  });

  it('accepts the [#reference] from an address that took part (in Cc), and refuses it from a stranger', async () => {
    const colleague = uniqueEmail('colleague');
    const start = await started(uniqueEmail('boss'), 'Contract renewal', `Colleague <${colleague}>`);
    const subject = `RE: Contract renewal [#${start.record.reference_number}]`;
    const fromColleague = await stored(outlookReply({ from: colleague, to: inbox.from, subject }));
    assert.equal(fromColleague.conversationUuid, start.conversationUuid);
    // Reference numbers are sequential: a stranger guessing one starts a conversation of their own.
    const stranger = await stored(outlookReply({ from: uniqueEmail('stranger'), to: inbox.from, subject }));
    assert.notEqual(stranger.conversationUuid, start.conversationUuid);
    assert.equal(stranger.newConversation, true);
  });

  it('never joins on a subject alone: two contacts with the same subject get two conversations', async () => {
    const first = await started(uniqueEmail('one'), 'Refund request');
    const second = await started(uniqueEmail('two'), 'Refund request');
    assert.notEqual(first.conversationUuid, second.conversationUuid);
    // The same contact writing again with the same subject and no thread headers: a new conversation too.
    const again = await stored(await buildMail({ from: String(first.record.contact.email), to: inbox.from, subject: 'Refund request' }));
    assert.notEqual(again.conversationUuid, first.conversationUuid);
  });

  it('starts a new conversation for a forwarded mail with a new subject and no references', async () => {
    const sender = uniqueEmail('fwd');
    const start = await started(sender, 'Delivery date');
    const forwarded = await stored(
      await buildMail({
        from: sender,
        to: inbox.from,
        subject: 'Fwd: Quote from our supplier',
        text: '---------- Forwarded message ---------\nFrom: supplier',
      }),
    );
    assert.notEqual(forwarded.conversationUuid, start.conversationUuid);
    assert.equal(forwarded.newConversation, true);
    assert.equal((await conversation(forwarded.conversationUuid)).subject, 'Fwd: Quote from our supplier');
  });

  it('files a mail to a plus address of this inbox from anyone, and ignores another inbox’s plus address', async () => {
    const start = await started(uniqueEmail('plus'), 'Order 66');
    const viaPlus = await stored(
      await buildMail({
        from: uniqueEmail('someone-else'),
        to: plusAddress(inbox.address, start.conversationUuid),
        subject: 'Another subject',
      }),
    );
    assert.equal(viaPlus.conversationUuid, start.conversationUuid);
    // In Delivered-To (the plus address was a Bcc) it counts too.
    const delivered = await stored(
      await buildMail({
        from: uniqueEmail('bcc'),
        to: 'list@example.org',
        subject: 'Hidden',
        headers: { 'Delivered-To': plusAddress(inbox.address, start.conversationUuid) },
      }),
    );
    assert.equal(delivered.conversationUuid, start.conversationUuid);
    const other = await emailInbox(t);
    const foreign = await stored(
      await buildMail({ from: uniqueEmail('foreign'), to: plusAddress(other.address, start.conversationUuid), subject: 'Foreign' }),
    );
    assert.notEqual(foreign.conversationUuid, start.conversationUuid);
  });

  it('prefers the headers over a [#reference] that names another conversation', async () => {
    const sender = uniqueEmail('both');
    const first = await started(sender, 'First topic');
    const second = await started(sender, 'Second topic');
    const reply = await stored(
      await buildMail({
        from: sender,
        to: inbox.from,
        subject: `Re: First topic [#${first.record.reference_number}]`,
        inReplyTo: second.messageId,
      }),
    );
    assert.equal(reply.conversationUuid, second.conversationUuid);
  });

  it('reopens a resolved conversation within the reopen window', async () => {
    const sender = uniqueEmail('reopen');
    const start = await started(sender, 'Printer jam');
    await setStatus(start.conversationUuid, 'Resolved');
    clock.advance(9 * DAY);
    const reply = await stored(await buildMail({ from: sender, to: inbox.from, subject: 'Re: Printer jam', inReplyTo: start.messageId }));
    assert.equal(reply.conversationUuid, start.conversationUuid);
    const record = await conversation(start.conversationUuid);
    assert.equal(record.status, 'Open');
    assert.equal(record.resolved_at, null);
  });

  it('starts a new conversation linked to the old one after the window', async () => {
    const sender = uniqueEmail('late');
    const start = await started(sender, 'Warranty');
    await setStatus(start.conversationUuid, 'Resolved');
    clock.advance(10 * DAY + 1000);
    const reply = await stored(
      outlookReply({ from: sender, to: inbox.from, subject: `RE: Warranty [#${start.record.reference_number}]`, text: 'It broke again.' }),
    );
    assert.notEqual(reply.conversationUuid, start.conversationUuid);
    assert.equal(reply.newConversation, true);
    const fresh = await conversation(reply.conversationUuid);
    assert.equal(fresh.meta.previous_conversation_uuid, start.conversationUuid);
    assert.equal(fresh.contact.id, start.record.contact.id);
    assert.equal((await conversation(start.conversationUuid)).status, 'Resolved');
    // Another answer to the old thread joins the conversation that continues it, not a third one.
    const next = await stored(await buildMail({ from: sender, to: inbox.from, subject: 'Re: Warranty', inReplyTo: start.messageId }));
    assert.equal(next.conversationUuid, reply.conversationUuid);
  });
});
