// What the browser tests of the web app share
// Debian's Chromium (/usr/bin/chromium) driven by playwright-core, headless, against a real Parley
// on a loopback port serving the built web app (built here once when web/dist is missing or older
// than web/src), signed in through the login form, with axe-core injected to audit a page;
// the live-update socket cut and restored at will.
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
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
