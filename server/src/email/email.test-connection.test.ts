// POST /inboxes/{id}/email/test against a real Dovecot (IMAP, with a self-signed certificate)
// and a real smtp-server (STARTTLS + AUTH) on loopback: good settings, a wrong password, a
// missing mailbox; the stored password kept only for
// the server it was given for; and the unhappy paths (401, 403, 404, 422, 400, 429).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type Dovecot, dovecotEmailConfig, startDovecot } from '../../test/dovecot.ts';
import { agentWith, createInbox } from '../../test/factories.ts';
import { assertError, buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { freePort } from '../../test/process-helpers.ts';
import { smtpSettingsFor, startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';
import { SECRET_MASK } from '../security/encryption.ts';
import { CONNECTION_TESTS_PER_MINUTE } from './email.routes.ts';

type Check = { ok: boolean; message: string; duration_ms: number };
type Result = { imap?: Check; smtp?: Check };

const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'smtp-secret-pw-51c0de';
const WRONG = 'wrong-password-9d2e71';

describe('testing the mail servers of an email inbox', { timeout: 120_000 }, () => {
  let t: TestApp;
  let dovecot: Dovecot;
  let smtp: TestSmtpServer;
  let closedPort: number;
  /** Each test its own administrator: tests are rate-limited per agent. */
  let admin: Awaited<ReturnType<typeof agentWith>>;

  before(async () => {
    [t, dovecot, smtp, closedPort] = await Promise.all([
      buildTestApp(),
      startDovecot({ tls: true }),
      startSmtpServer({ tls: 'starttls', auth: { username: SMTP_USER, password: SMTP_PASSWORD } }),
      freePort(),
    ]);
  });
  beforeEach(async () => {
    admin = await agentWith(t, ['inboxes:manage']);
  });
  after(async () => {
    await Promise.all([t?.close(), dovecot?.stop(), smtp?.close()]);
  });

  const imapSettings = (extra: Record<string, unknown> = {}) => ({ ...dovecotEmailConfig(dovecot).imap, ...extra });
  const smtpSettings = (extra: Record<string, unknown> = {}) =>
    smtpSettingsFor(smtp, 'starttls', { username: SMTP_USER, password: SMTP_PASSWORD, ...extra });
  const goodInbox = () => createInbox(t, { channel: 'email', config: { imap: imapSettings(), smtp: smtpSettings() } });
  const test = async (inboxId: number, payload: Record<string, unknown> = {}) =>
    dataOf<Result>(await t.call({ method: 'POST', url: `/api/v1/inboxes/${inboxId}/email/test`, payload, as: admin }));

  it('answers ok for both stored servers (empty body), and for a draft of each, saying what it reached', async () => {
    const inbox = await goodInbox();
    const stored = await test(inbox.id);
    assert.equal(stored.imap?.ok, true, stored.imap?.message);
    assert.match(stored.imap?.message ?? '', /Logged in .*mailbox "INBOX"/);
    assert.equal(stored.smtp?.ok, true, stored.smtp?.message);
    assert.match(stored.smtp?.message ?? '', new RegExp(`authenticated as ${SMTP_USER}`));
    assert.ok((stored.imap?.duration_ms ?? -1) >= 0);

    // Only the part sent is tested; the draft carries its own password.
    const onlySmtp = await test(inbox.id, { smtp: smtpSettings() });
    assert.deepEqual(Object.keys(onlySmtp), ['smtp']);
    assert.equal(onlySmtp.smtp?.ok, true);
    // Implicit TLS on Dovecot's TLS port, its self-signed certificate accepted on request.
    const tls = await test(inbox.id, {
      imap: imapSettings({ port: dovecot.tlsPort, tls: 'tls', tls_skip_verify: true, password: dovecot.password }),
    });
    assert.equal(tls.imap?.ok, true, tls.imap?.message);
  });

  it('answers a wrong password as an authentication failure, without the password', async () => {
    const inbox = await goodInbox();
    const response = await t.call({
      method: 'POST',
      url: `/api/v1/inboxes/${inbox.id}/email/test`,
      payload: { imap: imapSettings({ password: WRONG }), smtp: smtpSettings({ password: WRONG }) },
      as: admin,
    });
    const result = dataOf<Result>(response);
    assert.equal(result.imap?.ok, false);
    assert.match(result.imap?.message ?? '', /^Authentication failed/);
    assert.equal(result.smtp?.ok, false);
    assert.match(result.smtp?.message ?? '', /^Authentication failed/);
    for (const secret of [WRONG, SMTP_PASSWORD, dovecot.password]) assert.ok(!response.body.includes(secret), 'no password answered');
  });

  it('names a missing mailbox (a mail server answered, even on a private address)', async () => {
    // A closed port or an unverified certificate on this loopback server gets the generic answer
    // of a private address: email.test-connection.private.test.ts.
    const inbox = await goodInbox();
    const missing = await test(inbox.id, { imap: imapSettings({ mailbox: 'No such box' }) });
    assert.equal(missing.imap?.ok, false);
    assert.match(missing.imap?.message ?? '', /^Mailbox "No such box" could not be opened/);
  });

  it('uses the stored password for a masked or absent one only while host, port and TLS are unchanged', async () => {
    const inbox = await goodInbox();
    const masked = await test(inbox.id, { imap: imapSettings({ password: SECRET_MASK }), smtp: smtpSettings({ password: SECRET_MASK }) });
    assert.equal(masked.imap?.ok, true, masked.imap?.message);
    assert.equal(masked.smtp?.ok, true, masked.smtp?.message);
    const { password: _, ...withoutPassword } = imapSettings();
    const absent = await test(inbox.id, { imap: withoutPassword });
    assert.equal(absent.imap?.ok, true, absent.imap?.message);

    for (const moved of [{ port: closedPort }, { tls: 'starttls' }, { tls_skip_verify: true }, { host: 'localhost' }]) {
      const error = assertError(
        await t.call({
          method: 'POST',
          url: `/api/v1/inboxes/${inbox.id}/email/test`,
          payload: { imap: imapSettings({ ...moved, password: SECRET_MASK }) },
          as: admin,
        }),
        400,
        'InputException',
        JSON.stringify(moved),
      );
      assert.match(error.message, /imap\.password: must be sent again/);
    }
  });

  it('refuses without credentials, without inboxes:manage, unknown and live-chat inboxes, bad bodies; limits tests per agent', async () => {
    const inbox = await goodInbox();
    const chat = await createInbox(t);
    const url = `/api/v1/inboxes/${inbox.id}/email/test`;
    assertError(await t.call({ method: 'POST', url, payload: {}, as: null }), 401, 'UnauthorizedException');
    const reader = await agentWith(t, ['conversations:read_all']);
    assertError(await t.call({ method: 'POST', url, payload: {}, as: reader }), 403, 'PermissionException');
    assertError(
      await t.call({ method: 'POST', url: '/api/v1/inboxes/2147483647/email/test', payload: {}, as: admin }),
      404,
      'NotFoundException',
    );
    const refused = assertError(
      await t.call({ method: 'POST', url: `/api/v1/inboxes/${chat.id}/email/test`, payload: {}, as: admin }),
      422,
      'DataException',
    );
    assert.match(refused.message, /email inboxes/);
    for (const payload of [
      { bogus: 1 },
      { imap: 'x' },
      { imap: { ...imapSettings(), port: 'abc' } },
      { imap: { ...imapSettings(), port: 70000 } },
      { smtp: { ...smtpSettings(), extra: true } },
      { smtp: { port: 25 } },
    ]) {
      assertError(await t.call({ method: 'POST', url, payload, as: admin }), 400, 'InputException', JSON.stringify(payload));
    }

    // Counted per agent once the body has the route's shape: a malformed body is refused first.
    const limited = await agentWith(t, ['inboxes:manage']);
    const chatUrl = `/api/v1/inboxes/${chat.id}/email/test`;
    for (let i = 0; i < CONNECTION_TESTS_PER_MINUTE; i += 1) {
      assertError(await t.call({ method: 'POST', url: chatUrl, payload: {}, as: limited }), 422, 'DataException');
    }
    assertError(await t.call({ method: 'POST', url: chatUrl, payload: {}, as: limited }), 429, 'RateLimitException');
    assertError(await t.call({ method: 'POST', url: chatUrl, payload: { bogus: 1 }, as: limited }), 400, 'InputException');
    // Another agent is not limited by it.
    assertError(
      await t.call({ method: 'POST', url: chatUrl, payload: {}, as: await agentWith(t, ['inboxes:manage']) }),
      422,
      'DataException',
    );
  });
});
