// Outbound mail under load: many replies delivered at once, their reads and writes gathered into
// shared statements. Each message still ends sent or failed exactly once with one
// `message.updated`, its Message-ID stored before the mail reached the server; the inbox's
// decrypted settings are kept between mails, but a disabled inbox is seen at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConversation, createInbox, type Inbox, testEmailConfig, uniqueEmail } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { waitUntil } from '../../test/receiver.ts';
import { smtpSettingsFor, startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';
import { startJobRunner } from '../jobs/jobs.runner.ts';
import { emailInboxAt } from './email.inbox.ts';
import { deliverEmailMessage } from './email.send.ts';
import { closeEmailTransports } from './email.transport.ts';

type Message = { id: number; uuid: string; status: string; meta: Record<string, unknown> };

describe('many email replies at once', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let inbox: Inbox;
  /** For each mail the server got: whether its Message-ID was stored (source_id and mail_ids) when it arrived. */
  const storedOnArrival = new Map<string, boolean>();

  before(async () => {
    t = await buildTestApp();
    smtp = await startSmtpServer({
      async onMail(raw) {
        const headerId = /^Message-ID:\s*<([^>]+)>/im.exec(raw.toString('latin1'))?.[1] ?? '';
        const [mailId, message] = await Promise.all([
          t.deps.db.selectFrom('mail_ids').where('header_id', '=', headerId).select('message_id').executeTakeFirst(),
          t.deps.db.selectFrom('messages').where('source_id', '=', headerId).select('id').executeTakeFirst(),
        ]);
        storedOnArrival.set(headerId, mailId !== undefined && message !== undefined && mailId.message_id === message.id);
      },
    });
    const config = { imap: testEmailConfig().imap, smtp: smtpSettingsFor(smtp, 'none', { max_connections: 4 }) };
    inbox = await createInbox(t, { channel: 'email', from: `Support <support-${Date.now()}@acme.test>`, config });
  });
  after(async () => {
    closeEmailTransports(t.deps);
    await smtp.close();
    await t.close();
  });

  async function reply(conversationUuid: string, payload: Record<string, unknown>): Promise<Message> {
    return dataOf<Message>(await t.call({ method: 'POST', url: `/api/v1/conversations/${conversationUuid}/messages`, payload }));
  }

  async function statusOf(ids: number[]) {
    return t.deps.db.selectFrom('messages').where('id', 'in', ids).select(['id', 'uuid', 'status', 'meta']).execute();
  }

  it('sends each of 30 replies once (one refused recipient fails alone), each with one message.updated', async () => {
    const refused = uniqueEmail('gone');
    smtp.refuse({ stage: 'rcpt', code: 550, text: '5.1.1 No such user', address: refused });
    const conversations = await Promise.all(Array.from({ length: 6 }, () => createConversation(t, { inbox_id: inbox.id })));
    const replies: Message[] = [];
    for (let i = 0; i < 30; i++) {
      const conversation = conversations[i % conversations.length] as { uuid: string };
      replies.push(await reply(conversation.uuid, { message: `Reply ${i}`, ...(i === 17 ? { to: [refused] } : {}) }));
    }
    // All pending before the runner starts: it claims them together.
    const runner = startJobRunner(t.deps, { 'email.deliver': deliverEmailMessage }, { concurrency: 16, pollIntervalMs: 20 });
    const ids = replies.map((r) => r.id);
    try {
      await waitUntil(
        'every reply settled',
        async () => ((await statusOf(ids)).every((m) => m.status !== 'pending') ? true : null),
        60_000,
      );
    } finally {
      await runner.stop();
    }
    const rows = await statusOf(ids);
    const failed = rows.filter((row) => row.status === 'failed');
    assert.deepEqual(
      failed.map((row) => row.id),
      [replies[17]?.id],
    );
    assert.match(String((failed[0]?.meta as Record<string, unknown>)['delivery_error']), /550 5\.1\.1 No such user/);
    assert.equal(rows.filter((row) => row.status === 'sent').length, 29);

    // Each Message-ID reached the server once, and was stored before it did.
    const received = smtp.mails.map((mail) => /^Message-ID:\s*<([^>]+)>/im.exec(mail.raw.toString('latin1'))?.[1]);
    assert.equal(new Set(received).size, 29);
    assert.equal(received.length, 29);
    assert.deepEqual(
      [...storedOnArrival.values()].filter((stored) => !stored),
      [],
    );
    // The refused one has its Message-ID stored too (before SMTP), as meta says.
    const refusedRow = await t.deps.db
      .selectFrom('messages')
      .where('id', '=', replies[17]?.id as number)
      .select('source_id')
      .executeTakeFirst();
    assert.equal(refusedRow?.source_id, (failed[0]?.meta as Record<string, unknown>)['message_id']);

    // One message.updated per message, with its final status.
    const events = await t.deps.db.selectFrom('domain_events').where('type', '=', 'message.updated').select('payload').execute();
    const byMessage = new Map<string, string[]>();
    for (const { payload } of events) {
      const p = payload as Record<string, unknown>;
      byMessage.set(String(p['message_uuid']), [...(byMessage.get(String(p['message_uuid'])) ?? []), String(p['status'])]);
    }
    for (const row of rows) assert.deepEqual(byMessage.get(row.uuid), [row.status], row.uuid);

    // Run again (at least once delivery): nothing more is sent or written.
    const job = { id: '0', attempts: 2, maxAttempts: 8, signal: new AbortController().signal };
    await Promise.all(replies.map((r) => deliverEmailMessage(t.deps, { message_id: r.id }, job)));
    assert.equal(smtp.mails.length, 29);
    const after = await t.deps.db.selectFrom('domain_events').where('type', '=', 'message.updated').select('id').execute();
    assert.equal(after.length, events.length);
  });

  it('an inbox disabled after its settings were kept refuses the next reply at once', async () => {
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    const job = { id: '0', attempts: 1, maxAttempts: 8, signal: new AbortController().signal };
    const first = await reply(conversation.uuid, { message: 'Before' });
    await deliverEmailMessage(t.deps, { message_id: first.id }, job);
    assert.equal((await statusOf([first.id]))[0]?.status, 'sent');

    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${inbox.id}/toggle`, payload: { enabled: false } }));
    const second = await reply(conversation.uuid, { message: 'After' });
    await assert.rejects(deliverEmailMessage(t.deps, { message_id: second.id }, job), /The inbox is disabled/);
    const [row] = await statusOf([second.id]);
    assert.deepEqual([row?.status, (row?.meta as Record<string, unknown>)['delivery_error']], ['failed', 'The inbox is disabled']);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${inbox.id}/toggle`, payload: { enabled: true } }));
  });
});

describe('the inbox settings kept for sending', () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t.close();
  });

  async function updatedAtOf(id: number): Promise<Date> {
    const row = await t.deps.db.selectFrom('inboxes').where('id', '=', id).select('updated_at').executeTakeFirstOrThrow();
    return row.updated_at;
  }

  it('are kept while the version is the same, loaded again when it changes, and never kept for a row read before a change', async () => {
    const created = await createInbox(t, { channel: 'email', from: 'support@kept.test', config: testEmailConfig() });
    const first = await emailInboxAt(t.deps, created.id, 'v1', await updatedAtOf(created.id));
    assert.ok(first);
    assert.equal(await emailInboxAt(t.deps, created.id, 'v1', await updatedAtOf(created.id)), first, 'the same version: the kept inbox');

    const config = { ...testEmailConfig(), signature: '<p>New</p>' };
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${created.id}`, payload: { config } }));
    const updatedAt = await updatedAtOf(created.id);
    const second = await emailInboxAt(t.deps, created.id, 'v2', updatedAt);
    assert.notEqual(second, first);
    assert.equal(second?.settings.signature, '<p>New</p>');

    // A version read before a change, looked up after it: the inbox loaded is the new one, and it
    // is not kept under the old version.
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${created.id}`, payload: { config: testEmailConfig() } }));
    const stale = await emailInboxAt(t.deps, created.id, 'v2 read earlier', updatedAt);
    assert.equal(stale?.settings.signature, '');
    assert.notEqual(await emailInboxAt(t.deps, created.id, 'v2 read earlier', updatedAt), stale, 'not kept: loaded again');
    assert.equal(await emailInboxAt(t.deps, created.id, 'v2', updatedAt), second, 'the entry of the version before stays as it was');

    // Gone: null.
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/inboxes/${created.id}` }));
    assert.equal(await emailInboxAt(t.deps, created.id, 'after deletion', new Date()), null);
  });
});
