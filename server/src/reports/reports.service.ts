// The rules of the overview reports (spec: Tag distribution report).
import type { Static } from 'typebox';
import type { AppDeps } from '../deps.ts';
import * as q from './reports.queries.ts';
import type { OverviewCounts as OverviewCountsSchema, TagDistributionReport } from './reports.schema.ts';

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 365;
export const TOP_TAGS = 10;
const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export type TagDistribution = Static<typeof TagDistributionReport>;
export type OverviewCounts = Static<typeof OverviewCountsSchema>;

/** The spec clamps out-of-range values into 0..365 rather than refusing them. */
export function clampDays(days: number | undefined): number {
  if (days === undefined) return DEFAULT_DAYS;
  return Math.min(Math.max(days, 0), MAX_DAYS);
}

// A memo of a pure function (one immutable formatter per zone, the same for every app), not
// app state: building an Intl.DateTimeFormat costs far more than the conversion it serves.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of an instant in an IANA zone. */
function wallClock(instant: number, timeZone: string) {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const fields: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(instant))) {
    if (part.type !== 'literal' && part.type !== 'era') fields[part.type] = Number(part.value);
  }
  const field = (name: string) => fields[name] ?? 0;
  return {
    year: field('year'),
    month: field('month'),
    day: field('day'),
    hour: field('hour'),
    minute: field('minute'),
    second: field('second'),
  };
}

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich). */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (instant - (((instant % 1000) + 1000) % 1000));
}

const dayKey = (w: { year: number; month: number; day: number }) => w.year * 10000 + w.month * 100 + w.day;

/**
 * The first instant of the local calendar day that contains `now` in `timeZone`.
 * Usually local 00:00; on a day whose midnight is skipped by a DST change (Asia/Beirut,
 * America/Santiago…) the day starts at the transition, e.g. 01:00.
 */
export function startOfLocalDay(now: Date, timeZone: string): Date {
  const today = wallClock(now.getTime(), timeZone);
  const todayKey = dayKey(today);
  const wallMidnight = Date.UTC(today.year, today.month - 1, today.day);
  // Every offset in force around that midnight; one of them gives the real instant.
  const offsets = new Set([
    offsetAt(wallMidnight - DAY_MS, timeZone),
    offsetAt(wallMidnight, timeZone),
    offsetAt(wallMidnight + DAY_MS, timeZone),
  ]);
  let best: number | null = null;
  for (const offset of offsets) {
    const candidate = wallMidnight - offset;
    if (dayKey(wallClock(candidate, timeZone)) === todayKey && (best === null || candidate < best)) best = candidate;
  }
  if (best === null) best = now.getTime();
  // A transition that skips midnight but not at a whole hour: the day began earlier than
  // the candidate. Find the first instant of today within the hours before it (to the second).
  const atBest = wallClock(best, timeZone);
  if (atBest.hour !== 0 || atBest.minute !== 0 || atBest.second !== 0) {
    let low = best - 3 * HOUR_MS; // not today
    let high = best; // today
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (dayKey(wallClock(middle, timeZone)) >= todayKey) high = middle;
      else low = middle;
    }
    best = high;
  }
  return new Date(best);
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
  const since = windowStart(deps.clock.now(), clampDays(days), deps.config.timezone);
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
 * (0 when another instance is folding).
 */
export async function foldReportRollups(deps: AppDeps): Promise<number> {
  return deps.db.transaction().execute(async (trx) => ((await q.tryLockFold(trx)) ? q.foldPendingRollups(trx) : 0));
}

export async function overviewCounts(deps: AppDeps): Promise<OverviewCounts> {
  const [conversations, agents] = await Promise.all([q.conversationCounts(deps.db), q.agentAvailability(deps.db)]);
  const byStatus = { available: 0, busy: 0, away: 0, offline: 0 };
  for (const row of agents) byStatus[row.availability_status] = row.count;
  return { ...conversations, agents: byStatus };
}
