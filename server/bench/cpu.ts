// Where a scenario's CPU goes: the processor time each party spent inside the measured window,
// read from /proc at the window's edges (Linux only; elsewhere nothing is reported). The parties
// are the server that answered (Parley, or the bare app for the reference routes; with its child
// processes), PostgreSQL (every process named `postgres` on this machine, autovacuum included),
// and the load generator (this benchmark's own process, where autocannon runs). Divided by the
// requests answered in the window, it says what one request costs each of them, which is steadier
// across runs than requests per second on a shared machine, and shows which party a target's
// ratio is waiting on.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** One process's line of /proc/PID/stat, the fields used here. */
export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  /** User and system time, in clock ticks, of all its threads. */
  ticks: number;
}

/**
 * Parses /proc/PID/stat. The command name is in parentheses and may itself hold spaces and
 * parentheses, so the fields are counted from the last `)`: state is field 3, ppid 4, utime 14
 * and stime 15 (proc(5)).
 */
export function parseProcStat(line: string): ProcStat | null {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const fields = line
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const pid = Number(line.slice(0, open).trim());
  const ppid = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isFinite(ticks)) return null;
  return { pid, comm: line.slice(open + 1, close), ppid, ticks };
}

/**
 * The machine's busy, stolen and total time (ticks) from the first line of /proc/stat. Steal is
 * time a virtual machine's CPUs were ready to run but the hypervisor ran someone else: not
 * busy here, and a sign that the window measured a slower machine than usual.
 */
export function parseMachineStat(text: string): { busy: number; steal: number; total: number } | null {
  const line = text.split('\n', 1)[0] ?? '';
  if (!line.startsWith('cpu ')) return null;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
    .slice(4)
    .trim()
    .split(/\s+/)
    .map(Number);
  const busy = user + nice + system + irq + softirq;
  return { busy, steal, total: busy + idle + iowait + steal };
}

/** The machine's times now (parseMachineStat), or null where /proc/stat cannot be read. */
export function readMachineStat(): { busy: number; steal: number; total: number } | null {
  try {
    return parseMachineStat(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

/** The share of the machine's time stolen between two readings (0–1), or null without both. */
export function stolenBetween(
  before: { steal: number; total: number } | null | undefined,
  after: { steal: number; total: number } | null | undefined,
): number | null {
  return before && after && after.total > before.total ? (after.steal - before.steal) / (after.total - before.total) : null;
}

function processes(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = parseProcStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (stat) stats.push(stat);
    } catch {
      // the process ended while the list was read
    }
  }
  return stats;
}

/** The process and its descendants (a server started with SERVER_PROCESSES forks its workers). */
export function familyOf(root: number, stats: readonly ProcStat[]): Set<number> {
  const family = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const stat of stats) {
      if (!family.has(stat.pid) && family.has(stat.ppid)) {
        family.add(stat.pid);
        grew = true;
      }
    }
  }
  return family;
}

interface Snapshot {
  at: number;
  server: Map<number, number>;
  postgres: Map<number, number>;
  generatorMicros: number;
  machine: { busy: number; steal: number; total: number } | null;
}

function snapshot(serverPid: number): Snapshot {
  const stats = processes();
  const family = familyOf(serverPid, stats);
  const server = new Map<number, number>();
  const postgres = new Map<number, number>();
  for (const stat of stats) {
    if (family.has(stat.pid)) server.set(stat.pid, stat.ticks);
    else if (stat.comm === 'postgres') postgres.set(stat.pid, stat.ticks);
  }
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    server,
    postgres,
    generatorMicros: usage.user + usage.system,
    machine: parseMachineStat(readFileSync('/proc/stat', 'utf8')),
  };
}

/**
 * Ticks spent between two readings by the processes of a group: each process's own difference;
 * one that started in between counts whole; one that ended in between is lost (its last ticks
 * cannot be read), so the figure is a slight undercount when processes come and go.
 */
export function ticksBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks;
}

/** Core-seconds each party spent in a window. */
export interface CpuUse {
  seconds: number;
  server: number;
  /** Null when no PostgreSQL process is visible from here (a remote database, or one in a container). */
  postgres: number | null;
  generator: number;
  /** The share of the machine's processor time (all its CPUs, every process) in use during the window, 0–1. */
  busyShare: number | null;
  /** The share of it the hypervisor gave to others (steal), 0–1; null off Linux. */
  stolenShare: number | null;
  cores: number;
}

let tickRate: number | null = null;

function ticksPerSecond(): number {
  if (tickRate === null) {
    try {
      tickRate = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      tickRate = 100;
    }
  }
  return tickRate;
}

/** Readings at a window's edges; null where /proc cannot be read (not Linux). */
export function cpuWindow(serverPid: number, cores: number): { open(): void; close(): CpuUse | null } | null {
  try {
    readFileSync('/proc/stat', 'utf8');
  } catch {
    return null;
  }
  const rate = ticksPerSecond();
  let first: Snapshot | null = null;
  return {
    open() {
      first = snapshot(serverPid);
    },
    close() {
      if (first === null) return null;
      const last = snapshot(serverPid);
      const machine = first.machine && last.machine && last.machine.total > first.machine.total ? [first.machine, last.machine] : null;
      return {
        seconds: (last.at - first.at) / 1000,
        server: ticksBetween(first.server, last.server) / rate,
        postgres: last.postgres.size === 0 ? null : ticksBetween(first.postgres, last.postgres) / rate,
        generator: (last.generatorMicros - first.generatorMicros) / 1e6,
        busyShare: machine ? (machine[1].busy - machine[0].busy) / (machine[1].total - machine[0].total) : null,
        stolenShare: stolenBetween(first.machine, last.machine),
        cores,
      };
    },
  };
}

/** A measured scenario's row of the table: its title, its rate and the requests answered in the window, and its CPU. */
export interface CpuRow {
  title: string;
  requestsPerSecond: number;
  requests: number;
  cpu: CpuUse;
}

const micros = (coreSeconds: number, requests: number) => Math.round((coreSeconds * 1e6) / requests).toLocaleString('en-US');
const share = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value * 100)}%`);

/** The Markdown section "Where the CPU goes"; empty when no scenario has readings. */
export function renderCpu(rows: readonly CpuRow[]): string[] {
  const shown = rows.filter((row) => row.requests > 0 && row.cpu.seconds > 0);
  if (shown.length === 0) return [];
  const cores = shown[0]?.cpu.cores ?? 0;
  const lines = [
    '### Where the CPU goes',
    '',
    'What one request of each scenario cost each party in its measured window, in microseconds of CPU time ' +
      "(read from /proc at the window's edges, all threads): the server that answered (Parley, or the bare app for the " +
      'reference routes), PostgreSQL (every `postgres` process of this machine), and the load generator (the ' +
      `benchmark's own process). "Busy" is the share of the machine's ${cores} cores in use by all its processes during ` +
      '(of its time, steal included) the window. "Stolen" is the share the hypervisor gave to other virtual machines ' +
      '(steal time): a window with much of it ran on a slower machine than the others. With busy and stolen near 100%, ' +
      "requests per second are bound by the sum of the three, so a scenario's share of its floor is about the floor's " +
      "sum over the scenario's, when both windows lost about as much to steal.",
    '',
    '| Scenario | req/s | busy | stolen | server | PostgreSQL | load generator | sum |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { title, requestsPerSecond, requests, cpu } of shown) {
    const postgres = cpu.postgres === null ? 'not seen' : micros(cpu.postgres, requests);
    const sum = cpu.server + (cpu.postgres ?? 0) + cpu.generator;
    lines.push(
      `| ${title} | ${Math.round(requestsPerSecond).toLocaleString('en-US')} | ${share(cpu.busyShare)} | ${share(cpu.stolenShare)} | ${micros(cpu.server, requests)} | ${postgres} | ${micros(cpu.generator, requests)} | ${micros(sum, requests)} |`,
    );
  }
  lines.push('');
  return lines;
}

/** One line for the progress log. */
export function describeCpu(cpu: CpuUse, requests: number): string {
  if (requests === 0) return 'no requests answered';
  const postgres = cpu.postgres === null ? '' : `, PostgreSQL ${micros(cpu.postgres, requests)} µs`;
  return `CPU per request: server ${micros(cpu.server, requests)} µs${postgres}, load generator ${micros(cpu.generator, requests)} µs; machine ${share(cpu.busyShare)} busy, ${share(cpu.stolenShare)} stolen`;
}
