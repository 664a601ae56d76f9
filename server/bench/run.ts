// `npm run bench`: seeds a realistic dataset into PostgreSQL, starts Parley and a bare Fastify
// route as child processes, loads each scenario with autocannon and prints (and writes to
// docs/performance.md) a Markdown table. Exit code 0 when the run completes, targets met or not;
// non-zero when the run itself fails. Children are stopped by PID and the database is dropped
// on the way out (unless --keep), whatever happens.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { openRuntime, prepareDatabase } from '../src/setup.ts';
import { buildDatabaseImage } from '../scripts/build-db-image.ts';
import { type CpuUse, cpuWindow, describeCpu } from './cpu.ts';
import { type LoadResult, type LoadSettings, probe, runLoad, type Scenario, timeSequential, WarmUpError } from './load.ts';
import { type BenchOptions, FIRST_START_ID, OptionsError, parseOptions, REALTIME_ID, SCENARIO_IDS, USAGE, WEBHOOKS_ID } from './options.ts';
import { type Child, killAllChildrenNow, startBare, startParley, stopAllChildren, stopChild, tail } from './processes.ts';
import {
  bareRate,
  checkTargets,
  curveRow,
  FLOORS,
  type Machine,
  previousCurveRows,
  type RunReport,
  renderCurve,
  renderMarkdown,
  type ScenarioReport,
  writeReport,
} from './report.ts';
import { dropDatabase, isSeededAt, markSeeded, recreateDatabase } from './database.ts';
import { runEmail } from './email.ts';
import { checkEmailTargets, EMAIL_IDS, type EmailBenchReport, renderEmail } from './email-report.ts';
import { RAISED_LIMITS, type RealtimeReport, rssMiB, runRealtime } from './realtime.ts';
import type { RealtimeFixtures } from './realtime-plan.ts';
import { checkRealtimeTargets, initRate, renderRealtime } from './realtime-report.ts';
import { agentsFor, agentsPerTeam, seedRealtime } from './realtime-seed.ts';
import { seedDataset, vacuumDataset } from './seed.ts';
import { countDataset, type DatasetCounts, type LoadTargets, loadTargets } from './targets.ts';
import { waitForJobs } from './backlog.ts';
import { runWebhooks } from './webhooks.ts';
import { checkWebhookTargets, renderWebhooks, type WebhookBenchReport } from './webhooks-report.ts';

/** Lets the bench read the instance's own memory figures (its /metrics). */
const BENCH_METRICS_TOKEN = randomBytes(16).toString('hex');

/** Pages given back with MADV_FREE: counted in RSS until the kernel needs them. */
function lazyFree(pid: number): string {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? Number.NaN) / 1000;
    return `anonymous ${field('Anonymous').toFixed(0)} MB, lazily freed ${field('LazyFree').toFixed(0)} MB`;
  } catch {
    return 'no smaps';
  }
}

/** The instance's heap and off-heap memory (prom-client's default metrics), as one line. */
async function memoryOf(parley: Child): Promise<string> {
  try {
    const res = await fetch(`${parley.baseUrl}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
    const text = await res.text();
    const value = (name: string) => Number(new RegExp(`^parley_${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
    return `heap ${mb(value('nodejs_heap_size_used_bytes'))} used of ${mb(value('nodejs_heap_size_total_bytes'))}, external ${mb(value('nodejs_external_memory_bytes'))}, RSS ${mb(value('process_resident_memory_bytes'))} (${lazyFree(parley.pid)})`;
  } catch (error) {
    return `memory not read (${(error as Error).message})`;
  }
}

const ROOT = resolve(import.meta.dirname, '../..');

const progress = (message: string) => process.stderr.write(`${message}\n`);

// What must be undone on the way out, whatever happens.
const state: { tmpDir: string | null; databaseUrl: string | null; dropDatabase: boolean } = {
  tmpDir: null,
  databaseUrl: null,
  dropDatabase: false,
};
let cleaning: Promise<void> | null = null;
let interrupted = false;

/** Once, however many callers (the run's end and a signal may both ask); each waits for it to finish. */
function cleanup(): Promise<void> {
  cleaning ??= undoEverything();
  return cleaning;
}

async function undoEverything(): Promise<void> {
  await stopAllChildren();
  if (state.databaseUrl && state.dropDatabase) {
    try {
      await dropDatabase(state.databaseUrl);
      progress('Dropped the benchmark database.');
    } catch (error) {
      progress(`Could not drop the benchmark database: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else if (state.databaseUrl) {
    progress('Kept the benchmark database (--keep); reuse it with --reuse.');
  }
  if (state.tmpDir) rmSync(state.tmpDir, { recursive: true, force: true });
}

function onSignal(signal: NodeJS.Signals): void {
  interrupted = true;
  progress(`\n${signal}: stopping.`);
  cleanup().finally(() => process.exit(130));
}

/** The jobs a scenario's requests enqueue: what they leave behind is waited for and reported (backlog.ts). */
const SCENARIO_JOBS: Readonly<Record<string, readonly string[]>> = { reply: ['livechat.deliver'] };
const DRAIN_TIMEOUT_MS = 120_000;

interface ScenarioPlan extends Scenario {
  baseUrl: string;
  /** Also time single sequential requests (per-request targets); a number: at least that many. */
  sequential?: boolean | number;
}

function scenarios(bare: Child, parley: Child, targets: LoadTargets, pageBytes: number, widgetInbox: string | null): ScenarioPlan[] {
  const agent = { authorization: targets.agent.authorization };
  const admin = { authorization: targets.admin.authorization };
  const replies = [
    'Thanks for your patience, I have looked into this and the refund is on its way.',
    'Could you send us a screenshot of the error and the browser version you use?',
    'I have reset the password on our side; please try to log in again and tell me how it goes.',
    'Your order has shipped today: the tracking number is in the confirmation email.',
  ].map((text) => JSON.stringify({ message: `<p>${text}</p>` }));
  return [
    { id: 'bare', title: 'Bare Fastify route `GET /`', as: '—', baseUrl: bare.baseUrl, method: 'GET', paths: ['/'], headers: {} },
    {
      id: 'floor-select',
      title: 'Floor: bare route, one primary-key `SELECT` of a message through `pg`',
      as: '—',
      baseUrl: bare.baseUrl,
      method: 'GET',
      paths: targets.messages.map(([, , id]) => `/floor/select/${id}`),
      headers: {},
    },
    {
      id: 'message',
      title: '`GET /api/v1/conversations/{cuuid}/messages/{uuid}`',
      as: 'agent',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: targets.messages.map(([c, m]) => `/api/v1/conversations/${c}/messages/${m}`),
      headers: agent,
    },
    {
      id: 'assigned-1',
      title: '`GET /api/v1/conversations/assigned?page=1`',
      as: 'agent',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: ['/api/v1/conversations/assigned?page=1'],
      headers: agent,
    },
    {
      id: 'assigned-50',
      title: '`GET /api/v1/conversations/assigned?page=50`',
      as: 'agent',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: ['/api/v1/conversations/assigned?page=50'],
      headers: agent,
    },
    {
      id: 'report',
      title: '`GET /api/v1/reports/overview/tags?days=365`',
      as: 'admin',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: ['/api/v1/reports/overview/tags?days=365'],
      headers: admin,
      sequential: true,
    },
    {
      id: 'service-report',
      title: '`GET /api/v1/reports/service` (366 days)',
      as: 'admin',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: [`/api/v1/reports/service?from=${isoDate(-365)}&to=${isoDate(0)}`],
      headers: admin,
      sequential: true,
    },
    {
      id: 'search',
      title: '`GET /api/v1/search?q=…` (20 words)',
      as: 'agent',
      baseUrl: parley.baseUrl,
      method: 'GET',
      paths: targets.searchWords.map((word) => `/api/v1/search?q=${encodeURIComponent(word)}`),
      headers: agent,
      // Its target has a p99: a hundred requests make it the second slowest.
      sequential: 100,
    },
    {
      id: 'floor-insert',
      title: 'Floor: bare route, one `INSERT … RETURNING` through `pg`, committed',
      as: '—',
      baseUrl: bare.baseUrl,
      method: 'POST',
      paths: ['/floor/insert'],
      bodies: replies,
      headers: {},
    },
    // Last of Parley's: it adds messages, which the other scenarios should not see.
    {
      id: 'reply',
      title: '`POST /api/v1/conversations/{uuid}/messages`',
      as: 'agent',
      baseUrl: parley.baseUrl,
      method: 'POST',
      paths: targets.replyConversations.map((uuid) => `/api/v1/conversations/${uuid}/messages`),
      bodies: replies,
      headers: agent,
    },
    // Each request a new visitor, session and conversation, so after the other scenarios too.
    {
      id: 'widget-init',
      title: '`POST /api/v1/widget/chat/conversations/init` (a new visitor each)',
      as: 'visitor',
      baseUrl: parley.baseUrl,
      method: 'POST',
      paths: widgetInbox ? ['/api/v1/widget/chat/conversations/init'] : [],
      bodies: [JSON.stringify({ message: 'Hello, I have a question about my order.', form_data: {} })],
      headers: widgetInbox ? { 'x-service-inbox-id': widgetInbox } : {},
    },
    // After Parley's scenarios: its 36 KB answers at several thousand per second leave the load
    // generator's process slower for a while (the list's p99 measured after it was five times worse).
    {
      id: 'bare-page',
      title: `Bare Fastify route answering a stored page 1 of the assigned list (${(pageBytes / 1024).toFixed(0)} KB)`,
      as: '—',
      baseUrl: bare.baseUrl,
      method: 'GET',
      paths: ['/page'],
      headers: {},
    },
  ];
}

/** The reference scenarios, run whatever --only says. */
const REFERENCE_IDS = ['bare', 'floor-select', 'floor-insert', 'bare-page'];

/** Whether a reference scenario runs: the bare route always, a floor when a scenario measured against it runs. */
function referenceWanted(id: string, wants: (id: string) => boolean): boolean {
  return id === 'bare' || Object.entries(FLOORS).some(([scenario, floor]) => floor === id && wants(scenario));
}

/** Stores Parley's page 1 of the agent's assigned list in the bare server (its second reference route); returns its size in bytes. */
async function storeReferencePage(bare: Child, parley: Child, targets: LoadTargets): Promise<number> {
  const answer = await fetch(`${parley.baseUrl}/api/v1/conversations/assigned?page=1`, {
    headers: { authorization: targets.agent.authorization },
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`the assigned list answered ${answer.status}: ${text.slice(0, 200)}`);
  const stored = await fetch(`${bare.baseUrl}/page`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: text });
  if (!stored.ok) throw new Error(`the bare server refused the reference page: ${stored.status}`);
  return Buffer.byteLength(text);
}

async function runScenario(
  plan: ScenarioPlan,
  settings: LoadSettings,
  runs: number,
  servers: { parley: Child; bare: Child },
): Promise<ScenarioReport> {
  const { parley } = servers;
  const base = { id: plan.id, title: plan.title, as: plan.as };
  progress(`- ${plan.title.replace(/`/g, '')} as ${plan.as}`);
  if (plan.paths.length === 0) return { ...base, outcome: { kind: 'failed', detail: 'the dataset has no ids for it' } };
  const probed = await probe(plan.baseUrl, plan);
  if (probed.kind === 'missing') {
    progress(`    not available: ${probed.detail}`);
    return { ...base, outcome: { kind: 'unavailable', detail: probed.detail } };
  }
  if (probed.kind === 'failing') progress(`    !! the first request answered ${probed.status}: ${probed.detail}`);
  const timing = plan.sequential
    ? await timeSequential(plan.baseUrl, plan, typeof plan.sequential === 'number' ? Math.max(plan.sequential, runs) : runs)
    : undefined;
  if (timing)
    progress(
      `    one request at a time: median ${timing.median.toFixed(1)} ms (min ${timing.min.toFixed(1)}, max ${timing.max.toFixed(1)})`,
    );
  let result: LoadResult;
  // The CPU of the process answering the scenario (cpu.ts), read at its measured window's edges.
  const readings = cpuWindow(plan.baseUrl === parley.baseUrl ? parley.pid : servers.bare.pid, os.availableParallelism());
  const reading: { cpu?: CpuUse } = {};
  try {
    result = await runLoad(plan.baseUrl, plan, settings, {
      opened: () => readings?.open(),
      closed: () => {
        const cpu = readings?.close();
        if (cpu) reading.cpu = cpu;
      },
    });
  } catch (error) {
    if (!(error instanceof WarmUpError)) throw error;
    progress(`    !!!! the connections did not warm up: ${error.message}`);
    return { ...base, outcome: { kind: 'failed', detail: `connections not warmed up: ${error.message}` } };
  }
  const { warmUp } = result;
  progress(
    `    warm-up ${warmUp.seconds.toFixed(1)} s; first answer per connection: median ${warmUp.firstAnswerMedian.toFixed(1)} ms, ` +
      `max ${warmUp.firstAnswerMax.toFixed(1)} ms (not measured)`,
  );
  progress(
    `    ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
      `max ${result.max.toFixed(1)} ms, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.reopened} connections re-opened`,
  );
  if (reading.cpu) progress(`    ${describeCpu(reading.cpu, result.total)}`);
  if (result.non2xx > 0 || result.errors > 0) {
    const codes = Object.entries(result.statusCodes)
      .map(([code, count]) => `${code}×${count}`)
      .join(', ');
    progress(
      `    !!!! ${result.non2xx + result.errors} FAILED REQUESTS (${codes}${result.timeouts ? `, ${result.timeouts} timeouts` : ''}): ${result.sampleError ?? ''}`,
    );
    if (plan.baseUrl === parley.baseUrl) progress(`    Parley's log ends with:\n${tail(parley.logFile, 10).replace(/^/gm, '      ')}`);
  }
  return { ...base, outcome: { kind: 'measured', result }, ...(timing ? { timing } : {}), ...reading };
}

/**
 * From spawning the server on an empty embedded database (a new DATA_DIR: PGlite created and
 * migrated, built-in data written) to its first 200 from /ready, as `npm start` runs it after
 * `npm install`. The median of three, each on a new directory (all three are printed).
 */
async function measureFirstStart(secretKey: string, tmpDir: string): Promise<number> {
  progress('- First start on an empty embedded database (3 times)');
  // As `npm start` does first (ensure-built.ts): the migrated image made when missing.
  await buildDatabaseImage((line) => progress(`    ${line}`));
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const dataDir = join(tmpDir, `first-start-${i}`);
    const begun = performance.now();
    const child = await startParley({ root: ROOT, databaseUrl: null, dataDir, secretKey, logDir: tmpDir, logName: `first-start-${i}.log` });
    times.push((performance.now() - begun) / 1000);
    await stopChild(child.pid);
    rmSync(dataDir, { recursive: true, force: true });
  }
  progress(`    ${times.map((t) => `${t.toFixed(2)} s`).join(', ')}`);
  return [...times].sort((a, b) => a - b)[1] as number;
}

/** A UTC date `days` from today, YYYY-MM-DD (the bench database's reports are in UTC). */
function isoDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The email scenarios; on their own (--only=email-in,email-out) nothing is seeded nor started. */
async function benchEmail(options: BenchOptions, wants: (id: string) => boolean): Promise<EmailBenchReport | null> {
  if (!EMAIL_IDS.some(wants)) return null;
  return runEmail({ root: ROOT, databaseUrl: options.databaseUrl, redisUrl: options.redisUrl }, options.email, wants, progress);
}

function reportEmail(email: EmailBenchReport, date: Date): string {
  const markdown = renderEmail(
    email,
    date,
    `${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${os.availableParallelism()} cores; Node.js ${process.version}.`,
  );
  process.stdout.write(`\n${markdown}\n`);
  return markdown;
}

async function benchEmailOnly(options: BenchOptions, only: readonly string[]): Promise<void> {
  const email = await benchEmail(options, (id) => only.includes(id));
  if (!email) return;
  const markdown = reportEmail(email, new Date());
  if (options.out) {
    writeReport(resolve(ROOT, options.out), null, null, null, markdown);
    progress(`Wrote ${options.out}.`);
  } else progress('Not written to a file (pass --out=FILE to write it).');
  const missed = checkEmailTargets(email).filter((c) => c.met === false);
  progress(missed.length === 0 ? 'Every measured target is met.' : `Targets missed: ${missed.map((c) => c.target).join('; ')}.`);
}

async function bench(options: BenchOptions): Promise<void> {
  if (options.only?.every((id) => EMAIL_IDS.includes(id))) return benchEmailOnly(options, options.only);
  const started = performance.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  const tmpDir = mkdtempSync(join(os.tmpdir(), 'parley-bench-'));
  state.tmpDir = tmpDir;
  const databaseUrl = options.databaseUrl;
  const config = loadConfig(
    { DATABASE_URL: databaseUrl, DATA_DIR: join(tmpDir, 'data'), SECRET_KEY: randomBytes(32).toString('base64url'), LOG_LEVEL: 'warn' },
    ROOT,
  );

  const reuse = options.reuse && (await isSeededAt(databaseUrl, options.scale));
  state.databaseUrl = databaseUrl;
  state.dropDatabase = !options.keep;
  if (options.reuse && !reuse) progress(`No database seeded at scale ${options.scale} to reuse: seeding one.`);
  if (reuse) progress(`Reusing the database seeded at scale ${options.scale}.`);
  else {
    progress(`Seeding ${new URL(databaseUrl).pathname.slice(1)} at scale ${options.scale}:`);
    await recreateDatabase(databaseUrl);
  }

  const only = options.only;
  const wants = (id: string) => only === null || only.includes(id);
  const wantsRealtime = wants(REALTIME_ID);
  let fixtures: RealtimeFixtures | null = null;
  const runtime = await openRuntime(config, pino({ level: 'warn' }, pino.destination(2)));
  let seedSeconds: number | null = null;
  let targets: LoadTargets;
  let dataset: DatasetCounts;
  let postgres: string;
  try {
    if (reuse) {
      await prepareDatabase(runtime.deps.db);
      const started = performance.now();
      await vacuumDataset(runtime.deps.db);
      progress(`Vacuumed and analysed the reused database in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    } else {
      seedSeconds = (await seedDataset(runtime.deps, options.scale, progress)).seconds;
      await markSeeded(databaseUrl, options.scale);
      progress(`Seeded in ${seedSeconds.toFixed(0)} s.`);
    }
    targets = await loadTargets(runtime.deps);
    dataset = await countDataset(runtime.deps.db, targets.agent.id);
    if (wantsRealtime || wants('widget-init')) {
      const rt = options.realtime;
      fixtures = await seedRealtime(
        runtime.deps,
        wantsRealtime
          ? { agents: agentsFor(rt.agentSockets, rt.tabs), visitors: rt.widgetSockets, agentsPerTeam: agentsPerTeam(rt.tabs) }
          : { agents: 0, visitors: 0, agentsPerTeam: 1 },
        progress,
      );
    }
    const { rows } = await sql<{ server_version: string }>`show server_version`.execute(runtime.deps.db);
    postgres = rows[0]?.server_version ?? 'unknown';
  } finally {
    await runtime.close();
  }
  progress(
    `Dataset: ${dataset.conversations} conversations, ${dataset.messages} messages, ${dataset.contacts} contacts; ` +
      `the benchmark agent has ${dataset.benchAgentConversations} assigned conversations.`,
  );

  const bare = await startBare({ root: ROOT, logDir: tmpDir, databaseUrl });
  const parley = await startParley({
    root: ROOT,
    databaseUrl,
    dataDir: join(tmpDir, 'data'),
    secretKey: config.secretKey!.toString('utf8'),
    logDir: tmpDir,
    profileDir: options.profileDir,
    processes: options.processes,
    redisUrl: options.redisUrl,
    env: { ...RAISED_LIMITS, METRICS_TOKEN: BENCH_METRICS_TOKEN },
  });
  progress(`Parley (pid ${parley.pid}) on ${parley.baseUrl}, bare route (pid ${bare.pid}) on ${bare.baseUrl}.`);

  // The instance's memory over every HTTP scenario (the bench's own process is not counted).
  let peakRssMiB = rssMiB(parley.pid) ?? 0;
  let scenarioPeakMiB = 0;
  const sampler = setInterval(() => {
    const now = rssMiB(parley.pid) ?? 0;
    peakRssMiB = Math.max(peakRssMiB, now);
    scenarioPeakMiB = Math.max(scenarioPeakMiB, now);
  }, 200);
  const settings: LoadSettings = { connections: options.connections, duration: options.duration, warmup: options.warmup };
  progress(`Load: ${settings.connections} connections, ${settings.warmup} s warm-up + ${settings.duration} s per scenario.`);
  const reports: ScenarioReport[] = [];
  const pageBytes = await storeReferencePage(bare, parley, targets);
  const plans = scenarios(bare, parley, targets, pageBytes, fixtures?.inboxUuid ?? null);
  const ids = plans.map((p) => p.id).filter((id) => !REFERENCE_IDS.includes(id));
  if (ids.join() !== SCENARIO_IDS.join())
    throw new Error(`SCENARIO_IDS (options.ts) lists ${SCENARIO_IDS.join()}, the scenarios are ${ids.join()}`);
  const planned = plans.filter((p) => (REFERENCE_IDS.includes(p.id) ? referenceWanted(p.id, wants) : wants(p.id)));
  for (const plan of planned) {
    if (!parley.isRunning()) throw new Error(`Parley stopped during the run:\n${tail(parley.logFile)}`);
    scenarioPeakMiB = rssMiB(parley.pid) ?? 0;
    const jobKinds = SCENARIO_JOBS[plan.id];
    // The window starts with none of the scenario's jobs pending (a killed earlier run may have left some).
    if (jobKinds) {
      const before = await waitForJobs(databaseUrl, jobKinds, DRAIN_TIMEOUT_MS);
      if (!before.drained) progress(`    !! ${before.jobs} of its jobs were still pending before the warm-up: the figures count them`);
    }
    const scenario = await runScenario(plan, settings, options.sequentialRuns, { parley, bare });
    if (jobKinds && scenario.outcome.kind === 'measured') {
      scenario.leftBehind = await waitForJobs(databaseUrl, jobKinds, DRAIN_TIMEOUT_MS);
      const { jobs, drainSeconds, drained } = scenario.leftBehind;
      progress(
        `    ${jobs} of its jobs pending when the window closed; ${drained ? `done ${drainSeconds.toFixed(1)} s later` : 'NOT DONE in time'}`,
      );
    }
    reports.push(scenario);
    // Which scenario raises the peak: printed, not reported.
    progress(
      `  ${plan.id}: Parley's RSS peaked at ${((scenarioPeakMiB * 1024 * 1024) / 1e6).toFixed(0)} MB; after it ${await memoryOf(parley)}.`,
    );
  }
  clearInterval(sampler);
  const parleyPeakRssMB = options.processes === 1 && peakRssMiB > 0 ? (peakRssMiB * 1024 * 1024) / 1e6 : null;
  if (parleyPeakRssMB !== null) progress(`Parley's peak RSS over the HTTP scenarios: ${parleyPeakRssMB.toFixed(0)} MB.`);
  await stopAllChildren();
  const firstStartSeconds = wants(FIRST_START_ID) ? await measureFirstStart(config.secretKey!.toString('utf8'), tmpDir) : null;

  let realtime: RealtimeReport | null = null;
  if (wantsRealtime && fixtures) {
    const context = {
      root: ROOT,
      databaseUrl,
      dataDir: join(tmpDir, 'data'),
      secretKey: config.secretKey!.toString('utf8'),
      logDir: tmpDir,
      redisUrl: options.redisUrl,
      profileDir: options.profileDir,
    };
    realtime = await runRealtime(context, fixtures, options.realtime, progress);
  }

  let webhooks: WebhookBenchReport | null = null;
  if (wants(WEBHOOKS_ID)) {
    const context = {
      root: ROOT,
      databaseUrl,
      dataDir: join(tmpDir, 'data'),
      secretKey: config.secretKey!.toString('utf8'),
      logDir: tmpDir,
      redisUrl: options.redisUrl,
      profileDir: options.profileDir,
    };
    progress('- Webhooks: idle latency, throughput, a slow receiver beside a prompt one');
    webhooks = await runWebhooks(context, targets.admin.authorization, options.webhooks, progress);
  }

  const email = await benchEmail(options, wants);

  const cpus = os.cpus();
  const machine: Machine = {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    postgres,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadBefore,
  };
  const report: RunReport = {
    date: new Date(),
    machine,
    dataset,
    scale: options.scale,
    seedSeconds,
    settings,
    processes: options.processes,
    scenarios: reports,
    totalSeconds: (performance.now() - started) / 1000,
    parleyPeakRssMB,
    firstStartSeconds,
  };
  const markdown = renderMarkdown(report);
  const realtimeMarkdown = realtime ? renderRealtime(realtime, initRate(reports, bareRate(report)), report.date) : null;
  const httpMeasured = only === null || only.some((id) => SCENARIO_IDS.includes(id));
  const webhooksMarkdown = webhooks
    ? renderWebhooks(
        webhooks,
        report.date,
        `Dataset of scale ${options.scale} (its size matters little here: each event is one new contact).`,
      )
    : null;
  process.stdout.write(
    `${httpMeasured ? `\n${markdown}\n` : ''}${realtimeMarkdown ? `\n${realtimeMarkdown}\n` : ''}${webhooksMarkdown ? `\n${webhooksMarkdown}\n` : ''}`,
  );
  const emailMarkdown = email ? reportEmail(email, report.date) : null;
  let curveMarkdown: string | null = null;
  if (options.curve) {
    const path = resolve(ROOT, options.curve);
    const row = curveRow(report);
    const rows = previousCurveRows(existsSync(path) ? readFileSync(path, 'utf8') : '').filter((r) => r.scale !== row.scale);
    curveMarkdown = renderCurve([...rows, row]);
    process.stdout.write(`\n${curveMarkdown}\n`);
  }
  if (options.out) {
    writeReport(
      resolve(ROOT, options.out),
      httpMeasured ? markdown : null,
      realtimeMarkdown,
      webhooksMarkdown,
      emailMarkdown,
      curveMarkdown,
    );
    progress(`Wrote ${options.out}.`);
  } else if (options.curve) {
    writeReport(resolve(ROOT, options.curve), null, null, null, null, curveMarkdown);
    progress(`Wrote the scale curve into ${options.curve}.`);
  } else progress(`Not written to a file (scale ${options.scale}; pass --out=FILE to write it).`);

  const failing = reports.filter(
    (r) => r.outcome.kind === 'failed' || (r.outcome.kind === 'measured' && (r.outcome.result.non2xx > 0 || r.outcome.result.errors > 0)),
  );
  if (failing.length > 0) progress(`\n!!!! FAILED REQUESTS in: ${failing.map((r) => r.id).join(', ')} — see the table.`);
  const missed = [
    ...checkTargets(report),
    ...(realtime ? checkRealtimeTargets(realtime) : []),
    ...(webhooks ? checkWebhookTargets(webhooks) : []),
    ...(email ? checkEmailTargets(email) : []),
  ].filter((c) => c.met === false);
  progress(missed.length === 0 ? 'Every measured target is met.' : `Targets missed: ${missed.map((c) => c.target).join('; ')}.`);
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof OptionsError) {
      progress(`bench: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    progress(USAGE);
    return 0;
  }
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', killAllChildrenNow);
  try {
    await bench(options);
    return 0;
  } catch (error) {
    if (interrupted) return 130;
    progress(`bench: the run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    progress(`bench: ${error instanceof Error ? error.message : String(error)}`);
    killAllChildrenNow();
    process.exit(1);
  },
);
