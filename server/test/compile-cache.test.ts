// `npm start` runs server/src/start.mjs, which turns on Node's module compile cache before any
// TypeScript loads: with the cache filled (by `npm run build`, the image's build, or a first
// start), a server never loads Node's TypeScript stripper, whose WebAssembly it would keep in
// memory for nothing. Each child here reports, on its way out, whether the stripper was loaded.
// Node keys the cache by its flags: the build must warm it with the flags `npm start` runs with.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { baseEnv, startServer, startScript, stopGracefully } from './process-helpers.ts';

const root = resolve(import.meta.dirname, '../..');
const STRIPPER = 'internal/deps/amaro';
const report = `data:text/javascript,process.on('exit', () => process.stderr.write('stripper loaded: ' + process.moduleLoadList.some((m) => m.includes('${STRIPPER}')) + '\\n'))`;

const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** `node <flags> server/src/start.mjs`, as `npm start` runs it: the flags. */
const startFlags = (scripts['start'] ?? '').split(/\s+/).filter((word) => word.startsWith('--'));
/** The build's step that fills the cache: its arguments after `node`. */
const warmArgs = (scripts['build'] ?? '')
  .split('&&')
  .map((step) => step.trim().split(/\s+/))
  .find((words) => words.includes('--warm-compile-cache'));

/** Runs node with these arguments (the report first) and says whether the stripper was loaded. */
async function stripperLoaded(args: string[], cacheDir: string): Promise<boolean> {
  const { stderr } = await promisify(execFile)(process.execPath, ['--import', report, ...args], {
    cwd: root,
    env: { ...baseEnv(), NODE_COMPILE_CACHE: cacheDir },
    timeout: 60_000,
  });
  const said = /stripper loaded: (true|false)/.exec(stderr)?.[1];
  assert.ok(said, `the child reported: ${stderr}`);
  return said === 'true';
}

describe('the start script and the compile cache', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'parley-compile-cache-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-start-'));
  after(() => {
    rmSync(cacheDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is what `npm start` runs, and the build fills the cache with its flags', () => {
    assert.match(scripts['start'] ?? '', / server\/src\/start\.mjs$/);
    assert.ok(warmArgs, 'the build has a step that fills the cache');
    assert.deepEqual(warmArgs, ['node', ...startFlags, 'server/src/start.mjs', '--warm-compile-cache']);
  });

  it('strips the TypeScript once: after the build filled the cache, a start with its flags never loads the stripper', async () => {
    assert.equal(await stripperLoaded((warmArgs ?? []).slice(1), cacheDir), true, 'an empty cache: the files are stripped');
    assert.ok(readdirSync(cacheDir).length > 0, 'the cache was written');
    assert.equal(await stripperLoaded([...startFlags, startScript, '--warm-compile-cache'], cacheDir), false, 'a filled cache');
    // Other flags are another cache: the test could not pass with flags that do not matter.
    assert.equal(await stripperLoaded(['--max-semi-space-size=2', startScript, '--warm-compile-cache'], cacheDir), true);
  });

  it('starts the server and stops it on SIGTERM, as main.ts does', async () => {
    const started = await startServer(
      { DATA_DIR: dataDir, NODE_COMPILE_CACHE: cacheDir, WORKERS: 'false' },
      { script: startScript, nodeFlags: startFlags },
    );
    assert.match(started.output(), /parley is ready/);
    assert.equal(await stopGracefully(started), 0);
  });
});
