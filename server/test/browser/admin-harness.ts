// The browser tests' harness for the contacts, search, reports and administration screens:
// Debian's Chromium (/usr/bin/chromium) driven by playwright-core, headless, against a real Parley
// on a loopback port serving the built web app (built here once when web/dist is missing or older
// than web/src), signed in through the login form, with axe-core injected to audit a page.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { staleReason } from '../../scripts/ensure-built.ts';
import { startWorkers, type Workers } from '../../src/workers.ts';
import { buildTestApp, type TestApp } from '../helpers.ts';
import { freePort } from '../process-helpers.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const WEB_DIST = resolve(import.meta.dirname, '..', '..', '..', 'web', 'dist');
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
export const ADMIN_PASSWORD = 'admin-password-123';

/** Why the browser tests cannot run here (for `skip`), or undefined. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing: install Debian's chromium package`;
}

let built = false;
export function ensureWebBuilt(): void {
  if (built) return;
  const reason = staleReason(resolve(WEB_DIST, '..'));
  if (reason) {
    const result = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: resolve(WEB_DIST, '..', '..'), stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`building the web app failed (${reason})`);
  }
  built = true;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 30_000 });
}

export interface WebServer {
  t: TestApp;
  base: string;
  close(): Promise<void>;
}

/** A Parley with the built web app on a free loopback port, a fresh database and its workers. */
export async function startWebServer(env: Record<string, string> = {}): Promise<WebServer> {
  ensureWebBuilt();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({
    webDistDir: WEB_DIST,
    env: { BASE_URL: base, LOGIN_RATE_LIMIT_PER_MINUTE: '1000', AUTH_FAILURE_LIMIT_PER_MINUTE: '100000', ...env },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  const workers: Workers = startWorkers(t.deps);
  return {
    t,
    base,
    async close() {
      await workers.stop();
      await t.close();
    },
  };
}

/** A new context (its own cookies) with one page, laptop-sized unless told; page errors are collected. */
export async function newPage(
  browser: Browser,
  base: string,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    locale: 'en-GB',
    timezoneId: 'Europe/Berlin',
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { context, page, errors };
}

/** Signs in through the login form and waits for the shell. */
export async function signIn(page: Page, email: string, password = ADMIN_PASSWORD, next = '/inbox/mine'): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
}

const AXE_SOURCE = readFileSync(join(createRequire(import.meta.url).resolve('axe-core'), '..', 'axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * The serious and critical violations axe finds on the page as it is now (WCAG 2.x A and AA),
 * leaving out the parts matched by `exclude` (CSS selectors).
 */
export async function seriousViolations(page: Page, exclude: readonly string[] = []): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the app's Content-Security-Policy (no inline
  // script) does not govern; a <script> tag would be refused, as it should be.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (excluded) => {
    const axe = (globalThis as unknown as { axe: { run: (context: object, options: object) => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const context = { include: [['html']], exclude: excluded.map((selector) => [selector]) };
    const result = await axe.run(context, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  }, exclude);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`).join('\n');
}

/**
 * The shell's top bar, which these tests leave to the shell's own: its account button is named
 * "Account menu for …" while it shows the name and the availability (axe's
 * label-content-name-mismatch), a finding for features/auth/AccountMenu.tsx, not these screens.
 */
export const SHELL_TOP_BAR = '.topbar';
