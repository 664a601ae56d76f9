// The IMAP reader's connection modes against real Dovecot servers: polling every
// poll_interval_seconds when the server has no IDLE; implicit TLS and STARTTLS with a
// self-signed certificate (accepted only with tls_skip_verify); STARTTLS required, never
// silently skipped.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { type Dovecot, startDovecot, testMail } from '../../test/dovecot.ts';
import { awaitValue, type ObservedIntake, observe, readerStatusOf, readingInbox, testReaders } from '../../test/email-reading.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { waitUntil } from '../../test/receiver.ts';
import type { EmailReaders } from './email.readers.ts';

describe('the IMAP reader: polling and TLS', { timeout: 120_000 }, () => {
  let t: TestApp;
  let noIdle: Dovecot;
  let tls: Dovecot;
  let intake: ObservedIntake;
  const running: EmailReaders[] = [];

  before(async () => {
    [t, noIdle, tls] = await Promise.all([buildTestApp(), startDovecot({ idle: false }), startDovecot({ tls: true })]);
  });
  after(async () => {
    await Promise.all([t?.close(), noIdle?.stop(), tls?.stop()]);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
    await t.deps.db.updateTable('inboxes').set({ enabled: false }).execute();
  });

  function readers(): EmailReaders {
    intake = observe();
    const started = testReaders(t.deps, intake);
    running.push(started);
    return started;
  }

  async function stateOf(inboxId: number, state: string, timeoutMs = 15_000): Promise<Record<string, unknown>> {
    return awaitValue(
      `the reader ${state}`,
      async () => {
        const status = await readerStatusOf(t, inboxId);
        return status['state'] === state ? status : undefined;
      },
      timeoutMs,
    );
  }

  it('polls every poll_interval_seconds when the server has no IDLE', async () => {
    const inbox = await readingInbox(t, noIdle, { poll_interval_seconds: 10 });
    readers();
    const first = await stateOf(inbox.id, 'polling');
    const uid = await noIdle.append(testMail());
    const appended = performance.now();
    await waitUntil('the mail taken in at the next poll', () => intake.of(inbox.id).some((h) => h.source.uid === uid), 15_000);
    const waited = performance.now() - appended;
    assert.ok(waited < 12_000, `taken in ${waited.toFixed(0)} ms after the append`);
    const status = await readerStatusOf(t, inbox.id);
    assert.equal(status['state'], 'polling');
    assert.equal(status['connected_at'], first['connected_at'], 'the same connection');
    assert.notEqual(status['last_checked_at'], first['last_checked_at']);
  });

  it('reads over implicit TLS and STARTTLS when told to accept a self-signed certificate', async () => {
    const implicit = await readingInbox(t, tls, { tls: 'tls', tls_skip_verify: true });
    const upgraded = await readingInbox(t, tls, { tls: 'starttls', tls_skip_verify: true });
    readers();
    await Promise.all([stateOf(implicit.id, 'idle'), stateOf(upgraded.id, 'idle')]);
    const uid = await tls.append(testMail());
    await waitUntil(
      'the mail taken in by both',
      () => [implicit.id, upgraded.id].every((id) => intake.of(id).some((h) => h.source.uid === uid)),
      10_000,
    );
  });

  it('refuses a certificate that does not verify, and a server without STARTTLS when STARTTLS is asked for', async () => {
    const verifying = await readingInbox(t, tls, { tls: 'tls' });
    const stripped = await readingInbox(t, noIdle, { tls: 'starttls', tls_skip_verify: true });
    readers();
    const [refused, plain] = await Promise.all([stateOf(verifying.id, 'failing'), stateOf(stripped.id, 'failing')]);
    assert.match(String(refused['last_error']), /self[- ]signed|certificate/i);
    assert.match(String(plain['last_error']), /STARTTLS/);
    assert.equal(intake.of(verifying.id).length + intake.of(stripped.id).length, 0);
  });
});
