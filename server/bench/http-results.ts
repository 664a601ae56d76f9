// What a run of the HTTP scenarios measured (RunReport: the machine, the dataset, one report per
// scenario) and the figures read from it that both the HTTP section (http-report.ts) and the
// scale curve (scale-curve.ts) give: each scenario's floor and short name, its rate with the work
// it left queued done, and the numbers as the Markdown writes them.
import type { LeftBehind } from './backlog.ts';
import type { CpuUse } from './cpu.ts';
import type { LoadResult, LoadSettings, Timing } from './load.ts';
import type { DatasetCounts } from './targets.ts';

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

/** Numbers as the Markdown writes them: grouped thousands; milliseconds; a share in percent. */
export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const ms = (n: number) => (n < 10 ? fmt(n, 1) : fmt(n, 0));
export const percent = (n: number) => `${n < 1 ? fmt(n, 2) : fmt(n, 1)}%`;

/** A scenario's load figures, or null when it was not measured. */
export function measured(report: RunReport, id: string): LoadResult | null {
  const scenario = report.scenarios.find((s) => s.id === id);
  return scenario?.outcome.kind === 'measured' ? scenario.outcome.result : null;
}

/**
 * Requests per second with the work they left queued done: the window's requests over the
 * window and the time their pending jobs took after it (backlog.ts). Without a backlog, the
 * load's own rate. Null when the jobs were not all done (no rate can be told).
 */
export function completedRate(report: RunReport, id: string): number | null {
  const result = measured(report, id);
  if (!result) return null;
  const left = report.scenarios.find((s) => s.id === id)?.leftBehind;
  if (!left || left.jobs === 0) return result.requestsPerSecond;
  if (!left.drained) return null;
  const window = report.settings.duration;
  return (result.requestsPerSecond * window) / (window + left.drainSeconds);
}

export function clean(result: LoadResult): boolean {
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

export const FLOOR_NAMES: Readonly<Record<string, string>> = {
  'floor-select': 'one SELECT',
  'floor-insert': 'one INSERT',
  'bare-page': 'stored page',
};

/** Short names of the scenarios, for the targets. */
export const TITLES: Readonly<Record<string, string>> = {
  message: 'GET one message',
  'assigned-1': 'Assigned list, page 1',
  'assigned-50': 'Assigned list, page 50',
  reply: 'Reply',
  search: 'Search, 50 clients (share of the bare route)',
};
