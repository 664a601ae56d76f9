// The browser tests' world: a real Parley listening on 127.0.0.1 (the test app, on the test
// database, with BASE_URL its own address), a customer's site on another origin
// (http://localhost:<other port>) whose pages include /widget.js, and Debian's Chromium driven
// by playwright-core. Nothing here is faked: the loader, the frame, the API and the sockets are
// the ones `npm start` serves.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchBrowser } from '../../server/test/browser.ts';
import { buildTestApp, type TestApp } from '../../server/test/helpers.ts';
import { freePort } from '../../server/test/process-helpers.ts';
import { ensureWidgetBuilt } from './build.ts';

export { browserMissing, describeViolations, seriousViolations } from '../../server/test/browser.ts';

/**
 * A customer's site on another origin (http://localhost:<port>): path → HTML (or an SVG picture,
 * for a path ending in .svg), served as they are.
 */
export async function startSite(pages: Map<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  const site = createServer((req, res) => {
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const body = pages.get(path);
    const type = body !== undefined && path.endsWith('.svg') ? 'image/svg+xml' : 'text/html; charset=utf-8';
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': type });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(site.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}

export interface World {
  t: TestApp;
  /** Parley's base URL (http://127.0.0.1:port). */
  base: string;
  /** The customer's site (http://localhost:port). */
  site: string;
  browser: Browser;
  /** Pages of the customer's site: path → HTML (or SVG, for a path ending in .svg), served as they are. */
  pages: Map<string, string>;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  await ensureWidgetBuilt();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({ env: { BASE_URL: base } });
  let site: Awaited<ReturnType<typeof startSite>> | null = null;
  let browser: Browser | null = null;
  try {
    await t.app.listen({ port, host: '127.0.0.1' });
    const pages = new Map<string, string>();
    site = await startSite(pages);
    browser = await launchBrowser();
    const opened = { site, browser };
    return {
      t,
      base,
      site: site.url,
      browser,
      pages,
      async close() {
        await opened.browser.close();
        await opened.site.close();
        await t.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await site?.close();
    await t.close();
    throw error;
  }
}

/**
 * A page of the customer's site including the loader for `inbox`; `head` and `body` are added as
 * they are, after the page's heading (`heading`: 'Welcome to the shop' unless told; null: none).
 */
export function sitePage(
  world: Pick<World, 'base'>,
  inbox: string,
  options: { head?: string; body?: string; script?: string; heading?: string | null } = {},
): string {
  const heading = options.heading === undefined ? 'Welcome to the shop' : options.heading;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Customer site</title>${options.head ?? ''}</head>
<body>${heading === null ? '' : `<h1>${heading}</h1>`}${options.body ?? ''}
${options.script ?? `<script async src="${world.base}/widget.js" data-inbox="${inbox}"></script>`}
</body></html>`;
}

/** The launcher button, inside the loader's shadow root (Playwright's CSS selectors pierce open shadow roots). */
export const LAUNCHER = 'parley-widget button';

/** The chat frame of a page once the loader created it. */
export async function chatFrame(page: Page, timeoutMs = 10_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = page.frames().find((f) => f.url().includes('/widget/frame/'));
    if (frame) {
      await frame.waitForLoadState('domcontentloaded');
      return frame;
    }
    if (Date.now() > deadline) throw new Error('the chat frame did not appear');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The widget session as stored for the page: in the frame's own storage, or, when the browser
 * refuses a third-party frame storage (headless Chromium does), in the host page's, where the
 * loader keeps it for the frame.
 */
export async function storedSession(page: Page, frame: Frame, inbox: string): Promise<Record<'token' | 'user' | 'visitor', string | null>> {
  const read = (prefix: string) => {
    const value = (name: string) => localStorage.getItem(`${prefix}${name}`);
    return { token: value('token'), user: value('user'), visitor: value('visitor') };
  };
  const own = await frame.evaluate(read, `parley:${inbox}:`).catch(() => null);
  return own ?? page.evaluate(read, `parley:${inbox}:frame:`);
}

/** Collects the page's console errors and failed requests, so that a test can show why it failed. */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** Resolves with Date.now() in the page when `text` appears in the frame's message log (10 s at most). */
export function whenShown(frame: Frame, text: string): Promise<number> {
  return frame.evaluate(
    (wanted) =>
      new Promise<number>((resolve, reject) => {
        const log = document.querySelector('[role="log"]');
        if (!log) return reject(new Error('no message log'));
        const check = () => {
          if (log.textContent?.includes(wanted)) {
            observer.disconnect();
            resolve(Date.now());
            return true;
          }
          return false;
        };
        const observer = new MutationObserver(check);
        observer.observe(log, { childList: true, subtree: true, characterData: true });
        if (!check()) setTimeout(() => reject(new Error(`"${wanted}" not shown within 10 s`)), 10_000);
      }),
    text,
  );
}
