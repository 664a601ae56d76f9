// The rules of the overview reports (spec: Tag distribution report).
import type { Static } from 'typebox';
import { startOfLocalDay as startOfZonedDay } from '../business-hours/zoned-time.ts';
import type { AppDeps } from '../deps.ts';
import { getGeneralSettings } from '../settings/settings.service.ts';
import * as q from './reports.queries.ts';
import { foldServiceRollups, wantedZone } from './service-rollups.service.ts';
import type { OverviewCounts as OverviewCountsSchema, TagDistributionReport } from './reports.schema.ts';

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 365;
export const TOP_TAGS = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

export type TagDistribution = Static<typeof TagDistributionReport>;
export type OverviewCounts = Static<typeof OverviewCountsSchema>;

/** The spec clamps out-of-range values into 0..365 rather than refusing them. */
export function clampDays(days: number | undefined): number {
  if (days === undefined) return DEFAULT_DAYS;
  return Math.min(Math.max(days, 0), MAX_DAYS);
}

/**
 * The first instant of the local calendar day that contains `now` in `timeZone`.
 * Usually local 00:00; on a day whose midnight is skipped by a DST change (Asia/Beirut,
 * America/Santiago…) the day starts at the transition, e.g. 01:00.
 */
export function startOfLocalDay(now: Date, timeZone: string): Date {
  return new Date(startOfZonedDay(timeZone, now.getTime()));
}

/** Where the window of a report of `days` days starts: 0 = local midnight today. */
export function windowStart(now: Date, days: number, timeZone: string): Date {
  if (days === 0) return startOfLocalDay(now, timeZone);
  return new Date(now.getTime() - days * DAY_MS);
}

/** tagged / total × 100, rounded to one decimal; 0 when there is nothing to count. */
export function taggedPercentage(tagged: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((tagged * 1000) / total) / 10;
}

export async function tagDistribution(deps: AppDeps, days: number | undefined): Promise<TagDistribution> {
  const { timezone } = await getGeneralSettings(deps);
  const since = windowStart(deps.clock.now(), clampDays(days), timezone);
  const { totals, topTags } = await q.tagDistribution(deps.db, since, TOP_TAGS);
  return {
    top_tags: topTags,
    tagged_conversations: totals.tagged,
    untagged_conversations: totals.total - totals.tagged,
    tagged_percentage: taggedPercentage(totals.tagged, totals.total),
  };
}

/**
 * The periodic fold of pending rollup changes into the daily rollups (see migration 0008).
 * Reports are exact without it; it keeps what they add up small. Returns the rows folded
 * (0 when another instance is folding). The service report's rollups likewise.
 */
export async function foldReportRollups(deps: AppDeps): Promise<number> {
  const zone = await wantedZone(deps);
  return deps.db.transaction().execute(async (trx) => {
    if (!(await q.tryLockFold(trx))) return 0;
    // The service report's rollups fold with them, under the same lock (migration 0028).
    return (await q.foldPendingRollups(trx)) + (await foldServiceRollups(trx, zone));
  });
}

export async function overviewCounts(deps: AppDeps): Promise<OverviewCounts> {
  const [conversations, agents] = await Promise.all([q.conversationCounts(deps.db), q.agentAvailability(deps.db)]);
  const byStatus = { available: 0, busy: 0, away: 0, offline: 0 };
  for (const row of agents) byStatus[row.availability_status] = row.count;
  return { ...conversations, agents: byStatus };
}
