// One agent's whole account life, every secret of it collected on the way: an invitation link, a
// first password, the two-factor secret and recovery codes, sign-in challenges and codes, session
// cookies, a password-reset link, a new password, an API secret, and attempts with wrong ones.
// None of them may be in an audit entry, a log line, an error answer or a job row, and the
// database keeps the tokens and codes only hashed and the two-factor secret only encrypted.
// (Each domain's own tests check their part; this one checks them together, as they are used.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { cookieValue } from './auth.ts';
import { dataOf, fakeClock } from './helpers.ts';
import { buildMailApp, deliverSystemMail, type MailApp, readSystemMail } from './system-mail.ts';
import { codeAt, STEP_MS } from './two-factor.ts';

describe('an account’s secrets stay out of the audit log, the logs, errors and jobs', () => {
  const clock = fakeClock();
  const logLines: string[] = [];
  let m: MailApp;
  before(async () => {
    m = await buildMailApp({ clock, logLines });
  });
  after(() => m?.close());

  it('holds through invitation, two-factor sign-in, recovery, password reset and API keys', async () => {
    const secrets: string[] = [];
    const errorBodies: string[] = [];
    const call = async (options: Parameters<MailApp['t']['call']>[0]) => {
      const res = await m.t.call(options);
      if (res.statusCode >= 400) errorBodies.push(res.body);
      return res;
    };
    const nextMail = async () => {
      const count = m.smtp.mails.length;
      await deliverSystemMail(m.t.deps);
      const mails = await m.smtp.waitFor(count + 1);
      return readSystemMail(mails[count]!);
    };
    const sessionHeaders = (res: { headers: Record<string, unknown> }) => {
      const session = cookieValue(res as never, 'parley_session');
      const csrf = cookieValue(res as never, 'csrf_token');
      assert.ok(session && csrf, 'a session was opened');
      secrets.push(session);
      return { cookie: `parley_session=${session}; csrf_token=${csrf}`, 'x-csrf-token': csrf };
    };
    const email = 'whole-life@example.com';
    const login = (password: string) => call({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, as: null });

    // Invited, then a first password through the mailed link.
    const agent = dataOf<{ id: number }>(
      await call({ method: 'POST', url: '/api/v1/agents', payload: { email, first_name: 'Whole', roles: ['Agent'] } }),
    );
    const invitation = await nextMail();
    const firstPassword = 'first-passphrase-4417';
    secrets.push(invitation.token, firstPassword);
    dataOf(
      await call({
        method: 'POST',
        url: '/api/v1/auth/password-reset/confirm',
        payload: { token: invitation.token, password: firstPassword },
        as: null,
      }),
    );
    await call({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm',
      payload: { token: invitation.token, password: firstPassword },
      as: null,
    });

    // Two-factor sign-in set up from a session.
    let headers = sessionHeaders(await login(firstPassword));
    const setup = dataOf<{ secret: string; otpauth_url: string }>(
      await call({ method: 'POST', url: '/api/v1/agents/me/2fa/setup', as: null, headers }),
    );
    secrets.push(setup.secret);
    await call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: { code: '000000' }, as: null, headers });
    const enabled = dataOf<{ recovery_codes: string[] }>(
      await call({ method: 'POST', url: '/api/v1/agents/me/2fa/enable', payload: { code: codeAt(m.t, setup.secret) }, as: null, headers }),
    );
    secrets.push(...enabled.recovery_codes, ...enabled.recovery_codes.map((code) => code.replace(/-/g, '')));
    await call({ method: 'POST', url: '/api/v1/auth/logout', as: null, headers });

    // Signing in: a wrong password, a wrong code, a code, a recovery code, a code used twice.
    const wrongPassword = 'wrong-passphrase-9931';
    secrets.push(wrongPassword);
    await login(wrongPassword);
    const challengeOf = async () => {
      const { challenge } = dataOf<{ challenge: string }>(await login(firstPassword));
      secrets.push(challenge);
      return challenge;
    };
    let challenge = await challengeOf();
    await call({ method: 'POST', url: '/api/v1/auth/mfa', payload: { challenge, code: '123456' }, as: null });
    clock.advance(STEP_MS);
    const code = codeAt(m.t, setup.secret);
    headers = sessionHeaders(await call({ method: 'POST', url: '/api/v1/auth/mfa', payload: { challenge, code }, as: null }));
    challenge = await challengeOf();
    await call({ method: 'POST', url: '/api/v1/auth/mfa', payload: { challenge, code }, as: null });
    sessionHeaders(
      await call({
        method: 'POST',
        url: '/api/v1/auth/mfa',
        payload: { challenge: await challengeOf(), code: enabled.recovery_codes[0] },
        as: null,
      }),
    );

    // An API secret of its own, and a wrong one tried.
    const key = dataOf<{ api_key: string; api_secret: string }>(
      await call({ method: 'POST', url: '/api/v1/agents/me/api-key', as: null, headers }),
    );
    secrets.push(key.api_secret);
    await call({
      method: 'GET',
      url: '/api/v1/agents/me',
      as: null,
      headers: { authorization: `token ${key.api_key}:${key.api_secret.slice(1)}x` },
    });

    // Forgotten: a reset link, a new password, the link tried again.
    await call({ method: 'POST', url: '/api/v1/auth/password-reset', payload: { email }, as: null });
    const reset = await nextMail();
    const newPassword = 'second-passphrase-5520';
    secrets.push(reset.token, newPassword);
    dataOf(
      await call({
        method: 'POST',
        url: '/api/v1/auth/password-reset/confirm',
        payload: { token: reset.token, password: newPassword },
        as: null,
      }),
    );
    await call({
      method: 'POST',
      url: '/api/v1/auth/password-reset/confirm',
      payload: { token: reset.token, password: newPassword },
      as: null,
    });
    assert.equal(
      (await call({ method: 'GET', url: '/api/v1/agents/me', as: null, headers })).statusCode,
      401,
      'the reset ended the session',
    );

    const audit = JSON.stringify(await m.t.deps.db.selectFrom('audit_log').selectAll().execute());
    const jobs = JSON.stringify(await m.t.deps.db.selectFrom('jobs').selectAll().execute());
    const stored = JSON.stringify([
      await m.t.deps.db.selectFrom('users').selectAll().where('id', '=', agent.id).execute(),
      (await sql`select * from password_tokens`.execute(m.t.deps.db)).rows,
      (await sql`select * from two_factor_recovery_codes`.execute(m.t.deps.db)).rows,
      (await sql`select * from mfa_challenges`.execute(m.t.deps.db)).rows,
      (await sql`select * from sessions`.execute(m.t.deps.db)).rows,
    ]);
    assert.ok(audit.includes('auth.2fa_enabled') && audit.includes('auth.password_reset'), 'the journey was audited');
    assert.ok(logLines.length > 0 && errorBodies.length >= 6, 'logs and errors were captured');
    const places = { audit, log: logLines.join('\n'), errors: errorBodies.join('\n'), jobs, stored };
    for (const [place, text] of Object.entries(places)) {
      for (const secret of secrets) assert.ok(!text.includes(secret), `${place} holds a secret (${secret.slice(0, 4)}…)`);
    }
  });
});
