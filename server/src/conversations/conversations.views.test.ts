// GET /conversations/counts: per view (mine, unassigned, all, each team, each inbox) the open
// conversations and the unread ones, held against counts made here from the rows themselves,
// for a caller who reads everything and one who reads only their own and their team's queue;
// through reads, a contact writing again, mark-unread, assignment and status changes; capped;
// and refused without credentials or permission.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { agentWith, createConversation, createInbox, createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, readingEverything, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, startVisitor, type Visitor, type WidgetInboxFixture, widgetCall } from '../../test/widget.ts';
import { viewAccess } from './conversations.access.ts';
import { findViewCounts } from './views.queries.ts';

type Count = { open: number; unread: number };
type Counts = {
  cap: number;
  mine: Count | null;
  unassigned: Count | null;
  all: Count | null;
  teams: Array<Count & { id: number }>;
  inboxes: Array<Count & { id: number }>;
};
interface Row {
  id: number;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
  inbox_id: number;
  open: boolean;
  unread: boolean;
}

describe('conversation view counts', () => {
  const clock = fakeClock();
  let t: TestApp;
  let chat: WidgetInboxFixture;
  let ann: Caller;
  let visitor: Visitor;
  const ids = { inboxB: 0, team1: 0, team2: 0 };

  const counts = async (as?: Caller) =>
    dataOf<Counts>(await t.call({ method: 'GET', url: '/api/v1/conversations/counts', ...(as ? { as } : {}) }));

  /** Each conversation as `viewerId` sees it, said directly: open (status category), unread (a contact's public message after their last look). */
  async function rows(viewerId: number): Promise<Row[]> {
    const { rows } = await sql<Row>`
      select c.id, c.assigned_user_id, c.assigned_team_id, c.inbox_id, s.category = 'open' as open,
             exists (select 1 from messages m where m.conversation_id = c.id and m.type = 'incoming' and not m.private
                       and m.created_at > coalesce((select last_seen_at from conversation_last_seen where conversation_id = c.id and user_id = ${viewerId}), '-infinity')) as unread
        from conversations c join conversation_statuses s on s.id = c.status_id`.execute(t.deps.db);
    return rows;
  }
  const tally = (list: Row[], where: (r: Row) => boolean): Count => ({
    open: list.filter((r) => r.open && where(r)).length,
    unread: list.filter((r) => r.open && r.unread && where(r)).length,
  });

  async function expectedForAdmin(): Promise<Omit<Counts, 'cap'>> {
    const list = await rows(t.admin.id);
    const { rows: teams } = await sql<{ id: number }>`select id from teams order by id`.execute(t.deps.db);
    const { rows: inboxes } = await sql<{ id: number }>`select id from inboxes where deleted_at is null order by id`.execute(t.deps.db);
    return {
      mine: tally(list, (r) => r.assigned_user_id === t.admin.id),
      unassigned: tally(list, (r) => r.assigned_user_id === null),
      all: tally(list, () => true),
      teams: teams.map(({ id }) => ({ id, ...tally(list, (r) => r.assigned_team_id === id) })),
      inboxes: inboxes.map(({ id }) => ({ id, ...tally(list, (r) => r.inbox_id === id) })),
    };
  }

  /** Ann reads what is assigned to her and her team's (team 1) unassigned queue: nothing else is counted. */
  async function expectedForAnn(): Promise<Omit<Counts, 'cap'>> {
    const list = await rows(ann.id);
    return {
      mine: tally(list, (r) => r.assigned_user_id === ann.id),
      unassigned: null,
      all: null,
      teams: [{ id: ids.team1, ...tally(list, (r) => r.assigned_team_id === ids.team1 && r.assigned_user_id === null) }],
      inboxes: [],
    };
  }

  async function assertCounts(label: string) {
    const { cap: adminCap, ...admin } = await counts();
    assert.equal(adminCap, 99);
    assert.deepEqual(admin, await expectedForAdmin(), `admin: ${label}`);
    const { cap: _, ...own } = await counts(ann);
    assert.deepEqual(own, await expectedForAnn(), `ann: ${label}`);
  }

  const contactWrites = async (message: string) => {
    clock.advance(1000);
    dataOf(
      await widgetCall(t, {
        method: 'POST',
        url: `chat/conversations/${visitor.conversationUuid}/message`,
        inbox: chat.uuid,
        token: visitor.token,
        payload: { message },
      }),
    );
  };
  const put = async (uuid: string, path: string, payload: Record<string, unknown>, as?: Caller) => {
    clock.advance(1000);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/${path}`, payload, ...(as ? { as } : {}) }));
  };

  before(async () => {
    t = await buildTestApp({ clock });
    chat = await createWidgetInbox(t);
    ids.inboxB = (await createInbox(t, { name: 'Mail B' })).id;
    ids.team1 = (await createTeam(t, { name: 'Team one' })).id;
    ids.team2 = (await createTeam(t, { name: 'Team two' })).id;
    ann = await agentWith(
      t,
      ['conversations:read', 'conversations:read_assigned', 'conversations:read_team_inbox', 'conversations:write'],
      {
        teams: [ids.team1],
      },
    );
    // The contact's conversation in the chat inbox (unassigned, unread for everyone).
    visitor = await startVisitor(t, chat.uuid, 'Hi there');
    for (let i = 0; i < 6; i++) {
      clock.advance(1000);
      const c = await createConversation(t, { inbox_id: i % 2 === 0 ? ids.inboxB : chat.inbox.id });
      if (i === 0) await put(c.uuid, 'assignee/user', { assignee_id: ann.id });
      if (i === 1 || i === 2) await put(c.uuid, 'assignee/team', { assignee_id: ids.team1 });
      if (i === 3) await put(c.uuid, 'assignee/team', { assignee_id: ids.team2 });
      if (i === 4) await put(c.uuid, 'status', { status: 'Resolved' });
      if (i === 5) await put(c.uuid, 'assignee/user', { assignee_id: t.admin.id });
    }
  });
  after(() => t.close());

  it('counts each view as the rows say, for a caller who reads everything and one who reads their own', async () => {
    await assertCounts('at the start');
    const own = await counts(ann);
    assert.equal(own.unassigned, null);
    assert.equal(own.all, null);
    assert.ok((own.mine?.unread ?? 0) > 0 && (own.teams[0]?.open ?? 0) === 2, JSON.stringify(own));
  });

  it('follows reads, a contact writing again, mark-unread, assignment and status changes', async () => {
    const uuid = visitor.conversationUuid;
    const before = (await counts()).unassigned;
    clock.advance(1000);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/last-seen` }));
    assert.deepEqual((await counts()).unassigned, { open: before?.open, unread: (before?.unread ?? 0) - 1 }, 'read');
    await assertCounts('after a read');
    await contactWrites('One more thing');
    assert.deepEqual((await counts()).unassigned, before, 'the contact wrote again');
    clock.advance(1000);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/last-seen` }));
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/mark-unread` }));
    assert.deepEqual((await counts()).unassigned, before, 'marked unread');
    await assertCounts('after mark-unread');
    await put(uuid, 'assignee/team', { assignee_id: ids.team1 });
    await assertCounts('moved to team 1');
    await put(uuid, 'assignee/user', { assignee_id: ann.id });
    await assertCounts('assigned to Ann');
    await put(uuid, 'status', { status: 'Snoozed', snoozed_until: '2027-01-01T00:00:00Z' });
    await assertCounts('snoozed');
    await put(uuid, 'status', { status: 'Open' });
    await assertCounts('open again');
  });

  it('stops each count at cap + 1', async () => {
    const { rows: open } = await sql<{
      n: number;
    }>`select count(*)::int as n from conversations c join conversation_statuses s on s.id = c.status_id where s.category = 'open'`.execute(
      t.deps.db,
    );
    assert.ok((open[0]?.n ?? 0) >= 4);
    const access = { mine: true, unassigned: true, all: true, teams: 'every' as const, inboxes: true };
    const capped = await findViewCounts(t.deps.db, access, t.admin.id, 2);
    assert.deepEqual(capped.all, { open: 3, unread: 3 });
    const full = await findViewCounts(t.deps.db, access, t.admin.id, 1000);
    assert.equal(full.all?.open, open[0]?.n);
  });

  it("decides the views with the lists' own rule: a list refused is a view left out", async () => {
    const onlyUnassigned = await agentWith(t, ['conversations:read', 'conversations:read_unassigned']);
    const c = await counts(onlyUnassigned);
    assert.equal(c.mine, null);
    assert.ok(c.unassigned);
    assert.deepEqual([c.all, c.teams, c.inboxes], [null, [], []]);
    assertError(await t.call({ method: 'GET', url: '/api/v1/conversations/assigned', as: onlyUnassigned }), 403, 'PermissionException');
    assertError(await t.call({ method: 'GET', url: '/api/v1/conversations/unassigned', as: ann }), 403, 'PermissionException');
    // A team of hers she may not read the queue of (no read_team_inbox) is left out too.
    const noQueue = {
      ...readingEverything(ann.id),
      teamIds: [ids.team1],
      permissions: new Set(['conversations:read', 'conversations:read_assigned']),
    };
    assert.deepEqual(viewAccess(noQueue).teams, []);
  });

  it('answers 401 without credentials, 403 without conversations:read, 400 for a parameter', async () => {
    assertError(await t.call({ method: 'GET', url: '/api/v1/conversations/counts', as: null }), 401, 'UnauthorizedException');
    const none = await agentWith(t, ['contacts:read']);
    assertError(await t.call({ method: 'GET', url: '/api/v1/conversations/counts', as: none }), 403, 'PermissionException');
    assertError(await t.call({ method: 'POST', url: '/api/v1/conversations/counts' }), 405, 'GeneralException');
    // No parameters: an unknown one (a cap of the caller's choosing) is refused.
    assertError(await t.call({ method: 'GET', url: '/api/v1/conversations/counts?cap=5000' }), 400, 'InputException');
  });
});
