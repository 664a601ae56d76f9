// `npm start` runs server/src/start.mjs, which turns on Node's module compile cache before any
// TypeScript loads: with the cache filled (by `npm run build`, the image's build, or a first
// start), a server never loads Node's TypeScript stripper, whose WebAssembly it would keep in
// memory for nothing. Each child here reports, on its way out, whether the stripper was loaded.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { baseEnv } from './process-helpers.ts';

const root = resolve(import.meta.dirname, '../..');
const startScript = join(root, 'server/src/start.mjs');
const STRIPPER = 'internal/deps/amaro';
const report = `data:text/javascript,process.on('exit', () => process.stderr.write('stripper loaded: ' + process.moduleLoadList.some((m) => m.includes('${STRIPPER}')) + '\\n'))`;

async function warm(cacheDir: string): Promise<boolean> {
  const { stderr } = await promisify(execFile)(process.execPath, ['--import', report, startScript, '--warm-compile-cache'], {
    env: { ...baseEnv(), NODE_COMPILE_CACHE: cacheDir },
    timeout: 60_000,
  });
  const said = /stripper loaded: (true|false)/.exec(stderr)?.[1];
  assert.ok(said, `the child reported: ${stderr}`);
  return said === 'true';
}

describe('the start script and the compile cache', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'parley-compile-cache-'));
  after(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('is what `npm start` runs', () => {
    const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    assert.match(start['start'] ?? '', / server\/src\/start\.mjs$/);
    assert.match(start['build'] ?? '', /node server\/src\/start\.mjs --warm-compile-cache$/, 'the build fills the cache');
  });

  it('strips the TypeScript once: with the cache filled, the stripper never loads', async () => {
    assert.equal(await warm(cacheDir), true, 'an empty cache: the files are stripped');
    assert.ok(readdirSync(cacheDir).length > 0, 'the cache was written');
    assert.equal(await warm(cacheDir), false, 'a filled cache: nothing to strip');
  });
});
