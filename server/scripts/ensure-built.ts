// `npm start` runs this first (the root `prestart`): every workspace with a `build` script (the
// web app, the widget) is built when its dist/ is missing or older than its sources (its own
// files and the folders its package.json lists in `parley.buildInputs`: the web app bundles the
// widget's launcher-look.ts and protocol.ts for its live preview), so a fresh
// clone needs only `npm install` and `npm start`. A build already up to date costs a directory
// walk (milliseconds). `npm run build` builds them all unconditionally. Then the migrated image
// of the embedded database is made when missing (build-db-image.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildDatabaseImage } from './build-db-image.ts';

const root = resolve(import.meta.dirname, '..', '..');
const SKIPPED = new Set(['node_modules', 'dist', '.vite', 'test-results']);

/** The newest and oldest modification times of the files under a folder (skipping build output and dependencies). */
function mtimes(dir: string, skip: ReadonlySet<string>): { newest: number; oldest: number; files: number } {
  const out = { newest: 0, oldest: Number.POSITIVE_INFINITY, files: 0 };
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const { mtimeMs } = statSync(path);
        out.newest = Math.max(out.newest, mtimeMs);
        out.oldest = Math.min(out.oldest, mtimeMs);
        out.files += 1;
      }
    }
  };
  walk(dir);
  return out;
}

/** Folders outside the workspace its build reads (`parley.buildInputs` in its package.json, relative to it). */
export function buildInputs(workspaceDir: string): string[] {
  const file = join(workspaceDir, 'package.json');
  if (!existsSync(file)) return [];
  const own = JSON.parse(readFileSync(file, 'utf8')) as { parley?: { buildInputs?: unknown } };
  const listed = own.parley?.buildInputs;
  return Array.isArray(listed) ? listed.filter((p): p is string => typeof p === 'string').map((p) => resolve(workspaceDir, p)) : [];
}

/** Why a workspace needs building, or null when its dist is newer than every source file (its inputs' too). */
export function staleReason(workspaceDir: string): string | null {
  const dist = join(workspaceDir, 'dist');
  if (!existsSync(dist)) return 'dist/ is missing';
  const built = mtimes(dist, new Set());
  if (built.files === 0) return 'dist/ is empty';
  const sources = mtimes(workspaceDir, SKIPPED);
  if (sources.newest > built.oldest) return 'its sources changed since the last build';
  for (const input of buildInputs(workspaceDir)) {
    if (existsSync(input) && mtimes(input, SKIPPED).newest > built.oldest) return `${input} changed since the last build`;
  }
  return null;
}

/** The workspaces of the root package.json that have a build script. */
export function buildableWorkspaces(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: unknown };
  const names = Array.isArray(pkg.workspaces) ? pkg.workspaces.filter((w): w is string => typeof w === 'string') : [];
  return names.filter((name) => {
    const file = join(root, name, 'package.json');
    if (!existsSync(file)) return false;
    const own = JSON.parse(readFileSync(file, 'utf8')) as { scripts?: Record<string, unknown> };
    return typeof own.scripts?.['build'] === 'string';
  });
}

/** Builds what is stale; throws when a build fails. */
export function ensureBuilt(log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): void {
  for (const name of buildableWorkspaces()) {
    const reason = staleReason(join(root, name));
    if (!reason) continue;
    log(`parley: building ${name}/ (${reason})…`);
    const result = spawnSync('npm', ['run', 'build', '-w', name], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0)
      throw new Error(`building ${name}/ failed (npm run build -w ${name} exited ${result.status ?? result.signal})`);
  }
}

if (import.meta.main) {
  try {
    ensureBuilt();
    await buildDatabaseImage((line) => process.stdout.write(`${line}\n`));
  } catch (error) {
    process.stderr.write(`parley: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
