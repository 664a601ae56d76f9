// The navigation's view counts (GET /conversations/counts): per view, the open conversations
// and the unread ones among them (records.queries.ts, unreadMessages), in one statement. Each
// count stops at `cap + 1` (a LIMIT under it), so a view of thousands costs no more than cap + 1
// rows; the indexes of migration 0036 serve each view's open conversations.
import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { ViewAccess } from './conversations.access.ts';
import { unreadMessages } from './records.queries.ts';

export interface ViewCount {
  open: number;
  unread: number;
}

export interface ViewCountsRow {
  mine: ViewCount | null;
  unassigned: ViewCount | null;
  all: ViewCount | null;
  teams: Array<ViewCount & { id: number }>;
  inboxes: Array<ViewCount & { id: number }>;
}

/** Every view's counts for `viewerId`; a view `access` leaves out is null (teams and inboxes: not listed). */
export async function findViewCounts(db: DB, access: ViewAccess, viewerId: number, cap: number): Promise<ViewCountsRow> {
  const { rows } = await viewCountsStatement(access, viewerId, cap).execute(db);
  const row = rows[0];
  if (!row) throw new Error('the view counts statement answered no row');
  return row;
}

/** The statement of findViewCounts (its EXPLAIN, in the measurements). */
export function viewCountsStatement(access: ViewAccess, viewerId: number, cap: number) {
  const limit = cap + 1;
  // `offset 0` keeps PostgreSQL from turning the EXISTS into a join over every unread message of
  // the workspace (a hash of them all): each conversation asks messages_unread_idx, and the
  // LIMIT stops the asking at cap + 1 unread.
  const lastSeen = sql`(select ls.last_seen_at from conversation_last_seen ls where ls.conversation_id = c.id and ls.user_id = ${viewerId})`;
  const capped = (where: RawBuilder<unknown>, unread: boolean) =>
    sql`(select count(*)::int from (select 1 from conversations c
      where c.status_id = any(array(select id from open_statuses)) and ${where}
      ${unread ? sql`and exists (select 1 from ${unreadMessages(lastSeen)} offset 0)` : sql``}
      limit ${sql.lit(limit)}) capped)`;
  const counts = (where: RawBuilder<unknown>) => sql`json_build_object('open', ${capped(where, false)}, 'unread', ${capped(where, true)})`;
  const view = (allowed: boolean, where: RawBuilder<unknown>) => (allowed ? counts(where) : sql`null::json`);
  const teamWhere =
    access.teams === 'every' ? sql`c.assigned_team_id = t.id` : sql`c.assigned_team_id = t.id and c.assigned_user_id is null`;
  const teamIds = access.teams === 'every' ? sql`true` : sql`t.id = any(${[...access.teams]}::int[])`;
  return sql<ViewCountsRow>`
    with open_statuses as (select id from conversation_statuses where category = 'open')
    select
      ${view(access.mine, sql`c.assigned_user_id = ${viewerId}`)} as mine,
      ${view(access.unassigned, sql`c.assigned_user_id is null`)} as unassigned,
      ${view(access.all, sql`true`)} as "all",
      (select coalesce(json_agg(json_build_object('id', t.id) :: jsonb || ${counts(teamWhere)} :: jsonb order by t.id), '[]')
         from teams t where ${teamIds}) as teams,
      ${
        access.inboxes
          ? sql`(select coalesce(json_agg(json_build_object('id', i.id) :: jsonb || ${counts(sql`c.inbox_id = i.id`)} :: jsonb order by i.id), '[]')
                  from inboxes i where i.deleted_at is null)`
          : sql`'[]'::json`
      } as inboxes`;
}
