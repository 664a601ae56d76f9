// The CPU readings of a scenario's window (cpu.ts): /proc parsed right, a server's child
// processes counted with it, and the table's microseconds per request.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { cpuWindow, familyOf, parseMachineStat, parseProcStat, renderCpu, ticksBetween } from './cpu.ts';

/**
 * A /proc/PID/stat line whose fields after the command name each hold their own number in
 * proc(5) (state is field 3, ppid 4, utime 14, stime 15, … 52): a field read one place off
 * gives another sum.
 */
function statLine(pid: number, comm: string): string {
  const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
  fields[0] = 'S';
  return `${pid} (${comm}) ${fields.join(' ')}\n`;
}

test('a stat line is read from its last parenthesis: a command name may hold spaces and parentheses', () => {
  assert.deepEqual(parseProcStat(statLine(4321, 'odd (name) 7 8')), { pid: 4321, comm: 'odd (name) 7 8', ppid: 4, ticks: 14 + 15 });
  assert.equal(parseProcStat('garbage'), null);
});

test("the machine's busy time leaves out idle, I/O wait and steal; steal is read on its own", () => {
  assert.deepEqual(parseMachineStat('cpu  100 5 50 800 20 1 4 30 0 0\ncpu0 1 2 3\n'), { busy: 160, steal: 30, total: 1010 });
  assert.equal(parseMachineStat('intr 1 2 3'), null);
});

test("a server's family is the process and every descendant", () => {
  const stats = [
    { pid: 10, comm: 'node', ppid: 1, ticks: 0 },
    { pid: 11, comm: 'node', ppid: 10, ticks: 0 },
    { pid: 12, comm: 'node', ppid: 11, ticks: 0 },
    { pid: 13, comm: 'postgres', ppid: 1, ticks: 0 },
  ];
  assert.deepEqual([...familyOf(10, stats)].sort(), [10, 11, 12]);
});

test('ticks between readings: a new process counts whole, one that ended is lost', () => {
  const before = new Map([
    [1, 100],
    [2, 50],
  ]);
  const after = new Map([
    [1, 130],
    [3, 7],
  ]);
  assert.equal(ticksBetween(before, after), 37);
});

test("the table gives microseconds per request for each party, and the machine's busy and stolen shares", () => {
  const lines = renderCpu([
    {
      title: 'one',
      requestsPerSecond: 2000,
      requests: 20_000,
      cpu: { seconds: 10, server: 4, postgres: 2, generator: 1, busyShare: 0.8, stolenShare: 0.06, cores: 2 },
    },
    {
      title: 'idle',
      requestsPerSecond: 0,
      requests: 0,
      cpu: { seconds: 10, server: 0, postgres: 0, generator: 0, busyShare: 0, stolenShare: null, cores: 2 },
    },
  ]);
  assert.ok(lines.includes('| one | 2,000 | 80% | 6% | 200 | 100 | 50 | 350 |'), lines.join('\n'));
  assert.ok(!lines.some((line) => line.startsWith('| idle')), 'a scenario without answers has no row');
  assert.deepEqual(renderCpu([]), []);
});

test("a window reads a server's CPU, its children's included, and the load generator's", { skip: !existsSync('/proc/stat') }, async () => {
  // A parent that stays idle and a child of it that burns CPU, says so once it runs, and stops
  // when its parent is gone (or after 60 s): it outlives the window however slow the machine is.
  const burn =
    "const parent = process.ppid, end = Date.now() + 60000; process.stdout.write('burning\\n'); while (Date.now() < end && process.ppid === parent);";
  const parent = spawn(
    process.execPath,
    [
      '-e',
      `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(burn)}], { stdio: ['ignore', 'inherit', 'ignore'] }); setTimeout(() => {}, 65000);`,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the burning child did not start within 30 s')), 30_000);
      parent.stdout?.on('data', (chunk: Buffer) => {
        if (!chunk.toString().includes('burning')) return;
        clearTimeout(timer);
        resolve();
      });
    });
    const window = cpuWindow(parent.pid as number, 2);
    assert.ok(window, '/proc is readable');
    window.open();
    // The load generator's own work: 300 ms of this process's CPU, however long a busy machine makes that take.
    const started = process.cpuUsage();
    while (process.cpuUsage(started).user < 300_000);
    await sleep(1200);
    const use = window.close();
    assert.ok(use);
    assert.ok(use.seconds >= 1.2, `the window lasted ${use.seconds} s`);
    // The idle parent alone spends next to nothing: what the server shows is its child's.
    assert.ok(use.server >= 0.1 && use.server <= use.seconds + 0.2, `the burning child counts for the server (${use.server} s)`);
    assert.ok(use.generator >= 0.3, `this process's busy loop counts for the generator (${use.generator} s)`);
    assert.ok(use.busyShare !== null && use.busyShare > 0.15 && use.busyShare <= 1, `the machine was busy (${use.busyShare})`);
    assert.ok(
      use.stolenShare !== null && use.stolenShare >= 0 && use.busyShare + use.stolenShare <= 1,
      `steal is a share (${use.stolenShare})`,
    );
  } finally {
    parent.kill();
  }
});
