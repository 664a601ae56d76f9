// Builds the widget for the tests when widget/dist is missing or older than its sources
// (`npm install` builds it; a test run after editing the sources must not test an old build).
// Test files run in parallel processes: one builds while the others wait on a lock directory.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const WIDGET_DIR = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(WIDGET_DIR, 'dist');
const OUTPUTS = [join(DIST, 'widget.js'), join(DIST, 'frame', 'index.html')];
const LOCK = join(WIDGET_DIR, '.build-lock');
const LOCK_STALE_MS = 120_000;

function newest(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function isStale(): boolean {
  if (!OUTPUTS.every((path) => existsSync(path))) return true;
  const built = Math.min(...OUTPUTS.map((path) => statSync(path).mtimeMs));
  const sources = [join(WIDGET_DIR, 'src'), join(WIDGET_DIR, 'vite.frame.config.ts'), join(WIDGET_DIR, 'vite.loader.config.ts')];
  return Math.max(...sources.map(newest)) > built;
}

async function build(): Promise<void> {
  const vite = join(WIDGET_DIR, '..', 'node_modules', 'vite', 'bin', 'vite.js');
  for (const config of ['vite.frame.config.ts', 'vite.loader.config.ts']) {
    await run(process.execPath, [vite, 'build', '--logLevel', 'warn', '-c', config], { cwd: WIDGET_DIR, timeout: 120_000 });
  }
}

/** The widget's dist folder, built if needed. */
export async function ensureWidgetBuilt(): Promise<string> {
  const deadline = Date.now() + 180_000;
  while (isStale()) {
    try {
      mkdirSync(LOCK);
    } catch {
      // Another process builds: wait for it (a lock left by a killed run is taken over).
      const lock = statSync(LOCK, { throwIfNoEntry: false });
      if (lock && Date.now() - lock.mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('gave up waiting for another process to build the widget');
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      if (isStale()) await build();
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
  return DIST;
}
