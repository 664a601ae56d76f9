// Helpers for tests that run Parley as real processes: the server (`npm start`'s main.ts)
// and the CLI, with a clean environment of their own.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

const serverDir = resolve(import.meta.dirname, '..');
export const mainScript = join(serverDir, 'src', 'main.ts');
/** What `npm start` runs: the compile cache on, then main.ts. */
export const startScript = join(serverDir, 'src', 'start.mjs');
export const cliScript = join(serverDir, 'src', 'cli.ts');

/** The environment a child starts from: nothing of ours but PATH and HOME. */
export function baseEnv(): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' };
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface Started {
  child: ChildProcess;
  base: string;
  output: () => string;
}

/** Starts main.ts (or another entry) and waits until GET /ready answers 200. */
export async function startServer(
  env: Record<string, string>,
  options: { timeoutMs?: number; script?: string; nodeFlags?: string[] } = {},
): Promise<Started> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), options.script ?? mainScript], {
    env: { ...baseEnv(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${base}/ready`);
      if (res.status === 200) return { child, base, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output}`);
}

export async function killHard(started: Started): Promise<void> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return;
  const exited = new Promise((r) => started.child.once('exit', r));
  started.child.kill('SIGKILL');
  await exited;
}

export async function stopGracefully(started: Started): Promise<number | null> {
  const exited = new Promise<number | null>((r) => started.child.once('exit', (code) => r(code)));
  started.child.kill('SIGTERM');
  return exited;
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a script (the CLI, or main.ts for a start that is expected to stop) to its end. */
export async function runScript(script: string, args: string[], env: Record<string, string>, cwd?: string): Promise<Ran> {
  return new Promise((resolveRun) => {
    execFile(process.execPath, [script, ...args], { env: { ...baseEnv(), ...env }, ...(cwd ? { cwd } : {}) }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolveRun({ code, stdout, stderr });
    });
  });
}

/** Runs `body` with a scratch data folder and a scratch PostgreSQL database (its URL), then removes both. */
export async function withScratchDatabase(databaseUrl: string, body: (dataDir: string, url: string) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-proc-'));
  const name = `parley_proc_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    await body(dataDir, url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
