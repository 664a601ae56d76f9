// The web app's weight and speed (docs/performance.md, "Web app"): `npm run bench:web`.
// Sizes: every file of web/dist/assets, raw, gzip and brotli (the precompressed files the server
// answers), grouped by when the browser loads them. Speed: in headless Chromium against a real
// server on loopback, each run in a new browser context (empty cache): the sign-in page until
// its form is ready, then from the click on "Sign in" until the first conversation of the list
// is on screen; on loopback and with the network throttled (10 Mbit/s, 40 ms round trip).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureWebBuilt, launchBrowser, newPage, startWebServer, WEB_DIST } from '../test/browser.ts';
import { createConversation, createInbox } from '../test/factories.ts';

const RUNS = Number(process.env['RUNS'] ?? 10);
const PASSWORD = 'performance passphrase';

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function sizes(): string {
  const assets = join(WEB_DIST, 'assets');
  const index = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
  const files = readdirSync(assets).filter((name) => /\.(js|css)$/.test(name));
  const rows = files.map((name) => {
    const raw = statSync(join(assets, name)).size;
    const gz = statSync(join(assets, `${name}.gz`)).size;
    const br = statSync(join(assets, `${name}.br`)).size;
    const when = index.includes(`/assets/${name}`) ? 'first load' : 'on demand';
    return { name: name.replace(/-[\w-]{8}\./, '.'), raw, gz, br, when };
  });
  rows.sort((a, b) => (a.when === b.when ? b.gz - a.gz : a.when === 'first load' ? -1 : 1));
  const first = rows.filter((r) => r.when === 'first load');
  const sum = (list: typeof rows, key: 'raw' | 'gz' | 'br') => list.reduce((n, r) => n + r[key], 0);
  const lines = ['| File | Loaded | Raw | gzip | brotli |', '|---|---|---:|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.name} | ${r.when} | ${kib(r.raw)} | ${kib(r.gz)} | ${kib(r.br)} |`);
  lines.push(`| **first load total** | | ${kib(sum(first, 'raw'))} | ${kib(sum(first, 'gz'))} | ${kib(sum(first, 'br'))} |`);
  lines.push(`| **everything** | | ${kib(sum(rows, 'raw'))} | ${kib(sum(rows, 'gz'))} | ${kib(sum(rows, 'br'))} |`);
  return lines.join('\n');
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${Math.round(at(0.5))} ms, p90 ${Math.round(at(0.9))} ms, min ${Math.round(sorted[0] ?? 0)} ms`;
}

async function main(): Promise<void> {
  ensureWebBuilt();
  process.stdout.write(`## Sizes\n\n${sizes()}\n\n`);
  const server = await startWebServer();
  const browser = await launchBrowser();
  try {
    const agent = await server.t.makeAgent({ roles: ['Agent'], first_name: 'Perf', password: PASSWORD });
    const inbox = await createInbox(server.t);
    for (let i = 0; i < 40; i++) {
      await createConversation(server.t, {
        inbox_id: inbox.id,
        assignee_id: agent.id,
        subject: `Question ${i}`,
        content: `<p>Message ${i}</p>`,
      });
    }
    for (const profile of ['loopback', 'throttled'] as const) {
      const formReady: number[] = [];
      const toList: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const { context, page } = await newPage(browser, server.base);
        if (profile === 'throttled') {
          const cdp = await context.newCDPSession(page);
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', {
            offline: false,
            latency: 40,
            downloadThroughput: (10 * 1024 * 1024) / 8,
            uploadThroughput: (5 * 1024 * 1024) / 8,
          });
        }
        const loadStart = performance.now();
        await page.goto('/login');
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        formReady.push(performance.now() - loadStart);
        await page.getByLabel('Email').fill(agent.email);
        await page.getByLabel('Password').fill(PASSWORD);
        const start = performance.now();
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('list', { name: 'Conversation list' }).locator('li').first().waitFor();
        toList.push(performance.now() - start);
        await context.close();
      }
      process.stdout.write(
        `## ${profile} (${RUNS} runs, empty cache each)\n\n- sign-in page ready: ${stats(formReady)}\n- sign-in click → first conversation listed: ${stats(toList)}\n\n`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
