// What the browser tests of the web app share
// Debian's Chromium (/usr/bin/chromium) driven by playwright-core, headless, against a real Parley
// on a loopback port serving the built web app (built here once when web/dist is missing or older
// than web/src), signed in through the login form, with axe-core injected to audit a page;
// the live-update socket cut and restored at will; the pictures of docs/screenshots.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { launchBrowser, newPage, startWebServer, type WebServer } from '../browser.ts';
import type { Clock } from '../../src/deps.ts';
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
 * `clock`: the server's (a seed that writes a history moves it); `viewport`: the page's size; `env`:
 * the server's environment (as startWebServer's).
 */
export async function adminSession(
  seed?: (server: WebServer) => Promise<void>,
  options: { clock?: Clock; viewport?: { width: number; height: number }; env?: Record<string, string> } = {},
): Promise<AdminSession> {
  const server = await startWebServer(options.env ?? {}, options.clock ? { clock: options.clock } : {});
  let browser: Browser | undefined;
  try {
    await seed?.(server);
    browser = await launchBrowser();
    const { page, errors } = await newPage(browser, server.base, options.viewport ?? {});
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

/**
 * The page's live-update socket (`/ws`), passed through Playwright so that a test can cut it.
 * Installed before the page opens the socket (before `goto`). `cut` closes the connection from
 * the server's side, as a restarting server or a lost network would, and holds every reconnect
 * the page then tries (left connecting) until `restore` lets it through to the server.
 */
export interface SocketSwitch {
  cut(): Promise<void>;
  restore(): void;
  /** Sockets the page has opened through to the server so far. */
  readonly connected: number;
}

export async function socketSwitch(page: Page): Promise<SocketSwitch> {
  let server: WebSocketRoute | undefined;
  let up: Promise<void> = Promise.resolve();
  let release = () => {};
  let connected = 0;
  await page.routeWebSocket(/\/ws$/, async (route) => {
    await up;
    server = route.connectToServer();
    connected += 1;
  });
  return {
    get connected() {
      return connected;
    },
    async cut() {
      up = new Promise((resolve) => {
        release = resolve;
      });
      const open = server;
      server = undefined;
      await open?.close();
    },
    restore() {
      release();
    },
  };
}

/** Where `npm run screenshots` (PARLEY_SCREENSHOTS=1) writes the web app's pictures; null otherwise. */
export const SCREENSHOTS =
  process.env['PARLEY_SCREENSHOTS'] === '1' ? resolve(import.meta.dirname, '..', '..', '..', 'docs', 'screenshots') : null;

/**
 * Saves the page as docs/screenshots/<name>.png when taking screenshots; does nothing otherwise.
 * `whole`: the screen's whole length, the viewport made as tall as the content of `.page` (the
 * app scrolls there, where a full-page screenshot does not look), then put back.
 */
export async function shot(page: Page, name: string, options: { whole?: boolean } = {}): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  const size = page.viewportSize();
  if (!options.whole || !size) {
    await page.screenshot({ path });
    return;
  }
  const hidden = await page.locator('.page').evaluate((scroller) => scroller.scrollHeight - scroller.clientHeight);
  await page.setViewportSize({ width: size.width, height: size.height + hidden });
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  await page.screenshot({ path });
  await page.setViewportSize(size);
}
