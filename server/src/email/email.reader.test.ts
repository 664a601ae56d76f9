// The IMAP reader against a real Dovecot on loopback: what it takes in on a first connection
// (the import window), in UID order; a new mail within moments over IDLE; a mail over the size
// limit passed over without being downloaded, the 30 MB one included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testMail } from '../../test/dovecot.ts';
import { awaitValue, readerStatusOf, readerSuite, readingInbox } from '../../test/email-reading.ts';
import { dataOf } from '../../test/helpers.ts';
import { waitUntil } from '../../test/receiver.ts';

const MB = 1024 * 1024;
const HOUR = 3600_000;

/** A mail of about `bytes` bytes (base64 lines of an attachment). */
function bigMail(bytes: number, subject: string): string {
  const line = `${'QUJD'.repeat(19)}\r\n`;
  const body = line.repeat(Math.ceil(bytes / line.length));
  return testMail({
    subject,
    headers: ['Content-Type: multipart/mixed; boundary="b1"'],
    body: `--b1\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n--b1\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n${body}--b1--`,
  }).replace('Content-Type: text/plain; charset=utf-8\r\n', '');
}

describe('the IMAP reader', { timeout: 120_000 }, () => {
  const suite = readerSuite();

  it('reads the first mail of a mailbox that was empty when it connected, even with an import window of 0 hours', async () => {
    const box = await suite.mailbox('Reader');
    const inbox = await readingInbox(suite.t, suite.dovecot, { mailbox: box, import_since_hours: 0 });
    suite.readers();
    await awaitValue(
      'a cursor for the empty mailbox',
      async () => {
        const cursor = (await readerStatusOf(suite.t, inbox.id))['cursor'] as Record<string, unknown> | null;
        return cursor?.['last_uid'] === 0 ? cursor : undefined;
      },
      30_000,
    );
    const uid = await suite.dovecot.append(testMail(), { mailbox: box });
    await waitUntil(
      'the first mail taken in',
      () => suite.intake.of(inbox.id).some((h) => h.source.uid === uid && h.kind === 'stored'),
      20_000,
    );
  });

  it('takes in the mails of the import window in UID order, then a new mail within moments over IDLE', async () => {
    const box = await suite.mailbox('Reader');
    const old = new Date(Date.now() - 72 * HOUR);
    await suite.dovecot.append(testMail({ subject: 'old 1' }), { mailbox: box, date: old });
    const recent = [
      await suite.dovecot.append(testMail(), { mailbox: box }),
      await suite.dovecot.append(testMail(), { mailbox: box }),
      await suite.dovecot.append(testMail(), { mailbox: box }),
    ];
    await suite.dovecot.append(testMail({ subject: 'old 2' }), { mailbox: box, date: old });
    const inbox = await readingInbox(suite.t, suite.dovecot, { mailbox: box, import_since_hours: 24, poll_interval_seconds: 3600 });
    const supervisor = suite.readers();

    await waitUntil('the recent mails taken in', () => suite.intake.of(inbox.id).length === 3, 15_000);
    assert.deepEqual(
      suite.intake.of(inbox.id).map((h) => [h.source.uid, h.kind]),
      recent.map((uid) => [uid, 'stored']),
    );
    const status = await awaitValue('the reader idle', async () => {
      const data = await readerStatusOf(suite.t, inbox.id);
      return data['state'] === 'idle' ? data : undefined;
    });
    assert.equal(status['holder'], supervisor.instanceId);
    assert.equal(status['last_error'], null);
    assert.ok(status['connected_at'] && status['last_checked_at']);
    // The window was read to its end: the next connection starts after the last mail there was.
    assert.deepEqual((status['cursor'] as Record<string, unknown>)['last_uid'], 5);
    assert.equal((status['cursor'] as Record<string, unknown>)['mailbox'], box);

    // The next scheduled check is an hour away: only IDLE can bring the new mail in before it (no timing is asserted).
    const uid = await suite.dovecot.append(testMail(), { mailbox: box });
    await waitUntil('the new mail taken in over IDLE', () => suite.intake.of(inbox.id).some((h) => h.source.uid === uid), 60_000);
    assert.equal(suite.intake.of(inbox.id).length, 4, 'each mail once');
    // The mailbox is left as it was: nothing marked read.
    const flags = await suite.dovecot.flags(box);
    assert.equal(flags.size, 6);
    for (const [uid, set] of flags) assert.ok(!set.includes('\\Seen'), `flags of ${uid}: ${set.join(' ')}`);
    // Each became a conversation of the inbox, with the mail as its message.
    for (const handed of suite.intake.of(inbox.id)) {
      const conversation = dataOf<Record<string, unknown>>(
        await suite.t.call({ method: 'GET', url: `/api/v1/conversations/${handed.conversationUuid}` }),
      );
      assert.equal(conversation['inbox_id'], inbox.id);
    }
  });

  it('passes over a mail above the size limit without downloading it, and goes on', async () => {
    const box = await suite.mailbox('Reader');
    const uids = [
      await suite.dovecot.append(testMail(), { mailbox: box }),
      await suite.dovecot.append(bigMail(2 * MB, 'Huge logs'), { mailbox: box }),
      await suite.dovecot.append(testMail(), { mailbox: box }),
    ];
    const inbox = await readingInbox(suite.t, suite.dovecot, { mailbox: box });
    suite.readers({ ...suite.t.deps, config: { ...suite.t.deps.config, emailMaxMessageBytes: 1 * MB } });
    await waitUntil('three mails handed over', () => suite.intake.of(inbox.id).length === 3, 15_000);
    assert.deepEqual(
      suite.intake.of(inbox.id).map((h) => [h.source.uid, h.kind]),
      [
        [uids[0], 'stored'],
        [uids[1], 'skipped'],
        [uids[2], 'stored'],
      ],
    );
    const skipped = suite.intake.of(inbox.id)[1];
    assert.ok((skipped?.size ?? 0) > 2 * MB, `the server's size: ${skipped?.size}`);
    assert.match(skipped?.reason ?? '', /larger than the 1 MB limit/);

    const list = dataOf<{ results: Array<Record<string, unknown>>; total: number }>(
      await suite.t.call({ method: 'GET', url: `/api/v1/inboxes/${inbox.id}/email/skipped` }),
    );
    assert.equal(list.total, 1);
    assert.equal(list.results[0]?.['uid'], uids[1]);
    assert.equal(list.results[0]?.['subject'], 'Huge logs');
    assert.match(String(list.results[0]?.['sender']), /customer@customer\.example/);
    assert.match(String(list.results[0]?.['message_id']), /^test-\d+-\d+-\d+@customer\.example$/);
  });

  it('passes over a real 30 MB mail (default limit) in moments', async () => {
    const box = await suite.mailbox('Reader');
    const raw = bigMail(30 * MB, 'Thirty megabytes');
    const appendStarted = performance.now();
    const uid = await suite.dovecot.append(raw, { mailbox: box });
    const appendMs = performance.now() - appendStarted;
    const after = await suite.dovecot.append(testMail(), { mailbox: box });
    const inbox = await readingInbox(suite.t, suite.dovecot, { mailbox: box });
    const started = performance.now();
    suite.readers();
    await waitUntil('both mails handed over', () => suite.intake.of(inbox.id).length === 2, 20_000);
    const readMs = performance.now() - started;
    assert.deepEqual(
      suite.intake.of(inbox.id).map((h) => [h.source.uid, h.kind]),
      [
        [uid, 'skipped'],
        [after, 'stored'],
      ],
    );
    assert.ok((suite.intake.of(inbox.id)[0]?.size ?? 0) >= 30 * MB);
    assert.ok(readMs < 5000, `30 MB mail passed over in ${readMs.toFixed(0)} ms (append took ${appendMs.toFixed(0)} ms)`);
    // Dovecot counts what each session sent: no session sent the 30 MB back.
    await suite.stopReaders();
    const sent = await awaitValue('the sessions logged', () => {
      const out = [...suite.dovecot.log().matchAll(/Disconnected:.* out=(\d+)/g)].map((m) => Number(m[1]));
      return out.length > 0 ? out : undefined;
    });
    assert.ok(Math.max(...sent) < MB, `bytes sent by each session: ${sent.join(', ')}`);
  });
});
