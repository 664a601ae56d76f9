// The scale curve ("Scale curve" in docs/performance.md, written with --curve): one row per
// dataset scale with the figures that must stay flat as the dataset grows, a run replacing its
// own scale's row; the rows are kept in a data comment so that the next run can add its own.
import { clean, completedRate, FLOORS, fmt, measured, ms, percent, type RunReport, type TargetCheck, TITLES } from './http-results.ts';

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
