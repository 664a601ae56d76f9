// The results as Markdown: the machine, the dataset, one row per scenario (with its ratio to
// the bare Fastify route), the per-request timings, and each target met or missed.
import { type LoadResult, type LoadSettings, type Timing, WARM_ANSWERS_PER_CONNECTION } from './load.ts';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EMAIL_END, EMAIL_START } from './email-report.ts';
import { REALTIME_END, REALTIME_START } from './realtime-report.ts';
import { WEBHOOKS_END, WEBHOOKS_START } from './webhooks-report.ts';
import type { LeftBehind } from './backlog.ts';
import { type CpuRow, type CpuUse, renderCpu } from './cpu.ts';
import type { DatasetCounts } from './targets.ts';

const NOTES_MARKER = '<!-- Notes: everything below this line is kept when the benchmark rewrites this file. -->';

export type Outcome =
  | { kind: 'measured'; result: LoadResult }
  | { kind: 'unavailable'; detail: string }
  | { kind: 'failed'; detail: string };

export interface ScenarioReport {
  id: string;
  title: string;
  as: string;
  outcome: Outcome;
  /** Sequential single-request timing, for the endpoints whose target is a per-request time. */
  timing?: Timing;
  /** The scenario's jobs still pending when its window closed, and how long they then took. */
  leftBehind?: LeftBehind;
  /** The CPU each party spent in the measured window (cpu.ts); absent where /proc cannot be read. */
  cpu?: CpuUse;
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  postgres: string;
  os: string;
  /** One-minute load average when the run started: other work on the machine skews the figures. */
  loadBefore: number;
}

export interface RunReport {
  date: Date;
  machine: Machine;
  dataset: DatasetCounts;
  scale: number;
  seedSeconds: number | null;
  settings: LoadSettings;
  /** Parley server processes (SERVER_PROCESSES). */
  processes: number;
  scenarios: ScenarioReport[];
  totalSeconds: number;
  /** Peak VmRSS of the Parley process over the HTTP scenarios, in MB (10^6 bytes); null when not sampled. */
  parleyPeakRssMB: number | null;
  /** From spawning `npm start`'s server on an empty embedded database to its first answer; null when not measured. */
  firstStartSeconds: number | null;
}

export interface TargetCheck {
  target: string;
  measured: string;
  /** null when it could not be measured. */
  met: boolean | null;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number) => (n < 10 ? fmt(n, 1) : fmt(n, 0));
const percent = (n: number) => `${n < 1 ? fmt(n, 2) : fmt(n, 1)}%`;

function measured(report: RunReport, id: string): LoadResult | null {
  const scenario = report.scenarios.find((s) => s.id === id);
  return scenario?.outcome.kind === 'measured' ? scenario.outcome.result : null;
}

/**
 * Requests per second with the work they left queued done: the window's requests over the
 * window and the time their pending jobs took after it (backlog.ts). Without a backlog, the
 * load's own rate. Null when the jobs were not all done (no rate can be told).
 */
function completedRate(report: RunReport, id: string): number | null {
  const result = measured(report, id);
  if (!result) return null;
  const left = report.scenarios.find((s) => s.id === id)?.leftBehind;
  if (!left || left.jobs === 0) return result.requestsPerSecond;
  if (!left.drained) return null;
  const window = report.settings.duration;
  return (result.requestsPerSecond * window) / (window + left.drainSeconds);
}

function clean(result: LoadResult): boolean {
  return result.non2xx === 0 && result.errors === 0;
}

export function bareRate(report: RunReport): number | null {
  return measured(report, 'bare')?.requestsPerSecond ?? null;
}

/**
 * Each Parley scenario's floor: the reference route in the same run that does the least the
 * scenario must also do (a primary-key read, a committed insert, a stored page's bytes).
 */
export const FLOORS: Readonly<Record<string, string>> = {
  message: 'floor-select',
  'assigned-1': 'bare-page',
  'assigned-50': 'bare-page',
  reply: 'floor-insert',
};

const FLOOR_NAMES: Readonly<Record<string, string>> = {
  'floor-select': 'one SELECT',
  'floor-insert': 'one INSERT',
  'bare-page': 'stored page',
};

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

/** Short names of the scenarios, for the targets. */
const TITLES: Readonly<Record<string, string>> = {
  message: 'GET one message',
  'assigned-1': 'Assigned list, page 1',
  'assigned-50': 'Assigned list, page 50',
  reply: 'Reply',
  search: 'Search, 50 clients (share of the bare route)',
};

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

export const METHOD = `## What is measured

\`npm run bench\` does, in one run:

1. **Dataset.** It drops and recreates the PostgreSQL database named by \`BENCH_DATABASE_URL\`
   (default \`postgres://postgres@127.0.0.1:5432/parley_bench\`), runs Parley's migrations and
   built-in data, and creates the admin, 50 agents (role Agent, 10 per team), 5 teams and 2 inboxes
   (email and live chat) through Parley's own services. The bulk is generated with set-based SQL:
   50,000 contacts; 100,000 conversations spread over the last 365 days (more of them recent; recent
   ones mostly open, older ones resolved or closed), 95% assigned to an agent (about 1,900 each) and
   the rest unassigned; 2 to 18 messages each (1,000,000 in all): the contact first, then contact
   and agent in turn, with private notes (8%) and activity messages (4%), text built from a skewed
   vocabulary so that full-text search meets common and rare words; 0 to 3 of 200 tags per
   conversation (skewed too); the conversations' denormalised columns (last message, its time and
   sender, first and last reply, last incoming message, waiting since) computed from their
   messages; last-seen marks for the assignees. Then \`VACUUM ANALYZE\`.
2. **Servers and floors.** Parley (as \`npm start\` runs it: \`server/src/start.mjs\`, then \`main.ts\`; \`LOG_LEVEL=warn\`, with the Node flags of
   \`npm start\` and the glibc allocator settings of the image and the systemd unit) and a bare Fastify app run as child processes on 127.0.0.1. The bare app holds the
   floors each of Parley's figures is set against, measured in the same run: \`GET /\` answers
   \`{"status":"success","data":{"hello":"world"}}\` (Fastify and the load generator alone);
   \`GET /floor/select/:id\` reads one message row by primary key through \`pg\` (a pool as
   large as Parley's, a prepared statement): the floor of **one message**; \`POST /floor/insert\`
   writes one row with \`INSERT … RETURNING\` into a table of its own and commits: the floor of a
   **reply**; \`GET /page\` answers a copy of Parley's page 1 of the agent's assigned list, taken
   at the start of the run and serialised again on every request: the floor of the **lists**
   (their bytes and serialisation, without auth or database). "vs its floor" is the scenario's
   requests per second as a share of its floor's.
3. **Load.** autocannon runs in the benchmark's own process, on the same cores, with 50
   keep-alive connections, each sending its next request when the previous one is answered.
   Requests authenticate with API credentials (\`Authorization: token key:secret\`) and rotate over
   real ids: 300 messages of the agent's conversations, 200 of its live-chat conversations for
   replies, 20 search words of every frequency.
4. **Warm connections only.** Each scenario runs one autocannon instance: it opens all the
   connections and loads them for an unmeasured warm-up of at least 2 s (\`--warmup\`) that lasts
   until every connection has answered ${WARM_ANSWERS_PER_CONNECTION} requests. Only then does the measured window of 10 s
   (\`--duration\`) open, on the same connections, which stay open throughout. Opening a connection
   (its first request waits for the TCP handshake and, on a busy machine, for the server to accept
   it) and each connection's first requests are therefore never measured: on a loaded machine
   they took up to several seconds and set the p99 of whole runs. The window counts the answers
   that arrive within it on connections that were already warm; the benchmark times them itself
   (from writing the request to the last byte of its answer) and computes requests per second and
   exact percentiles from them, rather than taking autocannon's totals, which include the warm-up.
   A connection re-opened during the window (after an error, a timeout or a close by the server)
   counts again only once warm, and the table reports it beside the failed requests.
   **CPU per request.** At the window's edges the benchmark reads the processor time of the
   server that answers (\`/proc/<pid>/stat\`, all threads, with its child processes), of every
   \`postgres\` process of the machine and of its own process (the load generator), and the
   machine's busy time (\`/proc/stat\`); "Where the CPU goes" divides each by the requests answered
   in the window (\`server/bench/cpu.ts\`). With the machine near fully busy, a scenario's share of
   its floor is about the floor's sum over the scenario's, so the table says which party a missed
   ratio waits on.
   **Work left queued.** A reply enqueues its delivery (a \`livechat.deliver\` job). Before the
   reply's warm-up none is pending; when its window closes the benchmark counts those pending and
   waits until Parley's workers have done them. The reply's target and its scale-curve figure are
   the window's replies over the window plus that wait: replies accepted faster than they are
   delivered are not a reply rate.
5. **Per-request times, memory, first start.** The tag report, the service report and search
   have per-request targets: each is also timed alone, sequential requests on an idle server
   (20; 100 for search, whose target has a p99), after two untimed ones. Parley's RSS
   (\`/proc/<pid>/status\`) is sampled every 200 ms over all the HTTP scenarios; its peak is the
   memory figure. Last, the first start: the start script on an empty \`DATA_DIR\` with no
   \`DATABASE_URL\` (the embedded database created from the migrated image), timed from the
   spawn to the first 200 from \`/ready\`, three times; the median counts.
   With \`--curve\`, the run's figures for one message, the list, the reply, search and the two
   reports go into the scale curve (one row per \`--scale\`).
6. **Realtime.** After the HTTP scenarios, Parley runs again with Redis (\`REDIS_URL\`): first one
   instance, then two separate processes on two ports sharing the database and Redis. A load
   generator in a child process (\`realtime-client.ts\`) opens the agent sockets (\`/ws\`, API
   credentials; fewer agents than sockets, each with several tabs, since every API key costs a
   scrypt hash) and the widget sockets (\`/widget/ws\`, one visitor each, joined with a widget
   session; visitors connect from many loopback addresses, twenty per address, because the
   socket upgrades are limited per address), checks that every socket answers a ping, then sends
   agent replies and visitor messages over HTTP at a steady rate. The same process times each
   \`new_message\` frame from the start of the request that created the message, so both ends
   use one clock; the frame's message uuid identifies it. Expected recipients: the visitor's
   widget for a reply, and every socket of the agents who may read the conversation (its team).
   The widget's HTTP limits are raised for the run (\`WIDGET_RATE_LIMIT_PER_MINUTE\`,
   \`WIDGET_MESSAGE_RATE_LIMIT_PER_MINUTE\`). Memory is each Parley process's VmRSS
   (\`/proc/<pid>/status\`), sampled every 200 ms, peak over the run. The generator reports its own
   CPU over the window and its event-loop delay: when it nears a whole core, the latencies
   include its own queueing.
7. **Webhooks.** Last, Parley runs alone on PostgreSQL with receivers on 127.0.0.1 in the
   benchmark's process (\`WEBHOOK_ALLOW_HOSTS=127.0.0.1\`, \`WEBHOOK_TIMEOUT_SECONDS=30\`). Events are
   contacts created over the API; webhooks are created and deleted over the API. Idle: one
   webhook, one event every 200 ms. Throughput: 16 webhooks to one receiver (each event is 16
   deliveries), 250 events from 16 API clients at once; deliveries per second from the first to
   the last arrival. Isolation: a receiver answering after 10 s and one answering at once, both
   subscribed, 10 events a second for 10 s. Latencies run from the start of the API request that
   records the event to the arrival of the webhook's body; a \`webhook-id\` arriving twice is
   counted.
8. **Email.** Then each direction of the email channel runs in a child process on the same
   PostgreSQL server (a scratch database or schema of its own): \`server/bench/email-ingest.ts\`
   appends 10,000 mails (threads of 5, every 10th with a 20 KB attachment) to Debian's Dovecot,
   started for the run, and times the IMAP reader taking them in from scratch; the threading is
   checked (every thread in one conversation, no conversation holding two). Without Dovecot
   (\`/usr/sbin/dovecot\`) it is reported as skipped. \`server/bench/email-send.ts\` writes 2,000
   agent replies on an email inbox through the API, then times the job runner (JOB_CONCURRENCY 16)
   sending them through the inbox's pooled SMTP transport (5 connections) to an SMTP server in the
   same process, until every message is \`sent\`. Both report their process's RSS before and after.

The ratio to the bare route is the figure to compare across machines: the absolute numbers depend on
the CPU and on whatever else runs on it. A scenario whose requests fail is flagged in the table and
misses its targets; a route that does not exist yet is reported as not available.

Options: \`--scale=0.01\` (a quick run on a small dataset), \`--duration=S\`, \`--warmup=S\`,
\`--connections=N\`, \`--runs=N\`, \`--keep\` (keep the database) and \`--reuse\` (use a kept
database of the same scale instead of seeding again), \`--out=FILE\` / \`--no-write\`. This file is
written only by a run at scale 1 (or with \`--out\`). The exit code is 0 when the run completes,
whether or not the targets are met, and non-zero when the run itself fails.
`;

/**
 * Writes the results, keeping what this run did not measure: the HTTP results when only other
 * scenarios ran, each of the Realtime, Webhooks and Email sections when it did not run, and the
 * notes below the marker.
 */
export function writeReport(
  path: string,
  markdown: string | null,
  realtime: string | null,
  webhooks: string | null = null,
  email: string | null = null,
  curve: string | null = null,
): void {
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const at = previous.indexOf(NOTES_MARKER);
  const notes = at >= 0 ? previous.slice(at + NOTES_MARKER.length).replace(/^\n+/, '') : '';
  const head = at >= 0 ? previous.slice(0, at) : previous;
  const sectionOf = (start: string, end: string) => {
    const from = head.indexOf(start);
    const to = head.indexOf(end);
    return { from, text: from >= 0 && to > from ? head.slice(from, to + end.length) : '' };
  };
  const previousRealtime = sectionOf(REALTIME_START, REALTIME_END);
  const previousWebhooks = sectionOf(WEBHOOKS_START, WEBHOOKS_END);
  const previousEmail = sectionOf(EMAIL_START, EMAIL_END);
  const previousCurve = sectionOf(CURVE_START, CURVE_END);
  const methodAt = head.indexOf('## What is measured');
  const previousMain = head
    .slice(
      0,
      [previousRealtime.from, previousWebhooks.from, previousEmail.from, previousCurve.from, methodAt]
        .filter((i) => i >= 0)
        .reduce((a, b) => Math.min(a, b), head.length),
    )
    .trimEnd();
  const main = markdown ?? (previousMain || '# Performance\n');
  const sections = [
    curve ?? previousCurve.text,
    realtime ?? previousRealtime.text,
    webhooks ?? previousWebhooks.text,
    email ?? previousEmail.text,
  ].filter(Boolean);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    `${main.trimEnd()}\n\n${sections.map((section) => `${section}\n\n`).join('')}${METHOD}\n${NOTES_MARKER}\n\n${notes}`.trimEnd() + '\n',
  );
}

// ---------------------------------------------------------------- the scale curve

export const CURVE_START = '<!-- scale-curve: written by `npm run bench -- --curve` (one row per scale; a run replaces its own) -->';
export const CURVE_END = '<!-- /scale-curve -->';
const CURVE_DATA = /<!-- curve-data (.*?) -->/s;

/** One scale's figures: the scenarios that must stay flat as the dataset grows. */
export interface CurveRow {
  scale: number;
  date: string;
  conversations: number;
  messages: number;
  /** req/s and the share of its floor, per scenario id (message, assigned-1, reply, search). */
  load: Record<string, { rps: number; ofFloor: number | null; p99: number } | null>;
  /** Median of the sequential single requests, per scenario id (report, service-report, search). */
  single: Record<string, number | null>;
}

const CURVE_LOAD = ['message', 'assigned-1', 'reply', 'search'] as const;
/** Each curve scenario's floor; search, which has none, against the bare route of the same run. */
const CURVE_FLOORS: Readonly<Record<string, string>> = { ...FLOORS, search: 'bare' };
/** The single-request scenarios of the curve, and the median each must stay under at every scale. */
const CURVE_SINGLE = {
  report: { title: 'Tag report', limitMs: 150 },
  'service-report': { title: 'Service report', limitMs: 150 },
  search: { title: 'Search, one request (median)', limitMs: 50 },
} as const;
/** From the smallest dataset to the largest, each load scenario's throughput stays within this factor. */
export const CURVE_FLATNESS = 1.5;

export function curveRow(report: RunReport): CurveRow {
  const load: CurveRow['load'] = {};
  for (const id of CURVE_LOAD) {
    const result = measured(report, id);
    const floorId = CURVE_FLOORS[id];
    const floor = floorId ? measured(report, floorId) : null;
    const rate = completedRate(report, id);
    load[id] =
      result && clean(result) && rate !== null
        ? { rps: rate, ofFloor: floor ? rate / floor.requestsPerSecond : null, p99: result.p99 }
        : null;
  }
  const single: CurveRow['single'] = {};
  for (const id of Object.keys(CURVE_SINGLE)) single[id] = report.scenarios.find((s) => s.id === id)?.timing?.median ?? null;
  return {
    scale: report.scale,
    date: report.date.toISOString().slice(0, 16).replace('T', ' '),
    conversations: report.dataset.conversations,
    messages: report.dataset.messages,
    load,
    single,
  };
}

/** The rows kept in a previous curve section (its data comment), or none. */
export function previousCurveRows(markdown: string): CurveRow[] {
  const match = CURVE_DATA.exec(markdown);
  if (!match?.[1]) return [];
  try {
    const rows: unknown = JSON.parse(match[1]);
    return Array.isArray(rows) ? (rows as CurveRow[]) : [];
  } catch {
    return [];
  }
}

/** The curve section with this run's row in place of any earlier row of its scale. */
export function renderCurve(rows: readonly CurveRow[]): string {
  const sorted = [...rows].sort((a, b) => a.scale - b.scale);
  const cell = (row: CurveRow, id: string) => {
    const v = row.load[id];
    return v ? `${fmt(v.rps)} (${v.ofFloor === null ? 'n/a' : percent(v.ofFloor * 100)}) / ${ms(v.p99)}` : '—';
  };
  const lines = [
    CURVE_START,
    '',
    '## Scale curve',
    '',
    "Each row is one run of `npm run bench -- --scale=S --curve` (its HTTP scenarios); req/s with the share of the scenario's floor in the same run (search's: of the bare route), then the p99 in ms. The reports are the median of 20 single requests, search alone the median of 100.",
    '',
    '| scale | conversations | messages | one message | list, page 1 | reply | search, 50 clients | tag report | service report | search alone | run |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of sorted) {
    const single = (id: string) => (row.single[id] === null || row.single[id] === undefined ? '—' : `${ms(row.single[id] as number)} ms`);
    lines.push(
      `| ${row.scale} | ${fmt(row.conversations)} | ${fmt(row.messages)} | ${cell(row, 'message')} | ${cell(row, 'assigned-1')} | ${cell(row, 'reply')} | ${cell(row, 'search')} | ${single('report')} | ${single('service-report')} | ${single('search')} | ${row.date} |`,
    );
  }
  lines.push('');
  for (const check of checkCurve(sorted))
    lines.push(`- ${check.target}: ${check.measured} — ${check.met === null ? 'not measured' : check.met ? 'met' : '**missed**'}`);
  lines.push('', `<!-- curve-data ${JSON.stringify(sorted)} -->`, CURVE_END);
  return lines.join('\n');
}

/** Flatness of each load scenario (by its share of the floor, which the machine's load moves less) and the reports' limit. */
export function checkCurve(rows: readonly CurveRow[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const sorted = [...rows].sort((a, b) => a.scale - b.scale);
  const smallest = sorted[0];
  const largest = sorted[sorted.length - 1];
  for (const id of CURVE_LOAD) {
    const target = `${TITLES[id] ?? id}: within ${CURVE_FLATNESS}× from the smallest dataset to the largest`;
    const a = smallest?.load[id];
    const b = largest?.load[id];
    if (!a || !b || smallest === largest || a.ofFloor === null || b.ofFloor === null) {
      checks.push({ target, measured: 'needs two scales', met: null });
      continue;
    }
    const factor = Math.max(a.ofFloor, b.ofFloor) / Math.min(a.ofFloor, b.ofFloor);
    checks.push({
      target,
      measured: `${percent(a.ofFloor * 100)} of its floor at scale ${smallest.scale}, ${percent(b.ofFloor * 100)} at ${largest.scale} (${fmt(factor, 2)}×)`,
      met: factor <= CURVE_FLATNESS,
    });
  }
  for (const [id, { title, limitMs }] of Object.entries(CURVE_SINGLE)) {
    const worst = Math.max(...sorted.map((row) => row.single[id] ?? Number.NaN).filter((v) => !Number.isNaN(v)));
    checks.push({
      target: `${title} at every scale: ≤ ${limitMs} ms`,
      measured: Number.isFinite(worst) ? `slowest median ${ms(worst)} ms` : 'not measured',
      met: Number.isFinite(worst) ? worst <= limitMs : null,
    });
  }
  return checks;
}
