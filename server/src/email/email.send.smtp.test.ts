// Outbound mail, the SMTP session: TLS modes (none, STARTTLS, implicit TLS, certificate checks),
// AUTH, the pools following settings changes, and what each kind of failure does to the message
// and its job (4xx retried, 5xx and a wrong password failed at once, the last attempt failing).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConversation, createInbox, type Inbox, testEmailConfig } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { waitUntil } from '../../test/receiver.ts';
import { smtpSettingsFor, startMailRunner, startSmtpServer, type TestSmtpOptions, type TestSmtpServer } from '../../test/smtp.ts';
import { DEFAULT_MAX_ATTEMPTS } from '../jobs/jobs.service.ts';
import { deliverEmailMessage } from './email.send.ts';
import { openTransportCount } from './email.transport.ts';

type Message = { id: number; uuid: string; status: string; meta: Record<string, unknown> };
type Conversation = { id: number; uuid: string };

const CREDENTIALS = { username: 'mailer@acme.test', password: 'correct horse battery staple' };

describe('the SMTP session of outbound mail', () => {
  let t: TestApp;
  let runner: { stop(): Promise<void> };
  const servers: TestSmtpServer[] = [];

  before(async () => {
    t = await buildTestApp();
    runner = startMailRunner(t.deps);
  });
  after(async () => {
    await runner.stop();
    await Promise.all(servers.map((s) => s.close()));
    await t.close();
  });

  async function server(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
    const s = await startSmtpServer(options);
    servers.push(s);
    return s;
  }

  async function inboxOn(s: TestSmtpServer, smtp: Record<string, unknown> = {}): Promise<Inbox> {
    const config = { imap: testEmailConfig().imap, smtp: { ...smtpSettingsFor(s), ...smtp } };
    return createInbox(t, { channel: 'email', from: `support-${Date.now()}@acme.test`, config });
  }

  /** A reply in a new conversation of the inbox, and its outcome once delivery decided. */
  async function replyThrough(inbox: Inbox, extra: Record<string, unknown> = {}) {
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    const url = `/api/v1/conversations/${conversation.uuid}/messages`;
    const message = dataOf<Message>(await t.call({ method: 'POST', url, payload: { message: 'Hello there', ...extra } }));
    return { conversation, message, outcome: () => settled(conversation, message) };
  }

  async function settled(conversation: Conversation, message: Message): Promise<Message> {
    const found = await waitUntil('the delivery outcome', async () => {
      const page = dataOf<{ results: Message[] }>(
        await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}/messages` }),
      );
      const row = page.results.find((m) => m.uuid === message.uuid);
      return row && row.status !== 'pending' ? row : null;
    });
    return found as Message;
  }

  /** The message's job once the runner recorded its end (completed or dead). */
  async function finishedJob(message: Message) {
    const job = await waitUntil('the job to finish', () =>
      t.deps.db
        .selectFrom('jobs')
        .where('kind', '=', 'email.deliver')
        .where((eb) => eb(eb.ref('payload', '->>').key('message_uuid'), '=', message.uuid))
        .where((eb) => eb.or([eb('completed_at', 'is not', null), eb('failed_at', 'is not', null)]))
        .select(['attempts', 'max_attempts', 'completed_at', 'failed_at', 'last_error'])
        .executeTakeFirst(),
    );
    return job as NonNullable<typeof job>;
  }

  it('STARTTLS with AUTH: the session is encrypted and authenticated', async () => {
    const s = await server({ tls: 'starttls', auth: CREDENTIALS });
    const inbox = await inboxOn(s, { tls: 'starttls', ...CREDENTIALS });
    const { outcome } = await replyThrough(inbox);
    assert.equal((await outcome()).status, 'sent');
    const [mail] = await s.waitFor(1);
    assert.deepEqual([mail?.secure, mail?.user], [true, CREDENTIALS.username]);
  });

  it('starttls is required: a server that does not offer it gets nothing in clear text', async () => {
    const s = await server({ tls: 'none' });
    const inbox = await inboxOn(s, { tls: 'starttls' });
    const { message, outcome } = await replyThrough(inbox);
    const failed = await outcome();
    assert.equal(failed.status, 'failed');
    assert.equal(failed.meta['delivery_error'], 'SMTP STARTTLS: 500 Error: command not recognized');
    assert.equal((await finishedJob(message)).attempts, 1, 'a 5xx answer: failed at once');
    assert.equal(s.mails.length, 0);
  });

  it('implicit TLS: encrypted from the first byte', async () => {
    const s = await server({ tls: 'tls' });
    const inbox = await inboxOn(s, { tls: 'tls' });
    const { outcome } = await replyThrough(inbox);
    assert.equal((await outcome()).status, 'sent');
    assert.equal((await s.waitFor(1))[0]?.secure, true);
  });

  it('tls none: plain SMTP, even when the server offers STARTTLS', async () => {
    const s = await server({ tls: 'starttls' });
    const inbox = await inboxOn(s, { tls: 'none' });
    const { outcome } = await replyThrough(inbox);
    assert.equal((await outcome()).status, 'sent');
    assert.equal((await s.waitFor(1))[0]?.secure, false);
  });

  it('verifies the certificate unless tls_skip_verify: a self-signed one is retried until the last attempt fails the message', async () => {
    const s = await server({ tls: 'tls' });
    const inbox = await inboxOn(s, { tls: 'tls', tls_skip_verify: false });
    const { message, outcome } = await replyThrough(inbox);
    const failed = await outcome();
    assert.equal(failed.status, 'failed');
    assert.match(String(failed.meta['delivery_error']), /self[- ]signed certificate/i);
    const job = await finishedJob(message);
    assert.deepEqual([job.attempts, job.max_attempts], [DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_ATTEMPTS], 'transient: every attempt was made');
    assert.equal(s.mails.length, 0);
  });

  it('a 4xx answer is retried, and the retry sends the mail once', async () => {
    const s = await server();
    const inbox = await inboxOn(s);
    s.refuse({ stage: 'rcpt', code: 451, text: '4.7.1 Greylisted, try again later', times: 1 });
    s.refuse({ stage: 'data', code: 452, text: '4.3.1 Insufficient system storage', times: 1 });
    const { message, outcome } = await replyThrough(inbox);
    const sent = await outcome();
    assert.equal(sent.status, 'sent');
    assert.equal(sent.meta['delivery_error'], undefined);
    const job = await finishedJob(message);
    assert.deepEqual([job.attempts, job.completed_at !== null], [3, true]);
    assert.match(String(job.last_error), /452 4\.3\.1 Insufficient system storage/);
    assert.equal(s.mails.length, 1);

    // The job run again after its success (at-least-once delivery) sends nothing.
    const payload = { message_id: message.id, message_uuid: message.uuid };
    await deliverEmailMessage(t.deps, payload, { id: '0', attempts: 4, maxAttempts: 8, signal: new AbortController().signal });
    assert.equal(s.mails.length, 1);
  });

  it('a 5xx answer fails the message at once with the server’s answer', async () => {
    const s = await server();
    const inbox = await inboxOn(s);
    s.refuse({ stage: 'rcpt', code: 550, text: '5.1.1 No such user here' });
    const { message, outcome } = await replyThrough(inbox);
    const failed = await outcome();
    assert.equal(failed.status, 'failed');
    assert.deepEqual(failed.meta['delivery_error'], `SMTP RCPT TO <${(failed.meta.to as string[])[0]}>: 550 5.1.1 No such user here`);
    assert.ok(Array.isArray(failed.meta.to) && failed.meta.to.length === 1, 'meta still says what was attempted');
    const job = await finishedJob(message);
    assert.deepEqual([job.attempts, job.failed_at !== null], [1, true]);
    assert.equal(s.mails.length, 0);
  });

  it('a recipient refused while others took the mail: sent, the refused address noted', async () => {
    const s = await server();
    const inbox = await inboxOn(s);
    s.refuse({ stage: 'rcpt', code: 550, text: '5.1.1 Unknown', address: 'gone@elsewhere.test' });
    const { outcome } = await replyThrough(inbox, { cc: ['gone@elsewhere.test'] });
    const sent = await outcome();
    assert.equal(sent.status, 'sent');
    assert.deepEqual(sent.meta['rejected_recipients'], ['gone@elsewhere.test']);
    assert.equal((await s.waitFor(1))[0]?.rcptTo.includes('gone@elsewhere.test'), false);
  });

  it('a wrong password (535) fails the message at once, and the password is nowhere in the outcome', async () => {
    const s = await server({ tls: 'starttls', auth: CREDENTIALS });
    const inbox = await inboxOn(s, { tls: 'starttls', username: CREDENTIALS.username, password: 'not-the-password-123' });
    const { message, outcome } = await replyThrough(inbox);
    const failed = await outcome();
    assert.equal(failed.status, 'failed');
    assert.equal(failed.meta['delivery_error'], 'SMTP AUTH PLAIN: 535 Invalid username or password');
    const job = await finishedJob(message);
    assert.equal(job.attempts, 1);
    assert.ok(s.authFailures >= 1);
    for (const text of [JSON.stringify(failed), String(job.last_error)]) assert.ok(!text.includes('not-the-password-123'), text);
  });

  it('changed SMTP settings take effect with the next mail: the old pool is closed and replaced', async () => {
    const first = await server();
    const second = await server();
    const inbox = await inboxOn(first);
    assert.equal((await (await replyThrough(inbox)).outcome()).status, 'sent');
    const pools = openTransportCount(t.deps);
    const config = { imap: testEmailConfig().imap, smtp: smtpSettingsFor(second) };
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${inbox.id}`, payload: { config } }));
    assert.equal((await (await replyThrough(inbox)).outcome()).status, 'sent');
    assert.deepEqual([first.mails.length, second.mails.length], [1, 1]);
    assert.equal(openTransportCount(t.deps), pools, 'one pool per inbox');
  });
});
