// The embedded database belongs to one process at a time: two PGlite instances on one folder
// overwrite each other's pages, and what one of them acknowledged can be lost. The owner keeps
// a lock file in DATA_DIR naming itself; a second opener (server or CLI) is refused at once.
// A lock left by a process that died (SIGKILL, power loss) is taken over: its holder is alive
// only if its pid runs and that process started when the lock says (a reused pid started later).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const LOCK_FILE = 'pgdata.lock';
/** The holder touches its lock file this often, so that a process on another host can tell it lives. */
export const HEARTBEAT_MS = 10_000;
/** A lock of another host (another container on a shared volume, an NFS client) untouched this long is dead. */
export const REMOTE_STALE_MS = 45_000;

/** What the lock file says about the process holding it. */
export interface LockHolder {
  readonly pid: number;
  /** When that process started (boot id + start time on Linux, `ps` elsewhere); null when unknown. */
  readonly started: string | null;
  /** `server`, or `cli <command>`. */
  readonly role: string;
  readonly host: string;
  readonly since: string;
  readonly token: string;
}

export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  readonly holder: LockHolder;
  readonly dataDir: string;
  constructor(dataDir: string, holder: LockHolder) {
    super(`DATA_DIR ${dataDir} is in use by ${describeHolder(holder)}`);
    this.holder = holder;
    this.dataDir = dataDir;
  }
}

export function describeHolder(holder: LockHolder): string {
  const who = holder.role === 'server' ? 'the Parley server' : `a Parley ${holder.role}`;
  const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
  return `${who} (pid ${holder.pid}${where}, since ${holder.since})`;
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

/** Takes the lock of `dataDir` (which must exist) for this process, or throws DataDirBusyError. */
export async function lockDataDir(dataDir: string, role: string, heartbeatMs = HEARTBEAT_MS): Promise<DataDirLock> {
  const file = join(dataDir, LOCK_FILE);
  const me: LockHolder = {
    pid: process.pid,
    started: processStart(process.pid),
    role,
    host: hostname(),
    since: new Date().toISOString(),
    token: randomBytes(12).toString('hex'),
  };
  const content = JSON.stringify(me) + '\n';
  for (let attempt = 0; attempt < 50; attempt++) {
    if (tryCreate(file, content)) return held(file, me.token, heartbeatMs);
    const current = readLock(file);
    if (current === null) continue; // released meanwhile: try again
    if (current.holder && isAlive(current.holder, file)) throw new DataDirBusyError(dataDir, current.holder);
    // Dead holder (or an unreadable file): remove it, unless another process took it over first.
    if (!(await removeIfUnchanged(file, current.raw))) await sleep(20);
  }
  throw new Error(`could not take the lock ${file}: it keeps changing`);
}

function held(file: string, token: string, heartbeatMs: number): DataDirLock {
  let released = false;
  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch {
      // removed by hand: the next opener creates it again
    }
  }, heartbeatMs);
  heartbeat.unref();
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    process.off('exit', releaseOnExit);
    const current = readLock(file);
    if (current?.holder?.token === token) unlinkSync(file);
  };
  // A clean exit that skipped close() (an error during startup) still frees the folder;
  // a failure there must not turn the exit into a crash (the next opener takes the lock over).
  const releaseOnExit = () => {
    try {
      release();
    } catch {
      // left for the next opener to take over
    }
  };
  process.on('exit', releaseOnExit);
  return { file, release };
}

/** Creates the lock file with its full content in one step (a reader never sees it half written). */
function tryCreate(file: string, content: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temp, content, { mode: 0o644 });
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

function readLock(file: string): { raw: string; holder: LockHolder | null } | null {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(raw) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0 && typeof parsed.token === 'string') {
      return {
        raw,
        holder: {
          pid: parsed.pid,
          started: typeof parsed.started === 'string' ? parsed.started : null,
          role: typeof parsed.role === 'string' ? parsed.role : 'process',
          host: typeof parsed.host === 'string' ? parsed.host : 'unknown host',
          since: typeof parsed.since === 'string' ? parsed.since : 'an unknown time',
          token: parsed.token,
        },
      };
    }
  } catch {
    // not ours, or damaged: a dead lock
  }
  return { raw, holder: null };
}

function isAlive(holder: LockHolder, file: string): boolean {
  // Another host's pids mean nothing here: its holder is alive while it keeps touching the file.
  if (holder.host !== hostname()) {
    try {
      return Date.now() - statSync(file).mtimeMs < REMOTE_STALE_MS;
    } catch {
      return false;
    }
  }
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: a process of another user runs with that pid: alive unless the start time says otherwise.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (holder.started === null) return true;
  const started = processStart(holder.pid);
  return started === null || started === holder.started;
}

/**
 * Removes a dead lock if the file still holds what we read. Takeovers are serialised by a
 * short-lived folder, so two processes that both saw the dead lock cannot remove each other's
 * fresh one.
 */
async function removeIfUnchanged(file: string, raw: string): Promise<boolean> {
  const mutex = `${file}.takeover`;
  try {
    mkdirSync(mutex);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process is taking over; a takeover lasts microseconds, so an old folder is a leftover.
    try {
      if (Date.now() - statSync(mutex).mtimeMs > 10_000) rmdirSync(mutex);
    } catch {
      // gone meanwhile
    }
    return false;
  }
  try {
    if (readLock(file)?.raw !== raw) return false;
    unlinkSync(file);
    return true;
  } finally {
    rmdirSync(mutex);
  }
}

/**
 * An identity of the process with this pid that a later process reusing the pid does not
 * share, or null when it cannot be read (no such process, or a platform without /proc or ps).
 */
export function processStart(pid: number): string | null {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 22 (start time since boot, in clock ticks); the name in field 2 may hold spaces.
      const startTicks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      return startTicks ? `${boot}:${startTicks}` : null;
    } catch {
      return null;
    }
  }
  if (process.platform === 'win32') return null;
  try {
    const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return started || null;
  } catch {
    return null;
  }
}
