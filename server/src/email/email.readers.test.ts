// The readers' supervisor: one reader per inbox across instances (the lease), a takeover when
// the holder stops or its lease runs out, readers stopped and started as inboxes are
// disabled, enabled and changed; and the retention of the skipped-mail list.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testMail } from '../../test/dovecot.ts';
import { awaitValue, readerStatusOf, readerSuite, readingInbox } from '../../test/email-reading.ts';
import { dovecotEmailConfig } from '../../test/dovecot.ts';
import { dataOf } from '../../test/helpers.ts';
import { waitUntil } from '../../test/receiver.ts';
import { recordSkipped } from './email.cursor.ts';
import type { EmailReaders } from './email.readers.ts';
import { purgeSkippedMails, SKIPPED_RETENTION_MS } from './email.status.ts';

describe('the email readers supervisor', { timeout: 120_000 }, () => {
  const suite = readerSuite();

  async function inbox() {
    const name = await suite.mailbox('Lease');
    return { name, inbox: await readingInbox(suite.t, suite.dovecot, { mailbox: name }) };
  }

  async function stateOf(inboxId: number, predicate: (status: Record<string, unknown>) => boolean, what: string) {
    return awaitValue(
      what,
      async () => {
        const status = await readerStatusOf(suite.t, inboxId);
        return predicate(status) ? status : undefined;
      },
      15_000,
    );
  }

  it('runs one reader per inbox across instances, and the other takes over when the holder stops', async () => {
    const { name, inbox: box } = await inbox();
    const second = await suite.t.secondInstance();
    try {
      const a = suite.readers(suite.t.deps);
      const b = suite.readers(second.deps, {}, suite.intake);
      const idle = await stateOf(box.id, (s) => s['state'] === 'idle', 'a reader idle');
      // Both have looked several times since: still one reader.
      await Promise.all([a.tick(), b.tick()]);
      await Promise.all([a.tick(), b.tick()]);
      const holders = [a, b].filter((s) => s.running().includes(box.id));
      assert.equal(holders.length, 1, 'one reader');
      const [holder] = holders as [EmailReaders];
      const other = holder === a ? b : a;
      assert.equal(idle['holder'], holder.instanceId);

      const uid = await suite.dovecot.append(testMail(), { mailbox: name });
      await waitUntil('the mail taken in', () => suite.intake.of(box.id).length === 1, 10_000);

      // A graceful stop gives the lease back: the other instance reads on at its next look.
      await holder.stop();
      const taken = await stateOf(box.id, (s) => s['holder'] === other.instanceId && s['state'] === 'idle', 'the other reading');
      assert.notEqual(taken['connected_at'], idle['connected_at']);
      const next = await suite.dovecot.append(testMail(), { mailbox: name });
      await waitUntil('the next mail taken in', () => suite.intake.of(box.id).length === 2, 10_000);
      assert.deepEqual(
        suite.intake.of(box.id).map((h) => [h.source.uid, h.kind]),
        [
          [uid, 'stored'],
          [next, 'stored'],
        ],
      );
    } finally {
      await suite.stopReaders();
      await second.close();
    }
  });

  it("takes over a dead holder's inbox when its lease runs out, not before", async () => {
    const { inbox: box } = await inbox();
    const expires = new Date(Date.now() + 2000);
    await suite.t.deps.db
      .insertInto('email_readers')
      .values({ inbox_id: box.id, holder: 'dead-host:1:email:0', lease_until: expires, state: 'idle' })
      .execute();
    // Ticks are 20 s apart: only the look scheduled at the lease's end can take it in time.
    const alive = suite.readers(suite.t.deps, { tickMs: 20_000 });
    await alive.tick();
    assert.deepEqual(alive.running(), [], 'the lease is still held');
    const status = await stateOf(box.id, (s) => s['holder'] === alive.instanceId && s['state'] === 'idle', 'taken over');
    assert.ok(Date.now() >= expires.getTime());
    // Well before the next regular look (20 s after the first): the look scheduled at the lease's end took it.
    assert.ok(Date.now() - expires.getTime() < 15_000, `taken over ${Date.now() - expires.getTime()} ms after the lease ended`);
    assert.equal(status['last_error'], null);
  });

  it('stops the reader of a disabled inbox, and starts it again when enabled or when its settings change', async () => {
    const { name, inbox: box } = await inbox();
    const readers = suite.readers();
    const first = await stateOf(box.id, (s) => s['state'] === 'idle', 'reading');

    dataOf(await suite.t.call({ method: 'PUT', url: `/api/v1/inboxes/${box.id}/toggle`, payload: { enabled: false } }));
    await waitUntil('the reader stopped', () => !readers.running().includes(box.id), 10_000);
    // The supervisor forgets the reader first, then stops it and gives its lease back.
    await stateOf(box.id, (s) => s['state'] === 'stopped' && s['holder'] === null, 'stopped, the lease given back');
    const row = await suite.t.deps.db.selectFrom('email_readers').where('inbox_id', '=', box.id).selectAll().executeTakeFirstOrThrow();
    assert.equal(row.holder, null, 'the lease was given back');

    dataOf(await suite.t.call({ method: 'PUT', url: `/api/v1/inboxes/${box.id}/toggle`, payload: { enabled: true } }));
    const again = await stateOf(box.id, (s) => s['state'] === 'idle' && s['connected_at'] !== first['connected_at'], 'reading again');

    dataOf(
      await suite.t.call({
        method: 'PUT',
        url: `/api/v1/inboxes/${box.id}`,
        payload: { config: dovecotEmailConfig(suite.dovecot, { mailbox: name, poll_interval_seconds: 30 }) },
      }),
    );
    await stateOf(box.id, (s) => s['state'] === 'idle' && s['connected_at'] !== again['connected_at'], 'restarted with the new settings');
    const uid = await suite.dovecot.append(testMail(), { mailbox: name });
    await waitUntil('a mail taken in', () => suite.intake.of(box.id).some((h) => h.source.uid === uid), 10_000);
    assert.equal(suite.intake.of(box.id).length, 1, 'taken in once');
  });

  it('keeps skipped mails 30 days', async () => {
    const { inbox: box } = await inbox();
    const now = suite.t.deps.clock.now().getTime();
    const entry = { source: null, headerId: null, sender: null, subject: null, size: 1, reason: 'test' };
    await recordSkipped(suite.t.deps.db, box.id, { ...entry, reason: 'old' }, new Date(now - SKIPPED_RETENTION_MS - 60_000));
    await recordSkipped(suite.t.deps.db, box.id, { ...entry, reason: 'recent' }, new Date(now - SKIPPED_RETENTION_MS + 60_000));
    assert.equal(await purgeSkippedMails(suite.t.deps), 1);
    const left = await suite.t.deps.db.selectFrom('email_skipped').where('inbox_id', '=', box.id).select('reason').execute();
    assert.deepEqual(
      left.map((r) => r.reason),
      ['recent'],
    );
  });
});
