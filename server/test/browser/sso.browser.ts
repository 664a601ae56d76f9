// Single sign-on in a real browser: the sign-in page lists the enabled provider; its button goes
// through the test OpenID provider (server/test/oidc-provider.ts) and back, signed in, to the
// page the agent wanted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, newPage, pageErrors, startWebServer, type WebServer } from '../browser.ts';
import type { Caller } from '../helpers.ts';
import { createSsoProvider, startOidcProvider, type TestIdp } from '../oidc-provider.ts';

describe('single sign-on in a browser', { skip: browserMissing() ?? false, timeout: 180_000 }, () => {
  let server: WebServer;
  let idp: TestIdp;
  let browser: Browser;
  let ann: Caller;

  before(async () => {
    server = await startWebServer();
    idp = await startOidcProvider({ browserAccount: 'ann' });
    browser = await launchBrowser();
    ann = await server.t.makeAgent({ roles: ['Agent'], first_name: 'Ann' });
    idp.addAccount('ann', { email: ann.email, email_verified: true, given_name: 'Ann' });
    await createSsoProvider(server.t, idp, { name: 'Company login' });
  });

  after(async () => {
    await browser?.close();
    await idp?.close();
    await server?.close();
  });

  it('signs the agent in through the provider and back to the page asked for', async () => {
    const { page, context } = await newPage(browser, server.base);
    try {
      await page.goto('/inbox/unassigned');
      await page.waitForURL(/\/login\?next=%2Finbox%2Funassigned$/);
      await page.getByRole('link', { name: 'Sign in with Company login' }).click();
      // The provider's address, then back to Parley's finish route, then the page asked for.
      await page.waitForURL(`${server.base}/inbox/unassigned`);
      await page.getByRole('heading', { name: /Unassigned/ }).waitFor();
      const me = await page.request.get('/api/v1/agents/me');
      assert.equal(me.status(), 200);
      const body = (await me.json()) as { data: { id: number; email: string } };
      assert.equal(body.data.id, ann.id, 'signed in as the provider said');
      const cookies = await context.cookies(server.base);
      assert.ok(cookies.some((c) => c.name === 'parley_session' && c.httpOnly));
      assert.deepEqual(pageErrors(page), []);
    } finally {
      await context.close();
    }
  });
});
