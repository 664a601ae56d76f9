// The IMAP reader's connection modes against real Dovecot servers: polling every
// poll_interval_seconds when the server has no IDLE; implicit TLS and STARTTLS with a
// self-signed certificate (accepted only with tls_skip_verify); STARTTLS required, never
// silently skipped.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type Dovecot, testMail } from '../../test/dovecot.ts';
import { awaitValue, readerStatusOf, readerSuite, readingInbox } from '../../test/email-reading.ts';
import { waitUntil } from '../../test/receiver.ts';

describe('the IMAP reader: polling and TLS', { timeout: 120_000 }, () => {
  const suite = readerSuite([{ idle: false }, { tls: true }]);
  let noIdle: Dovecot;
  let tls: Dovecot;

  before(() => {
    [noIdle, tls] = suite.servers as [Dovecot, Dovecot];
  });

  async function stateOf(inboxId: number, state: string, timeoutMs = 15_000): Promise<Record<string, unknown>> {
    return awaitValue(
      `the reader ${state}`,
      async () => {
        const status = await readerStatusOf(suite.t, inboxId);
        return status['state'] === state ? status : undefined;
      },
      timeoutMs,
    );
  }

  it('polls every poll_interval_seconds when the server has no IDLE', async () => {
    const inbox = await readingInbox(suite.t, noIdle, { poll_interval_seconds: 10 });
    suite.readers();
    const first = await stateOf(inbox.id, 'polling');
    const uid = await noIdle.append(testMail());
    // Taken in by a later check of the same connection (no IDLE to tell it): no timing is asserted.
    await waitUntil('the mail taken in at the next poll', () => suite.intake.of(inbox.id).some((h) => h.source.uid === uid), 30_000);
    const status = await readerStatusOf(suite.t, inbox.id);
    assert.equal(status['state'], 'polling');
    assert.equal(status['connected_at'], first['connected_at'], 'the same connection');
    assert.notEqual(status['last_checked_at'], first['last_checked_at']);
  });

  it('reads over implicit TLS and STARTTLS when told to accept a self-signed certificate', async () => {
    const implicit = await readingInbox(suite.t, tls, { tls: 'tls', tls_skip_verify: true });
    const upgraded = await readingInbox(suite.t, tls, { tls: 'starttls', tls_skip_verify: true });
    suite.readers();
    await Promise.all([stateOf(implicit.id, 'idle'), stateOf(upgraded.id, 'idle')]);
    const uid = await tls.append(testMail());
    await waitUntil(
      'the mail taken in by both',
      () => [implicit.id, upgraded.id].every((id) => suite.intake.of(id).some((h) => h.source.uid === uid)),
      10_000,
    );
  });

  it('refuses a certificate that does not verify, and a server without STARTTLS when STARTTLS is asked for', async () => {
    const verifying = await readingInbox(suite.t, tls, { tls: 'tls' });
    const stripped = await readingInbox(suite.t, noIdle, { tls: 'starttls', tls_skip_verify: true });
    suite.readers();
    const [refused, plain] = await Promise.all([stateOf(verifying.id, 'failing'), stateOf(stripped.id, 'failing')]);
    assert.match(String(refused['last_error']), /self[- ]signed|certificate/i);
    assert.match(String(plain['last_error']), /STARTTLS/);
    assert.equal(suite.intake.of(verifying.id).length + suite.intake.of(stripped.id).length, 0);
  });
});
