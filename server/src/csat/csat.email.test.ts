// CSAT on an email inbox: the survey goes out as a mail through the inbox's SMTP server (the
// `email.deliver` job, a real SMTP server on loopback), in the conversation's thread, carrying
// the link to the survey's page in both parts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { createConversation, createInbox, testEmailConfig, uniqueEmail } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { waitUntil } from '../../test/receiver.ts';
import { smtpSettingsFor, startMailRunner, startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';

type Message = { uuid: string; status: string; type: string; meta: Record<string, unknown>; text_content: string };

describe('CSAT by email', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let runner: { stop(): Promise<void> };

  before(async () => {
    t = await buildTestApp();
    smtp = await startSmtpServer();
    runner = startMailRunner(t.deps);
  });
  after(async () => {
    await runner.stop();
    await smtp.close();
    await t.close();
  });

  it('a resolved conversation of an email inbox with CSAT on mails the link to the survey page', async () => {
    const config = { imap: testEmailConfig().imap, smtp: smtpSettingsFor(smtp) };
    const inbox = await createInbox(t, { channel: 'email', csat_enabled: true, from: `Acme <support-${Date.now()}@acme.test>`, config });
    const customer = uniqueEmail('customer');
    const conversation = await createConversation(t, { inbox_id: inbox.id, contact_email: customer, subject: 'Broken invoice' });
    const before = smtp.mails.length;
    const resolved = dataOf<{ csat: { uuid: string; sent_via: string }; first_reply_at: string | null }>(
      await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/status`, payload: { status: 'Resolved' } }),
    );
    assert.equal(resolved.csat.sent_via, 'email');
    assert.equal(resolved.first_reply_at, null, 'the survey is not a first response');
    const link = `http://localhost:9000/csat/${resolved.csat.uuid}`;

    const received = (await smtp.waitFor(before + 1))[before]!;
    assert.deepEqual(received.rcptTo, [customer]);
    const mail = await simpleParser(received.raw);
    assert.match(mail.subject ?? '', /Broken invoice/);
    assert.ok(mail.text?.includes(link), `the text part carries the link: ${mail.text}`);
    assert.ok(typeof mail.html === 'string' && mail.html.includes(`href="${link}"`), 'the HTML part links to the page');

    const sent = await waitUntil('the survey message sent', async () => {
      const page = dataOf<{ results: Message[] }>(
        await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}/messages` }),
      );
      const message = page.results.find((m) => m.meta['csat_uuid'] === resolved.csat.uuid);
      return message?.status === 'sent' ? message : null;
    });
    assert.equal(sent?.type, 'outgoing');

    // The customer follows the mailed link: the page, then its form's post, answer the survey.
    const path = new URL(link).pathname;
    const page = await t.call({ method: 'GET', url: path, as: null });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<form method="post">/);
    const answered = await t.call({
      method: 'POST',
      url: path,
      as: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'rating=4&feedback=Quick+fix',
    });
    assert.equal(answered.statusCode, 200, answered.body);
    const rated = dataOf<{ csat: { rating: number | null; feedback: string | null } }>(
      await t.call({ url: `/api/v1/conversations/${conversation.uuid}` }),
    );
    assert.deepEqual([rated.csat.rating, rated.csat.feedback], [4, 'Quick fix']);

    // Reopened and resolved again: no second mail.
    await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/status`, payload: { status: 'Open' } });
    await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/status`, payload: { status: 'Resolved' } });
    const jobs = await t.deps.db
      .selectFrom('jobs')
      .where('kind', '=', 'email.deliver')
      .where((eb) => eb(eb.ref('payload', '->>').key('message_uuid'), '=', sent!.uuid))
      .select('id')
      .execute();
    assert.equal(jobs.length, 1);
    const all = await t.deps.db.selectFrom('jobs').where('kind', '=', 'email.deliver').select('id').execute();
    assert.equal(all.length, 1, 'one mail job in all: the survey');
  });
});
