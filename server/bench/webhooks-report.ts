// The webhooks scenario's accounting and its Markdown section ("Webhooks" in
// docs/performance.md), kept pure so they can be tested alone. Times are milliseconds on one
// clock: performance.now() of the benchmark's process, which both sends the API requests that
// record the events and runs the receivers.
import { type LatencySummary, summarise } from './realtime-stats.ts';

export const WEBHOOKS_START =
  '<!-- webhooks: this section is written by the webhooks scenario (npm run bench -- --only=webhooks --out=…) -->';
export const WEBHOOKS_END = '<!-- /webhooks -->';

export interface WebhookBenchSettings {
  /** Webhooks subscribed to the same events in the throughput phase (each event is that many deliveries). */
  webhooks: number;
  /** Events recorded in the throughput phase. */
  events: number;
  /** Events recorded one at a time, 200 ms apart, in the idle phase. */
  idleEvents: number;
  /** The slow receiver answers after this long. */
  slowMs: number;
  /** Events per second, and seconds, of the isolation phase. */
  isolationRate: number;
  isolationSeconds: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookBenchSettings = {
  webhooks: 16,
  events: 250,
  idleEvents: 50,
  slowMs: 10_000,
  isolationRate: 10,
  isolationSeconds: 10,
};

/** An event recorded through the API: its contact's id (it is in the body's `data`) and when the request started. */
export interface RecordedEvent {
  key: string;
  startedAt: number;
}

/** A request a receiver got: the key it carries and when its body had arrived. */
export interface Receipt {
  key: string;
  at: number;
  webhookId: string;
}

export interface Latencies extends LatencySummary {
  /** Events that never arrived (within the phase's bound). */
  missing: number;
  /** webhook-ids received more than once. */
  duplicates: number;
}

/** Event-to-delivery latencies of one receiver: each event's first arrival, its absence, repeats. */
export function latencies(events: readonly RecordedEvent[], receipts: readonly Receipt[]): Latencies {
  const first = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const receipt of receipts) {
    seen.set(receipt.webhookId, (seen.get(receipt.webhookId) ?? 0) + 1);
    const known = first.get(receipt.key);
    if (known === undefined || receipt.at < known) first.set(receipt.key, receipt.at);
  }
  const values: number[] = [];
  let missing = 0;
  for (const event of events) {
    const at = first.get(event.key);
    if (at === undefined) missing += 1;
    else values.push(Math.max(0, at - event.startedAt));
  }
  const duplicates = [...seen.values()].filter((n) => n > 1).length;
  return { ...summarise(values), missing, duplicates };
}

/** Deliveries per second between the first and the last arrival. */
export function deliveryRate(receipts: readonly Receipt[]): { count: number; seconds: number; perSecond: number } {
  if (receipts.length < 2) return { count: receipts.length, seconds: 0, perSecond: Number.NaN };
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const r of receipts) {
    min = Math.min(min, r.at);
    max = Math.max(max, r.at);
  }
  const seconds = (max - min) / 1000;
  return { count: receipts.length, seconds, perSecond: seconds > 0 ? receipts.length / seconds : Number.NaN };
}

export interface WebhookBenchResult {
  idle: Latencies;
  throughput: { expected: number; count: number; seconds: number; perSecond: number; duplicates: number; cpuShare: number };
  isolation: { fast: Latencies; slow: Latencies; slowInFlightMax: number; slowExpected: number };
  /** API requests that did not answer 2xx. */
  failedRequests: number;
}

export interface WebhookBenchReport {
  settings: WebhookBenchSettings;
  outcome: { kind: 'measured'; result: WebhookBenchResult } | { kind: 'unavailable'; detail: string } | { kind: 'failed'; detail: string };
}

export interface WebhookTargetCheck {
  target: string;
  measured: string;
  met: boolean | null;
}

const fmt = (n: number, digits = 0) =>
  Number.isNaN(n) ? '—' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number) => (Number.isNaN(n) ? '—' : n < 10 ? fmt(n, 1) : fmt(n, 0));

export function checkWebhookTargets(report: WebhookBenchReport): WebhookTargetCheck[] {
  const names = [
    '≥ 500 deliveries/s to a local receiver',
    'event to delivery p99 ≤ 1 s when idle',
    'a receiver answering after 10 s does not slow another',
  ];
  if (report.outcome.kind !== 'measured') return names.map((target) => ({ target, measured: 'not measured', met: null }));
  const r = report.outcome.result;
  const clean = r.failedRequests === 0;
  return [
    {
      target: names[0] as string,
      measured: `${fmt(r.throughput.perSecond)} deliveries/s (${fmt(r.throughput.count)} of ${fmt(r.throughput.expected)})`,
      met: clean && r.throughput.count === r.throughput.expected && r.throughput.perSecond >= 500,
    },
    {
      target: names[1] as string,
      measured: `p50 ${ms(r.idle.p50)} ms, p99 ${ms(r.idle.p99)} ms${r.idle.missing ? `, **${r.idle.missing} missing**` : ''}`,
      met: clean && r.idle.missing === 0 && r.idle.count > 0 && r.idle.p99 <= 1000,
    },
    {
      target: names[2] as string,
      measured: `the other receiver: p99 ${ms(r.isolation.fast.p99)} ms (idle ${ms(r.idle.p99)} ms)${r.isolation.fast.missing ? `, **${r.isolation.fast.missing} missing**` : ''}`,
      met: clean && r.isolation.fast.missing === 0 && r.isolation.fast.count > 0 && r.isolation.fast.p99 <= 1000,
    },
  ];
}

/** `waiting`: deliveries not arrived yet are expected (the slow receiver's queue), not lost. */
const row = (label: string, l: Latencies, waiting = false) =>
  `| ${label} | ${fmt(l.count)} | ${ms(l.p50)} | ${ms(l.p90)} | ${ms(l.p99)} | ${ms(l.max)} | ${waiting ? `${fmt(l.missing)} (waiting their turn)` : l.missing ? `**${fmt(l.missing)}**` : '0'} | ${l.duplicates ? `**${fmt(l.duplicates)}**` : '0'} |`;

export function renderWebhooks(report: WebhookBenchReport, date: Date, note: string): string {
  const s = report.settings;
  const lines = [
    WEBHOOKS_START,
    '',
    `## Webhooks (${date
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC')})`,
    '',
  ];
  lines.push(
    `One Parley instance on PostgreSQL (default WEBHOOK_CONCURRENCY 64 and 4 per webhook; WEBHOOK_TIMEOUT_SECONDS 30 so that the slow receiver's answers count), ` +
      `receivers on 127.0.0.1 in the benchmark's process. Each event is a contact created with \`POST /api/v1/contacts\` (\`contact.created\`); ` +
      `latencies run from the start of that request to the arrival of the webhook's body at the receiver. ${note}`,
  );
  lines.push('');
  if (report.outcome.kind !== 'measured') {
    lines.push(report.outcome.kind === 'unavailable' ? `Not available: ${report.outcome.detail}.` : `**FAILED: ${report.outcome.detail}**`);
    lines.push('');
  } else {
    const r = report.outcome.result;
    lines.push(
      `- **Throughput**: ${s.webhooks} webhooks to one receiver, ${fmt(s.events)} events recorded as fast as 16 API clients go: ` +
        `${fmt(r.throughput.count)} of ${fmt(r.throughput.expected)} deliveries in ${fmt(r.throughput.seconds, 1)} s, ` +
        `**${fmt(r.throughput.perSecond)} deliveries/s** (first to last arrival)${r.throughput.duplicates ? `, **${fmt(r.throughput.duplicates)} sent twice**` : ', none twice'}; ` +
        `Parley used ${fmt(r.throughput.cpuShare * 100)}% of a core.`,
    );
    lines.push(`- **Idle**: ${fmt(s.idleEvents)} events one at a time, 200 ms apart, one webhook.`);
    lines.push(
      `- **Isolation**: one receiver answering after ${fmt(s.slowMs / 1000)} s and one answering at once, both subscribed; ` +
        `${s.isolationRate} events/s for ${s.isolationSeconds} s. The slow receiver had at most ${r.isolation.slowInFlightMax} requests open at once ` +
        `and got ${fmt(r.isolation.slow.count)} of its ${fmt(r.isolation.slowExpected)} deliveries by the end of the phase (the rest wait their turn).`,
    );
    if (r.failedRequests) lines.push(`- **${fmt(r.failedRequests)} API requests failed.**`);
    lines.push('');
    lines.push('| Event to delivery (ms) | deliveries | p50 | p90 | p99 | max | not arrived | sent twice |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
    lines.push(row('idle, one webhook', r.idle));
    lines.push(row('isolation: the prompt receiver', r.isolation.fast));
    lines.push(row(`isolation: the receiver answering after ${fmt(s.slowMs / 1000)} s`, r.isolation.slow, true));
    lines.push('');
  }
  lines.push('### Webhook targets');
  lines.push('');
  lines.push('| Target | Measured | |');
  lines.push('|---|---|---|');
  for (const c of checkWebhookTargets(report))
    lines.push(`| ${c.target} | ${c.measured} | ${c.met === null ? '—' : c.met ? 'met' : '**missed**'} |`);
  lines.push('');
  lines.push(WEBHOOKS_END);
  return lines.join('\n');
}
