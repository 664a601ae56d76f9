// The service report's rollups (migration 0028): counts per local day of the zone they are
// keyed in, in blocks of 1, 4, 16, 64 and 256 days and four projections (the row itself, all,
// per team, per assignee); by tag (migration 0035), the full rows once per tag, without
// projections. Reports add the pending rows the fold has not moved yet, so they are exact at
// once. Day numbers are days since 1970-01-01 in that zone.
import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { isFiltered, type ReportFilter } from './service-report.queries.ts';

export const METRIC = { created: 1, resolved: 2, firstResponse: 3, resolution: 4, sla: 5, csat: 6 } as const;

/** Block sizes in days, largest first; a block of size s starts on a day divisible by s. */
const SIZES = [256, 64, 16, 4, 1];

/** [first, end) as the fewest aligned blocks, left to right. */
export function blocksOf(first: number, end: number): Array<{ size: number; block: number }> {
  const blocks: Array<{ size: number; block: number }> = [];
  let day = first;
  while (day < end) {
    const size = SIZES.find((s) => day % s === 0 && day + s <= end) ?? 1;
    blocks.push({ size, block: day });
    day += size;
  }
  return blocks;
}

/** The zone the rollups are keyed in (null: none yet). */
export async function rollupZone(db: DB): Promise<string | null> {
  const { rows } = await sql<{ timezone: string }>`select timezone from service_rollup_state`.execute(db);
  return rows[0]?.timezone ?? null;
}

/** Everything again, in the given zone (the migration's function: the one owner of that SQL). */
export async function rebuildRollups(db: DB, zone: string): Promise<void> {
  await sql`select service_rollups_rebuild(${zone})`.execute(db);
  // Fresh statistics: the planner's row estimates of the old rollups no longer hold.
  await sql`analyze service_rollups`.execute(db);
  await sql`analyze service_tag_rollups`.execute(db);
}

/** Pending rows into the rollups; how many were moved. */
export async function foldRollups(db: DB): Promise<number> {
  const { rows } = await sql<{ folded: number }>`select service_rollups_fold() + service_tag_rollups_fold() as folded`.execute(db);
  return rows[0]?.folded ?? 0;
}

export interface RollupRow {
  metric: number;
  /** -1: all teams (a projection), 0: none. */
  team_id: number;
  /** -1: all assignees (a projection), 0: none. */
  assignee_id: number;
  bin: number;
  n: number;
}

/**
 * Where the filter's rows are: by tag (migration 0035: full rows only, one set per tag the
 * conversation has) or not (migration 0028).
 */
const tablesOf = (filter: ReportFilter) =>
  filter.tagId !== undefined
    ? { rollups: sql.table('service_tag_rollups'), pending: sql.table('service_tag_pending') }
    : { rollups: sql.table('service_rollups'), pending: sql.table('service_pending') };

/** The filter on full rows (inbox ≥ 0) of a rollup or pending alias; the tag's rows hold its own only. */
function onRow(alias: string, filter: ReportFilter) {
  const parts = [sql`${sql.ref(`${alias}.inbox_id`)} >= 0`];
  if (filter.tagId !== undefined) parts.push(sql`${sql.ref(`${alias}.tag_id`)} = ${filter.tagId}`);
  if (filter.teamId !== undefined) parts.push(sql`${sql.ref(`${alias}.team_id`)} = ${filter.teamId}`);
  if (filter.inboxId !== undefined) parts.push(sql`${sql.ref(`${alias}.inbox_id`)} = ${filter.inboxId}`);
  if (filter.agentId !== undefined) parts.push(sql`${sql.ref(`${alias}.assignee_id`)} = ${filter.agentId}`);
  return sql.join(parts, sql` and `);
}

/**
 * Sums over local days [first, last] per metric, team, assignee and bin. Unfiltered: the
 * projections (all: team = assignee = -1; per team: assignee = -1; per assignee: team = -1).
 * Filtered (tag, team, inbox, agent, any of them together): the matching full rows, the caller
 * projects them; with a tag, from that tag's rollups.
 */
export async function rollupTotals(db: DB, first: number, last: number, filter: ReportFilter): Promise<RollupRow[]> {
  if (isFiltered(filter))
    return totalsOf(
      db,
      first,
      last,
      sql`${onRow('r', filter)}`,
      sql`select metric, team_id, assignee_id, bin, delta from p where ${onRow('p', filter)}`,
      filter,
    );
  // Unfiltered, the first replies per assignee (bins × agents × blocks) are most of the rows: a
  // statement of their own, on another connection, so that both halves run at once. Pending
  // rows are projected as the fold will.
  const perAgent = sql`r.metric = 3 and r.team_id = -1 and r.assignee_id >= 0`;
  const [agents, rest] = await Promise.all([
    totalsOf(
      db,
      first,
      last,
      sql`r.inbox_id = -1 and ${perAgent}`,
      sql`select metric, -1, assignee_id, bin, delta from p where metric = 3`,
    ),
    totalsOf(
      db,
      first,
      last,
      sql`r.inbox_id = -1 and not (${perAgent})`,
      sql`select metric, -1, -1, bin, delta from p
          union all select metric, team_id, -1, bin, delta from p
          union all select metric, -1, assignee_id, bin, delta from p where metric <> 3`,
    ),
  ]);
  return [...agents, ...rest];
}

/** The rollup rows of the range's blocks matching `rollupRows` (alias r), plus `pendingRows` (from p: the range's pending rows). */
async function totalsOf(
  db: DB,
  first: number,
  last: number,
  rollupRows: RawBuilder<unknown>,
  pendingRows: RawBuilder<unknown>,
  filter: ReportFilter = {},
) {
  const blocks = blocksOf(first, last + 1);
  const { rollups, pending } = tablesOf(filter);
  const pendingOfTag = filter.tagId !== undefined ? sql`and tag_id = ${filter.tagId}` : sql``;
  const { rows } = await sql<RollupRow>`
    with b (size, block) as materialized (select * from unnest(${blocks.map((b) => b.size)}::int[], ${blocks.map((b) => b.block)}::int[])),
    p as materialized (select * from ${pending} where day >= ${first} and day <= ${last} ${pendingOfTag})
    select metric, team_id, assignee_id, bin, sum(n)::int as n
      from (select r.metric, r.team_id, r.assignee_id, r.bin, r.n
              from b cross join lateral (select * from ${rollups} r where r.size = b.size and r.block = b.block and ${rollupRows}) r
            union all ${pendingRows}) x
     group by 1, 2, 3, 4
    having sum(n) <> 0`.execute(db);
  return rows;
}

/** Created and resolved per local day of [first, last]. */
export async function rollupDays(db: DB, first: number, last: number, filter: ReportFilter) {
  const filtered = isFiltered(filter);
  const tables = tablesOf(filter);
  const rollups = filtered
    ? sql`select r.block as day, r.metric, r.n from ${tables.rollups} r
           where r.size = 1 and r.metric in (1, 2) and r.block >= ${first} and r.block <= ${last} and ${onRow('r', filter)}`
    : sql`select r.block as day, r.metric, r.n from generate_series(${first}::int, ${last}::int) d (day)
           cross join lateral (select * from service_rollups r where r.size = 1 and r.block = d.day and r.inbox_id = -1
                                  and r.metric in (1, 2) and r.team_id = -1 and r.assignee_id = -1) r`;
  const pending = filtered ? sql`and ${onRow('p', filter)}` : sql``;
  const { rows } = await sql<{ day: number; metric: number; n: number }>`
    select day, metric, sum(n)::int as n
      from (${rollups}
            union all
            select p.day, p.metric, p.delta from ${tables.pending} p
             where p.day >= ${first} and p.day <= ${last} and p.metric in (1, 2) ${pending}) x
     group by 1, 2`.execute(db);
  return rows;
}
