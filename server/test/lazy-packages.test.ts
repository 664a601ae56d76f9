// The packages of optional features (email, the AI helper, S3 storage) are loaded on their
// first use, not at start: an installation that uses none of them never holds them in memory
// (together about 30 MB of a server's RSS). A child process loads what main.ts loads and
// records every package it resolves.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const LAZY = ['nodemailer', 'imapflow', 'mailparser', 'openai', '@aws-sdk/client-s3'];
const SERVER = join(import.meta.dirname, '../src');

const probe = `
import { registerHooks } from 'node:module';
const resolved = new Set();
registerHooks({
  resolve(specifier, context, next) {
    if (!specifier.startsWith('.') && !specifier.startsWith('node:') && !specifier.startsWith('file:')) resolved.add(specifier);
    return next(specifier, context);
  },
});
await import(${JSON.stringify(join(SERVER, 'app.ts'))});
await import(${JSON.stringify(join(SERVER, 'workers.ts'))});
await import(${JSON.stringify(join(SERVER, 'setup.ts'))});
process.stdout.write(JSON.stringify([...resolved]));
`;

test('starting the server loads no package of an optional feature', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', probe], { timeout: 60_000 });
  const resolved: string[] = JSON.parse(stdout);
  // The probe works: it sees the packages every server loads.
  assert.ok(resolved.includes('fastify') && resolved.includes('kysely'), `the probe saw: ${resolved.join(', ')}`);
  const loaded = LAZY.filter((name) => resolved.some((specifier) => specifier === name || specifier.startsWith(`${name}/`)));
  assert.deepEqual(loaded, [], `loaded at start: ${loaded.join(', ')}`);
});
