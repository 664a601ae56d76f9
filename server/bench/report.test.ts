// The HTTP report's pure parts: each figure against its floor, the targets' verdicts, and the
// scale curve (one row per scale, a run replacing its own, kept when the file is rewritten).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { checkTargets, renderMarkdown } from './http-report.ts';
import type { RunReport } from './http-results.ts';
import type { LoadResult } from './load.ts';
import { writeReport } from './report-file.ts';
import { CURVE_END, CURVE_START, checkCurve, curveRow, previousCurveRows, renderCurve } from './scale-curve.ts';

const dir = mkdtempSync(join(tmpdir(), 'parley-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const result = (requestsPerSecond: number, p99: number, failed = 0): LoadResult => ({
  requestsPerSecond,
  p50: p99 / 3,
  p90: p99 / 2,
  p99,
  max: p99 * 2,
  total: requestsPerSecond * 10,
  non2xx: failed,
  errors: 0,
  timeouts: 0,
  statusCodes: { '200': requestsPerSecond * 10 },
  sampleError: null,
  reopened: 0,
  warmUp: { seconds: 2, firstAnswerMedian: 1, firstAnswerMax: 2 },
});

function runReport(scale: number, figures: Record<string, LoadResult>, single: Record<string, number> = {}): RunReport {
  const scenarios = Object.entries(figures).map(([id, r]) => ({
    id,
    title: id,
    as: 'agent',
    outcome: { kind: 'measured' as const, result: r },
  }));
  for (const [id, median] of Object.entries(single)) {
    scenarios.push({
      id,
      title: id,
      as: 'admin',
      outcome: { kind: 'measured' as const, result: result(10, 100) },
      ...{ timing: { median, p99: median * 2, min: median, max: median * 3, runs: 20, failures: 0 } },
    });
  }
  return {
    date: new Date('2026-11-26T12:00:00Z'),
    machine: { cpu: 'cpu', cores: 2, memoryGiB: 24, node: 'v24', postgres: '15', os: 'linux', loadBefore: 0.1 },
    dataset: {
      conversations: 100_000 * scale,
      messages: 1_000_000 * scale,
      contacts: 1,
      agents: 51,
      teams: 5,
      tags: 200,
      inboxes: 2,
      conversationTags: 1,
      benchAgentConversations: 1,
    },
    scale,
    seedSeconds: 1,
    settings: { connections: 50, duration: 10, warmup: 2 },
    processes: 1,
    scenarios,
    totalSeconds: 60,
    parleyPeakRssMB: 240,
    firstStartSeconds: 2.5,
  };
}

test('each scenario is set against its floor: share of requests per second, and p99 as a multiple', () => {
  const report = runReport(1, {
    bare: result(40_000, 3),
    'floor-select': result(10_000, 10),
    message: result(6_500, 18),
    'bare-page': result(5_000, 20),
    'assigned-1': result(1_000, 50),
    'floor-insert': result(4_000, 20),
    reply: result(1_300, 70, 3),
  });
  const checks = checkTargets(report);
  const find = (prefix: string) => checks.find((c) => c.target.startsWith(prefix));
  assert.equal(find('GET one message')?.met, true);
  assert.match(find('GET one message')?.measured ?? '', /^65\.0% \(6,500 of 10,000 req\/s\); p99 18 ms = 1\.8× 10 ms$/);
  assert.equal(find('Assigned list, page 1')?.met, false, '20% of the stored page');
  assert.equal(find('Assigned list, page 50')?.met, null, 'not measured');
  assert.equal(find('Reply')?.met, false, 'failed requests miss, whatever the ratio');
  assert.equal(find('RSS')?.met, true);
  assert.equal(find('First start')?.met, true);
  const markdown = renderMarkdown(report);
  assert.match(markdown, /\| message \| agent \| 6,500 \| .* \| 65\.0% of one SELECT \| 0 \|/);
  assert.match(markdown, /\| floor-select \| agent \| 10,000 \| .* \| — \| 0 \|/);
});

test("a reply's deliveries left pending when the window closed count against its rate", () => {
  const figures = { 'floor-insert': result(4_000, 20), reply: result(1_500, 50) };
  const withBacklog = (leftBehind: { jobs: number; drainSeconds: number; drained: boolean }) => {
    const report = runReport(1, figures);
    const reply = report.scenarios.find((s) => s.id === 'reply');
    if (reply) reply.leftBehind = leftBehind;
    return report;
  };
  const target = (report: RunReport) => checkTargets(report).find((c) => c.target.startsWith('Reply'));

  // Done at once: the accepted rate is the rate (37.5% of the floor).
  assert.equal(target(withBacklog({ jobs: 0, drainSeconds: 0, drained: true }))?.met, true);
  // 10 s of window and 15 s more for the deliveries: 15,000 replies in 25 s, 600/s, 15% of the floor.
  const slow = withBacklog({ jobs: 9_000, drainSeconds: 15, drained: true });
  assert.equal(target(slow)?.met, false);
  assert.match(
    target(slow)?.measured ?? '',
    /^15\.0% \(600 of 4,000 req\/s, counting the 9,000 jobs left pending, done 15\.0 s after the window \(1,500 req\/s accepted\)\)/,
  );
  assert.equal(curveRow(slow).load['reply']?.rps, 600);
  assert.match(
    renderMarkdown(slow),
    /reply: 9,000 of the jobs its requests enqueued were pending when the window closed; they were done 15\.0 s later \(600 req\/s counting that time; the table's figures are of the window alone\)\./,
  );
  // Never done: no rate can be told, the target is missed and the curve has no figure.
  const stuck = withBacklog({ jobs: 9_000, drainSeconds: 120, drained: false });
  assert.equal(target(stuck)?.met, false);
  assert.match(
    target(stuck)?.measured ?? '',
    /^no rate: 9,000 jobs left pending were not done 120 s after the window \(1,500 req\/s accepted\)/,
  );
  assert.equal(curveRow(stuck).load['reply'], null);
});

test('the scale curve keeps one row per scale, says whether each scenario stays flat, and survives a rewrite of the file', () => {
  const figures = (share: number) => ({
    'floor-select': result(10_000, 10),
    message: result(10_000 * share, 15),
    'bare-page': result(5_000, 20),
    'assigned-1': result(5_000 * share, 40),
    'floor-insert': result(4_000, 20),
    reply: result(4_000 * share, 50),
    bare: result(50_000, 5),
    search: result(200 * share, 300),
  });
  const small = curveRow(runReport(0.1, figures(0.6), { report: 20, 'service-report': 40 }));
  const large = curveRow(runReport(10, figures(0.5), { report: 90, 'service-report': 170 }));
  const checks = checkCurve([large, small]);
  assert.deepEqual(
    checks.map((c) => c.met),
    // message, list, reply, search (its share of the bare route) flat; the tag report under its limit, the service report over; search alone not measured.
    [true, true, true, true, true, false, null],
  );
  assert.match(checks[3]?.measured ?? '', /0\.24% of its floor at scale 0\.1, 0\.20% at 10/);
  assert.match(checks[0]?.measured ?? '', /60\.0% of its floor at scale 0\.1, 50\.0% at 10 \(1\.20×\)/);
  assert.equal(checkCurve([small])[0]?.met, null, 'one scale is no curve');

  const path = join(dir, 'performance.md');
  writeFileSync(
    path,
    '# Performance\n\nold results\n\n<!-- Notes: everything below this line is kept when the benchmark rewrites this file. -->\n\nnotes\n',
  );
  writeReport(path, null, null, null, null, renderCurve([small]));
  const again = curveRow(runReport(0.1, figures(0.55)));
  const rows = [...previousCurveRows(readFileSync(path, 'utf8')).filter((r) => r.scale !== again.scale), again, large];
  writeReport(path, null, null, null, null, renderCurve(rows));
  writeReport(path, '# Performance\n\nnew results\n', null);
  const text = readFileSync(path, 'utf8');
  assert.ok(text.includes('new results') && !text.includes('old results'));
  assert.ok(text.indexOf(CURVE_START) > 0 && text.indexOf(CURVE_END) > text.indexOf(CURVE_START));
  assert.deepEqual(
    previousCurveRows(text).map((r) => [r.scale, r.load['message']?.rps]),
    [
      [0.1, 5_500],
      [10, 5_000],
    ],
  );
  assert.ok(text.trimEnd().endsWith('notes'));
});
