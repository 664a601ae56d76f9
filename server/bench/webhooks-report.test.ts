// The webhooks scenario's pure parts: its accounting, its section of docs/performance.md and
// its targets; and the file keeps each section a run did not rewrite.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseOptions } from './options.ts';
import { REALTIME_END, REALTIME_START } from './realtime-report.ts';
import { writeReport } from './report-file.ts';
import {
  checkWebhookTargets,
  DEFAULT_WEBHOOK_SETTINGS,
  deliveryRate,
  latencies,
  renderWebhooks,
  WEBHOOKS_END,
  WEBHOOKS_START,
  type WebhookBenchReport,
} from './webhooks-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'parley-webhooks-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('latencies: the first arrival of each event, the events that never came, the webhook-ids that came twice', () => {
  const events = [
    { key: '1', startedAt: 100 },
    { key: '2', startedAt: 200 },
    { key: '3', startedAt: 300 },
  ];
  const receipts = [
    { key: '1', at: 150, webhookId: 'a' },
    { key: '2', at: 260, webhookId: 'b' },
    { key: '2', at: 900, webhookId: 'b' },
    { key: '9', at: 400, webhookId: 'z' },
  ];
  const l = latencies(events, receipts);
  assert.equal(l.count, 2);
  assert.equal(l.p50, 50);
  assert.equal(l.p99, 60);
  assert.equal(l.missing, 1);
  assert.equal(l.duplicates, 1);
  // An arrival timed before its request started (clock granularity) counts as 0, never negative.
  assert.equal(latencies([{ key: '1', startedAt: 200 }], [{ key: '1', at: 199, webhookId: 'a' }]).p50, 0);
});

test('deliveryRate: arrivals per second from the first to the last', () => {
  const receipts = Array.from({ length: 101 }, (_, i) => ({ key: String(i), at: 1000 + i * 10, webhookId: String(i) }));
  const rate = deliveryRate(receipts);
  assert.equal(rate.count, 101);
  assert.equal(rate.seconds, 1);
  assert.equal(rate.perSecond, 101);
  assert.ok(Number.isNaN(deliveryRate([]).perSecond));
});

const summary = (p99: number, missing = 0) => ({ count: 50, p50: p99 / 2, p90: p99 * 0.9, p99, max: p99 + 5, missing, duplicates: 0 });

function report(overrides: { perSecond?: number; idleP99?: number; fastP99?: number; failed?: number } = {}): WebhookBenchReport {
  return {
    settings: DEFAULT_WEBHOOK_SETTINGS,
    outcome: {
      kind: 'measured',
      result: {
        idle: summary(overrides.idleP99 ?? 40),
        throughput: { expected: 4000, count: 4000, seconds: 5, perSecond: overrides.perSecond ?? 800, duplicates: 0, cpuShare: 0.9 },
        isolation: { fast: summary(overrides.fastP99 ?? 45), slow: summary(10_020, 92), slowInFlightMax: 4, slowExpected: 100 },
        failedRequests: overrides.failed ?? 0,
      },
    },
  };
}

test('targets: 500 deliveries/s, idle p99 within 1 s, the prompt receiver within 1 s beside the slow one', () => {
  assert.deepEqual(
    checkWebhookTargets(report()).map((c) => c.met),
    [true, true, true],
  );
  assert.deepEqual(
    checkWebhookTargets(report({ perSecond: 499, idleP99: 1001, fastP99: 2000 })).map((c) => c.met),
    [false, false, false],
  );
  assert.deepEqual(
    checkWebhookTargets(report({ failed: 1 })).map((c) => c.met),
    [false, false, false],
    'failed requests miss every target',
  );
  assert.deepEqual(
    checkWebhookTargets({ settings: DEFAULT_WEBHOOK_SETTINGS, outcome: { kind: 'unavailable', detail: 'no routes' } }).map((c) => c.met),
    [null, null, null],
  );
});

test('the Webhooks section: between its markers, a table row per receiver with the header’s cells', () => {
  const text = renderWebhooks(report(), new Date('2026-11-25T22:00:00Z'), 'Scale 1.');
  assert.ok(text.startsWith(WEBHOOKS_START) && text.endsWith(WEBHOOKS_END));
  assert.match(text, /## Webhooks \(2026-11-25 22:00:00 UTC\)/);
  assert.match(text, /\*\*800 deliveries\/s\*\*/);
  const table = text.split('\n').filter((line) => line.startsWith('| '));
  const header = table.find((line) => line.startsWith('| Event to delivery'));
  assert.ok(header);
  const cells = (line: string) => line.split('|').length;
  const rows = table.filter((line) => line.startsWith('| idle') || line.startsWith('| isolation'));
  assert.equal(rows.length, 3);
  for (const line of rows) assert.equal(cells(line), cells(header), line);
  assert.match(text, /92 \(waiting their turn\)/);
});

test('writeReport keeps the Realtime and Webhooks sections a run did not measure', () => {
  const file = join(dir, 'performance.md');
  writeFileSync(file, '# Performance\n\n## Results 0\n');
  const realtime = `${REALTIME_START}\n\n## Realtime 1\n\n${REALTIME_END}`;
  const webhooks = (n: number) => `${WEBHOOKS_START}\n\n## Webhooks ${n}\n\n${WEBHOOKS_END}`;
  writeReport(file, '# Performance\n\n## Results 1', realtime, webhooks(1));
  writeReport(file, null, null, webhooks(2));
  let text = readFileSync(file, 'utf8');
  assert.match(text, /## Results 1[\s\S]*## Realtime 1[\s\S]*## Webhooks 2[\s\S]*## What is measured/);
  assert.doesNotMatch(text, /## Webhooks 1/);
  writeReport(file, '# Performance\n\n## Results 3', null);
  text = readFileSync(file, 'utf8');
  assert.match(text, /## Results 3[\s\S]*## Realtime 1[\s\S]*## Webhooks 2/);
  assert.equal(text.split(WEBHOOKS_START).length, 2, 'one Webhooks section');
});

test('options: --only=webhooks and the --wh-* sizes', () => {
  const options = parseOptions(['--only=webhooks', '--wh-webhooks=8', '--wh-events=100', '--wh-slow-ms=2000'], {});
  assert.deepEqual(options.only, ['webhooks']);
  assert.equal(options.out, null);
  assert.deepEqual(options.webhooks, { ...DEFAULT_WEBHOOK_SETTINGS, webhooks: 8, events: 100, slowMs: 2000 });
  assert.throws(() => parseOptions(['--wh-webhooks=0'], {}), /--wh-webhooks/);
});
