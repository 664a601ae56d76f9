// Every SQL statement of the service report. Each reads one date range through its own index
// (conversations by created_at and by first_reply_at, resolutions by resolved_at) and
// aggregates in the database; nothing loops per conversation.
import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';

export interface ReportRange {
  from: Date;
  /** Exclusive. */
  to: Date;
  /**
   * The instant each local day of the range starts at, in order (the first is `from`). Rows are
   * put in their day by a binary search over these (width_bucket): no time-zone conversion per row.
   */
  dayStarts: readonly Date[];
}

export interface ReportFilter {
  teamId?: number | undefined;
  inboxId?: number | undefined;
  agentId?: number | undefined;
  tagId?: number | undefined;
}

/** Whether the report is narrowed at all (else the installation's whole figures). */
export function isFiltered(filter: ReportFilter): boolean {
  return filter.teamId !== undefined || filter.inboxId !== undefined || filter.agentId !== undefined || filter.tagId !== undefined;
}

/** Records a move of a conversation into a resolved status, with its assignee and team now. */
export async function insertResolution(db: DB, conversationId: number, now: Date): Promise<void> {
  await sql`insert into conversation_resolutions (conversation_id, resolved_at, conversation_created_at, inbox_id, assignee_id, team_id)
    select id, ${now}, created_at, inbox_id, assigned_user_id, assigned_team_id from conversations where id = ${conversationId}`.execute(
    db,
  );
}

/** How many times the conversation has moved into a resolved status (the current move included once recorded). */
export async function countResolutions(db: DB, conversationId: number): Promise<number> {
  const row = await db
    .selectFrom('conversation_resolutions')
    .where('conversation_id', '=', conversationId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

const TRUE = sql<boolean>`true`;

/** The filter over the columns of a row that carries a team, an inbox, an agent and a conversation. */
function filterOn(
  filter: ReportFilter,
  columns: { team: string; inbox: string; agent: string; conversation: string },
): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [TRUE];
  if (filter.teamId !== undefined) parts.push(sql`${sql.ref(columns.team)} = ${filter.teamId}`);
  if (filter.inboxId !== undefined) parts.push(sql`${sql.ref(columns.inbox)} = ${filter.inboxId}`);
  if (filter.agentId !== undefined) parts.push(sql`${sql.ref(columns.agent)} = ${filter.agentId}`);
  if (filter.tagId !== undefined)
    parts.push(
      sql`exists (select 1 from conversation_tags ct where ct.conversation_id = ${sql.ref(columns.conversation)} and ct.tag_id = ${filter.tagId})`,
    );
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** The filter on a conversation `c`, by its team, inbox and assignee now. */
const onConversation = (filter: ReportFilter) =>
  filterOn(filter, { team: 'c.assigned_team_id', inbox: 'c.inbox_id', agent: 'c.assigned_user_id', conversation: 'c.id' });

/** The filter on a resolution `r`, by the team and assignee it had then. */
const onResolution = (filter: ReportFilter) =>
  filterOn(filter, { team: 'r.team_id', inbox: 'r.inbox_id', agent: 'r.assignee_id', conversation: 'r.conversation_id' });

/** The position (1-based) of an instant's local day in the range. */
const dayIndex = (column: RawBuilder<Date>, range: ReportRange) =>
  sql<number>`width_bucket(${column}, ${range.dayStarts.map((start) => start.toISOString())}::timestamptz[])`;

/** Conversations created in the range, per local day (its position in the range) and team. */
export async function createdCounts(db: DB, range: ReportRange, filter: ReportFilter) {
  const { rows } = await sql<{ day: number; team_id: number | null; n: number }>`
    select ${dayIndex(sql`c.created_at`, range)} as day, c.assigned_team_id as team_id, count(*)::int as n
      from conversations c
     where c.created_at >= ${range.from} and c.created_at < ${range.to} and ${onConversation(filter)}
     group by 1, 2`.execute(db);
  return rows;
}

/** Resolutions in the range per local day (its position in the range). */
export async function resolvedPerDay(db: DB, range: ReportRange, filter: ReportFilter) {
  const { rows } = await sql<{ day: number; n: number }>`
    select ${dayIndex(sql`r.resolved_at`, range)} as day, count(*)::int as n
      from conversation_resolutions r
     where r.resolved_at >= ${range.from} and r.resolved_at < ${range.to} and ${onResolution(filter)}
     group by 1`.execute(db);
  return rows;
}

/**
 * Resolutions in the range per assignee and team then. Apart from the days: one hash aggregate
 * each, a few hundred rows back, where the three keys together gave thousands.
 */
export async function resolvedPerOwner(db: DB, range: ReportRange, filter: ReportFilter) {
  const { rows } = await sql<{ assignee_id: number | null; team_id: number | null; n: number }>`
    select r.assignee_id, r.team_id, count(*)::int as n
      from conversation_resolutions r
     where r.resolved_at >= ${range.from} and r.resolved_at < ${range.to} and ${onResolution(filter)}
     group by 1, 2`.execute(db);
  return rows;
}

export interface Spread {
  median: number | null;
  p90: number | null;
  count: number;
}

/** Median and 90th percentile of stored seconds (migration 0025), from one sort. */
const spread = (seconds: RawBuilder<number>) =>
  sql<number[]>`percentile_cont(array[0.5, 0.9]::float8[]) within group (order by ${seconds})`;

function spreadOf(row: { p: number[] | null; count: number } | undefined): Spread {
  return { median: row?.p?.[0] ?? null, p90: row?.p?.[1] ?? null, count: row?.count ?? 0 };
}

/** Seconds from creation to each resolution in the range. */
export async function resolutionSpread(db: DB, range: ReportRange, filter: ReportFilter): Promise<Spread> {
  const { rows } = await sql<{ p: number[] | null; count: number }>`
    select ${spread(sql`r.seconds`)} as p, count(*)::int as count
      from conversation_resolutions r
     where r.resolved_at >= ${range.from} and r.resolved_at < ${range.to} and ${onResolution(filter)}`.execute(db);
  return spreadOf(rows[0]);
}

/** Seconds from creation to the first agent reply, for the conversations first answered in the range. */
export async function firstResponseSpread(db: DB, range: ReportRange, filter: ReportFilter): Promise<Spread> {
  const { rows } = await sql<{ p: number[] | null; count: number }>`
    select ${spread(sql`c.first_response_seconds`)} as p, count(*)::int as count
      from conversations c
     where c.first_reply_at >= ${range.from} and c.first_reply_at < ${range.to} and ${onConversation(filter)}`.execute(db);
  return spreadOf(rows[0]);
}

/** The same, per assignee now: their median. */
export async function firstResponseMedians(db: DB, range: ReportRange, filter: ReportFilter) {
  const { rows } = await sql<{ agent_id: number; median: number }>`
    select c.assigned_user_id as agent_id,
           percentile_cont(0.5) within group (order by c.first_response_seconds) as median
      from conversations c
     where c.first_reply_at >= ${range.from} and c.first_reply_at < ${range.to} and c.assigned_user_id is not null
       and ${onConversation(filter)}
     group by c.assigned_user_id`.execute(db);
  return rows;
}

export type SlaFigures = Record<'first_response' | 'next_response' | 'resolution', { met: number; breached: number }>;

/**
 * SLA deadlines decided in the range (sla_outcomes, one row per deadline: met when met, breached
 * when passed; a deadline met and later breached by a reopen is breached), by their
 * conversation's filter. Without a filter, the index alone answers.
 */
export async function slaFigures(db: DB, range: ReportRange, filter: ReportFilter): Promise<SlaFigures> {
  const conversations = isFiltered(filter) ? sql`join conversations c on c.id = o.conversation_id and ${onConversation(filter)}` : sql``;
  const { rows } = await sql<{ metric: keyof SlaFigures; outcome: 'met' | 'breached'; n: number }>`
    select o.metric, o.outcome, count(*)::int as n
      from sla_outcomes o ${conversations}
     where o.at >= ${range.from} and o.at < ${range.to}
     group by 1, 2`.execute(db);
  const figures: SlaFigures = {
    first_response: { met: 0, breached: 0 },
    next_response: { met: 0, breached: 0 },
    resolution: { met: 0, breached: 0 },
  };
  for (const row of rows) figures[row.metric][row.outcome] = row.n;
  return figures;
}

export interface CsatRows {
  sent: number;
  responses: number;
  average: number | null;
  distribution: Record<'1' | '2' | '3' | '4' | '5', number>;
  /** The average rating per assignee when the survey was sent. */
  byAgent: Array<{ agent_id: number; average: number }>;
}

/** The filter on a survey `s`, by the inbox, team and assignee its conversation had when it was sent. */
const onSurvey = (filter: ReportFilter) =>
  filterOn(filter, { team: 's.team_id', inbox: 's.inbox_id', agent: 's.assignee_id', conversation: 's.conversation_id' });

/** The CSAT surveys sent in the range and their answers, credited like resolutions: to whom had the conversation then. */
export async function csatFigures(db: DB, range: ReportRange, filter: ReportFilter): Promise<CsatRows> {
  const { rows } = await sql<{
    agent_id: number | null;
    all: boolean;
    sent: number;
    responses: number;
    average: number | null;
    r1: number;
    r2: number;
    r3: number;
    r4: number;
    r5: number;
  }>`
    select s.assignee_id as agent_id, grouping(s.assignee_id) = 1 as all,
           count(*)::int as sent, count(s.rating)::int as responses, avg(s.rating)::float8 as average,
           count(*) filter (where s.rating = 1)::int as r1, count(*) filter (where s.rating = 2)::int as r2,
           count(*) filter (where s.rating = 3)::int as r3, count(*) filter (where s.rating = 4)::int as r4,
           count(*) filter (where s.rating = 5)::int as r5
      from csat_surveys s
     where s.created_at >= ${range.from} and s.created_at < ${range.to} and ${onSurvey(filter)}
     group by grouping sets ((), (s.assignee_id))`.execute(db);
  const all = rows.find((row) => row.all);
  return {
    sent: all?.sent ?? 0,
    responses: all?.responses ?? 0,
    average: all?.average ?? null,
    distribution: { '1': all?.r1 ?? 0, '2': all?.r2 ?? 0, '3': all?.r3 ?? 0, '4': all?.r4 ?? 0, '5': all?.r5 ?? 0 },
    byAgent: rows.flatMap((row) =>
      !row.all && row.agent_id !== null && row.average !== null ? [{ agent_id: row.agent_id, average: row.average }] : [],
    ),
  };
}
