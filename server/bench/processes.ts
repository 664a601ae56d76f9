// The processes under test: Parley itself (as `npm start` runs it: server/src/start.mjs, then main.ts) and the bare Fastify route,
// each a child of the benchmark. Every child is remembered by its PID and stopped by it.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Child {
  readonly name: string;
  readonly pid: number;
  readonly baseUrl: string;
  /** Where its stdout and stderr go. */
  readonly logFile: string;
  /** Resolves when the process has exited; then `exitCode`/`signal` say how. */
  readonly exited: Promise<void>;
  isRunning(): boolean;
}

const children = new Map<number, { child: ChildProcess; exited: Promise<void> }>();

function track(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) throw new Error('the child process did not start');
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      children.delete(pid);
      resolve();
    });
  });
  children.set(pid, { child, exited });
  return exited;
}

/** Stops one child by its PID: SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stopChild(pid: number, graceMs = 10_000): Promise<void> {
  const entry = children.get(pid);
  if (!entry) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  const stopped = await Promise.race([entry.exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!stopped) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // exited meanwhile
    }
    await entry.exited;
  }
}

/** Stops every child this process started, one PID at a time. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children.keys()].map((pid) => stopChild(pid)));
}

/** Last resort on an abrupt exit: SIGKILL by PID, synchronously. */
export function killAllChildrenNow(): void {
  for (const pid of children.keys()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address !== null && typeof address === 'object' ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function describeExit(child: ChildProcess): string {
  return child.signalCode ? `signal ${child.signalCode}` : `code ${String(child.exitCode)}`;
}

export interface ParleyOptions {
  root: string;
  /** null: the embedded database under dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  secretKey: string;
  logDir: string;
  /** Write a V8 CPU profile here when the process ends. */
  profileDir?: string | null;
  /** Server processes (SERVER_PROCESSES); above 1 with Redis at redisUrl. */
  processes?: number;
  redisUrl?: string;
  /** Use Redis (redisUrl) even with one process: the realtime scenario relays events through it. */
  redis?: boolean;
  /** More environment (the realtime scenario raises the widget's rate limits). */
  env?: Record<string, string>;
  /** Log file name in logDir (default parley.log); several instances need one each. */
  logName?: string;
}

/**
 * What `npm start` runs (package.json's start script: `node <flags> server/src/start.mjs`): Node's
 * flags, then the entry script.
 */
function startCommand(root: string): { flags: string[]; script: string } {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = start.split(/\s+/);
  return { flags: words.filter((word) => word.startsWith('--')), script: join(root, words.at(-1) as string) };
}

/**
 * The glibc allocator settings the image runs with (the Dockerfile's `MALLOC_…` variables; the
 * systemd unit sets the same, server/test/deploy.test.ts): the benchmark's instance runs as
 * deployed. Variables of the benchmark's own environment replace them (to try others).
 */
function imageAllocatorEnv(root: string): Record<string, string> {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const fromImage = [...dockerfile.matchAll(/\b(MALLOC_[A-Z_]+)=(\S+?)(?=\s|\\|$)/gm)].map((m) => [m[1] as string, m[2] as string]);
  const own = Object.entries(process.env).filter(([name]) => name.startsWith('MALLOC_') || name === 'GLIBC_TUNABLES');
  return Object.fromEntries(own.length > 0 ? (own as Array<[string, string]>) : fromImage);
}

/** Starts Parley on a free port of 127.0.0.1 and waits until /ready answers 200. */
export async function startParley(options: ParleyOptions): Promise<Child> {
  const port = await freePort();
  const logFile = join(options.logDir, options.logName ?? 'parley.log');
  const fd = openSync(logFile, 'a');
  const profile = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
  // As `npm start` runs it (package.json: the heap's sizing, the entry that turns on the compile
  // cache), with any of BENCH_NODE_FLAGS (space-separated) after the flags, to try others; the
  // allocator as deployed.
  const start = startCommand(options.root);
  const child = spawn(
    process.execPath,
    [...start.flags, ...(process.env['BENCH_NODE_FLAGS'] ?? '').split(' ').filter(Boolean), ...profile, start.script],
    {
      cwd: options.root,
      env: {
        ...(options.databaseUrl === null ? {} : { DATABASE_URL: options.databaseUrl }),
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        SECRET_KEY: options.secretKey,
        DATA_DIR: options.dataDir,
        DATABASE_PREPARED_STATEMENTS: process.env['DATABASE_PREPARED_STATEMENTS'] ?? 'true',
        ...((options.processes ?? 1) > 1 ? { SERVER_PROCESSES: String(options.processes) } : {}),
        ...((options.processes ?? 1) > 1 || options.redis ? { REDIS_URL: options.redisUrl ?? 'redis://127.0.0.1:6379' } : {}),
        ...imageAllocatorEnv(options.root),
        ...options.env,
      },
      stdio: ['ignore', fd, fd],
    },
  );
  closeSync(fd);
  const exited = track(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  const handle: Child = {
    name: 'parley',
    pid: child.pid as number,
    baseUrl,
    logFile,
    exited,
    isRunning: () => children.has(child.pid as number),
  };

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (!handle.isRunning()) throw new Error(`Parley exited during startup (${describeExit(child)}):\n${tail(logFile)}`);
    try {
      const response = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return handle;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await stopChild(handle.pid);
  throw new Error(`Parley did not become ready within 60 s:\n${tail(logFile)}`);
}

/** Starts the bare Fastify route; it picks its own port and prints it. */
/** The bare reference app; with `databaseUrl`, its floor routes read and write that database. */
export async function startBare(options: { root: string; logDir: string; databaseUrl?: string }): Promise<Child> {
  const logFile = join(options.logDir, 'bare.log');
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [join(options.root, 'server/bench/bare-server.ts')], {
    cwd: options.root,
    env: options.databaseUrl ? { FLOOR_DATABASE_URL: options.databaseUrl } : {},
    stdio: ['ignore', 'pipe', fd],
  });
  closeSync(fd);
  const exited = track(child);
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('the bare server did not start within 20 s')), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`the bare server exited during startup (${describeExit(child)}):\n${tail(logFile)}`));
    });
  });
  child.stdout?.resume();
  const pid = child.pid as number;
  return { name: 'bare', pid, baseUrl: `http://127.0.0.1:${port}`, logFile, exited, isRunning: () => children.has(pid) };
}

/**
 * Forks a benchmark script (the realtime load generator) with an IPC channel; its stdout and
 * stderr are the benchmark's. Tracked like the servers: stopped by PID on the way out.
 */
export function forkScript(script: string, args: readonly string[]): ChildProcess {
  const child = fork(script, [...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  track(child);
  return child;
}

/**
 * Runs a benchmark script to its end (the email scenarios) and answers its exit code and stdout;
 * its stderr (progress) is the benchmark's. Tracked like the servers: stopped by PID on the way
 * out; stopped (SIGTERM, then SIGKILL) when it outlives `timeoutMs`.
 */
export async function runScriptToEnd(
  script: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<{ code: number | null; stdout: string; timedOut: boolean }> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env['PATH'] ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = track(child);
  // 'close' comes after the last of stdout, which may follow 'exit'.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopChild(child.pid as number);
  }, options.timeoutMs);
  await exited;
  await closed;
  clearTimeout(timer);
  return { code: child.exitCode, stdout, timedOut };
}
