// The lists' true totals come from conversation counts kept by triggers (migration 0032) when a
// list's filters are among their keys, and from counting rows otherwise. Every total is held
// against a count made here from the conversations themselves, through every change that moves
// a conversation between keys (creation, assignment, team, status, a team deleted, a row
// deleted), with changes pending, folded, and both, and after a rebuild.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation, createInbox, createTeam } from '../../test/factories.ts';
import { buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { foldConversationCounts } from './conversations.counts.ts';
import { rebuildCounts } from './counts.queries.ts';

interface Row {
  id: number;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
  status: string;
  inbox_id: number;
  priority_id: number | null;
  tags: string[];
}

describe('conversation lists: true totals from the conversation counts', () => {
  let t: TestApp;
  let agent: Caller;
  const ids: { inboxA: number; inboxB: number; team1: number; team2: number } = { inboxA: 0, inboxB: 0, team1: 0, team2: 0 };
  const uuids: string[] = [];

  async function rows(): Promise<Row[]> {
    const { rows } = await sql<Row>`
      select c.id, c.assigned_user_id, c.assigned_team_id, s.name as status, c.inbox_id, c.priority_id,
             coalesce((select array_agg(t.name) from conversation_tags ct join tags t on t.id = ct.tag_id where ct.conversation_id = c.id), '{}') as tags
        from conversations c join conversation_statuses s on s.id = c.status_id`.execute(t.deps.db);
    return rows;
  }

  /** Each list request and which conversations it holds, said directly. */
  function cases(): Array<[string, (row: Row) => boolean]> {
    const { inboxA, inboxB, team1, team2 } = ids;
    const me = t.admin.id;
    return [
      ['/conversations/all', () => true],
      ['/conversations/all?status=Open', (r) => r.status === 'Open'],
      ['/conversations/all?status=open&status=Resolved', (r) => r.status === 'Open' || r.status === 'Resolved'],
      [`/conversations/all?team_id=${team1}`, (r) => r.assigned_team_id === team1],
      [`/conversations/all?team_id=${team1}&team_id=${team2}`, (r) => r.assigned_team_id === team1 || r.assigned_team_id === team2],
      [`/conversations/all?assignee_id=${agent.id}`, (r) => r.assigned_user_id === agent.id],
      [`/conversations/all?inbox_id=${inboxA}`, (r) => r.inbox_id === inboxA],
      [
        `/conversations/all?inbox_id=${inboxA}&status=Open&team_id=${team1}`,
        (r) => r.inbox_id === inboxA && r.status === 'Open' && r.assigned_team_id === team1,
      ],
      // Filters the counts are not keyed by: the rows are counted.
      ['/conversations/all?tag=vip', (r) => r.tags.includes('vip')],
      ['/conversations/all?priority=High', (r) => r.priority_id !== null && r.priority_id === highId],
      ['/conversations/assigned', (r) => r.assigned_user_id === me],
      ['/conversations/assigned?status=Open', (r) => r.assigned_user_id === me && r.status === 'Open'],
      [`/conversations/assigned?inbox_id=${inboxB}`, (r) => r.assigned_user_id === me && r.inbox_id === inboxB],
      ['/conversations/unassigned', (r) => r.assigned_user_id === null],
      [`/conversations/unassigned?team_id=${team2}`, (r) => r.assigned_user_id === null && r.assigned_team_id === team2],
      [`/teams/${team1}/conversations/unassigned`, (r) => r.assigned_user_id === null && r.assigned_team_id === team1],
      [
        `/teams/${team1}/conversations/unassigned?status=Resolved`,
        (r) => r.assigned_user_id === null && r.assigned_team_id === team1 && r.status === 'Resolved',
      ],
    ];
  }
  let highId = 0;

  async function totals(): Promise<Record<string, { listed: number; counted: number }>> {
    const all = await rows();
    const out: Record<string, { listed: number; counted: number }> = {};
    for (const [path, holds] of cases()) {
      const page = dataOf<{ total: number }>(
        await t.call({ method: 'GET', url: `/api/v1${path}${path.includes('?') ? '&' : '?'}page_size=1` }),
      );
      out[path] = { listed: page.total, counted: all.filter(holds).length };
    }
    return out;
  }

  async function assertTotals(label: string): Promise<void> {
    for (const [path, { listed, counted }] of Object.entries(await totals())) assert.equal(listed, counted, `${label}: ${path}`);
  }

  const pendingRows = async () =>
    Number((await sql<{ n: number }>`select count(*)::int as n from conversation_count_pending`.execute(t.deps.db)).rows[0]?.n);
  const countRows = async () =>
    (
      await sql<{ key: string; n: number }>`
        select concat_ws(' ', assignee_id, team_id, status_id, inbox_id) as key, n from conversation_counts where n <> 0 order by 1`.execute(
        t.deps.db,
      )
    ).rows;

  const put = (uuid: string, path: string, payload: Record<string, unknown>) =>
    t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/${path}`, payload });

  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent({ roles: ['Agent'] });
    ids.inboxA = (await createInbox(t)).id;
    ids.inboxB = (await createInbox(t)).id;
    ids.team1 = (await createTeam(t)).id;
    ids.team2 = (await createTeam(t)).id;
    dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'vip' } }));
    highId = (await t.deps.db.selectFrom('conversation_priorities').select('id').where('name', '=', 'High').executeTakeFirstOrThrow()).id;
    for (let i = 0; i < 12; i++) {
      const conversation = await createConversation(t, {
        inbox_id: i % 3 === 0 ? ids.inboxB : ids.inboxA,
        ...(i % 4 === 0 ? { assignee_id: t.admin.id } : i % 4 === 1 ? { assignee_id: agent.id } : {}),
        ...(i % 3 === 1 ? { team_id: ids.team1 } : i % 3 === 2 ? { team_id: ids.team2 } : {}),
      });
      uuids.push(conversation.uuid);
      if (i % 5 === 0) await t.call({ method: 'POST', url: `/api/v1/conversations/${conversation.uuid}/tags`, payload: { tags: ['vip'] } });
      if (i % 5 === 1) await put(conversation.uuid, 'priority', { priority: 'High' });
      if (i % 6 === 2) await put(conversation.uuid, 'status', { status: 'Resolved' });
    }
  });
  after(() => t.close());

  it('are true with every change still pending', async () => {
    assert.ok((await pendingRows()) >= 12);
    await assertTotals('pending');
  });

  it('are true once folded, and the fold empties what is pending', async () => {
    assert.ok((await foldConversationCounts(t.deps)) >= 12);
    assert.equal(await pendingRows(), 0);
    await assertTotals('folded');
  });

  it('follow assignment, team, status, a deleted team and a deleted row, folded or not', async () => {
    const [c0, c1, c2, c3, c4, c5, c6] = uuids as [string, string, string, string, string, string, string];
    dataOf(await put(c0, 'assignee/user', { assignee_id: agent.id }));
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${c1}/assignee/user/remove` }));
    dataOf(await put(c2, 'assignee/team', { assignee_id: ids.team1 }));
    dataOf(await put(c3, 'status', { status: 'Resolved' }));
    dataOf(await put(c4, 'status', { status: 'Snoozed', snoozed_until: '2h' }));
    dataOf(await put(c5, 'assignee/user', { assignee_id: t.admin.id }));
    await assertTotals('changed, pending');
    await foldConversationCounts(t.deps);
    await assertTotals('changed, folded');

    // A deleted team's conversations lose it through the foreign key; a deleted row leaves the counts.
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/teams/${ids.team2}` }));
    await sql`delete from conversations where uuid = ${c6}`.execute(t.deps.db);
    dataOf(await put(c3, 'status', { status: 'Open' }));
    await assertTotals('more changes over folded counts');
    await foldConversationCounts(t.deps);
    await assertTotals('folded again');
  });

  it('are read from the counts for the filters they are keyed by, and counted otherwise', async () => {
    const before = await totals();
    // A pending row no conversation made: only totals read from the counts see it.
    await sql`insert into conversation_count_pending (assignee_id, team_id, status_id, inbox_id, delta)
              select ${t.admin.id}, 0, id, ${ids.inboxB}, 1000 from conversation_statuses where name = 'Open'`.execute(t.deps.db);
    try {
      const after = await totals();
      const moved = Object.keys(before).filter((path) => after[path]?.listed !== before[path]?.listed);
      assert.deepEqual(
        moved.sort(),
        [
          '/conversations/all',
          '/conversations/all?status=Open',
          '/conversations/all?status=open&status=Resolved',
          '/conversations/assigned',
          '/conversations/assigned?status=Open',
          `/conversations/assigned?inbox_id=${ids.inboxB}`,
        ].sort(),
      );
      for (const path of moved) assert.equal(after[path]?.listed, (before[path]?.listed ?? 0) + 1000, path);
    } finally {
      await sql`delete from conversation_count_pending where delta = 1000`.execute(t.deps.db);
    }
    await assertTotals('after the stray row');
  });

  it('are rebuilt to what the fold keeps', async () => {
    await put(uuids[7] as string, 'assignee/user', { assignee_id: agent.id });
    await foldConversationCounts(t.deps);
    const folded = await countRows();
    await rebuildCounts(t.deps.db);
    assert.deepEqual(await countRows(), folded);
    assert.equal(await pendingRows(), 0);
    await assertTotals('rebuilt');
  });
});
