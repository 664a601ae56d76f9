// Notifications by mail, through a real test SMTP server: one mail per notification linking to
// the conversation, or, with `email_digest`, one digest per 15 minutes listing what waited.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { createConversation } from '../../test/factories.ts';
import { type Caller, dataOf, fakeClock, runDueJobs } from '../../test/helpers.ts';
import { buildMailApp, deliverSystemMail, type MailApp } from '../../test/system-mail.ts';
import { FAN_OUT_JOB, fanOutNotifications } from './notifications.fanout.ts';
import { sendNotificationDigests } from './notifications.mail.ts';

describe('notifications by mail', () => {
  const clock = fakeClock();
  let mail: MailApp;
  let ana: Caller;

  const assign = async (agent: Caller) => {
    const c = await createConversation(mail.t, { subject: `Parcel ${Date.now()}` });
    clock.advance(1000);
    dataOf(await mail.t.call({ method: 'PUT', url: `/api/v1/conversations/${c.uuid}/assignee/user`, payload: { assignee_id: agent.id } }));
    await runDueJobs(mail.t.deps, [FAN_OUT_JOB]);
    return c;
  };

  before(async () => {
    mail = await buildMailApp({ clock });
    ana = await mail.t.makeAgent({ first_name: 'Ana' });
  });
  after(() => mail.close());

  it('one mail per notification, with the title, and a link to the conversation', async () => {
    const c = await assign(ana);
    assert.equal(await deliverSystemMail(mail.t.deps), 1);
    const [received] = await mail.smtp.waitFor(1);
    assert.ok(received);
    assert.deepEqual(received.rcptTo, [ana.email]);
    const parsed = await simpleParser(received.raw);
    assert.match(parsed.subject ?? '', new RegExp(`assigned you #${c.reference_number} Parcel`));
    assert.ok(parsed.text?.includes(`http://localhost:9000/conversations/${c.uuid}`), parsed.text);
    assert.ok(String(parsed.html).includes(`http://localhost:9000/conversations/${c.uuid}`));
    const [row] = await mail.t.deps.db.selectFrom('notifications').select('email_status').where('agent_id', '=', ana.id).execute();
    assert.equal(row?.email_status, 'sent');
  });

  it('a burst mails once: the next notifications within 2 minutes wait for a digest; after the window, one mail each again', async () => {
    const bea = await mail.t.makeAgent({ first_name: 'Bea' });
    const before = mail.smtp.mails.length;
    const burst = [await assign(bea), await assign(bea), await assign(bea)];
    assert.equal(await deliverSystemMail(mail.t.deps), 1, 'one mail for the first');
    const statuses = await mail.t.deps.db
      .selectFrom('notifications')
      .select('email_status')
      .where('agent_id', '=', bea.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      statuses.map((row) => row.email_status),
      ['sent', 'pending', 'pending'],
    );
    clock.advance(15 * 60_000);
    assert.equal(await sendNotificationDigests(mail.t.deps), 1);
    assert.equal(await deliverSystemMail(mail.t.deps), 1);
    const received = await mail.smtp.waitFor(before + 2);
    const digest = await simpleParser(received[before + 1]?.raw ?? '');
    assert.match(digest.subject ?? '', /2 new/);
    for (const c of burst.slice(1)) assert.ok(digest.text?.includes(`#${c.reference_number} Parcel`), digest.text);
    // Long after the last mail: one mail of its own again.
    await assign(bea);
    assert.equal(await deliverSystemMail(mail.t.deps), 1);
  });

  it('a burst fanned out at once (two batches side by side, then one) still mails once', async () => {
    const cyd = await mail.t.makeAgent({ first_name: 'Cyd' });
    const before = mail.smtp.mails.length;
    for (let i = 0; i < 4; i += 1) {
      const c = await createConversation(mail.t, { subject: `Crate ${i}` });
      dataOf(await mail.t.call({ method: 'PUT', url: `/api/v1/conversations/${c.uuid}/assignee/user`, payload: { assignee_id: cyd.id } }));
    }
    const jobs = await mail.t.deps.db
      .selectFrom('jobs')
      .select('payload')
      .where('kind', '=', FAN_OUT_JOB)
      .where('completed_at', 'is', null)
      .execute();
    const context = { id: '1', attempts: 1, maxAttempts: 8, signal: new AbortController().signal };
    await Promise.all(jobs.map((job) => fanOutNotifications(mail.t.deps, job.payload, context)));
    const statuses = await mail.t.deps.db.selectFrom('notifications').select('email_status').where('agent_id', '=', cyd.id).execute();
    assert.deepEqual(statuses.map((row) => row.email_status).sort(), ['pending', 'pending', 'pending', 'sent']);
    await runDueJobs(mail.t.deps, [FAN_OUT_JOB]);
    assert.equal(await deliverSystemMail(mail.t.deps), 1, 'one mail');
    await mail.smtp.waitFor(before + 1);
    clock.advance(15 * 60_000);
    assert.equal(await sendNotificationDigests(mail.t.deps), 1, 'then one digest with the other three');
    assert.equal(await deliverSystemMail(mail.t.deps), 1);
    await mail.smtp.waitFor(before + 2);
  });

  it('with email_digest: one digest after 15 minutes listing every pending notification, then nothing more', async () => {
    const before = mail.smtp.mails.length;
    await mail.t.deps.db
      .insertInto('notification_settings')
      .values({ agent_id: ana.id, types: JSON.stringify({}) as never, email_digest: true, updated_at: clock.now() })
      .execute();
    const first = await assign(ana);
    const second = await assign(ana);
    assert.equal(await deliverSystemMail(mail.t.deps), 0, 'no mail of its own');
    assert.equal(await sendNotificationDigests(mail.t.deps), 0, 'not 15 minutes yet');
    clock.advance(15 * 60_000);
    assert.equal(await sendNotificationDigests(mail.t.deps), 1);
    assert.equal(await sendNotificationDigests(mail.t.deps), 0, 'nothing is left pending');
    assert.equal(await deliverSystemMail(mail.t.deps), 1);
    const received = await mail.smtp.waitFor(before + 1);
    const digest = received[before];
    assert.ok(digest);
    assert.deepEqual(digest.rcptTo, [ana.email]);
    const parsed = await simpleParser(digest.raw);
    assert.match(parsed.subject ?? '', /2 new/);
    for (const c of [first, second]) {
      assert.ok(parsed.text?.includes(`#${c.reference_number} Parcel`), parsed.text);
      assert.ok(parsed.text?.includes(`http://localhost:9000/conversations/${c.uuid}`));
    }
    const pending = await mail.t.deps.db.selectFrom('notifications').select('id').where('email_status', '=', 'pending').execute();
    assert.deepEqual(pending, []);
  });
});
