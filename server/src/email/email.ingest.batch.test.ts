// Taking mail in by batches (ingestBatch): each mail of a batch becomes what it would alone, in
// order, in one transaction with the cursor at the batch's last UID; a mail whose Message-ID is
// taken meanwhile rolls back only itself; a mail of the batch finds an earlier one's thread; a
// database going away writes nothing of the chunk, and the batch handed again is taken in
// exactly once (the mail-by-mail failures: email.ingest.failures.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { markMessageStatus } from '../messages/messages.queries.ts';
import { outgoingMessageId } from './email.addresses.ts';
import { type MailSource, readCursor } from './email.cursor.ts';
import { BATCH_LIMITS, ingestBatch, ingestMail } from './email.ingest.ts';
import { recordMailId } from './email.mail-ids.ts';
import { uniqueEmail } from '../../test/factories.ts';
import { ingestSuite } from '../../test/email-ingest.ts';
import { dataOf } from '../../test/helpers.ts';
import { buildMail, dsnBounce, newMessageId, nextSource } from '../../test/mail.ts';

describe('email ingestion in batches', () => {
  const suite = ingestSuite();

  const batchOf = (raws: Buffer[]) => raws.map((raw) => ({ raw, source: nextSource() }));
  const cursorUid = async () => Number((await readCursor(suite.t.deps.db, suite.inbox.id))?.last_uid);
  const lastUid = (batch: Array<{ source: MailSource }>) => batch.at(-1)?.source.uid;
  const messagesWith = (headerId: string) =>
    suite.t.deps.db.selectFrom('messages').where('source_id', '=', headerId).select(['id', 'conversation_id']).execute();
  const contactByEmail = (email: string) =>
    suite.t.deps.db.selectFrom('users').where('email', '=', email.toLowerCase()).select('id').executeTakeFirst();
  const mail = (from: string, messageId: string, extra: { inReplyTo?: string; subject?: string } = {}) =>
    buildMail({
      from,
      to: suite.inbox.from,
      subject: extra.subject ?? 'A question',
      messageId,
      ...(extra.inReplyTo ? { inReplyTo: extra.inReplyTo, references: [extra.inReplyTo] } : {}),
    });

  /** A conversation with an agent's reply sent by mail (its Message-ID recorded, the message `sent`), as the sender leaves it. */
  async function answered(customer: string) {
    const first = newMessageId();
    const [start] = await ingestBatch(suite.t.deps, suite.inbox, batchOf([await mail(customer, first)]));
    assert.equal(start?.kind, 'stored');
    if (start?.kind !== 'stored') throw new Error('unreachable');
    const url = `/api/v1/conversations/${start.conversationUuid}/messages`;
    const reply = dataOf<{ id: number; uuid: string }>(
      await suite.t.call({ method: 'POST', url, payload: { message: '<p>On its way.</p>' } }),
    );
    const [row] = await messagesWith(first);
    const headerId = outgoingMessageId(reply.uuid, suite.inbox.address);
    const values = { inboxId: suite.inbox.id, headerId, conversationId: row?.conversation_id ?? null, messageId: reply.id } as const;
    assert.equal(
      await recordMailId(suite.t.deps.db, { ...values, direction: 'outgoing', outcome: 'sent' }, suite.t.deps.clock.now()),
      true,
    );
    assert.ok(await markMessageStatus(suite.t.deps.db, reply.id, { from: ['pending'], to: 'sent', now: suite.t.deps.clock.now() }));
    return { start, first, reply, headerId };
  }

  it('takes in a batch of a duplicate, a refused mail, a bounce and a reply in the middle of new mails, in order, cursor at the end', async () => {
    const customer = uniqueEmail('mixed');
    const { start, first, reply, headerId } = await answered(customer);
    const fresh = [newMessageId(), newMessageId(), newMessageId()];
    const batch = batchOf([
      await mail(uniqueEmail('a'), fresh[0]!),
      // Read twice: the inbox knows it.
      await mail(customer, first),
      await buildMail({ from: suite.inbox.from, to: uniqueEmail('x'), subject: 'Our own mail back' }),
      dsnBounce({ to: suite.inbox.address.address, originalMessageId: headerId }),
      await mail(customer, fresh[1]!, { inReplyTo: headerId, subject: 'Re: A question' }),
      await mail(uniqueEmail('b'), fresh[2]!),
    ]);
    const outcomes = await ingestBatch(suite.t.deps, suite.inbox, batch);
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['stored', 'duplicate', 'skipped', 'bounce', 'stored', 'stored'],
    );
    assert.deepEqual(outcomes[3], { kind: 'bounce', failedMessageUuid: reply.uuid });
    const replied = outcomes[4];
    assert.equal(replied?.kind === 'stored' && replied.conversationUuid, start.conversationUuid);
    assert.equal(replied?.kind === 'stored' && replied.newConversation, false);
    assert.equal(await cursorUid(), lastUid(batch));
    for (const id of [first, ...fresh]) assert.equal((await messagesWith(id)).length, 1, `one message for ${id}`);
    const failed = await suite.t.deps.db.selectFrom('messages').where('id', '=', reply.id).select('status').executeTakeFirstOrThrow();
    assert.equal(failed.status, 'failed');
    const skipped = await suite.t.deps.db
      .selectFrom('email_skipped')
      .where('inbox_id', '=', suite.inbox.id)
      .where('uid', '=', batch[2]!.source.uid)
      .select('reason')
      .execute();
    assert.match(skipped[0]?.reason ?? '', /mail loop/);
    // Handed again (a crash before the reader noted it): every mail is known, only the cursor moves.
    const again = batch.map(({ raw }) => ({ raw, source: nextSource() }));
    assert.deepEqual(
      (await ingestBatch(suite.t.deps, suite.inbox, again)).map((o) => o.kind),
      Array(batch.length).fill('duplicate'),
    );
    assert.equal(await cursorUid(), lastUid(again));
  });

  it('files two mails of one batch in the same new thread in one conversation, and takes one mail twice in a batch once', async () => {
    const sender = uniqueEmail('thread');
    const first = newMessageId();
    const firstRaw = await mail(sender, first);
    const reply = await mail(uniqueEmail('colleague'), newMessageId(), { inReplyTo: first, subject: 'Re: A question' });
    const outcomes = await ingestBatch(suite.t.deps, suite.inbox, batchOf([firstRaw, reply, firstRaw]));
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['stored', 'stored', 'duplicate'],
    );
    const [a, b] = outcomes;
    assert.ok(a?.kind === 'stored' && b?.kind === 'stored');
    assert.equal(b.conversationUuid, a.conversationUuid);
    assert.equal(a.newConversation, true);
    assert.equal(b.newConversation, false);
  });

  it('rolls back only the mail whose Message-ID another reader took meanwhile', async () => {
    const taken = newMessageId();
    const late = uniqueEmail('late');
    const withFile = await buildMail({
      from: uniqueEmail('files'),
      to: suite.inbox.from,
      attachments: [{ filename: 'note.txt', content: Buffer.from('a note') }],
    });
    const put = suite.t.deps.storage.put;
    // While the batch is read (its files stored, the known Message-IDs looked up), another reader records one of its mails.
    suite.t.deps.storage.put = async (...args) => {
      await recordMailId(
        suite.t.deps.db,
        { inboxId: suite.inbox.id, headerId: taken, conversationId: null, messageId: null, direction: 'incoming', outcome: 'stored' },
        suite.t.deps.clock.now(),
      );
      return put.apply(suite.t.deps.storage, args);
    };
    let outcomes: Awaited<ReturnType<typeof ingestBatch>>;
    try {
      outcomes = await ingestBatch(
        suite.t.deps,
        suite.inbox,
        batchOf([withFile, await mail(late, taken), await mail(uniqueEmail('after'), newMessageId())]),
      );
    } finally {
      suite.t.deps.storage.put = put;
    }
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['stored', 'duplicate', 'stored'],
    );
    // The contact and conversation the mail started inside its savepoint are gone with it.
    assert.equal(await contactByEmail(late), undefined);
    assert.equal((await messagesWith(taken)).length, 0);
  });

  it('writes nothing of a chunk when the database goes away in the middle of it; the batch again is taken in once', async () => {
    const ids = [newMessageId(), newMessageId('fails.example.org'), newMessageId()];
    const senders = [uniqueEmail('before'), uniqueEmail('failing'), uniqueEmail('after')];
    const raws = await Promise.all(ids.map((id, i) => mail(senders[i]!, id)));
    const batch = batchOf(raws);
    const cursorBefore = await cursorUid();
    // The database goes away at the failing mail's message (a statement in the middle of the transaction).
    let failing = true;
    const refusing: KyselyPlugin = {
      transformQuery(args) {
        const text = JSON.stringify(args.node);
        if (failing && text.includes('InsertQueryNode') && text.includes(ids[1]!)) throw new Error('Connection terminated unexpectedly');
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const deps = { ...suite.t.deps, db: suite.t.deps.db.withPlugin(refusing) };
    await assert.rejects(ingestBatch(deps, suite.inbox, batch), /Connection terminated/);
    // Not retried mail by mail (the database is away, not the mail at fault): the chunk's transaction wrote nothing.
    for (const id of ids) assert.equal((await messagesWith(id)).length, 0);
    // The contacts written before the failing statement were rolled back with the rest.
    for (const sender of senders) assert.equal(await contactByEmail(sender), undefined);
    assert.equal(await cursorUid(), cursorBefore);
    // The reader hands the rest again (the same UIDs) once the database is back.
    failing = false;
    assert.deepEqual(
      (await ingestBatch(suite.t.deps, suite.inbox, batch)).map((o) => o.kind),
      ['stored', 'stored', 'stored'],
    );
    for (const id of ids) assert.equal((await messagesWith(id)).length, 1);
    assert.equal(await cursorUid(), lastUid(batch));
  });

  it('takes a batch larger than one transaction in chunks, every mail once, in order', async () => {
    const count = BATCH_LIMITS.mails + 3;
    const ids = Array.from({ length: count }, () => newMessageId());
    const sender = uniqueEmail('many');
    const batch = batchOf(await Promise.all(ids.map((id) => mail(sender, id))));
    const outcomes = await ingestBatch(suite.t.deps, suite.inbox, batch);
    assert.equal(outcomes.length, count);
    assert.ok(outcomes.every((o) => o.kind === 'stored'));
    assert.equal(await cursorUid(), lastUid(batch));
    // The one-mail form is the same path.
    assert.deepEqual(await ingestMail(suite.t.deps, suite.inbox, batch[0]!.raw, nextSource()), { kind: 'duplicate' });
  });
});
