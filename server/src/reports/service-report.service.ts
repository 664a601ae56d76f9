// The service report (docs/api.md, "Service report"): what a support lead reads the week by.
// Dates are local to the general settings' time zone; `resolved` counts each move into a
// resolved status on its date, credited to the assignee and team of that moment.
import type { Static } from 'typebox';
import { agentNames as namesOfAgents } from '../agents/agents.service.ts';
import { DAY_MS, instantOf, localDay } from '../business-hours/zoned-time.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { InputError } from '../errors.ts';
import { getGeneralSettings } from '../settings/settings.service.ts';
import { findTagsByNames } from '../tags/tags.service.ts';
import { teamNames as namesOfTeams } from '../teams/teams.service.ts';
import type { ServiceReport, ServiceReportQuery } from './service-report.schema.ts';
import * as q from './service-report.queries.ts';
import { type Figures, rollupFigures, rollupsServe } from './service-rollups.service.ts';

export const DEFAULT_REPORT_DAYS = 30;
export const MAX_REPORT_DAYS = 366;

type Query = Static<typeof ServiceReportQuery>;
type Report = Static<typeof ServiceReport>;

/** A YYYY-MM-DD date as a day number (days since 1970-01-01); a 400 naming the field when it is no date. */
function dayOf(value: string, field: string): number {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day);
  const date = new Date(wall);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || year < 1970)
    throw InputError.field(field, `"${value}" is not a date`);
  return wall / DAY_MS;
}

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The local days asked for: both inclusive, at most MAX_REPORT_DAYS; absent, the last 30 ending today. */
export function reportDays(query: Pick<Query, 'from' | 'to'>, timezone: string, now: Date): { first: number; last: number } {
  const today = localDay(timezone, now.getTime());
  const last = query.to !== undefined ? dayOf(query.to, 'to') : today;
  const first = query.from !== undefined ? dayOf(query.from, 'from') : last - (DEFAULT_REPORT_DAYS - 1);
  if (first > last) throw InputError.field('from', 'must not be after to');
  if (last - first + 1 > MAX_REPORT_DAYS) throw InputError.field('to', `a report covers at most ${MAX_REPORT_DAYS} days`);
  return { first, last };
}

async function filterOf(db: DB, query: Query): Promise<q.ReportFilter> {
  let tagId: number | undefined;
  if (query.tag !== undefined) {
    const [tag] = await findTagsByNames(db, [query.tag]);
    if (!tag) throw InputError.field('tag', `unknown tag "${query.tag.trim()}"`);
    tagId = tag.id;
  }
  return { teamId: query.team_id, inboxId: query.inbox_id, agentId: query.agent_id, tagId };
}

const rounded = (value: number | null) => (value === null ? null : Math.round(value));
const twoDecimals = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

/** `fromRows`: read the rows even where the rollups could answer (tests compare the two). */
export async function serviceReport(deps: AppDeps, query: Query, options: { fromRows?: boolean } = {}): Promise<Report> {
  const { timezone } = await getGeneralSettings(deps);
  const { first, last } = reportDays(query, timezone, deps.clock.now());
  const filter = await filterOf(deps.db, query);
  // The rollups (exact counts, percentiles within 2%), any filter or filters together (a tag's
  // own rollups when a tag is given), unless a zone they are not keyed in yet (it just changed).
  const figures =
    !options.fromRows && (await rollupsServe(deps, timezone))
      ? await rollupFigures(deps, first, last, filter)
      : await rowFigures(deps.db, timezone, first, last, filter);

  const days = [];
  for (let day = first; day <= last; day++) {
    const index = day - first + 1;
    days.push({ date: dateOf(day), created: figures.createdByDay.get(index) ?? 0, resolved: figures.resolvedByDay.get(index) ?? 0 });
  }
  const teams = new Map<number, { created: number; resolved: number }>();
  const team = (id: number) => teams.get(id) ?? teams.set(id, { created: 0, resolved: 0 }).get(id)!;
  const agents = new Map<number, { resolved: number; firstResponse: number | null; csat: number | null }>();
  const agent = (id: number) => agents.get(id) ?? agents.set(id, { resolved: 0, firstResponse: null, csat: null }).get(id)!;
  for (const [id, n] of figures.createdByTeam) team(id).created += n;
  for (const [id, n] of figures.resolvedByTeam) team(id).resolved += n;
  for (const [id, n] of figures.resolvedByAgent) agent(id).resolved += n;
  for (const [id, median] of figures.firstResponseMedianByAgent) agent(id).firstResponse = median;
  for (const row of figures.csat.byAgent) agent(row.agent_id).csat = row.average;
  const { firstResponse, resolution, csat } = figures;

  const [agentNames, teamNames] = await Promise.all([namesOfAgents(deps.db, [...agents.keys()]), namesOfTeams(deps.db, [...teams.keys()])]);
  return {
    from: dateOf(first),
    to: dateOf(last),
    timezone,
    conversations: { created: figures.created, resolved: figures.resolved },
    first_response_seconds: { median: rounded(firstResponse.median), p90: rounded(firstResponse.p90), count: firstResponse.count },
    resolution_seconds: { median: rounded(resolution.median), p90: rounded(resolution.p90), count: resolution.count },
    sla: figures.sla,
    csat: { responses: csat.responses, sent: csat.sent, average: twoDecimals(csat.average), distribution: csat.distribution },
    by_day: days,
    by_agent: [...agents]
      .filter(([id]) => agentNames.has(id))
      .map(([id, counts]) => ({
        agent_id: id,
        name: agentNames.get(id) ?? '',
        resolved: counts.resolved,
        first_response_median_seconds: rounded(counts.firstResponse),
        csat_average: twoDecimals(counts.csat),
      }))
      .sort((a, b) => b.resolved - a.resolved || a.name.localeCompare(b.name) || a.agent_id - b.agent_id),
    by_team: [...teams]
      .filter(([id]) => teamNames.has(id))
      .map(([id, counts]) => ({ team_id: id, name: teamNames.get(id) ?? '', ...counts }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.team_id - b.team_id),
  };
}

/** The figures read from the rows themselves: exact, and what a fresh zone needs. */
async function rowFigures(db: DB, timezone: string, first: number, last: number, filter: q.ReportFilter): Promise<Figures> {
  const dayStarts: Date[] = [];
  for (let day = first; day <= last; day++) dayStarts.push(new Date(instantOf(timezone, day * DAY_MS)));
  const range: q.ReportRange = { from: dayStarts[0]!, to: new Date(instantOf(timezone, (last + 1) * DAY_MS)), dayStarts };
  const [created, resolvedByDay, resolvedByOwner, resolution, firstResponse, firstResponseByAgent, csat, sla] = await Promise.all([
    q.createdCounts(db, range, filter),
    q.resolvedPerDay(db, range, filter),
    q.resolvedPerOwner(db, range, filter),
    q.resolutionSpread(db, range, filter),
    q.firstResponseSpread(db, range, filter),
    q.firstResponseMedians(db, range, filter),
    q.csatFigures(db, range, filter),
    q.slaFigures(db, range, filter),
  ]);
  const add = (map: Map<number, number>, key: number | null, n: number) => {
    if (key !== null) map.set(key, (map.get(key) ?? 0) + n);
  };
  const figures: Figures = {
    createdByDay: new Map(),
    resolvedByDay: new Map(),
    created: 0,
    resolved: 0,
    createdByTeam: new Map(),
    resolvedByTeam: new Map(),
    resolvedByAgent: new Map(),
    firstResponse,
    resolution,
    firstResponseMedianByAgent: new Map(firstResponseByAgent.map((row) => [row.agent_id, row.median])),
    csat,
    sla,
  };
  for (const row of created) {
    figures.created += row.n;
    add(figures.createdByDay, row.day, row.n);
    add(figures.createdByTeam, row.team_id, row.n);
  }
  for (const row of resolvedByDay) {
    figures.resolved += row.n;
    add(figures.resolvedByDay, row.day, row.n);
  }
  for (const row of resolvedByOwner) {
    add(figures.resolvedByTeam, row.team_id, row.n);
    add(figures.resolvedByAgent, row.assignee_id, row.n);
  }
  return figures;
}

/** After a move into a resolved status, in its transaction (conversations.changes.ts). */
export async function recordResolution(db: DB, conversationId: number, now: Date): Promise<void> {
  await q.insertResolution(db, conversationId, now);
}

/** Whether the conversation's current resolution (already recorded) is its first. */
export async function isFirstResolution(db: DB, conversationId: number): Promise<boolean> {
  return (await q.countResolutions(db, conversationId)) <= 1;
}
