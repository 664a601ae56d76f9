// When a mail cannot be taken in (docs/email.md, "A mail that fails"): one that fails every
// attempt for a reason of its own is set aside (listed as skipped) once the mail after it goes
// in, or at once when its data is at fault, so that one bad mail never blocks the inbox; a
// failure every mail meets, or a database that is away, sets nothing aside. And the fence: only
// the instance holding the inbox's lease writes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { readCursor } from './email.cursor.ts';
import { ingestBatch } from './email.ingest.ts';
import { claimLeases, LeaseLost, releaseLeases } from './email.reader-state.ts';
import { uniqueEmail } from '../../test/factories.ts';
import { ingestSuite } from '../../test/email-ingest.ts';
import { buildMail, newMessageId, nextSource } from '../../test/mail.ts';

describe('email ingestion when a mail fails', () => {
  const suite = ingestSuite();

  const cursorUid = async () => Number((await readCursor(suite.t.deps.db, suite.inbox.id))?.last_uid ?? 0);
  const stored = async (headerId: string) =>
    (await suite.t.deps.db.selectFrom('messages').where('source_id', '=', headerId).select('id').execute()).length;
  const skippedReason = async (headerId: string) =>
    (await suite.t.deps.db.selectFrom('email_skipped').where('header_id', '=', headerId).select('reason').executeTakeFirst())?.reason;

  /** Three mails from three senders, with their Message-IDs, at the next positions. */
  async function threeMails() {
    const ids = [newMessageId(), newMessageId(), newMessageId()];
    const batch = await Promise.all(
      ids.map(async (messageId, i) => ({
        raw: await buildMail({ from: uniqueEmail(`sender${i}`), to: suite.inbox.from, subject: `Mail ${i}`, messageId }),
        source: nextSource(),
      })),
    );
    return { ids, batch };
  }

  /** The app's dependencies with a database that throws `error(headerId)` on every message written from one of `headerIds`. */
  function failingOn(headerIds: string[], error: (headerId: string) => Error) {
    const plugin: KyselyPlugin = {
      transformQuery(args) {
        const text = JSON.stringify(args.node);
        const id = headerIds.find((headerId) => text.includes(headerId));
        if (id !== undefined && text.includes('InsertQueryNode') && text.includes('"name":"messages"')) throw error(id);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    return { ...suite.t.deps, db: suite.t.deps.db.withPlugin(plugin) };
  }

  it('sets aside a mail that fails every attempt once the mail after it goes in, and goes on', async () => {
    const { ids, batch } = await threeMails();
    const deps = failingOn([ids[1]!], () => new TypeError("Cannot read properties of undefined (reading 'name')"));
    const outcomes = await ingestBatch(deps, suite.inbox, batch);
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['stored', 'skipped', 'stored'],
    );
    assert.equal(await stored(ids[1]!), 0);
    assert.match(
      (await skippedReason(ids[1]!)) ?? '',
      /^the mail could not be taken in \(3 attempts\): Cannot read properties of undefined \(reading 'name'\)$/,
    );
    const row = (await suite.skippedRows()).find((r) => r.header_id === ids[1]);
    assert.equal(row?.subject, 'Mail 1');
    assert.match(row?.sender ?? '', /^sender1/);
    assert.equal(row?.uid, batch[1]!.source.uid);
    assert.equal(await cursorUid(), batch[2]!.source.uid);
    // Handed again (a restart), every mail is a duplicate: the one set aside included.
    assert.deepEqual(
      (await ingestBatch(suite.t.deps, suite.inbox, batch)).map((o) => o.kind),
      ['duplicate', 'duplicate', 'duplicate'],
    );
  });

  it('sets nothing aside when the mail after it fails the same way: the fault is not the mail', async () => {
    const { ids, batch } = await threeMails();
    const deps = failingOn([ids[1]!, ids[2]!], () => new Error('relation "mail_ids" does not exist'));
    await assert.rejects(ingestBatch(deps, suite.inbox, batch), /relation "mail_ids" does not exist/);
    assert.equal(await stored(ids[0]!), 1, 'the mail before it is taken in');
    assert.equal(await skippedReason(ids[1]!), undefined);
    assert.equal(await cursorUid(), batch[0]!.source.uid);
    // Fixed: the rest is taken in.
    assert.deepEqual(
      (await ingestBatch(suite.t.deps, suite.inbox, batch)).map((o) => o.kind),
      ['duplicate', 'stored', 'stored'],
    );
  });

  it('sets aside each of two mails that fail in different ways', async () => {
    const { ids, batch } = await threeMails();
    const deps = failingOn([ids[0]!, ids[1]!], (id) => new Error(`a fault of its own (${id === ids[0] ? 'first' : 'second'})`));
    const outcomes = await ingestBatch(deps, suite.inbox, batch);
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['skipped', 'skipped', 'stored'],
    );
    assert.match((await skippedReason(ids[0]!)) ?? '', /\(first\)$/);
    assert.match((await skippedReason(ids[1]!)) ?? '', /\(second\)$/);
  });

  it('keeps the last mail for the reader to retry when nothing came after it, unless its data is at fault', async () => {
    const { ids, batch } = await threeMails();
    const last = [batch[2]!];
    await assert.rejects(
      ingestBatch(
        failingOn([ids[2]!], () => new Error('a fault of its own')),
        suite.inbox,
        last,
      ),
      /a fault of its own/,
    );
    assert.equal(await skippedReason(ids[2]!), undefined);
    // A value the database refuses (SQLSTATE 22001): set aside at once.
    const deps = failingOn([ids[2]!], () => Object.assign(new Error('value too long for type character varying(998)'), { code: '22001' }));
    assert.deepEqual(
      (await ingestBatch(deps, suite.inbox, last)).map((o) => o.kind),
      ['skipped'],
    );
    assert.match((await skippedReason(ids[2]!)) ?? '', /value too long/);
    assert.equal(await cursorUid(), batch[2]!.source.uid);
  });

  it('throws at once, setting nothing aside, when the database is away', async () => {
    const { ids, batch } = await threeMails();
    let attempts = 0;
    const deps = failingOn([ids[0]!], () => {
      attempts += 1;
      return Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    });
    await assert.rejects(ingestBatch(deps, suite.inbox, batch), /administrator command/);
    assert.equal(attempts, 1, 'not retried in place: the reader waits and tries again');
    assert.equal(await skippedReason(ids[0]!), undefined);
    assert.equal(await stored(ids[1]!), 0);
  });

  it('writes only under the lease of the inbox, when a fence is given', async () => {
    const { ids, batch } = await threeMails();
    const holder = `test-${process.pid}`;
    const now = suite.t.deps.clock.now();
    const before = await cursorUid();
    // Nobody holds the lease, then another instance holds it: LeaseLost, nothing written.
    await assert.rejects(ingestBatch(suite.t.deps, suite.inbox, batch, { holder }), LeaseLost);
    await claimLeases(suite.t.deps.db, { holder: 'another', inboxIds: [suite.inbox.id], leaseMs: 30_000, clockNow: now });
    await assert.rejects(ingestBatch(suite.t.deps, suite.inbox, batch, { holder }), LeaseLost);
    assert.equal(await stored(ids[0]!), 0);
    assert.equal(await cursorUid(), before);
    // Released by the other, taken by this holder: written.
    await releaseLeases(suite.t.deps.db, 'another', [suite.inbox.id], now);
    await claimLeases(suite.t.deps.db, { holder, inboxIds: [suite.inbox.id], leaseMs: 30_000, clockNow: now });
    assert.deepEqual(
      (await ingestBatch(suite.t.deps, suite.inbox, batch, { holder })).map((o) => o.kind),
      ['stored', 'stored', 'stored'],
    );
    await releaseLeases(suite.t.deps.db, holder, [suite.inbox.id], now);
  });
});
