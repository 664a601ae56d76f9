// First run in a real browser, on a real `npm start` process with an empty DATA_DIR: the server
// prints a one-time setup token; the app sends a visitor to the setup form; a wrong token is
// refused; the printed one creates the admin, who lands signed in on the inbox; the form is gone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserMissing, describeViolations, ensureWebBuilt, launchBrowser, newPage, pageErrors, seriousViolations } from '../browser.ts';
import { type Started, startServer } from '../process-helpers.ts';

const TOKEN_LINE = /paste this one-time setup token \(valid 24 hours; a restart prints a new one and voids this one\): ([A-Za-z0-9_-]{43})/;

describe('first run in a browser', { skip: browserMissing() ?? false, timeout: 180_000 }, () => {
  let server: Started;
  let browser: Browser;
  let dataDir: string;
  let base: string;

  before(async () => {
    ensureWebBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'parley-first-run-'));
    server = await startServer({ DATA_DIR: dataDir });
    // BASE_URL defaults to http://localhost:<port>: browse at that address, as the log says.
    base = server.base.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (server) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the first admin with the token from the log, and never offers the form again', async () => {
    const token = TOKEN_LINE.exec(server.output())?.[1];
    assert.ok(token, `the log shows a setup token:\n${server.output()}`);
    assert.ok(!server.output().includes('/setup?token='), 'the token is not printed in a URL');

    const { page, context } = await newPage(browser, base);
    try {
      await page.goto('/');
      await page.waitForURL(/\/setup$/);
      await page.getByRole('heading', { name: 'Create the first admin' }).waitFor();
      const violations = await seriousViolations(page);
      assert.equal(violations.length, 0, describeViolations(violations));

      await page.getByLabel('First name').fill('Rosa');
      await page.getByLabel('Last name').fill('Root');
      await page.getByLabel('Email').fill('rosa@example.com');
      await page.getByLabel('Password').fill('a long passphrase');
      await page.getByLabel('Setup token').fill(`${token.slice(0, -2)}xx`);
      await page.getByRole('button', { name: 'Create the admin and sign in' }).click();
      await page
        .getByRole('alert')
        .getByText(/setup token is wrong/)
        .waitFor();

      await page.getByLabel('Setup token').fill(token);
      await page.getByRole('button', { name: 'Create the admin and sign in' }).click();
      await page.waitForURL(/\/inbox\/mine$/);
      await page.getByRole('button', { name: /Rosa Root/ }).waitFor();

      // The API agrees: set up, and the admin signs in with that password.
      const state = (await (await fetch(`${base}/api/v1/setup`)).json()) as { data: { needed: boolean } };
      assert.equal(state.data.needed, false);
      const login = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'rosa@example.com', password: 'a long passphrase' }),
      });
      const admin = (await login.json()) as { data: { roles: string[] } };
      assert.equal(login.status, 200);
      assert.deepEqual(admin.data.roles, ['Admin']);

      // A second visitor to /setup is sent to the sign-in page.
      const other = await newPage(browser, base);
      await other.page.goto('/setup');
      await other.page.waitForURL(/\/login$/);
      await other.context.close();
      // The only console error is the refused wrong token.
      assert.ok(
        pageErrors(page).every((e) => /status of 403/.test(e)),
        pageErrors(page).join('\n'),
      );
      assert.equal(server.output().split(token).length, 2, 'the token appears once in the log: the request log never carries it');
    } finally {
      await context.close();
    }
  });
});
