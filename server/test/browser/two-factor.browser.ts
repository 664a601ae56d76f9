// Two-factor sign-in in a real browser: an agent enrols from the account page (the QR code and the
// key shown, the code computed here from that key), keeps the recovery codes (downloaded as a
// .txt), signs out, signs in with a code, signs out, signs in with a recovery code. An admin makes
// a role require two-factor sign-in in the roles editor: a new agent holding it is held at the
// enrolment screen until enrolled; the agents list then shows its 2FA badge, and the admin
// resets it. The server's clock is a fake one (a code is accepted once: a step passes between).
// Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { totpCode } from '../../src/auth/totp.ts';
import { dataOf, fakeClock } from '../helpers.ts';
import {
  browserMissing,
  describeViolations,
  launchBrowser,
  newPage,
  seriousViolations,
  signIn,
  startWebServer,
  type WebServer,
} from './admin-harness.ts';

const skip = browserMissing() ?? false;
const PASSWORD = 'two-factor-browser-1';

describe('two-factor sign-in in a browser', { skip, timeout: 240_000 }, () => {
  const clock = fakeClock(new Date());
  let server: WebServer;
  let browser: Browser;
  before(async () => {
    server = await startWebServer({}, { clock });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const code = (secret: string) => totpCode(secret, clock.now().getTime());
  const nextStep = () => clock.advance(30_000);

  /** Enrols on the screen shown (the account card or the hold): answers the secret and the recovery codes. */
  async function enrolOnScreen(page: Page): Promise<{ secret: string; codes: string[] }> {
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    assert.match((await qr.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
    const secret = await page.getByRole('textbox', { name: 'Setup key' }).inputValue();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    const violations = await seriousViolations(page);
    assert.equal(violations.length, 0, describeViolations(violations));
    // A wrong code first: the field says so.
    await page.getByLabel('Code from the app').fill(code(secret) === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    await page.getByText('is not the current code of this secret').waitFor();
    await page.getByLabel('Code from the app').fill(code(secret));
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    const list = page.getByRole('list', { name: '10 recovery codes' });
    await list.waitFor();
    const codes = (await list.getByRole('listitem').allInnerTexts()).map((text) => text.trim());
    assert.equal(codes.length, 10);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download (.txt)' }).click()]);
    assert.equal(download.suggestedFilename(), 'parley-recovery-codes.txt');
    const saved = readFileSync((await download.path()) ?? '', 'utf8');
    for (const recovery of codes) assert.ok(saved.includes(recovery), 'the file holds every code');
    return { secret, codes };
  }

  async function signOut(page: Page, name: RegExp): Promise<void> {
    await page.getByRole('button', { name }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
  }

  /** The password, then the code step. */
  async function signInWithCode(page: Page, email: string, secondFactor: string): Promise<void> {
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByLabel('Code').fill(secondFactor);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/inbox\/mine$/);
  }

  it('enrols from the account page, then signs in with a code and with a recovery code', async () => {
    const agent = await server.t.makeAgent({ password: PASSWORD, first_name: 'Tove' });
    const { page, context, errors } = await newPage(browser, server.base);
    try {
      await signIn(page, agent.email, PASSWORD);
      await page.goto('/account');
      const card = page.getByRole('region', { name: 'Two-factor sign-in' });
      await card.getByText('Off', { exact: true }).waitFor();
      const { secret, codes } = await enrolOnScreen(page);
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await card.getByText('On', { exact: true }).waitFor();
      const me = dataOf<{ two_factor_enabled: boolean }>(await server.t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent }));
      assert.equal(me.two_factor_enabled, true);

      await signOut(page, /Tove Test/);
      nextStep();
      // A wrong code is refused on the code step.
      await page.getByLabel('Email').fill(agent.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
      const violations = await seriousViolations(page);
      assert.equal(violations.length, 0, describeViolations(violations));
      await page.getByLabel('Code').fill('12345x');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('alert').getByText('That code is not valid').waitFor();
      await page.getByLabel('Code').fill(code(secret));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/inbox\/mine$/);
      await page.getByRole('button', { name: /Tove Test/ }).waitFor();

      await signOut(page, /Tove Test/);
      await signInWithCode(page, agent.email, codes[3] ?? '');
      await page.getByRole('button', { name: /Tove Test/ }).waitFor();
      const used = await server.t.deps.db
        .selectFrom('two_factor_recovery_codes')
        .where('user_id', '=', agent.id)
        .where('used_at', 'is not', null)
        .select('id')
        .execute();
      assert.equal(used.length, 1);
      assert.deepEqual(
        errors.filter((e) => !/401|Unauthorized|422|400/.test(e)),
        [],
      );
    } finally {
      await context.close();
    }
  });

  it('holds an agent whose role requires two-factor sign-in at enrolment until enrolled; the admin resets it', async () => {
    const admin = await newPage(browser, server.base);
    const page = admin.page;
    try {
      await signIn(page, server.t.admin.email);
      await page.goto('/admin/roles');
      await page.getByRole('button', { name: 'New role' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New role' });
      await dialog.getByLabel('Name', { exact: true }).fill('Careful');
      await dialog.getByRole('checkbox', { name: 'See all conversations', exact: true }).check();
      await dialog.getByRole('switch', { name: 'Require two-factor sign-in' }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const roles = dataOf<Array<{ name: string; require_2fa: boolean }>>(await server.t.call({ method: 'GET', url: '/api/v1/roles' }));
      assert.equal(roles.find((r) => r.name === 'Careful')?.require_2fa, true);

      const held = await server.t.makeAgent({ roles: ['Careful'], password: PASSWORD, first_name: 'Held' });
      const agent = await newPage(browser, server.base);
      try {
        const heldPage = agent.page;
        await signIn(heldPage, held.email, PASSWORD);
        await heldPage.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
        await heldPage.getByText('Your role requires two-factor sign-in').waitFor();
        // Nothing else of the app: no navigation, no inbox.
        assert.equal(await heldPage.getByRole('navigation').count(), 0);
        const refused = await heldPage.request.get('/api/v1/agents/compact');
        assert.equal(refused.status(), 403);
        assert.match(((await refused.json()) as { message: string }).message, /2FA setup is required/);
        await enrolOnScreen(heldPage);
        // Still held while the codes are on screen, then the app.
        await heldPage.getByRole('button', { name: 'I have saved them' }).click();
        await heldPage.getByRole('button', { name: /Held Test/ }).waitFor();
        assert.equal((await heldPage.request.get('/api/v1/agents/compact')).status(), 200);
      } finally {
        await agent.context.close();
      }

      // The admin sees the badge and resets it.
      await page.goto('/admin/agents');
      const row = page.getByRole('row', { name: /Held Test/ });
      await row.getByText('2FA', { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Reset two-factor sign-in of Held Test' }).click();
      const confirm = page.getByRole('dialog', { name: 'Reset two-factor sign-in?' });
      await confirm.getByRole('button', { name: 'Reset two-factor' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await row.getByText('2FA', { exact: true }).waitFor({ state: 'detached' });
      const after = dataOf<{ two_factor_enabled: boolean }>(await server.t.call({ method: 'GET', url: `/api/v1/agents/${held.id}` }));
      assert.equal(after.two_factor_enabled, false);
    } finally {
      await admin.context.close();
    }
  });
});
