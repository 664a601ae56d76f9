// Invitations and password reset at their edges: without system mail, bad input, rate limits,
// access rules, and secrets kept out of logs, audit entries, answers and job rows.
import assert from 'node:assert/strict';
import { agentWith } from '../../test/factories.ts';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { buildApp } from '../app.ts';
import { startJobRunner } from '../jobs/jobs.runner.ts';
import { jobHandlers } from '../workers.ts';
import { createContact } from '../../test/factories.ts';
import { assertError, buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { waitFor } from '../../test/jobs.ts';
import { startSmtpServer } from '../../test/smtp.ts';
import { buildMailApp, deliverSystemMail, type MailApp, readSystemMail } from '../../test/system-mail.ts';
import { PASSWORD_RESET_REQUEST_JOB } from './password-tokens.service.ts';
import { SYSTEM_MAIL_JOB } from '../system-mail/system-mail.service.ts';

const RESET = '/api/v1/auth/password-reset';
const CONFIRM = '/api/v1/auth/password-reset/confirm';

describe('without system mail', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  it('a reset answers 422 naming SMTP_URL and MAIL_FROM, for every address alike', async () => {
    const agent = await t.makeAgent();
    const known = await t.call({ method: 'POST', url: RESET, payload: { email: agent.email }, as: null });
    const unknown = await t.call({ method: 'POST', url: RESET, payload: { email: 'nobody@example.com' }, as: null });
    const error = assertError(known, 422, 'DataException');
    assert.match(error.message, /SMTP_URL and MAIL_FROM/);
    assert.equal(unknown.statusCode, 422);
    assert.equal(unknown.body, known.body);
    assert.equal((await t.deps.db.selectFrom('jobs').select('id').where('kind', '=', PASSWORD_RESET_REQUEST_JOB).execute()).length, 0);
  });

  it('an agent is created without a password as before (no invitation); /invite answers 422; the status says so', async () => {
    const created = dataOf<{ id: number }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/agents',
        payload: { email: 'sso-only@example.com', first_name: 'Sso', roles: ['Agent'] },
      }),
    );
    assert.equal((await t.deps.db.selectFrom('jobs').select('id').where('kind', '=', SYSTEM_MAIL_JOB).execute()).length, 0);
    assert.equal((await t.deps.db.selectFrom('password_tokens').select('id').execute()).length, 0);
    const invite = assertError(await t.call({ method: 'POST', url: `/api/v1/agents/${created.id}/invite` }), 422, 'DataException');
    assert.match(invite.message, /SMTP_URL/);
    const status = dataOf(await t.call({ method: 'GET', url: '/api/v1/system-mail/status', as: await t.makeAgent() }));
    assert.deepEqual(status, { configured: false, missing: ['SMTP_URL', 'MAIL_FROM'] });
    assertError(await t.call({ method: 'GET', url: '/api/v1/system-mail/status', as: null }), 401, 'UnauthorizedException');
  });

  it('with SMTP_URL alone, the 422 names MAIL_FROM', async () => {
    const other = await buildTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      const error = assertError(
        await other.call({ method: 'POST', url: RESET, payload: { email: 'a@example.com' }, as: null }),
        422,
        'DataException',
      );
      assert.match(error.message, /set MAIL_FROM/);
      assert.doesNotMatch(error.message, /SMTP_URL/);
    } finally {
      await other.close();
    }
  });
});

describe('invitation and reset routes at their edges', () => {
  let m: MailApp;
  before(async () => {
    m = await buildMailApp({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '40' } });
  });
  after(async () => {
    await m?.close();
  });

  it('the status of system mail', async () => {
    assert.deepEqual(dataOf(await m.t.call({ method: 'GET', url: '/api/v1/system-mail/status' })), { configured: true, missing: [] });
  });

  it('refuses bad reset and confirm bodies with 400', async () => {
    const resets: unknown[] = [
      {},
      { email: 42 },
      { email: '' },
      { email: 'not an address' },
      { email: 'a\u0000@example.com' },
      { email: `${'a'.repeat(300)}@example.com` },
      { email: 'a@example.com', extra: true },
      [],
    ];
    for (const payload of resets) {
      assertError(
        await m.t.call({ method: 'POST', url: RESET, payload: payload as object, as: null }),
        400,
        'InputException',
        JSON.stringify(payload),
      );
    }
    const confirms: unknown[] = [
      {},
      { token: 'x'.repeat(43) },
      { password: 'long-enough-password' },
      { token: 7, password: 'long-enough-password' },
      { token: 'x'.repeat(43), password: 12345678901 },
      { token: 'x'.repeat(43), password: 'short' },
      { token: '', password: 'long-enough-password' },
      { token: 'x'.repeat(100_000), password: 'long-enough-password' },
      { token: 'x'.repeat(43), password: 'p'.repeat(100_000) },
      { token: 'abc\u0000def', password: 'long-enough-password' },
      { token: 'x'.repeat(43), password: 'long-enough\u0000password' },
    ];
    for (const payload of confirms) {
      assertError(
        await m.t.call({ method: 'POST', url: CONFIRM, payload: payload as object, as: null }),
        400,
        'InputException',
        JSON.stringify(payload).slice(0, 80),
      );
    }
  });

  it('/agents/{id}/invite: 401 without credentials, 403 without users:manage, 404 for unknown or malformed ids, contacts and deleted agents', async () => {
    const agent = await m.t.makeAgent();
    assertError(await m.t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/invite`, as: null }), 401, 'UnauthorizedException');
    assertError(
      await m.t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/invite`, as: await m.t.makeAgent() }),
      403,
      'PermissionException',
    );
    assertError(await m.t.call({ method: 'POST', url: '/api/v1/agents/999999/invite' }), 404, 'NotFoundException');
    const contact = await createContact(m.t);
    assertError(await m.t.call({ method: 'POST', url: `/api/v1/agents/${contact.id}/invite` }), 404, 'NotFoundException');
    const gone = await m.t.makeAgent();
    await m.t.call({ method: 'DELETE', url: `/api/v1/agents/${gone.id}` });
    assertError(await m.t.call({ method: 'POST', url: `/api/v1/agents/${gone.id}/invite` }), 404, 'NotFoundException');
    for (const id of ['0', 'abc', '1.5', '99999999999']) {
      assertError(await m.t.call({ method: 'POST', url: `/api/v1/agents/${id}/invite` }), 404, 'NotFoundException', id);
    }
    assert.equal((await m.t.deps.db.selectFrom('password_tokens').select('id').execute()).length, 0, 'nothing was issued');
  });

  it('/agents/{id}/invite: 422 for an agent who set a password already, 403 for a stronger agent; nothing issued', async () => {
    const withPassword = await m.t.makeAgent({ password: 'has-a-password-123' });
    const refused = assertError(await m.t.call({ method: 'POST', url: `/api/v1/agents/${withPassword.id}/invite` }), 422, 'DataException');
    assert.match(refused.message, /Forgot password/);
    const manager = await agentWith(m.t, ['users:manage']);
    assertError(await m.t.call({ method: 'POST', url: `/api/v1/agents/${m.t.admin.id}/invite`, as: manager }), 403, 'PermissionException');
    assert.equal((await m.t.deps.db.selectFrom('password_tokens').select('id').execute()).length, 0, 'nothing was issued');
  });

  it('a disabled agent created without a password is not invited', async () => {
    const res = await m.t.call({
      method: 'POST',
      url: '/api/v1/agents',
      payload: { email: 'later@example.com', first_name: 'Later', roles: ['Agent'], enabled: false },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(await deliverSystemMail(m.t.deps), 0);
  });

  it('a failing SMTP server is retried with backoff until the mail goes', async () => {
    const agent = await m.t.makeAgent();
    m.smtp.refuse({ stage: 'mail', code: 451, times: 2 });
    const count = m.smtp.mails.length;
    await m.t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/invite` });
    const runner = startJobRunner(
      m.t.deps,
      { [SYSTEM_MAIL_JOB]: jobHandlers[SYSTEM_MAIL_JOB]! },
      { pollIntervalMs: 50, baseDelayMs: 40, maxDelayMs: 200 },
    );
    try {
      await m.smtp.waitFor(count + 1);
    } finally {
      await runner.stop();
    }
    const job = await m.t.deps.db
      .selectFrom('jobs')
      .select(['attempts', 'completed_at'])
      .where('kind', '=', SYSTEM_MAIL_JOB)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(job.attempts, 3, 'two refusals, then the mail');
    assert.deepEqual(m.smtp.mails.at(-1)?.rcptTo, [agent.email]);
  });

  it('rate-limits reset requests and confirmations per client address (429)', async () => {
    const address = '198.51.100.77';
    let limited = 0;
    for (let i = 0; i < 45; i++) {
      const res = await m.t.call({
        method: 'POST',
        url: RESET,
        payload: { email: 'someone@example.com' },
        as: null,
        remoteAddress: address,
      });
      if (res.statusCode === 429) limited += 1;
      else assert.equal(res.statusCode, 200);
    }
    assert.equal(limited, 5);
    assertError(
      await m.t.call({ method: 'POST', url: RESET, payload: { email: 'someone@example.com' }, as: null, remoteAddress: address }),
      429,
      'RateLimitException',
    );
    let refused = 0;
    for (let i = 0; i < 41; i++) {
      const res = await m.t.call({
        method: 'POST',
        url: CONFIRM,
        payload: { token: `guess-${i}`, password: 'long-enough-password' },
        as: null,
        remoteAddress: address,
      });
      if (res.statusCode === 429) refused += 1;
    }
    assert.equal(refused, 1);
  });
});

describe('an SMTP server that wants credentials', () => {
  it('gets the user name and password of SMTP_URL, percent-decoded', async () => {
    const smtp = await startSmtpServer({ auth: { username: 'parley@example.test', password: 'p@ss:w/rd' } });
    const t = await buildTestApp({
      env: { SMTP_URL: `smtp://parley%40example.test:p%40ss%3Aw%2Frd@${smtp.host}:${smtp.port}`, MAIL_FROM: 'parley@example.test' },
    });
    try {
      const agent = await t.makeAgent();
      await t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/invite` });
      await deliverSystemMail(t.deps);
      const [mail] = await smtp.waitFor(1);
      assert.equal(mail?.user, 'parley@example.test');
      assert.equal(smtp.authFailures, 0);
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});

describe('secrets of invitations and resets', () => {
  it('neither the token nor the password reaches the logs, the audit log, an answer or a job row', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    const m = await buildMailApp();
    const deps = { ...m.t.deps, log };
    const app = await buildApp(deps);
    const answers: string[] = [];
    const call = async (options: { method: 'GET' | 'POST'; url: string; payload?: object }) => {
      const res = await app.inject(options);
      answers.push(res.body, JSON.stringify(res.headers));
      return res;
    };
    try {
      const agent = await m.t.makeAgent({ password: 'the-first-passphrase' });
      await call({ method: 'POST', url: RESET, payload: { email: agent.email } });
      const runner = startJobRunner(
        deps,
        { [PASSWORD_RESET_REQUEST_JOB]: jobHandlers[PASSWORD_RESET_REQUEST_JOB]!, [SYSTEM_MAIL_JOB]: jobHandlers[SYSTEM_MAIL_JOB]! },
        { pollIntervalMs: 50 },
      );
      let mails: Awaited<ReturnType<typeof m.smtp.waitFor>> = [];
      try {
        mails = await m.smtp.waitFor(1);
        await waitFor(
          'the mail job completed',
          async () =>
            (await m.t.deps.db
              .selectFrom('jobs')
              .select('id')
              .where('kind', '=', SYSTEM_MAIL_JOB)
              .where('completed_at', 'is not', null)
              .executeTakeFirst()) ?? null,
        );
      } finally {
        await runner.stop();
      }
      const mail = await readSystemMail(mails[0]!);
      const password = 'the-second-passphrase-42';
      await call({ method: 'POST', url: CONFIRM, payload: { token: mail.token, password } });
      await call({ method: 'POST', url: CONFIRM, payload: { token: mail.token, password: `${password}-again` } });
      await call({ method: 'GET', url: `/set-password?token=${mail.token}` });
      assert.ok(lines.length > 5, 'the app logged');
      const jobs = await m.t.deps.db.selectFrom('jobs').select(['payload', 'last_error', 'dedupe_key']).execute();
      const audit = await m.t.deps.db.selectFrom('audit_log').selectAll().execute();
      assert.ok(audit.some((entry) => entry.action === 'auth.password_reset'));
      const tokens = await m.t.deps.db.selectFrom('password_tokens').select(['token_hash']).execute();
      const everything = [lines.join('\n'), JSON.stringify(jobs), JSON.stringify(audit), answers.join('\n'), JSON.stringify(tokens)].join(
        '\n',
      );
      for (const secret of [mail.token, encodeURIComponent(mail.token), password, 'the-first-passphrase']) {
        assert.ok(!everything.includes(secret), `never shown: ${secret.slice(0, 6)}…`);
      }
    } finally {
      await app.close();
      await m.close();
    }
  });
});
