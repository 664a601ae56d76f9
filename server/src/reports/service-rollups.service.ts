// The service report from its rollups (migration 0028; docs/performance.md, "Service report"),
// and by tag from the tag rollups (migration 0035, "The service report by tag from rollups"):
// a year reads a few thousand rollup rows instead of every conversation of the year. Counts
// are exact; medians and 90th percentiles come from log-spaced bins and are within 2% (or
// below one second) of the exact ones. The rows are keyed by local day of one zone: while the
// settings' zone differs (it just changed), the report reads the rows and the periodic fold
// rebuilds the rollups in the new zone.
import type { AppDeps } from '../deps.ts';
import { getGeneralSettings } from '../settings/settings.service.ts';
import { type CsatRows, isFiltered, type ReportFilter, type SlaFigures, type Spread } from './service-report.queries.ts';
import * as q from './service-rollups.queries.ts';

/** What the report is built from, whichever way it was read. Days are positions in the range (1 = the first). */
export interface Figures {
  createdByDay: Map<number, number>;
  resolvedByDay: Map<number, number>;
  created: number;
  resolved: number;
  createdByTeam: Map<number, number>;
  resolvedByTeam: Map<number, number>;
  resolvedByAgent: Map<number, number>;
  firstResponse: Spread;
  resolution: Spread;
  firstResponseMedianByAgent: Map<number, number>;
  csat: CsatRows;
  sla: SlaFigures;
}

/** Bins are 4% wide: a value read as its bin's geometric middle is within 2% of itself. */
const BIN_RATIO = 1.04;
const binValue = (bin: number) => (bin <= 0 ? 0 : BIN_RATIO ** (bin - 0.5));

/** Median and 90th percentile as percentile_cont reads them (interpolating between neighbours), from bin counts. */
export function spreadOfBins(bins: Map<number, number>): Spread {
  const entries = [...bins].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const count = entries.reduce((total, [, n]) => total + n, 0);
  if (count === 0) return { median: null, p90: null, count: 0 };
  const nth = (k: number) => {
    let seen = 0;
    for (const [bin, n] of entries) {
      seen += n;
      if (k < seen) return binValue(bin);
    }
    return binValue(entries[entries.length - 1]![0]);
  };
  const at = (p: number) => {
    const position = p * (count - 1);
    const low = Math.floor(position);
    const a = nth(low);
    return a + (nth(Math.ceil(position)) - a) * (position - low);
  };
  return { median: at(0.5), p90: at(0.9), count };
}

const SLA_METRICS = ['first_response', 'next_response', 'resolution'] as const;

const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);
const bins = () => new Map<number, number>();

/** The figures of local days [first, last] (days since 1970-01-01), filtered by tag, team, inbox, agent or any of them together. */
export async function rollupFigures(deps: AppDeps, first: number, last: number, filter: ReportFilter): Promise<Figures> {
  const [rows, days] = await Promise.all([q.rollupTotals(deps.db, first, last, filter), q.rollupDays(deps.db, first, last, filter)]);
  const filtered = isFiltered(filter);
  // Per metric: all, per team, per assignee; each a map from bin to count.
  const all = new Map<number, Map<number, number>>();
  const byTeam = new Map<number, Map<number, number>>();
  const byAgent = new Map<number, Map<number, Map<number, number>>>();
  const of = <K>(map: Map<K, Map<number, number>>, key: K) => map.get(key) ?? map.set(key, bins()).get(key)!;
  for (const row of rows) {
    if (!filtered ? row.team_id === -1 && row.assignee_id === -1 : true) add(of(all, row.metric), row.bin, row.n);
    if (filtered || (row.team_id >= 0 && row.assignee_id === -1)) add(of(byTeam, row.metric), row.team_id, row.n);
    if (filtered || (row.team_id === -1 && row.assignee_id >= 0)) {
      const agentMetrics = byAgent.get(row.assignee_id) ?? byAgent.set(row.assignee_id, new Map()).get(row.assignee_id)!;
      add(of(agentMetrics, row.metric), row.bin, row.n);
    }
  }
  const total = (metric: number) => [...(all.get(metric)?.values() ?? [])].reduce((sum, n) => sum + n, 0);
  const named = (map: Map<number, number> | undefined) => new Map([...(map ?? [])].filter(([id, n]) => id > 0 && n !== 0));

  const createdByDay = new Map<number, number>();
  const resolvedByDay = new Map<number, number>();
  for (const row of days) add(row.metric === q.METRIC.created ? createdByDay : resolvedByDay, row.day - first + 1, row.n);

  const resolvedByAgent = new Map<number, number>();
  const firstResponseMedianByAgent = new Map<number, number>();
  const csatByAgent: CsatRows['byAgent'] = [];
  for (const [agentId, metrics] of byAgent) {
    if (agentId <= 0) continue;
    const resolved = [...(metrics.get(q.METRIC.resolved)?.values() ?? [])].reduce((sum, n) => sum + n, 0);
    if (resolved !== 0) resolvedByAgent.set(agentId, resolved);
    const median = spreadOfBins(metrics.get(q.METRIC.firstResponse) ?? bins()).median;
    if (median !== null) firstResponseMedianByAgent.set(agentId, median);
    const average = csatAverage(metrics.get(q.METRIC.csat));
    if (average !== null) csatByAgent.push({ agent_id: agentId, average });
  }

  const csatBins = all.get(q.METRIC.csat) ?? bins();
  const rating = (r: number) => csatBins.get(r) ?? 0;
  const sla = {} as SlaFigures;
  const slaBins = all.get(q.METRIC.sla) ?? bins();
  SLA_METRICS.forEach((metric, index) => {
    sla[metric] = { met: slaBins.get(index * 2) ?? 0, breached: slaBins.get(index * 2 + 1) ?? 0 };
  });
  return {
    createdByDay,
    resolvedByDay,
    created: total(q.METRIC.created),
    resolved: total(q.METRIC.resolved),
    createdByTeam: named(byTeam.get(q.METRIC.created)),
    resolvedByTeam: named(byTeam.get(q.METRIC.resolved)),
    resolvedByAgent,
    firstResponse: spreadOfBins(all.get(q.METRIC.firstResponse) ?? bins()),
    resolution: spreadOfBins(all.get(q.METRIC.resolution) ?? bins()),
    firstResponseMedianByAgent,
    csat: {
      sent: rating(0),
      responses: [1, 2, 3, 4, 5].reduce((sum, r) => sum + rating(r), 0),
      average: csatAverage(csatBins),
      distribution: { '1': rating(1), '2': rating(2), '3': rating(3), '4': rating(4), '5': rating(5) },
      byAgent: csatByAgent,
    },
    sla,
  };
}

/** The average rating from CSAT bins (1..5 = answers with that rating); null without answers. */
function csatAverage(csat: Map<number, number> | undefined): number | null {
  let answers = 0;
  let sum = 0;
  for (let r = 1; r <= 5; r++) {
    answers += csat?.get(r) ?? 0;
    sum += r * (csat?.get(r) ?? 0);
  }
  return answers > 0 ? sum / answers : null;
}

/** Whether the rollups are keyed in this zone (else the report reads the rows). */
export async function rollupsServe(deps: AppDeps, timezone: string): Promise<boolean> {
  return (await q.rollupZone(deps.db)) === timezone;
}

/**
 * Part of the periodic fold (reports.fold_rollups), inside its locked transaction: pending rows
 * into the rollups, after a rebuild when they are keyed in another zone than `zone` (the
 * settings' zone changed, or an upgrade with a TIMEZONE other than UTC). Returns the rows folded.
 */
export async function foldServiceRollups(trx: AppDeps['db'], zone: string): Promise<number> {
  if ((await q.rollupZone(trx)) !== zone) await q.rebuildRollups(trx, zone);
  return q.foldRollups(trx);
}

/** The zone the rollups should be keyed in; read before the fold's transaction (PGlite: one connection). */
export async function wantedZone(deps: AppDeps): Promise<string> {
  return (await getGeneralSettings(deps)).timezone;
}

/** Everything again from the rows, in the settings' zone: after a bulk load that turned the triggers off (the benchmark's seed). */
export async function rebuildServiceRollups(deps: AppDeps): Promise<void> {
  const zone = await wantedZone(deps);
  await deps.db.transaction().execute((trx) => q.rebuildRollups(trx, zone));
}
