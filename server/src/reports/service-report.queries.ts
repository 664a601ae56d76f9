// Every SQL statement of the service report. Each reads one date range through its own index
// (conversations by created_at and by first_reply_at, resolutions by resolved_at) and
// aggregates in the database; nothing loops per conversation.
import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';

export interface ReportRange {
  from: Date;
  /** Exclusive. */
  to: Date;
  /** The zone local dates are counted in. */
  timezone: string;
}

export interface ReportFilter {
  teamId?: number | undefined;
  inboxId?: number | undefined;
  agentId?: number | undefined;
  tagId?: number | undefined;
}

/** Records a move of a conversation into a resolved status, with its assignee and team now. */
export async function insertResolution(db: DB, conversationId: number, now: Date): Promise<void> {
  await sql`insert into conversation_resolutions (conversation_id, resolved_at, conversation_created_at, inbox_id, assignee_id, team_id)
    select id, ${now}, created_at, inbox_id, assigned_user_id, assigned_team_id from conversations where id = ${conversationId}`.execute(
    db,
  );
}

const TRUE = sql<boolean>`true`;

/** The filter on a conversation `c`, by its team, inbox and assignee now. */
function onConversation(filter: ReportFilter): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [TRUE];
  if (filter.teamId !== undefined) parts.push(sql`c.assigned_team_id = ${filter.teamId}`);
  if (filter.inboxId !== undefined) parts.push(sql`c.inbox_id = ${filter.inboxId}`);
  if (filter.agentId !== undefined) parts.push(sql`c.assigned_user_id = ${filter.agentId}`);
  if (filter.tagId !== undefined)
    parts.push(sql`exists (select 1 from conversation_tags ct where ct.conversation_id = c.id and ct.tag_id = ${filter.tagId})`);
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** The filter on a resolution `r`, by the team and assignee it had then. */
function onResolution(filter: ReportFilter): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [TRUE];
  if (filter.teamId !== undefined) parts.push(sql`r.team_id = ${filter.teamId}`);
  if (filter.inboxId !== undefined) parts.push(sql`r.inbox_id = ${filter.inboxId}`);
  if (filter.agentId !== undefined) parts.push(sql`r.assignee_id = ${filter.agentId}`);
  if (filter.tagId !== undefined)
    parts.push(
      sql`exists (select 1 from conversation_tags ct where ct.conversation_id = r.conversation_id and ct.tag_id = ${filter.tagId})`,
    );
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

const localDate = (column: RawBuilder<Date>, timezone: string) => sql<string>`to_char(${column} at time zone ${timezone}, 'YYYY-MM-DD')`;

/** Conversations created in the range, per local date and team. */
export async function createdCounts(db: DB, range: ReportRange, filter: ReportFilter) {
  const { rows } = await sql<{ day: string; team_id: number | null; n: number }>`
    select ${localDate(sql`c.created_at`, range.timezone)} as day, c.assigned_team_id as team_id, count(*)::int as n
      from conversations c
     where c.created_at >= ${range.from} and c.created_at < ${range.to} and ${onConversation(filter)}
     group by 1, 2`.execute(db);
  return rows;
}

/** Resolutions in the range, per local date, assignee and team then. */
export async function resolvedCounts(db: DB, range: ReportRange, filter: ReportFilter) {
  const { rows } = await sql<{ day: string; assignee_id: number | null; team_id: number | null; n: number }>`
    select ${localDate(sql`r.resolved_at`, range.timezone)} as day, r.assignee_id, r.team_id, count(*)::int as n
      from conversation_resolutions r
     where r.resolved_at >= ${range.from} and r.resolved_at < ${range.to} and ${onResolution(filter)}
     group by 1, 2, 3`.execute(db);
  return rows;
}

export interface Spread {
  median: number | null;
  p90: number | null;
  count: number;
}

/** Seconds from creation to each resolution in the range. */
export async function resolutionSpread(db: DB, range: ReportRange, filter: ReportFilter): Promise<Spread> {
  const { rows } = await sql<Spread>`
    select percentile_cont(0.5) within group (order by s) as median, percentile_cont(0.9) within group (order by s) as p90,
           count(*)::int as count
      from (select extract(epoch from r.resolved_at - r.conversation_created_at)::float8 as s
              from conversation_resolutions r
             where r.resolved_at >= ${range.from} and r.resolved_at < ${range.to} and ${onResolution(filter)}) t`.execute(db);
  return rows[0] ?? { median: null, p90: null, count: 0 };
}

/**
 * Seconds from creation to the first agent reply, for the conversations first answered in the
 * range: all of them (agent_id null, `all` true) and per assignee now.
 */
export async function firstResponseSpread(db: DB, range: ReportRange, filter: ReportFilter) {
  const { rows } = await sql<Spread & { agent_id: number | null; all: boolean }>`
    select c.assigned_user_id as agent_id, grouping(c.assigned_user_id) = 1 as all,
           percentile_cont(0.5) within group (order by extract(epoch from c.first_reply_at - c.created_at)::float8) as median,
           percentile_cont(0.9) within group (order by extract(epoch from c.first_reply_at - c.created_at)::float8) as p90,
           count(*)::int as count
      from conversations c
     where c.first_reply_at >= ${range.from} and c.first_reply_at < ${range.to} and ${onConversation(filter)}
     group by grouping sets ((), (c.assigned_user_id))`.execute(db);
  return rows;
}

export async function agentNames(db: DB, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db
    .selectFrom('users')
    .where('id', 'in', ids)
    .select(['id', sql<string>`trim(first_name || ' ' || last_name)`.as('name')])
    .execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function teamNames(db: DB, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db.selectFrom('teams').where('id', 'in', ids).select(['id', 'name']).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
