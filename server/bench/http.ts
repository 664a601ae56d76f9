// The HTTP scenarios' run: Parley and the bare Fastify route started as child processes, then
// each planned scenario (http-plan.ts) loaded in turn with autocannon (load.ts), with the CPU of
// the process answering it read at its window's edges (cpu.ts), the jobs it left queued waited
// for (backlog.ts), and Parley's memory sampled throughout.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { waitForJobs } from './backlog.ts';
import { type CpuUse, cpuWindow, describeCpu } from './cpu.ts';
import { REFERENCE_IDS, referenceWanted, type ScenarioPlan, scenarios, storeReferencePage } from './http-plan.ts';
import type { ScenarioReport } from './http-results.ts';
import { type LoadResult, type LoadSettings, probe, runLoad, timeSequential, WarmUpError } from './load.ts';
import { type BenchOptions, SCENARIO_IDS } from './options.ts';
import { type Child, startBare, startParley, tail } from './processes.ts';
import { RAISED_LIMITS, rssMiB } from './realtime.ts';
import { progress, ROOT } from './run-env.ts';
import type { LoadTargets } from './targets.ts';

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

/** The bare route's server and Parley (as `npm start` runs it, with the options' processes and Redis), both on the run's database. */
export async function startServers(options: BenchOptions, tmpDir: string, secretKey: string): Promise<{ bare: Child; parley: Child }> {
  const databaseUrl = options.databaseUrl;
  const bare = await startBare({ root: ROOT, logDir: tmpDir, databaseUrl });
  const parley = await startParley({
    root: ROOT,
    databaseUrl,
    dataDir: join(tmpDir, 'data'),
    secretKey,
    logDir: tmpDir,
    profileDir: options.profileDir,
    processes: options.processes,
    redisUrl: options.redisUrl,
    env: { ...RAISED_LIMITS, METRICS_TOKEN: BENCH_METRICS_TOKEN },
  });
  progress(`Parley (pid ${parley.pid}) on ${parley.baseUrl}, bare route (pid ${bare.pid}) on ${bare.baseUrl}.`);
  return { bare, parley };
}

/** The jobs a scenario's requests enqueue: what they leave behind is waited for and reported (backlog.ts). */
const SCENARIO_JOBS: Readonly<Record<string, readonly string[]>> = { reply: ['livechat.deliver'] };
const DRAIN_TIMEOUT_MS = 120_000;

/** What the HTTP scenarios measured, and Parley's peak RSS over them (null with several processes, or when not sampled). */
export interface HttpRun {
  settings: LoadSettings;
  reports: ScenarioReport[];
  parleyPeakRssMB: number | null;
}

/** Every planned scenario that `wants` asks for, in turn, with the reference routes they are set against. */
export async function runHttpScenarios(
  servers: { bare: Child; parley: Child },
  targets: LoadTargets,
  widgetInbox: string | null,
  options: BenchOptions,
  wants: (id: string) => boolean,
): Promise<HttpRun> {
  const { bare, parley } = servers;
  const databaseUrl = options.databaseUrl;
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
  const plans = scenarios(bare, parley, targets, pageBytes, widgetInbox);
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
  return { settings, reports, parleyPeakRssMB };
}

/** One scenario: its first request probed, timed one request at a time where its target asks it, then loaded; its figures printed as they come. */
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
