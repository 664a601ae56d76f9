// Invitations and password reset end to end, with mail through a real SMTP server and the links
// followed as they arrive in the mail (docs/api.md, "Invitations and password reset").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authCalls } from '../../test/auth.ts';
import { assertError, dataOf, fakeClock } from '../../test/helpers.ts';
import { buildMailApp, deliverSystemMail, MAIL_FROM, type MailApp, readSystemMail } from '../../test/system-mail.ts';

const NEW_PASSWORD = 'a-brand-new-passphrase';

describe('invitations and password reset', () => {
  const clock = fakeClock();
  let m: MailApp;
  const calls = authCalls(() => m.t);
  before(async () => {
    m = await buildMailApp({ clock });
  });
  after(async () => {
    await m?.close();
  });

  const confirm = (token: string, password = NEW_PASSWORD) =>
    m.t.call({ method: 'POST', url: '/api/v1/auth/password-reset/confirm', payload: { token, password }, as: null });
  const requestReset = (email: string) => m.t.call({ method: 'POST', url: '/api/v1/auth/password-reset', payload: { email }, as: null });
  const loginStatus = async (email: string, password: string) =>
    (await m.t.call({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, as: null })).statusCode;

  /** The next mail the SMTP server receives, after the due mail jobs ran. */
  async function nextMail() {
    const count = m.smtp.mails.length;
    await deliverSystemMail(m.t.deps);
    const mails = await m.smtp.waitFor(count + 1);
    assert.equal(mails.length, count + 1, 'exactly one more mail');
    return readSystemMail(mails[count]!);
  }

  async function auditOf(action: string, resourceId: number) {
    return m.t.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', action)
      .where('resource_id', '=', String(resourceId))
      .orderBy('id')
      .execute();
  }

  it('an agent created without a password is invited; the mailed link sets it, once; then the agent signs in', async () => {
    const email = 'invitee@example.com';
    const created = await m.t.call({
      method: 'POST',
      url: '/api/v1/agents',
      payload: { email, first_name: 'Ines', last_name: 'Vite', roles: ['Agent'] },
      headers: { 'user-agent': 'admin-tool/1.0' },
    });
    const agent = dataOf<{ id: number }>(created);
    const mail = await nextMail();
    assert.deepEqual(mail.to, [email]);
    assert.equal(mail.from, MAIL_FROM.replace('Parley <', '"Parley" <'));
    assert.match(mail.subject, /invited/);
    assert.match(mail.text, /Hello Ines Vite/);
    assert.equal(mail.link.origin + mail.link.pathname, 'http://localhost:9000/set-password');
    assert.match(mail.text, /7 days/);

    const [audit] = await auditOf('agent.invited', agent.id);
    assert.ok(audit, 'agent.invited is audited');
    assert.equal(audit.actor_id, m.t.admin.id);
    assert.equal(audit.user_agent, 'admin-tool/1.0');

    assert.equal(await loginStatus(email, NEW_PASSWORD), 401, 'no password yet');
    assert.deepEqual(dataOf(await confirm(mail.token)), true);
    assertError(await confirm(mail.token, 'another-passphrase'), 400, 'InputException', 'the link works once');
    assert.equal(await loginStatus(email, 'another-passphrase'), 401);
    const session = await calls.login(email, NEW_PASSWORD);
    assert.equal(session.agent.id, agent.id);
    const [reset] = await auditOf('auth.password_reset', agent.id);
    assert.equal(reset?.actor_type, 'agent');
    assert.equal(reset?.actor_id, agent.id);
    assert.deepEqual(reset?.changes, { via: [null, 'invitation'] });
  });

  it('POST /agents/{id}/invite mails a new invitation; the older link dies', async () => {
    const agent = await m.t.makeAgent({ first_name: 'Oscar' });
    assert.equal(await deliverSystemMail(m.t.deps), 0, 'an agent made without the route is not invited');
    const first = dataOf<{ agent_id: number; expires_at: string }>(
      await m.t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/invite` }),
    );
    assert.equal(first.agent_id, agent.id);
    assert.equal(new Date(first.expires_at).getTime(), clock.now().getTime() + 7 * 24 * 3600 * 1000);
    const older = await nextMail();
    await m.t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/invite` });
    const newer = await nextMail();
    assert.notEqual(older.token, newer.token);
    assertError(await confirm(older.token), 400, 'InputException', 'the older invitation died');
    assert.equal(dataOf(await confirm(newer.token)), true);
    assert.equal(await loginStatus(agent.email, NEW_PASSWORD), 200);
    assert.equal((await auditOf('agent.invited', agent.id)).length, 2);
  });

  it('a reset mails a link; confirming ends every session, the old password fails, the new one works', async () => {
    const agent = await m.t.makeAgent({ password: 'the-old-passphrase' });
    const one = await calls.login(agent.email, 'the-old-passphrase');
    const two = await calls.login(agent.email, 'the-old-passphrase');
    assert.equal((await calls.me(calls.asSession(one).headers)).statusCode, 200, 'the credential is cached');
    const answer = await requestReset(agent.email.toUpperCase());
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(answer.json(), { status: 'success', data: true });
    const mail = await nextMail();
    assert.deepEqual(mail.to, [agent.email]);
    assert.match(mail.subject, /Reset your Parley password/);
    assert.match(mail.text, /1 hour/);
    assert.equal(
      dataOf(
        await m.t.call({
          method: 'POST',
          url: '/api/v1/auth/password-reset/confirm',
          payload: { token: mail.token, password: NEW_PASSWORD },
          as: null,
          headers: { 'user-agent': 'reset-browser/2.0' },
        }),
      ),
      true,
    );
    for (const session of [one, two]) {
      assertError(await calls.me(calls.asSession(session).headers), 401, 'UnauthorizedException', 'every session ended');
    }
    assert.equal(await loginStatus(agent.email, 'the-old-passphrase'), 401);
    assert.equal(await loginStatus(agent.email, NEW_PASSWORD), 200);
    assertError(await confirm(mail.token), 400, 'InputException', 'burnt');
    const [audit] = await auditOf('auth.password_reset', agent.id);
    assert.equal(audit?.actor_id, agent.id);
    assert.equal(audit?.user_agent, 'reset-browser/2.0');
    assert.ok(audit?.ip && audit.request_id, 'the request origin is kept');
    assert.deepEqual(audit?.changes, { via: [null, 'password_reset'] });
  });

  it('a confirmed reset signs the agent out on every instance (their cached credentials dropped)', async () => {
    const agent = await m.t.makeAgent({ password: 'the-old-passphrase' });
    const session = await calls.login(agent.email, 'the-old-passphrase');
    const second = await m.t.secondInstance();
    try {
      const me = () => second.app.inject({ method: 'GET', url: '/api/v1/agents/me', headers: calls.asSession(session).headers });
      assert.equal((await me()).statusCode, 200, 'the second instance caches the session');
      await requestReset(agent.email);
      const mail = await nextMail();
      assert.equal(dataOf(await confirm(mail.token)), true);
      let status = 200;
      for (let i = 0; i < 100 && status === 200; i++) {
        status = (await me()).statusCode;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(status, 401, 'the other instance refuses the session');
    } finally {
      await second.close();
    }
  });

  it('an unknown address is answered identically and mails nothing', async () => {
    const agent = await m.t.makeAgent();
    const known = await requestReset(agent.email);
    const unknown = await requestReset('nobody-here@example.com');
    assert.equal(unknown.statusCode, known.statusCode);
    assert.equal(unknown.body, known.body);
    assert.deepEqual(Object.keys(unknown.headers).sort(), Object.keys(known.headers).sort());
    const before = m.smtp.mails.length;
    assert.equal(await deliverSystemMail(m.t.deps), 3, 'two requests and one mail ran');
    await m.smtp.waitFor(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(m.smtp.mails.length, before + 1, 'only the known address got a mail');
    assert.deepEqual(m.smtp.mails.at(-1)?.rcptTo, [agent.email]);
  });

  it('links expire: a reset after 1 hour, an invitation after 7 days; a mail not yet sent by then is not sent', async () => {
    const agent = await m.t.makeAgent();
    await requestReset(agent.email);
    const reset = await nextMail();
    await m.t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/invite` });
    const invitation = await nextMail();
    clock.advance(3600 * 1000 + 1);
    assertError(await confirm(reset.token), 400, 'InputException', 'the reset link lived 1 hour');
    clock.advance(7 * 24 * 3600 * 1000 - 3600 * 1000);
    assertError(await confirm(invitation.token), 400, 'InputException', 'the invitation lived 7 days');

    await m.t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/invite` });
    clock.advance(7 * 24 * 3600 * 1000 + 1);
    const count = m.smtp.mails.length;
    assert.equal(await deliverSystemMail(m.t.deps), 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(m.smtp.mails.length, count, 'the mail of an expired link is not sent');
  });

  it('of two confirmations of one link at the same time, exactly one sets the password', async () => {
    const agent = await m.t.makeAgent();
    await requestReset(agent.email);
    const mail = await nextMail();
    const answers = await Promise.all([confirm(mail.token, 'first-racer-passphrase'), confirm(mail.token, 'second-racer-passphrase')]);
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 400]);
    const winner = answers[0]?.statusCode === 200 ? 'first-racer-passphrase' : 'second-racer-passphrase';
    const loser = winner === 'first-racer-passphrase' ? 'second-racer-passphrase' : 'first-racer-passphrase';
    assert.equal(await loginStatus(agent.email, winner), 200);
    assert.equal(await loginStatus(agent.email, loser), 401);
  });

  it('an unknown or malformed token is refused alike', async () => {
    const a = await confirm('x'.repeat(43));
    const b = await confirm('nonsense');
    assertError(a, 400, 'InputException');
    assert.equal(a.body, b.body);
  });

  it('a disabled agent gets no reset mail and cannot use an earlier link; a changed email kills the links', async () => {
    const agent = await m.t.makeAgent();
    await requestReset(agent.email);
    const mail = await nextMail();
    await m.t.call({ method: 'PUT', url: `/api/v1/agents/${agent.id}`, payload: { enabled: false } });
    assertError(await confirm(mail.token), 400, 'InputException', 'disabled: refused');
    await requestReset(agent.email);
    const count = m.smtp.mails.length;
    await deliverSystemMail(m.t.deps);
    assert.equal(m.smtp.mails.length, count, 'no mail to a disabled agent');
    assertError(await m.t.call({ method: 'POST', url: `/api/v1/agents/${agent.id}/invite` }), 422, 'DataException', 'no invitation either');

    const other = await m.t.makeAgent();
    await requestReset(other.email);
    const sent = await nextMail();
    await m.t.call({ method: 'PUT', url: `/api/v1/agents/${other.id}`, payload: { email: `moved-${other.email}` } });
    assertError(await confirm(sent.token), 400, 'InputException', 'mailed to an address the agent no longer has');
  });

  it('a password set otherwise (by an admin, or changed by the agent) kills the open links', async () => {
    const agent = await m.t.makeAgent();
    await requestReset(agent.email);
    const byAdmin = await nextMail();
    dataOf(await m.t.call({ method: 'PUT', url: `/api/v1/agents/${agent.id}`, payload: { password: 'set-by-the-admin-1' } }));
    assertError(await confirm(byAdmin.token), 400, 'InputException', 'after an admin set the password');
    await requestReset(agent.email);
    const byAgent = await nextMail();
    const session = await calls.login(agent.email, 'set-by-the-admin-1');
    dataOf(
      await m.t.call({
        method: 'PUT',
        url: '/api/v1/agents/me',
        payload: { current_password: 'set-by-the-admin-1', new_password: 'chosen-by-the-agent-2' },
        ...calls.asSession(session),
      }),
    );
    assertError(await confirm(byAgent.token), 400, 'InputException', 'after the agent changed it');
    assert.equal(await loginStatus(agent.email, 'chosen-by-the-agent-2'), 200);
  });

  it('at most 3 reset mails per agent and hour; the answer stays the same', async () => {
    const agent = await m.t.makeAgent();
    const count = m.smtp.mails.length;
    for (let i = 0; i < 5; i++) {
      assert.equal((await requestReset(agent.email)).statusCode, 200);
      await deliverSystemMail(m.t.deps);
    }
    await m.smtp.waitFor(count + 3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(m.smtp.mails.length, count + 3);
    clock.advance(3600 * 1000 + 1);
    await requestReset(agent.email);
    await nextMail();
  });
});
