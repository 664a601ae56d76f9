// The realtime scenario: Parley instances (one, then two sharing PostgreSQL and Redis) with
// thousands of agent and widget sockets open on them, and a steady stream of messages over
// HTTP. The load generator (realtime-client.ts) runs as a child process; this side starts and
// stops the servers, samples their memory (VmRSS, peak) and collects the generator's figures.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMachineStat, stolenBetween } from './cpu.ts';
import type { ClientResult, ClientSettings } from './realtime-client.ts';
import { buildPlan, type RealtimeFixtures } from './realtime-plan.ts';
import type { RealtimeOptions } from './options.ts';
import { SATURATED } from './realtime-report.ts';
import { AGENT_SOCKET_PATH, WIDGET_SOCKET_PATH } from './realtime-sockets.ts';
import { type Child, forkScript, startParley, stopChild, tail } from './processes.ts';

/** The scenario's sizes, as the command line gives them (`--rt-*`). */
export type RealtimeSettings = RealtimeOptions;

/**
 * The environment every Parley instance of the benchmark gets: the widget's HTTP limits raised
 * (per client address: the init scenario sends thousands of requests a minute from 127.0.0.1;
 * per visitor: a small run sends a few visitors many messages). The socket upgrades' limit per
 * address has no setting: the visitors connect from many loopback addresses instead
 * (visitorAddress, realtime-plan.ts).
 */
export const RAISED_LIMITS: Record<string, string> = {
  WIDGET_RATE_LIMIT_PER_MINUTE: '1000000',
  WIDGET_MESSAGE_RATE_LIMIT_PER_MINUTE: '100000',
};

export interface ServerContext {
  root: string;
  databaseUrl: string;
  dataDir: string;
  secretKey: string;
  logDir: string;
  redisUrl: string;
  profileDir: string | null;
}

export interface RealtimeRun {
  instances: number;
  outcome: { kind: 'measured'; result: ClientResult } | { kind: 'unavailable'; detail: string } | { kind: 'failed'; detail: string };
  /** Peak VmRSS of each instance over the run, and before any socket was opened (MiB). */
  peakRssMiB: number[];
  idleRssMiB: number[];
  /** Each instance's CPU over the measured window, as a share of one core. */
  serverCpuShare: number[];
  /** The share of the machine's time the hypervisor gave to others over the measured window (cpu.ts); null when not read. */
  stolenShare: number | null;
}

export interface RealtimeReport {
  settings: RealtimeSettings;
  agents: number;
  visitors: number;
  runs: RealtimeRun[];
}

type Progress = (message: string) => void;

/** VmRSS of a process in MiB, or null when it cannot be read (no /proc, process gone). */
export function rssMiB(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Whether a socket route exists: a plain GET on it answers 404 "Route not found" when it does not. */
async function socketRouteMissing(baseUrl: string, path: string): Promise<boolean> {
  const response = await fetch(baseUrl + path, { signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  return response.status === 404 && /route not found/i.test(text);
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; null when unreadable. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** Linux's USER_HZ, the unit of /proc/<pid>/stat times. */
const CLOCK_TICKS = 100;

function runGenerator(settings: ClientSettings, timeoutMs: number, onWindow: (edge: 'open' | 'close') => void): Promise<ClientResult> {
  const child: ChildProcess = forkScript(join(import.meta.dirname, 'realtime-client.ts'), ['--child']);
  return new Promise<ClientResult>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settle(() => reject(new Error(`the load generator did not finish within ${Math.round(timeoutMs / 1000)} s`)));
      if (child.pid) void stopChild(child.pid);
    }, timeoutMs);
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done();
    };
    type Message =
      | { kind: 'result'; result: ClientResult }
      | { kind: 'error'; message: string }
      | { kind: 'window'; edge: 'open' | 'close' };
    child.on('message', (message: Message) => {
      if (message.kind === 'window') onWindow(message.edge);
      else if (message.kind === 'result') settle(() => resolve(message.result));
      else settle(() => reject(new Error(`the load generator failed: ${message.message}`)));
    });
    child.once('exit', (code, signal) => settle(() => reject(new Error(`the load generator exited (${signal ?? code}) without a result`))));
    child.send(settings);
  });
}

async function oneRun(
  context: ServerContext,
  fixtures: RealtimeFixtures,
  settings: RealtimeSettings,
  instances: number,
  progress: Progress,
): Promise<RealtimeRun> {
  const servers: Child[] = [];
  const peak: number[] = [];
  const idle: number[] = [];
  let sampler: NodeJS.Timeout | null = null;
  try {
    for (let k = 0; k < instances; k++) {
      servers.push(
        await startParley({
          root: context.root,
          databaseUrl: context.databaseUrl,
          dataDir: context.dataDir,
          secretKey: context.secretKey,
          logDir: context.logDir,
          profileDir: context.profileDir,
          redis: true,
          redisUrl: context.redisUrl,
          env: RAISED_LIMITS,
          logName: `parley-realtime-${instances}-${k + 1}.log`,
        }),
      );
    }
    progress(`    Parley ${servers.map((s) => `pid ${s.pid} on ${s.baseUrl}`).join(', ')} (with Redis)`);
    const base = servers[0] as Child;
    for (const path of [AGENT_SOCKET_PATH, WIDGET_SOCKET_PATH]) {
      if (await socketRouteMissing(base.baseUrl, path)) {
        progress(`    not available: ${path} is not registered`);
        return {
          instances,
          outcome: { kind: 'unavailable', detail: `${path} is not registered` },
          peakRssMiB: [],
          idleRssMiB: [],
          serverCpuShare: [],
          stolenShare: null,
        };
      }
    }
    for (const server of servers) {
      const rss = rssMiB(server.pid) ?? Number.NaN;
      idle.push(rss);
      peak.push(rss);
    }
    sampler = setInterval(() => {
      servers.forEach((server, k) => {
        const rss = rssMiB(server.pid);
        if (rss !== null && !(rss <= (peak[k] as number))) peak[k] = rss;
      });
    }, 200);
    const plan = buildPlan(
      fixtures,
      servers.map((s) => s.baseUrl),
      { agentSockets: settings.agentSockets, subscriptionsPerSocket: settings.subscriptionsPerSocket, seed: 42 },
    );
    const sockets = plan.agentSockets.length + plan.widgetSockets.length;
    const cpu: { at: number; seconds: number[]; machine: ReturnType<typeof readMachineStat> }[] = [];
    const sampleCpu = () =>
      cpu.push({ at: performance.now(), seconds: servers.map((s) => cpuSeconds(s.pid) ?? Number.NaN), machine: readMachineStat() });
    const timeoutMs = 120_000 + (settings.warmup + settings.duration) * 1000 + settings.lossAfterMs + sockets * 30;
    const result = await runGenerator(
      {
        plan,
        rate: settings.rate,
        warmupSeconds: settings.warmup,
        durationSeconds: settings.duration,
        lossAfterMs: settings.lossAfterMs,
        connectConcurrency: 100,
        seed: 7,
      },
      timeoutMs,
      sampleCpu,
    );
    const [open, close] = cpu;
    const serverCpuShare =
      open && close
        ? servers.map((_, k) => ((close.seconds[k] as number) - (open.seconds[k] as number)) / ((close.at - open.at) / 1000))
        : [];
    for (const server of servers)
      if (!server.isRunning()) throw new Error(`Parley (pid ${server.pid}) stopped during the run:\n${tail(server.logFile)}`);
    const stolenShare = stolenBetween(open?.machine, close?.machine);
    return { instances, outcome: { kind: 'measured', result }, peakRssMiB: peak, idleRssMiB: idle, serverCpuShare, stolenShare };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    progress(`    !!!! the run failed: ${detail}`);
    for (const server of servers) progress(`    ${server.logFile} ends with:\n${tail(server.logFile, 10).replace(/^/gm, '      ')}`);
    return {
      instances,
      outcome: { kind: 'failed', detail: detail.split('\n')[0] ?? detail },
      peakRssMiB: peak,
      idleRssMiB: idle,
      serverCpuShare: [],
      stolenShare: null,
    };
  } finally {
    if (sampler) clearInterval(sampler);
    await Promise.all(servers.map((s) => stopChild(s.pid)));
  }
}

function describe(run: RealtimeRun, progress: Progress): void {
  if (run.outcome.kind !== 'measured') return;
  const r = run.outcome.result;
  const f = (n: number) => (Number.isNaN(n) ? '—' : n.toFixed(1));
  progress(
    `    ${r.sent} messages in ${r.windowSeconds.toFixed(1)} s; to widgets p50 ${f(r.toWidget.p50)} p99 ${f(r.toWidget.p99)} ms, ` +
      `to agents p50 ${f(r.toAgents.p50)} p99 ${f(r.toAgents.p99)} ms` +
      (run.instances > 1 ? `, across instances p99 ${f(r.crossInstance.p99)} ms` : '') +
      `; ${Math.round(r.framesPerSecond)} frames/s; lost ${r.lostToWidget + r.lostToAgents} of ${r.expected}; ` +
      `peak RSS ${run.peakRssMiB.map((m) => `${Math.round(m)} MiB`).join(' + ')}; ` +
      `Parley CPU ${run.serverCpuShare.map((c) => `${(c * 100).toFixed(0)}%`).join(' + ')} of a core; generator CPU ${(r.cpuShare * 100).toFixed(0)}% of a core; ` +
      `machine time stolen ${run.stolenShare === null ? 'n/a' : `${(run.stolenShare * 100).toFixed(0)}%`}`,
  );
  progress(
    `    slowest delivery by second of the window (ms): ${r.worstBySecond.map((w) => (Number.isNaN(w) ? '—' : Math.round(w))).join(' ')}`,
  );
  const failed = Object.entries(r.statuses).filter(([code]) => !code.startsWith('2'));
  if (failed.length > 0) progress(`    !!!! FAILED REQUESTS: ${failed.map(([c, n]) => `${c}×${n}`).join(', ')}: ${r.httpSample ?? ''}`);
  if (r.lostSamples.length > 0) progress(`    !!!! LOST: ${r.lostSamples.join('; ')}`);
  if (r.cpuShare > SATURATED)
    progress(`    !! the load generator used ${(r.cpuShare * 100).toFixed(0)}% of a core: its own queueing is in the latencies`);
}

export async function runRealtime(
  context: ServerContext,
  fixtures: RealtimeFixtures,
  settings: RealtimeSettings,
  progress: Progress,
): Promise<RealtimeReport> {
  const runs: RealtimeRun[] = [];
  for (const instances of settings.instances) {
    progress(
      `- Realtime, ${instances} instance${instances > 1 ? 's' : ''}: ${settings.agentSockets} agent sockets (${fixtures.agents.length} agents), ` +
        `${settings.widgetSockets} widget sockets, ${settings.rate} messages/s, ${settings.warmup} s warm-up + ${settings.duration} s`,
    );
    const run = await oneRun(context, fixtures, settings, instances, progress);
    describe(run, progress);
    runs.push(run);
    if (run.outcome.kind === 'unavailable') break;
  }
  return { settings, agents: fixtures.agents.length, visitors: fixtures.conversations.length, runs };
}
