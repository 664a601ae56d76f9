import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DataDirBusyError, LOCK_FILE, type LockHolder, lockDataDir, processStart, REMOTE_STALE_MS } from './data-dir-lock.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-lock-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeLock(holder: Partial<LockHolder>): void {
  const full = { pid: 1, started: null, role: 'server', host: hostname(), since: '2026-01-01T00:00:00.000Z', token: 'theirs', ...holder };
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify(full));
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the DATA_DIR lock', () => {
  it('lets one holder in, refuses the next with who holds it, and frees the folder on release', async () => {
    const lock = await lockDataDir(dir, 'server');
    const held = JSON.parse(readFileSync(lock.file, 'utf8')) as LockHolder;
    assert.equal(held.pid, process.pid);
    assert.equal(held.role, 'server');
    await assert.rejects(lockDataDir(dir, 'cli api-key'), (error: unknown) => {
      assert.ok(error instanceof DataDirBusyError);
      assert.equal(error.holder.pid, process.pid);
      assert.equal(error.holder.role, 'server');
      assert.match(error.message, new RegExp(`in use by the Parley server \\(pid ${process.pid}, since `));
      return true;
    });
    lock.release();
    assert.ok(!existsSync(lock.file));
    lock.release(); // idempotent
    const again = await lockDataDir(dir, 'cli migrate');
    again.release();
  });

  it('takes over the lock of a process that died', async () => {
    writeLock({ pid: deadPid(), started: 'whatever' });
    const lock = await lockDataDir(dir, 'server');
    assert.equal((JSON.parse(readFileSync(lock.file, 'utf8')) as LockHolder).pid, process.pid);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to a process that started later (pid reuse)', async (t) => {
    const mine = processStart(process.pid);
    if (mine === null) return t.skip('no process start times on this platform');
    writeLock({ pid: process.pid, started: `${mine}-not-the-same` });
    const lock = await lockDataDir(dir, 'server');
    lock.release();
  });

  it('keeps a lock whose holder runs, even with a start time that cannot be read', async () => {
    writeLock({ pid: process.pid, started: processStart(process.pid) });
    await assert.rejects(lockDataDir(dir, 'server'), DataDirBusyError);
    writeLock({ pid: process.pid, started: null });
    await assert.rejects(lockDataDir(dir, 'server'), DataDirBusyError);
  });

  it('a lock of another host (a container on a shared volume) is alive while its holder touches it, whatever its pid', async () => {
    writeLock({ pid: deadPid(), host: 'parley-server-container' });
    await assert.rejects(lockDataDir(dir, 'cli api-key'), (error: unknown) => {
      assert.ok(error instanceof DataDirBusyError);
      assert.match(error.message, /on parley-server-container/);
      return true;
    });
    const old = new Date(Date.now() - REMOTE_STALE_MS - 5_000);
    utimesSync(join(dir, LOCK_FILE), old, old);
    const lock = await lockDataDir(dir, 'server');
    assert.equal((JSON.parse(readFileSync(lock.file, 'utf8')) as LockHolder).pid, process.pid, 'untouched for too long: taken over');
    lock.release();
  });

  it('the holder touches its lock file while it holds it', async () => {
    const lock = await lockDataDir(dir, 'server', 20);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock.file, old, old);
    await new Promise((resolve) => setTimeout(resolve, 120));
    assert.ok(Date.now() - statSync(lock.file).mtimeMs < 5_000, 'the heartbeat refreshed the file');
    lock.release();
  });

  it('takes over a damaged lock file', async () => {
    writeFileSync(join(dir, LOCK_FILE), '{"pid": ');
    const lock = await lockDataDir(dir, 'server');
    lock.release();
  });

  it('never removes a lock that another process took in the meantime', async () => {
    const lock = await lockDataDir(dir, 'server');
    writeLock({ pid: process.pid, token: 'someone else' });
    lock.release();
    assert.ok(existsSync(join(dir, LOCK_FILE)), 'the other holder keeps its lock');
  });

  it('lets exactly one of several processes starting at once take over a dead lock', async () => {
    writeLock({ pid: deadPid() });
    // Each child tries to take the lock; the winner holds it until it is killed.
    const script = `
      import { lockDataDir } from ${JSON.stringify(join(import.meta.dirname, 'data-dir-lock.ts'))};
      try {
        await lockDataDir(${JSON.stringify(dir)}, 'cli test');
        process.stdout.write('won');
        setInterval(() => {}, 1000);
      } catch (error) {
        process.stdout.write(error.name);
        process.exit(0);
      }`;
    const children = Array.from({ length: 5 }, () =>
      spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] }),
    );
    try {
      const said = await Promise.all(
        children.map(
          (child) =>
            new Promise<string>((resolveSaid) => {
              let out = '';
              child.stdout.on('data', (chunk: Buffer) => {
                out += chunk.toString();
                if (out.length > 0 && (out === 'won' || out.endsWith('Error'))) resolveSaid(out);
              });
              child.once('exit', () => resolveSaid(out));
            }),
        ),
      );
      assert.deepEqual(said.filter((s) => s === 'won').length, 1, said.join(' '));
      assert.deepEqual(said.filter((s) => s === 'DataDirBusyError').length, 4, said.join(' '));
      assert.ok(!existsSync(join(dir, `${LOCK_FILE}.takeover`)));
    } finally {
      for (const child of children) child.kill('SIGKILL');
    }
  });
});
