// The IMAP reader when things go wrong, against a real Dovecot: the server restarts (the reader
// reconnects and goes on), the mailbox is renumbered (a new UIDVALIDITY: read again, nothing
// counted twice), a wrong password (state failing with the server's reason, and no password in
// the state or the logs).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { testMail } from '../../test/dovecot.ts';
import { awaitValue, readerStatusOf, readerSuite, readingInbox } from '../../test/email-reading.ts';
import { waitUntil } from '../../test/receiver.ts';

describe('the IMAP reader, when things go wrong', { timeout: 120_000 }, () => {
  const suite = readerSuite();

  it('reconnects when the server restarts, and goes on from its cursor', async () => {
    await suite.dovecot.createMailbox('Restarts');
    const first = await suite.dovecot.append(testMail(), { mailbox: 'Restarts' });
    const inbox = await readingInbox(suite.t, suite.dovecot, { mailbox: 'Restarts' });
    suite.readers();
    const before = await awaitValue('the reader idle', async () => {
      const status = await readerStatusOf(suite.t, inbox.id);
      return status['state'] === 'idle' ? status : undefined;
    });
    assert.deepEqual(
      suite.intake.of(inbox.id).map((h) => h.source.uid),
      [first],
    );

    await suite.dovecot.restart();
    const second = await suite.dovecot.append(testMail(), { mailbox: 'Restarts' });
    await waitUntil('the mail after the restart taken in', () => suite.intake.of(inbox.id).some((h) => h.source.uid === second), 20_000);
    const status = await readerStatusOf(suite.t, inbox.id);
    assert.notEqual(status['connected_at'], before['connected_at'], 'a new connection');
    assert.ok(status['last_error'], 'the lost connection was recorded');
    assert.deepEqual(
      suite.intake.of(inbox.id).map((h) => [h.source.uid, h.kind]),
      [
        [first, 'stored'],
        [second, 'stored'],
      ],
    );
  });

  it('reads a renumbered mailbox (new UIDVALIDITY) again, counting no mail twice', async () => {
    await suite.dovecot.createMailbox('Renumbered');
    const mails = [testMail(), testMail(), testMail()];
    await suite.dovecot.append(mails[0] as string, { mailbox: 'Renumbered' });
    await suite.dovecot.append(mails[1] as string, { mailbox: 'Renumbered' });
    // A scheduled check every 10 s opens the mailbox again, and hears of the new UIDVALIDITY.
    const inbox = await readingInbox(suite.t, suite.dovecot, { mailbox: 'Renumbered', poll_interval_seconds: 10 });
    suite.readers();
    await waitUntil('two mails taken in', () => suite.intake.of(inbox.id).length === 2, 15_000);
    const before = (await readerStatusOf(suite.t, inbox.id))['cursor'] as { uidvalidity: number; last_uid: number };

    // Deleted and made again with the same two mails and a new one: UIDs start from 1 again.
    const uidvalidity = await suite.dovecot.recreateMailbox('Renumbered', mails);
    assert.notEqual(uidvalidity, before.uidvalidity);
    await waitUntil('the renumbered mailbox read', () => suite.intake.of(inbox.id).length === 5, 25_000);
    assert.deepEqual(
      suite.intake.of(inbox.id).map((h) => [h.source.uidvalidity, h.source.uid, h.kind]),
      [
        [before.uidvalidity, 1, 'stored'],
        [before.uidvalidity, 2, 'stored'],
        [uidvalidity, 1, 'duplicate'],
        [uidvalidity, 2, 'duplicate'],
        [uidvalidity, 3, 'stored'],
      ],
    );
    const cursor = await awaitValue('the cursor on the new UIDVALIDITY', async () => {
      const current = (await readerStatusOf(suite.t, inbox.id))['cursor'] as { uidvalidity: number; last_uid: number };
      return current.uidvalidity === uidvalidity ? current : undefined;
    });
    assert.equal(cursor.last_uid, 3);
  });

  it('reports a wrong password as failing with the server reason, and logs no password', async () => {
    await suite.dovecot.createMailbox('Passwords');
    await suite.dovecot.append(testMail(), { mailbox: 'Passwords' });
    const wrongPassword = 'wrong-password-5b2e71';
    const wrong = await readingInbox(suite.t, suite.dovecot, { mailbox: 'Passwords', password: wrongPassword });
    const right = await readingInbox(suite.t, suite.dovecot, { mailbox: 'Passwords' });
    let logs = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs += chunk.toString();
        done();
      },
    });
    suite.readers({ ...suite.t.deps, log: pino({ level: 'trace' }, sink) });

    const failing = await awaitValue('the wrong password failing', async () => {
      const status = await readerStatusOf(suite.t, wrong.id);
      return status['state'] === 'failing' && status['last_error'] ? status : undefined;
    });
    assert.match(String(failing['last_error']), /authentication failed/i);
    assert.ok(failing['last_error_at']);
    assert.equal(failing['connected_at'], null);
    await waitUntil('the right password reading', () => suite.intake.of(right.id).length === 1, 15_000);
    assert.equal(suite.intake.of(wrong.id).length, 0);
    // It keeps trying (with a growing delay), each failure recorded.
    await waitUntil('a second attempt', () => (logs.match(/email reader failed/g) ?? []).length >= 2, 15_000);

    assert.ok(logs.includes('email reader connected'), 'the logs were captured');
    for (const secret of [wrongPassword, suite.dovecot.password]) {
      assert.ok(!logs.includes(secret), 'no password in the logs');
      const status = await readerStatusOf(suite.t, wrong.id);
      assert.ok(!JSON.stringify(status).includes(secret), 'no password in the status');
    }
  });
});
