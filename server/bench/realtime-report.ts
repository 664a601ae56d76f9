// The realtime scenario's Markdown section ("Realtime" in docs/performance.md) and its targets.
import type { RealtimeReport, RealtimeRun } from './realtime.ts';
import type { LatencySummary } from './realtime-stats.ts';
import type { ScenarioReport } from './http-results.ts';

export const REALTIME_START =
  '<!-- realtime: this section is written by the realtime scenario (npm run bench -- --only=realtime --out=…) -->';
export const REALTIME_END = '<!-- /realtime -->';

export interface RealtimeTargetCheck {
  target: string;
  measured: string;
  met: boolean | null;
}

/** The init rate (new visitors per second through `conversations/init`), measured with the HTTP scenarios. */
export interface InitRate {
  requestsPerSecond: number;
  p99: number;
  failed: number;
  /** Share of the bare route's requests per second, in percent; null without a bare figure. */
  vsBare: number | null;
}

/** The generator's CPU share above which it is said to saturate (it is one event loop: one core). */
export const SATURATED = 0.8;

const HEADER =
  '| Parley | sockets (agents + widgets) | messages/s | HTTP answer | to widget | to agents | across instances | frames/s received | frames lost | peak RSS (MiB) | Parley CPU | load generator CPU | stolen |';
/** After a row's first two cells, the rest of a row that has nothing to show: as many cells as the header has. */
const EMPTY_CELLS = '|'.repeat(HEADER.split('|').length - 3);

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number) => (Number.isNaN(n) ? '—' : n < 10 ? fmt(n, 1) : fmt(n, 0));

function measured(report: RealtimeReport, instances: number): (RealtimeRun & { outcome: { kind: 'measured' } }) | null {
  const run = report.runs.find((r) => r.instances === instances && r.outcome.kind === 'measured');
  return (run as (RealtimeRun & { outcome: { kind: 'measured' } }) | undefined) ?? null;
}

const lost = (run: RealtimeRun & { outcome: { kind: 'measured' } }) => run.outcome.result.lostToWidget + run.outcome.result.lostToAgents;
const failedRequests = (run: RealtimeRun & { outcome: { kind: 'measured' } }) =>
  Object.entries(run.outcome.result.statuses)
    .filter(([code]) => !code.startsWith('2'))
    .reduce((sum, [, n]) => sum + n, 0);

export function checkRealtimeTargets(report: RealtimeReport): RealtimeTargetCheck[] {
  const checks: RealtimeTargetCheck[] = [];
  const one = measured(report, 1);
  const rate = report.settings.rate;
  const clean = (run: RealtimeRun & { outcome: { kind: 'measured' } }) => failedRequests(run) === 0 && lost(run) === 0;
  const note = (run: RealtimeRun & { outcome: { kind: 'measured' } }) =>
    clean(run) ? '' : ` (with ${fmt(failedRequests(run))} failed requests, ${fmt(lost(run))} frames lost)`;
  if (!one) {
    for (const target of [`p99 ≤ 25 ms at ${rate} messages/s`, '6,000 sockets in ≤ 500 MB RSS', 'no frame lost'])
      checks.push({ target, measured: 'not measured', met: null });
  } else {
    const r = one.outcome.result;
    const worst = Math.max(r.toWidget.p99 || 0, r.toAgents.p99 || 0);
    checks.push({
      target: `p99 ≤ 25 ms at ${rate} messages/s (one instance)`,
      measured: `${ms(r.toWidget.p99)} ms to widgets, ${ms(r.toAgents.p99)} ms to agents${note(one)}`,
      met: clean(one) && worst <= 25 && r.toWidget.count + r.toAgents.count > 0,
    });
    const sockets = r.sockets.agents + r.sockets.widgets - r.sockets.failed;
    const peak = one.peakRssMiB[0] ?? Number.NaN;
    checks.push({
      target: '6,000 sockets in ≤ 500 MB RSS',
      measured: `${fmt(peak)} MiB (${fmt(peak * 1.048576)} MB) peak with ${fmt(sockets)} sockets`,
      met: sockets >= 6000 ? peak * 1.048576 <= 500 : null,
    });
  }
  const runs = report.runs.filter((r) => r.outcome.kind === 'measured') as Array<RealtimeRun & { outcome: { kind: 'measured' } }>;
  if (runs.length > 0) {
    const expected = runs.reduce((sum, r) => sum + r.outcome.result.expected, 0);
    const lostFrames = runs.reduce((sum, r) => sum + lost(r), 0);
    checks.push({
      target: 'no frame lost',
      measured: `${fmt(lostFrames)} of ${fmt(expected)} lost (all runs)`,
      met: lostFrames === 0 && expected > 0,
    });
  }
  const two = measured(report, 2);
  checks.push(
    two
      ? {
          target: 'two instances: cross-instance p99 ≤ 35 ms',
          measured: `${ms(two.outcome.result.crossInstance.p99)} ms${note(two)}`,
          met: clean(two) && two.outcome.result.crossInstance.count > 0 && two.outcome.result.crossInstance.p99 <= 35,
        }
      : { target: 'two instances: cross-instance p99 ≤ 35 ms', measured: 'not measured', met: null },
  );
  return checks;
}

const latency = (s: LatencySummary) => `${ms(s.p50)} / ${ms(s.p99)}`;

function runRow(run: RealtimeRun): string {
  const label = run.instances === 1 ? 'one instance' : `${run.instances} instances`;
  if (run.outcome.kind === 'unavailable') return `| ${label} | not available: ${run.outcome.detail} ${EMPTY_CELLS}`;
  if (run.outcome.kind === 'failed') return `| ${label} | **FAILED: ${run.outcome.detail.replace(/\|/g, '/')}** ${EMPTY_CELLS}`;
  const r = run.outcome.result;
  const sockets = `${fmt(r.sockets.agents)} + ${fmt(r.sockets.widgets)}${r.sockets.failed ? ` (**${fmt(r.sockets.failed)} failed**)` : ''}`;
  const failed = failedRequests(run as RealtimeRun & { outcome: { kind: 'measured' } });
  const sent = `${fmt(r.sent / r.windowSeconds)}${failed ? ` (**${fmt(failed)} failed**)` : ''}`;
  const lostFrames = r.lostToWidget + r.lostToAgents;
  const cross = run.instances > 1 ? latency(r.crossInstance) : '—';
  const rss = run.peakRssMiB.map((m, k) => `${fmt(m)} (idle ${fmt(run.idleRssMiB[k] ?? Number.NaN)})`).join(' + ');
  return (
    `| ${label} | ${sockets} | ${sent} | ${latency(r.http)} | ${latency(r.toWidget)} | ${latency(r.toAgents)} | ${cross} | ` +
    `${fmt(r.framesPerSecond)} | ${lostFrames === 0 ? '0' : `**${fmt(lostFrames)}**`} of ${fmt(r.expected)} | ${rss} | ${run.serverCpuShare.map((c) => `${fmt(c * 100)}%`).join(' + ') || '—'} | ${fmt(r.cpuShare * 100)}% (loop p99 ${ms(r.eventLoopDelayP99)} ms) | ${run.stolenShare === null ? '—' : `${fmt(run.stolenShare * 100)}%`} |`
  );
}

export function renderRealtime(report: RealtimeReport, init: InitRate | null, date: Date): string {
  const s = report.settings;
  const lines: string[] = [
    REALTIME_START,
    '',
    `## Realtime (${date
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC')})`,
    '',
  ];
  lines.push(
    `${fmt(s.agentSockets)} agent sockets (${fmt(report.agents)} agent${report.agents === 1 ? '' : 's'} with ${s.tabs} tabs each, in teams of about 20 sockets, as teams of 20 one-tab agents would be; each socket subscribed to ` +
      `up to ${s.subscriptionsPerSocket} conversations of its agent and team) and ${fmt(s.widgetSockets)} widget sockets (one visitor each, joined, ` +
      `with one open conversation assigned to an agent and its team), opened and answering a ping before anything is measured; then ` +
      `${s.rate} messages/s over HTTP, half agent replies and half visitor messages, ${s.warmup} s unmeasured and ${s.duration} s measured. ` +
      `Parley runs with PostgreSQL and Redis; with two instances, sockets and requests alternate between them. ` +
      `Latencies in milliseconds (p50 / p99), from the start of the HTTP request that created the message to the frame's arrival on each socket it must reach; ` +
      `a frame later than ${fmt(s.lossAfterMs / 1000)} s, or never, is lost. CPU is over the measured window, as a share of one core (Parley from \`/proc/<pid>/stat\`; the generator its own). ` +
      '"Stolen" is the share of the machine\'s time the hypervisor gave to other machines in that window (steal time in `/proc/stat`): ' +
      'latencies measured while much of it was taken come from a slower machine.',
  );
  lines.push('');
  lines.push(HEADER);
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const run of report.runs) lines.push(runRow(run));
  lines.push('');
  for (const run of report.runs) {
    if (run.outcome.kind !== 'measured') continue;
    const worst = run.outcome.result.worstBySecond.map((w) => (Number.isNaN(w) ? '—' : fmt(w)));
    lines.push(
      `Slowest delivery by second of the window, ${run.instances === 1 ? 'one instance' : `${run.instances} instances`} (ms): ${worst.join(' · ')}.`,
    );
    lines.push('');
  }
  const busy = report.runs.filter((r) => r.outcome.kind === 'measured' && r.outcome.result.cpuShare > SATURATED);
  lines.push(
    busy.length > 0
      ? `**The load generator neared a whole core** (${busy.map((r) => `${r.instances} instance${r.instances > 1 ? 's' : ''}`).join(', ')}): its own queueing is part of those latencies.`
      : `The load generator stayed below ${fmt(SATURATED * 100)}% of a core: it was not the bottleneck.`,
  );
  lines.push('');
  if (init) {
    lines.push(
      `New visitors through \`POST /api/v1/widget/chat/conversations/init\` (one new visitor, session and conversation each): ` +
        `${fmt(init.requestsPerSecond)} per second, p99 ${ms(init.p99)} ms, ${init.vsBare === null ? 'no bare figure' : `${fmt(init.vsBare, init.vsBare < 1 ? 2 : 1)}% of the bare route`}` +
        `${init.failed ? `, **${fmt(init.failed)} failed**` : ''} (the HTTP table's \`widget-init\` row, with the widget's per-address limits raised).`,
    );
    lines.push('');
  } else {
    lines.push(
      'New visitors per second through `conversations/init`: the `widget-init` row of the HTTP results (not measured in this run).',
    );
    lines.push('');
  }
  lines.push('### Realtime targets');
  lines.push('');
  lines.push('| Target | Measured | |');
  lines.push('|---|---|---|');
  for (const c of checkRealtimeTargets(report))
    lines.push(`| ${c.target} | ${c.measured} | ${c.met === null ? '—' : c.met ? 'met' : '**missed**'} |`);
  lines.push('');
  lines.push(REALTIME_END);
  return lines.join('\n');
}

/** The `widget-init` scenario's figures, as the Realtime section quotes them. */
export function initRate(reports: readonly ScenarioReport[], bare: number | null): InitRate | null {
  const outcome = reports.find((r) => r.id === 'widget-init')?.outcome;
  if (outcome?.kind !== 'measured') return null;
  const r = outcome.result;
  return {
    requestsPerSecond: r.requestsPerSecond,
    p99: r.p99,
    failed: r.non2xx + r.errors,
    vsBare: bare ? (r.requestsPerSecond / bare) * 100 : null,
  };
}
