// System mail on its own: the templates (values escaped in the HTML), and the send job's
// outcomes: a mail that can never go is dead at once, a temporary refusal is retried.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';
import { systemMailEnv } from '../../test/system-mail.ts';
import { PermanentJobError } from '../jobs/jobs.runner.ts';
import { encryptSecret } from '../security/encryption.ts';
import { sendSystemMail, systemMailStatus } from './system-mail.service.ts';
import { renderSystemMail } from './system-mail.templates.ts';

const job = { id: '1', attempts: 1, maxAttempts: 8, signal: new AbortController().signal };

describe('system mail templates', () => {
  it('fill the values, escaped in the HTML and as they are in the text', () => {
    const mail = renderSystemMail('invitation', {
      name: 'Ada <script>alert(1)</script>',
      inviter: 'Bob & Co',
      site: 'https://support.example.com',
      link: 'https://support.example.com/set-password?token=abc&x="y"',
    });
    assert.equal(mail.subject, 'You are invited to Parley');
    assert.match(mail.text, /Hello Ada <script>alert\(1\)<\/script>,/);
    assert.match(mail.text, /Bob & Co invited you/);
    assert.match(mail.text, /token=abc&x="y"/);
    assert.doesNotMatch(mail.html, /<script>/);
    assert.match(mail.html, /Ada &lt;script&gt;/);
    assert.match(mail.html, /href="https:\/\/support\.example\.com\/set-password\?token=abc&amp;x=&quot;y&quot;"/);
    assert.doesNotMatch(mail.text + mail.html, /\{[a-z_]+\}/, 'no placeholder left');
    const reset = renderSystemMail('password_reset', { name: 'Ada', site: 'x', link: 'https://x/set-password?token=t' });
    assert.match(reset.text, /1 hour/);
  });

  it('the status names what is missing', () => {
    assert.deepEqual(systemMailStatus({ smtp: null, mailFrom: null }), { configured: false, missing: ['SMTP_URL', 'MAIL_FROM'] });
    assert.deepEqual(systemMailStatus({ smtp: null, mailFrom: 'a@example.com' }), { configured: false, missing: ['SMTP_URL'] });
  });
});

describe('the system_mail.send job', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  before(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({ env: systemMailEnv(smtp) });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  const payload = (extra: Record<string, unknown> = {}) => ({
    to: 'agent@example.com',
    template: 'password_reset',
    values: { name: 'Agent', site: 'http://localhost:9000' },
    sealed: encryptSecret(t.deps.config.secretKey, JSON.stringify({ link: 'http://localhost:9000/set-password?token=T' })),
    ...extra,
  });

  it('sends a well-formed mail', async () => {
    await sendSystemMail(t.deps, payload(), job);
    const [mail] = await smtp.waitFor(1);
    assert.deepEqual(mail?.rcptTo, ['agent@example.com']);
    const parsed = await simpleParser(mail?.raw ?? Buffer.alloc(0));
    assert.equal(parsed.from?.text, '"Parley" <parley@example.test>');
    assert.match(parsed.text ?? '', /^http:\/\/localhost:9000\/set-password\?token=T$/m);
    assert.match(typeof parsed.html === 'string' ? parsed.html : '', /href="http:\/\/localhost:9000\/set-password\?token=T"/);
  });

  it('a payload it cannot use, or sealed under another SECRET_KEY, is dead at once', async () => {
    const bad = [
      payload({ to: '' }),
      payload({ template: 'unknown' }),
      payload({ values: 'x' }),
      payload({ sealed: 42 }),
      payload({ not_after: 'yesterday' }),
      payload({ sealed: encryptSecret(Buffer.from('another-secret-key-0123456789abcdefgh'), '{"link":"x"}') }),
      payload({ sealed: 'enc:v1:garbage' }),
    ];
    for (const p of bad) await assert.rejects(sendSystemMail(t.deps, p, job), PermanentJobError, JSON.stringify(p).slice(0, 60));
  });

  it('a 5xx refusal is final, a 4xx one is retried', async () => {
    smtp.refuse({ stage: 'rcpt', code: 550, times: 1 });
    await assert.rejects(sendSystemMail(t.deps, payload(), job), PermanentJobError);
    smtp.refuse({ stage: 'rcpt', code: 451, times: 1 });
    await assert.rejects(sendSystemMail(t.deps, payload(), job), (error: unknown) => !(error instanceof PermanentJobError));
  });

  it('a mail about a link that expired is not sent', async () => {
    const count = smtp.mails.length;
    await sendSystemMail(t.deps, payload({ not_after: new Date(t.deps.clock.now().getTime() - 1000).toISOString() }), job);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(smtp.mails.length, count);
  });

  it('without SMTP_URL at run time, the mail is dead at once', async () => {
    const bare = await buildTestApp();
    try {
      await assert.rejects(sendSystemMail(bare.deps, payload(), job), PermanentJobError);
    } finally {
      await bare.close();
    }
  });
});
