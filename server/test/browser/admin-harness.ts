// What the browser tests of the contacts, search, reports and administration screens share
// Debian's Chromium (/usr/bin/chromium) driven by playwright-core, headless, against a real Parley
// on a loopback port serving the built web app (built here once when web/dist is missing or older
// than web/src), signed in through the login form, with axe-core injected to audit a page.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, startWebServer, type WebServer } from '../browser.ts';
import { dataOf } from '../helpers.ts';

export {
  type AxeViolation,
  browserMissing,
  describeViolations,
  launchBrowser,
  newPage,
  seriousViolations,
  startWebServer,
  type WebServer,
} from '../browser.ts';

export const ADMIN_PASSWORD = 'admin-password-123';

/** Signs in through the login form and waits for the shell. */
export async function signIn(page: Page, email: string, password = ADMIN_PASSWORD, next = '/inbox/mine'): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
}

export interface AdminSession {
  server: WebServer;
  browser: Browser;
  /** Signed in as the test app's admin. */
  page: Page;
  /** The page's errors and failed requests, as `newPage` collects them. */
  errors: string[];
  admin: { id: number; email: string; name: string };
  /** Closes the browser, then the server. */
  close: () => Promise<void>;
}

/**
 * What each administration test file's `before` did: a Parley, `seed` run against it, Chromium,
 * one page signed in as the admin. On a failure part way, what had started is closed again.
 */
export async function adminSession(seed?: (server: WebServer) => Promise<void>): Promise<AdminSession> {
  const server = await startWebServer();
  let browser: Browser | undefined;
  try {
    await seed?.(server);
    browser = await launchBrowser();
    const { page, errors } = await newPage(browser, server.base);
    const me = dataOf<{ first_name: string; last_name: string }>(await server.t.call({ method: 'GET', url: '/api/v1/agents/me' }));
    const admin = { id: server.t.admin.id, email: server.t.admin.email, name: `${me.first_name} ${me.last_name}` };
    await signIn(page, admin.email);
    const opened = browser;
    return {
      server,
      browser: opened,
      page,
      errors,
      admin,
      async close() {
        await opened.close();
        await server.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await server.close();
    throw error;
  }
}
