// Invitations and password reset in a real browser, with mail through a real SMTP server: an
// admin creates an agent without a password, the agent follows the mailed link, chooses a
// password and signs in; "Send invitation again" mails a new link; an agent who forgot the
// password asks for a link from the sign-in page, follows it and signs in with the new one. The
// new pages pass axe's serious and critical checks. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { readSystemMail, systemMailEnv } from '../system-mail.ts';
import { startSmtpServer, type TestSmtpServer } from '../smtp.ts';
import { type AdminSession, adminSession, browserMissing, describeViolations, newPage, seriousViolations } from './admin-harness.ts';

const skip = browserMissing() ?? false;

describe('invitations and password reset in the browser', { skip }, () => {
  let smtp: TestSmtpServer;
  let session: AdminSession | undefined;
  before(async () => {
    smtp = await startSmtpServer();
    session = await adminSession(undefined, { env: systemMailEnv(smtp) });
  });
  after(async () => {
    await session?.close();
    await smtp?.close();
  });

  /** A signed-out page of its own (its own cookies). */
  async function signedOutPage(): Promise<Page> {
    const { page } = await newPage(session!.browser, session!.server.base);
    return page;
  }

  async function nextMail(count: number) {
    const mails = await smtp.waitFor(count + 1, 30_000);
    return readSystemMail(mails[count]!);
  }

  async function setPasswordAndSignIn(page: Page, link: URL, email: string, password: string) {
    assert.equal(link.origin, session!.server.base, 'the link points at BASE_URL');
    await page.goto(link.pathname + link.search);
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
    await page.getByLabel('New password').fill(password);
    await page.getByLabel('Repeat the password').fill(`${password}x`);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('The two passwords differ').waitFor();
    await page.getByLabel('Repeat the password').fill(password);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByText('Your password is set. Sign in with it.').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/inbox/mine');
  }

  it('an agent created without a password is invited, sets a password from the mail and signs in; the link then dies', async () => {
    const { page } = session!;
    await page.goto('/admin/agents');
    await page.getByRole('button', { name: 'New agent' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New agent' });
    await dialog.getByLabel('First name').fill('Ivy');
    await dialog.getByLabel('Email').fill('ivy@example.com');
    await dialog.getByText('Leave the password empty to mail ivy@example.com an invitation').waitFor();
    const count = smtp.mails.length;
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Invitation mailed to ivy@example.com').first().waitFor();
    const mail = await nextMail(count);
    assert.deepEqual(mail.to, ['ivy@example.com']);

    const invitee = await signedOutPage();
    await setPasswordAndSignIn(invitee, mail.link, 'ivy@example.com', 'ivy-chooses-a-passphrase');
    await invitee.context().clearCookies();
    await invitee.goto(mail.link.pathname + mail.link.search);
    await invitee.getByLabel('New password').fill('another-long-passphrase');
    await invitee.getByLabel('Repeat the password').fill('another-long-passphrase');
    await invitee.getByRole('button', { name: 'Set password' }).click();
    await invitee.getByText('This link is invalid, expired or already used.').waitFor();
    assert.equal(new URL(invitee.url()).pathname, '/set-password', 'a dead link does not bounce to the sign-in page');
    await invitee.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    await invitee.context().close();
  });

  it('"Send invitation again" mails a new link that works', async () => {
    const { page } = session!;
    const agent = await session!.server.t.makeAgent({ email: 'oscar@example.com', first_name: 'Oscar' });
    await page.goto('/admin/agents');
    const count = smtp.mails.length;
    await page.getByRole('button', { name: 'Send Oscar Test an invitation again' }).click();
    await page.getByText('Invitation mailed to oscar@example.com').first().waitFor();
    const mail = await nextMail(count);
    assert.deepEqual(mail.to, [agent.email]);
    const invitee = await signedOutPage();
    await setPasswordAndSignIn(invitee, mail.link, agent.email, 'oscar-chooses-a-passphrase');
    await invitee.context().close();
  });

  it('forgot password: the sign-in page links to a form, the mailed link sets a new password, which signs in', async () => {
    const agent = await session!.server.t.makeAgent({ email: 'forgetful@example.com', password: 'the-forgotten-passphrase' });
    const page = await signedOutPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
    const count = smtp.mails.length;
    await page.getByLabel('Email').fill(agent.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`If an account exists for ${agent.email}, we sent a link to it.`).waitFor();
    const mail = await nextMail(count);
    assert.match(mail.subject, /Reset your Parley password/);
    await setPasswordAndSignIn(page, mail.link, agent.email, 'a-remembered-passphrase');
    assert.equal(
      (
        await session!.server.t.call({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: agent.email, password: 'the-forgotten-passphrase' },
          as: null,
        })
      ).statusCode,
      401,
      'the old password no longer works',
    );
    await page.context().close();
  });
});

describe('the agents screen without system mail', { skip }, () => {
  let session: AdminSession | undefined;
  before(async () => {
    session = await adminSession();
  });
  after(() => session?.close());

  it('tells the admin that mail is not configured and offers no invitation', async () => {
    const { page } = session!;
    await session!.server.t.makeAgent({ first_name: 'Nomail' });
    await page.goto('/admin/agents');
    await page.getByText('System mail is not configured (set SMTP_URL, MAIL_FROM on the server)').waitFor();
    await page.getByText('Nomail Test').waitFor();
    assert.equal(await page.getByRole('button', { name: /an invitation again/ }).count(), 0);
    await page.getByRole('button', { name: 'New agent' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New agent' });
    await dialog.getByLabel('First name').waitFor();
    assert.equal(await dialog.getByText(/mail .* an invitation/).count(), 0);
  });
});
