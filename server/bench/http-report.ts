// The HTTP scenarios' Markdown section (the head of docs/performance.md): the machine, the
// dataset, one row per scenario (with its ratio to the bare Fastify route and to its floor), the
// per-request timings, where the CPU goes, and each target met or missed.
import { type CpuRow, renderCpu } from './cpu.ts';
import { type Timing, WARM_ANSWERS_PER_CONNECTION } from './load.ts';
import {
  bareRate,
  clean,
  completedRate,
  FLOOR_NAMES,
  FLOORS,
  fmt,
  measured,
  ms,
  percent,
  type RunReport,
  type ScenarioReport,
  type TargetCheck,
  TITLES,
} from './http-results.ts';

/** Per-instance memory and start-up limits. */
export const RSS_LIMIT_MB = 250;
export const FIRST_START_LIMIT_SECONDS = 5;

/** The targets, each checked against this run's figures. A scenario with errors misses its targets. */
export function checkTargets(report: RunReport): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const against = (id: string, share: number, p99Times: number) => {
    const floorId = FLOORS[id] as string;
    const label = `${TITLES[id] ?? id}: ≥ ${share}% of the ${FLOOR_NAMES[floorId]} floor; p99 ≤ ${p99Times}× the floor's`;
    const result = measured(report, id);
    const floor = measured(report, floorId);
    if (!result || !floor) {
      checks.push({ target: label, measured: 'not measured', met: null });
      return;
    }
    const rate = completedRate(report, id);
    const left = report.scenarios.find((s) => s.id === id)?.leftBehind;
    const p99Ratio = result.p99 / floor.p99;
    const errors = clean(result) ? '' : ` (with ${fmt(result.non2xx + result.errors)} failed requests)`;
    const p99 = `p99 ${ms(result.p99)} ms = ${fmt(p99Ratio, 1)}× ${ms(floor.p99)} ms${errors}`;
    if (rate === null) {
      const pending = left ? `${fmt(left.jobs)} jobs left pending were not done ${fmt(left.drainSeconds, 0)} s after the window` : '';
      checks.push({ target: label, measured: `no rate: ${pending} (${fmt(result.requestsPerSecond)} req/s accepted); ${p99}`, met: false });
      return;
    }
    const ratio = (rate / floor.requestsPerSecond) * 100;
    const backlog =
      left && left.jobs > 0
        ? `, counting the ${fmt(left.jobs)} jobs left pending, done ${fmt(left.drainSeconds, 1)} s after the window (${fmt(result.requestsPerSecond)} req/s accepted)`
        : '';
    checks.push({
      target: label,
      measured: `${percent(ratio)} (${fmt(rate)} of ${fmt(floor.requestsPerSecond)} req/s${backlog}); ${p99}`,
      met: clean(result) && clean(floor) && ratio >= share && p99Ratio <= p99Times,
    });
  };
  against('message', 60, 2);
  against('assigned-1', 40, 3);
  against('assigned-50', 40, 3);
  against('reply', 30, 3);
  const single = (target: string, id: string, value: (t: Timing) => number, label: string, limit: number) => {
    const timing = report.scenarios.find((s) => s.id === id)?.timing;
    if (!timing) {
      checks.push({ target, measured: 'not measured', met: null });
      return;
    }
    const failures = timing.failures ? ` (${timing.failures} of ${timing.runs} failed)` : '';
    const v = value(timing);
    checks.push({ target, measured: `${ms(v)} ms ${label} of ${timing.runs}${failures}`, met: timing.failures === 0 && v <= limit });
  };
  single('Tag report (days=365), one request: ≤ 150 ms', 'report', (t) => t.median, 'median', 150);
  single('Service report (366 days), one request: ≤ 150 ms', 'service-report', (t) => t.median, 'median', 150);
  single('Service report filtered by a tag (366 days), one request: ≤ 150 ms', 'service-report-tag', (t) => t.median, 'median', 150);
  single('Search, one request: p50 ≤ 50 ms', 'search', (t) => t.median, 'median', 50);
  single('Search, one request: p99 ≤ 150 ms', 'search', (t) => t.p99, 'p99', 150);
  const search = measured(report, 'search');
  checks.push(
    search
      ? {
          target: `Search: ≥ 100 req/s at ${report.settings.connections} clients`,
          measured: `${fmt(search.requestsPerSecond)} req/s`,
          met: clean(search) && search.requestsPerSecond >= 100,
        }
      : { target: 'Search: ≥ 100 req/s at 50 clients', measured: 'not measured', met: null },
  );
  const rss = report.parleyPeakRssMB;
  checks.push({
    target: `RSS of one instance under the whole run: ≤ ${RSS_LIMIT_MB} MB`,
    measured: rss === null ? 'not measured' : `${fmt(rss)} MB peak`,
    met: rss === null ? null : rss <= RSS_LIMIT_MB,
  });
  const start = report.firstStartSeconds;
  checks.push({
    target: `First start on an empty embedded database: ≤ ${FIRST_START_LIMIT_SECONDS} s`,
    measured: start === null ? 'not measured' : `${fmt(start, 2)} s`,
    met: start === null ? null : start <= FIRST_START_LIMIT_SECONDS,
  });
  return checks;
}

function resultRow(report: RunReport, scenario: ScenarioReport, bare: number | null): string {
  const { outcome } = scenario;
  if (outcome.kind === 'unavailable') return `| ${scenario.title} | ${scenario.as} | not available: ${outcome.detail} | | | | | | |`;
  if (outcome.kind === 'failed') return `| ${scenario.title} | ${scenario.as} | **FAILED: ${outcome.detail}** | | | | | | |`;
  const r = outcome.result;
  const failed = r.non2xx + r.errors;
  const reopened = r.reopened > 0 ? ` (${fmt(r.reopened)} connections re-opened)` : '';
  const failures =
    (failed === 0 ? '0' : `**${fmt(failed)} ⚠** ${r.sampleError ? `(${r.sampleError.replace(/\|/g, '/')})` : ''}`) + reopened;
  const ratio = bare ? percent((r.requestsPerSecond / bare) * 100) : 'n/a';
  const floorId = FLOORS[scenario.id];
  const floor = floorId ? measured(report, floorId) : null;
  const vsFloor = floorId
    ? floor
      ? `${percent((r.requestsPerSecond / floor.requestsPerSecond) * 100)} of ${FLOOR_NAMES[floorId]}`
      : 'floor not measured'
    : '—';
  return `| ${scenario.title} | ${scenario.as} | ${fmt(r.requestsPerSecond)} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${ratio} | ${vsFloor} | ${failures} |`;
}

function cpuRows(report: RunReport): CpuRow[] {
  return report.scenarios.flatMap((s) =>
    s.cpu && s.outcome.kind === 'measured'
      ? [{ title: s.title, requestsPerSecond: s.outcome.result.requestsPerSecond, requests: s.outcome.result.total, cpu: s.cpu }]
      : [],
  );
}

export function renderMarkdown(report: RunReport): string {
  const bare = bareRate(report);
  const d = report.dataset;
  const lines: string[] = [];
  lines.push('# Performance');
  lines.push('');
  lines.push('Measured by `npm run bench` (`server/bench/run.ts`); this file is written by it. Run it again to refresh the figures.');
  lines.push('');
  lines.push(
    `## Results (${report.date
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC')})`,
  );
  lines.push('');
  lines.push(
    `${report.settings.connections} concurrent connections, opened and warmed before each scenario's measured window ` +
      `(at least ${report.settings.warmup} s, and until every connection has answered ${WARM_ANSWERS_PER_CONNECTION} requests), ` +
      `then ${report.settings.duration} s measured on the same connections; ` +
      `Parley runs ${report.processes === 1 ? 'one server process' : `${report.processes} server processes (SERVER_PROCESSES, sharing events through Redis)`}, the bare route one. ` +
      'Latencies in milliseconds, of the 2xx answers in the window; "vs bare" is the requests per second as a share of a bare Fastify JSON route measured in the same run.',
  );
  lines.push('');
  lines.push('| Scenario | As | req/s | p50 | p90 | p99 | vs bare | vs its floor | failed requests |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---|');
  for (const scenario of report.scenarios) lines.push(resultRow(report, scenario, bare));
  lines.push('');
  for (const scenario of report.scenarios) {
    const left = scenario.leftBehind;
    if (!left) continue;
    const rate = completedRate(report, scenario.id);
    lines.push(
      `${scenario.title}: ${fmt(left.jobs)} of the jobs its requests enqueued were pending when the window closed; ` +
        (left.drained
          ? `they were done ${fmt(left.drainSeconds, 1)} s later (${fmt(rate ?? 0)} req/s counting that time; the table's figures are of the window alone).`
          : `they were **not done** ${fmt(left.drainSeconds, 0)} s later.`),
    );
    lines.push('');
  }

  const timed = report.scenarios.filter((s) => s.timing);
  if (timed.length > 0) {
    lines.push('Single requests, one after another on an idle server (after two untimed ones):');
    lines.push('');
    lines.push('| Endpoint | median | p99 | min | max | failed |');
    lines.push('|---|---:|---:|---:|---:|---:|');
    for (const s of timed) {
      const t = s.timing as Timing;
      lines.push(`| ${s.title} | ${ms(t.median)} ms | ${ms(t.p99)} ms | ${ms(t.min)} ms | ${ms(t.max)} ms | ${t.failures} of ${t.runs} |`);
    }
    lines.push('');
  }

  lines.push(...renderCpu(cpuRows(report)));

  lines.push('### Targets');
  lines.push('');
  lines.push('| Target | Measured | |');
  lines.push('|---|---|---|');
  for (const check of checkTargets(report)) {
    lines.push(`| ${check.target} | ${check.measured} | ${check.met === null ? '—' : check.met ? 'met' : '**missed**'} |`);
  }
  lines.push('');

  const m = report.machine;
  lines.push('### Machine');
  lines.push('');
  lines.push(`- CPU: ${m.cpu}, ${m.cores} cores (shared by PostgreSQL, Parley and the load generator), ${fmt(m.memoryGiB)} GiB RAM`);
  lines.push(`- ${m.os}; Node.js ${m.node}; PostgreSQL ${m.postgres} (on the same machine, default settings)`);
  lines.push(
    `- One-minute load average when the run started: ${fmt(m.loadBefore, 2)}` +
      (m.loadBefore > m.cores / 2 ? ' (other work was running on the machine: the figures are pessimistic)' : ''),
  );
  lines.push('');
  lines.push('### Dataset');
  lines.push('');
  lines.push(
    `${fmt(d.conversations)} conversations, ${fmt(d.messages)} messages, ${fmt(d.contacts)} contacts, ${d.agents} agents (one admin among them), ` +
      `${d.teams} teams, ${d.tags} tags (${fmt(d.conversationTags)} conversation tags), ${d.inboxes} inboxes; ` +
      `the benchmark agent has ${fmt(d.benchAgentConversations)} assigned conversations. Scale ${report.scale}` +
      (report.seedSeconds === null ? ' (reused from an earlier run).' : `, seeded in ${fmt(report.seedSeconds, 0)} s.`),
  );
  lines.push(`Whole run: ${fmt(report.totalSeconds / 60, 1)} min.`);
  lines.push('');
  return lines.join('\n');
}
