// docs/performance.md is rewritten by section: a run keeps what it did not measure.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { checkRealtimeTargets, REALTIME_END, REALTIME_START, renderRealtime } from './realtime-report.ts';
import { writeReport } from './report-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'parley-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const realtime = (n: number) => `${REALTIME_START}\n\n## Realtime ${n}\n\n${REALTIME_END}`;

test('the HTTP results, the Realtime section and the notes are each kept when a run does not rewrite them', () => {
  const file = join(dir, 'performance.md');
  writeFileSync(file, '# Performance\n\n## Results 0\n\n## What is measured\n\nold method\n');
  writeReport(file, '# Performance\n\n## Results 1', realtime(1));
  let text = readFileSync(file, 'utf8');
  assert.match(text, /## Results 1\n\n<!-- realtime.*\n\n## Realtime 1\n\n<!-- \/realtime -->\n\n## What is measured/);
  assert.doesNotMatch(text, /Results 0|old method/);

  text = text.replace(/(<!-- Notes:.*-->\n)/, '$1\nMy notes.\n');
  writeFileSync(file, text);

  writeReport(file, null, realtime(2));
  text = readFileSync(file, 'utf8');
  assert.match(text, /## Results 1/, 'a realtime-only run keeps the HTTP results');
  assert.match(text, /## Realtime 2/);
  assert.doesNotMatch(text, /## Realtime 1/);
  assert.match(text, /My notes\./);

  writeReport(file, '# Performance\n\n## Results 3', null);
  text = readFileSync(file, 'utf8');
  assert.match(text, /## Results 3/);
  assert.match(text, /## Realtime 2/, 'an HTTP-only run keeps the Realtime section');
  assert.match(text, /My notes\./);
  assert.equal(text.split(REALTIME_START).length, 2, 'one Realtime section');
});

test('the Realtime table: every row has the header’s cells; targets checked from the runs', () => {
  const latency = { count: 10, p50: 5, p90: 9, p99: 12, max: 14 };
  const result = {
    sockets: { agents: 1000, widgets: 5000, openSeconds: 9, failed: 0, failureSamples: [] },
    warm: { answered: 6000, seconds: 6 },
    sent: 2000,
    statuses: { '200': 2000 },
    httpSample: null,
    http: latency,
    toWidget: latency,
    toAgents: latency,
    crossInstance: { ...latency, p99: 40 },
    expected: 40000,
    lostToWidget: 0,
    lostToAgents: 0,
    late: 0,
    unexpected: 0,
    failedRequests: 0,
    lostSamples: [],
    framesPerSecond: 2000,
    framesByType: {},
    closedDuringRun: 0,
    closeSamples: [],
    cpuShare: 0.2,
    eventLoopDelayP99: 11,
    windowSeconds: 20,
    worstBySecond: [12, 14],
  };
  const settings = {
    agentSockets: 1000,
    widgetSockets: 5000,
    tabs: 10,
    subscriptionsPerSocket: 5,
    rate: 100,
    warmup: 5,
    duration: 20,
    lossAfterMs: 5000,
    instances: [1, 2],
  };
  const run = (instances: number) => ({
    instances,
    outcome: { kind: 'measured' as const, result },
    peakRssMiB: Array(instances).fill(400),
    idleRssMiB: Array(instances).fill(200),
    serverCpuShare: Array(instances).fill(0.5),
    stolenShare: 0.04,
  });
  const report = { settings, agents: 100, visitors: 5000, runs: [run(1), run(2)] };
  const markdown = renderRealtime(report, null, new Date('2026-11-25T20:00:00Z'));
  const rows = markdown
    .split('\n')
    .filter((line) => line.startsWith('| one instance') || line.startsWith('| 2 instances') || line.startsWith('| Parley'));
  assert.equal(rows.length, 3);
  const cells = (line: string) => line.split(' | ').length;
  for (const row of rows) assert.equal(cells(row), cells(rows[0] as string), row);
  assert.ok(rows[0]?.endsWith('| stolen |') && rows[1]?.endsWith('| 4% |'), 'the machine time stolen in the window ends each row');
  // A run that failed or could not run has as many cells as the header too.
  const empty = { peakRssMiB: [], idleRssMiB: [], serverCpuShare: [], stolenShare: null };
  const others = renderRealtime(
    {
      ...report,
      runs: [
        { instances: 3, outcome: { kind: 'failed' as const, detail: 'it | broke' }, ...empty },
        { instances: 4, outcome: { kind: 'unavailable' as const, detail: 'no Redis' }, ...empty },
      ],
    },
    null,
    new Date('2026-11-25T20:00:00Z'),
  )
    .split('\n')
    .filter((line) => line.startsWith('| 3 instances') || line.startsWith('| 4 instances'));
  const pipes = (line: string) => line.split('|').length;
  assert.equal(others.length, 2);
  for (const row of others) assert.equal(pipes(row), pipes(rows[0] as string), row);
  const checks = checkRealtimeTargets(report);
  assert.deepEqual(
    checks.map((c) => c.met),
    [true, true, true, false],
    JSON.stringify(checks),
  );
});
