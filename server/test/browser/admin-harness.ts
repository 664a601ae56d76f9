// What the browser tests of the contacts, search, reports and administration screens share
// Debian's Chromium (/usr/bin/chromium) driven by playwright-core, headless, against a real Parley
// on a loopback port serving the built web app (built here once when web/dist is missing or older
// than web/src), signed in through the login form, with axe-core injected to audit a page.
import type { Page } from 'playwright-core';

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
