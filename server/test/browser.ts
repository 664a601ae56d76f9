// Browser tests: Debian's Chromium (/usr/bin/chromium) driven by playwright-core, headless,
// against a real Parley listening on a loopback port with the built web app (built here once
// when web/dist is missing or older than web/src). Run by `npm run test:browser`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, chromium, type Frame, type Page } from 'playwright-core';
import { staleReason } from '../scripts/ensure-built.ts';
import type { Clock } from '../src/deps.ts';
import { startWorkers, type Workers } from '../src/workers.ts';
import { buildTestApp, type TestApp } from './helpers.ts';
import { freePort } from './process-helpers.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const WEB_DIST = resolve(import.meta.dirname, '..', '..', 'web', 'dist');
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** Why the browser tests cannot run here, or null. */
export function browserMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`;
}

let built = false;
/** Builds the web app when web/dist is missing or stale (once per process). */
export function ensureWebBuilt(): void {
  if (built) return;
  const reason = staleReason(resolve(WEB_DIST, '..'));
  if (reason) {
    const result = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: resolve(WEB_DIST, '..', '..'), stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`building the web app failed (${reason})`);
  }
  built = true;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, timeout: 30_000 });
}

/** A new browser context (its own cookies) at the server's address, sized like a laptop unless told. */
export async function newPage(
  browser: Browser,
  base: string,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
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
  Object.assign(page, { parleyErrors: errors });
  return { context, page, errors };
}

/** Errors the page logged (uncaught exceptions, console errors such as a CSP refusal). */
export function pageErrors(page: Page): string[] {
  return (page as Page & { parleyErrors?: string[] }).parleyErrors ?? [];
}

export interface WebServer {
  t: TestApp;
  base: string;
  close(): Promise<void>;
}

/**
 * A Parley on a free loopback port with the built web app, a fresh database and its workers (the
 * realtime relay, the delivery jobs), as `npm start` runs it. BASE_URL is its address, so the
 * socket's Origin check and the cookies work as in production. `clock`: the server's time, for a
 * history written in the past.
 */
export async function startWebServer(env: Record<string, string> = {}, options: { clock?: Clock } = {}): Promise<WebServer> {
  ensureWebBuilt();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({
    webDistDir: WEB_DIST,
    env: { BASE_URL: base, LOGIN_RATE_LIMIT_PER_MINUTE: '1000', AUTH_FAILURE_LIMIT_PER_MINUTE: '100000', ...env },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const app: FastifyInstance = t.app;
  await app.listen({ port, host: '127.0.0.1' });
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

/** axe-core's source, injected into a page to audit it. */
const AXE_SOURCE = readFileSync(join(createRequire(import.meta.url).resolve('axe-core'), '..', 'axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/**
 * The serious and critical accessibility violations axe finds on the page (or in one of its
 * frames) as it is now (WCAG 2.x A and AA rules, and axe's best practices), in the parts matched
 * by `include` (CSS selectors, the whole document unless told; an element's open shadow root is
 * part of it), leaving out the parts matched by `exclude` (a region another test audits).
 */
export async function seriousViolations(
  page: Page | Frame,
  exclude: readonly string[] = [],
  include: readonly string[] = ['html'],
): Promise<AxeViolation[]> {
  const context = (selectors: readonly string[]) => JSON.stringify(selectors.map((selector) => [selector]));
  // Evaluated through the DevTools protocol, which the page's CSP (no inline script) does not
  // govern: a <script> tag would be refused, as it should be.
  if (!(await page.evaluate('"axe" in window'))) await page.evaluate(AXE_SOURCE);
  // A string, run in the page (this file is type-checked without the DOM's types).
  const violations = (await page.evaluate(`(async () => {
    const context = { include: ${context(include)}, exclude: ${context(exclude)} };
    const result = await window.axe.run(context, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  })()`)) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`).join('\n');
}
