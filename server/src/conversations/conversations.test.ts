// Conversations: creation, the lists, every change, access rules (docs/api.md: Permissions and access; Pagination and lists; Conversations and messages; Tags, macros, teams).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createInbox, createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, runDueJobs, type TestApp } from '../../test/helpers.ts';
import { releaseAgentJob } from './assignment.service.ts';
import { wakeSnoozedConversations } from './conversations.changes.ts';

type Json = Record<string, unknown>;
type Item = Json & {
  id: number;
  uuid: string;
  status: string;
  priority: string | null;
  tags: string[];
  unread_message_count: number;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
  contact: Json & { id: number; email: string | null };
  last_message: string | null;
  last_message_at: string | null;
  last_message_sender: string | null;
  waiting_since: string | null;
  resolved_at: string | null;
  first_reply_at: string | null;
};
type Detail = Item & { status_category: string; snoozed_until: string | null };
type Paged<T> = { results: T[]; total: number; per_page: number; total_pages: number; page: number };

const SPEC_LIST_FIELDS = [
  'id',
  'created_at',
  'updated_at',
  'uuid',
  'waiting_since',
  'assignee_last_seen_at',
  'contact',
  'inbox_channel',
  'inbox_name',
  'sla_policy_id',
  'first_reply_at',
  'last_reply_at',
  'resolved_at',
  'subject',
  'last_message',
  'last_message_at',
  'last_message_sender',
  'next_sla_deadline_at',
  'priority_id',
  'unread_message_count',
  'status',
  'priority',
  'first_response_deadline_at',
  'resolution_deadline_at',
  'applied_sla_id',
  'next_response_deadline_at',
  'next_response_met_at',
];
const CONTRACT_ADDITIONS = ['reference_number', 'assigned_user_id', 'assigned_team_id', 'inbox_id', 'tags', 'first_message'];
const LIST_FIELDS = [...SPEC_LIST_FIELDS, ...CONTRACT_ADDITIONS].sort();
const DETAIL_FIELDS = [...LIST_FIELDS, 'status_category', 'snoozed_until', 'custom_attributes', 'meta', 'csat'].sort();
const LIST_CONTACT_FIELDS = ['avatar_url', 'created_at', 'email', 'first_name', 'id', 'last_name', 'updated_at'];

let seq = 0;
const email = (label = 'c') => `${label}-${process.pid}-${++seq}@example.com`;

describe('conversations', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inboxId: number;
  let teamA: number;
  let teamB: number;
  let alice: Caller; // Agent role, team A
  let bob: Caller; // Agent role, team B
  let carol: Caller; // may read only conversations assigned to her

  const as = (caller?: Caller | null) => (caller !== undefined ? { as: caller } : {});
  const create = (payload: Json, caller?: Caller | null) => {
    clock.advance(1000);
    return t.call({ method: 'POST', url: '/api/v1/conversations', payload, ...as(caller) });
  };
  const newConversation = async (extra: Json = {}) =>
    dataOf<Detail>(
      await create({
        inbox_id: inboxId,
        contact_email: email(),
        content: '<p>Hello there</p>',
        initiator: 'contact',
        subject: 'Help',
        ...extra,
      }),
    );
  const get = (uuid: string, caller?: Caller | null) => t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}`, ...as(caller) });
  const put = (uuid: string, path: string, payload?: Json, caller?: Caller | null) => {
    clock.advance(1000);
    return t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/${path}`, ...(payload ? { payload } : {}), ...as(caller) });
  };
  const tags = (uuid: string, payload: Json, caller?: Caller | null) => {
    clock.advance(1000);
    return t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/tags`, payload, ...as(caller) });
  };
  const list = (path: string, caller?: Caller | null) => t.call({ method: 'GET', url: `/api/v1/${path}`, ...as(caller) });
  const activities = async (uuid: string) => {
    const rows = await t.deps.db
      .selectFrom('messages as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .where('c.uuid', '=', uuid)
      .where('m.type', '=', 'activity')
      .select(['m.text_content', 'm.private'])
      .orderBy('m.id')
      .execute();
    return rows;
  };
  const events = async (uuid: string) => {
    const rows = await t.deps.db.selectFrom('domain_events').select(['type', 'payload']).orderBy('id').execute();
    return rows.filter((r) => (r.payload as Json)['conversation_uuid'] === uuid).map((r) => r.type);
  };

  before(async () => {
    t = await buildTestApp({ clock });
    inboxId = (await createInbox(t, { name: 'Chat' })).id;
    teamA = (await createTeam(t, { name: 'Team A' })).id;
    teamB = (await createTeam(t, { name: 'Team B' })).id;
    alice = await t.makeAgent({ teams: [teamA], first_name: 'Alice' });
    bob = await t.makeAgent({ teams: [teamB], first_name: 'Bob' });
    const assignedOnly = [
      'conversations:read',
      'conversations:read_assigned',
      'conversations:update_status',
      'messages:read',
      'messages:write',
    ];
    carol = await agentWith(t, assignedOnly, { first_name: 'Carol' });
    for (const name of ['vip', 'billing', 'bug']) dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name } }));
  });
  after(() => t.close());

  describe('POST /conversations', () => {
    it('creates a conversation from the contact with exactly the detail fields', async () => {
      const contactEmail = email('Ada');
      const c = dataOf<Detail>(
        await create({
          inbox_id: inboxId,
          contact_email: contactEmail.toUpperCase(),
          first_name: 'Ada',
          content: '<p>My <b>order</b> is late<script>alert(1)</script></p>',
          initiator: 'contact',
          subject: ' Late order ',
        }),
      );
      assert.deepEqual(Object.keys(c).sort(), DETAIL_FIELDS);
      assert.match(c.uuid, /^[0-9a-f-]{36}$/);
      assert.match(String(c['reference_number']), /^\d+$/);
      assert.equal(c.status, 'Open');
      assert.equal(c.status_category, 'open');
      assert.equal(c['subject'], 'Late order');
      assert.equal(c.last_message, 'My order is late');
      assert.equal(c.last_message_sender, 'contact');
      assert.equal(c.waiting_since, c.last_message_at);
      assert.equal(c.first_reply_at, null);
      assert.equal(c.unread_message_count, 1, 'the contact message is unread for the admin');
      assert.equal(c['inbox_channel'], 'livechat');
      assert.equal(c['inbox_name'], 'Chat');
      assert.equal(c.contact.email, contactEmail.toLowerCase());
      assert.equal(c.contact['type'], 'contact');
      assert.equal(c.contact['first_name'], 'Ada');
      for (const field of ['sla_policy_id', 'next_sla_deadline_at', 'applied_sla_id']) assert.equal(c[field], null);
      assert.equal(c['csat'], null);
      assert.deepEqual(await events(c.uuid), ['conversation.created', 'message.created']);
      const contacts = await t.deps.db.selectFrom('users').where('email', '=', contactEmail.toLowerCase()).select('id').execute();
      assert.equal(contacts.length, 1, 'the contact was created once');
      const again = dataOf<Detail>(
        await create({ inbox_id: inboxId, contact_email: contactEmail, content: 'second', initiator: 'contact' }),
      );
      assert.equal(again.contact.id, c.contact.id, 'an existing contact is found by email');
    });

    it('an agent-initiated conversation starts with a pending reply and no waiting', async () => {
      const c = dataOf<Detail>(await create({ inbox_id: inboxId, contact_email: email(), content: 'Hi from us' }));
      assert.equal(c.last_message_sender, 'agent');
      assert.equal(c.waiting_since, null);
      assert.ok(c.first_reply_at);
      const messages = await t.deps.db
        .selectFrom('messages')
        .where('conversation_id', '=', c.id)
        .select(['type', 'status', 'sender_id'])
        .execute();
      assert.deepEqual(messages, [{ type: 'outgoing', status: 'pending', sender_id: t.admin.id }]);
      const jobs = await t.deps.db.selectFrom('jobs').where('kind', '=', 'livechat.deliver').select('payload').execute();
      assert.ok(
        jobs.some((j) => (j.payload as Json)['message_id'] !== undefined),
        'a delivery job was queued with the message',
      );
    });

    it('refuses bad input with a 400 naming the field, and creates nothing', async () => {
      const before = await t.deps.db
        .selectFrom('conversations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const cases: Array<[string, Json, string]> = [
        ['no inbox', { contact_email: email(), content: 'x' }, 'inbox_id'],
        ['inbox as a string', { inbox_id: String(inboxId), contact_email: email(), content: 'x' }, 'inbox_id'],
        ['unknown inbox', { inbox_id: 999999, contact_email: email(), content: 'x' }, 'inbox_id'],
        ['no contact', { inbox_id: inboxId, content: 'x' }, 'contact_id'],
        ['both contact forms', { inbox_id: inboxId, contact_id: 1, contact_email: email(), content: 'x' }, 'contact_id'],
        ['bad email', { inbox_id: inboxId, contact_email: 'not-an-email', content: 'x' }, 'contact_email'],
        ['no content', { inbox_id: inboxId, contact_email: email() }, 'content'],
        ['blank html content', { inbox_id: inboxId, contact_email: email(), content: '<p> </p><script>x</script>' }, 'content'],
        ['bad initiator', { inbox_id: inboxId, contact_email: email(), content: 'x', initiator: 'bot' }, 'initiator'],
        ['unknown assignee', { inbox_id: inboxId, contact_email: email(), content: 'x', assignee_id: 999999 }, 'assignee_id'],
        ['unknown team', { inbox_id: inboxId, contact_email: email(), content: 'x', team_id: 999999 }, 'team_id'],
        ['an unknown property', { inbox_id: inboxId, contact_email: email(), content: 'x', colour: 'red' }, 'colour'],
        [
          'HTML 3000 levels deep',
          { inbox_id: inboxId, contact_email: email(), content: '<div>'.repeat(3000), initiator: 'contact' },
          'content: HTML is nested deeper than 100 levels',
        ],
        [
          'HTML 101 levels deep',
          { inbox_id: inboxId, contact_email: email(), content: `${'<p><span>'.repeat(51)}x` },
          'content: HTML is nested deeper than 100 levels',
        ],
      ];
      for (const [label, payload, field] of cases) {
        const body = assertError(await create(payload), 400, 'InputException');
        assert.match(body.message, new RegExp(field), label);
      }
      const afterCount = await t.deps.db
        .selectFrom('conversations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(afterCount.n, before.n);
    });

    it('a disabled inbox is a 422, a blocked contact cannot write (403), no credentials 401, no permission 403', async () => {
      const disabled = dataOf<{ id: number }>(
        await t.call({ method: 'POST', url: '/api/v1/inboxes', payload: { name: 'Off', channel: 'livechat', config: {} } }),
      );
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${disabled.id}/toggle`, payload: { enabled: false } }));
      assertError(await create({ inbox_id: disabled.id, contact_email: email(), content: 'x' }), 422, 'DataException');
      const contact = dataOf<{ id: number }>(
        await t.call({ method: 'POST', url: '/api/v1/contacts', payload: { first_name: 'Blocked', email: email() } }),
      );
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/contacts/${contact.id}/block`, payload: { enabled: false } }));
      assertError(
        await create({ inbox_id: inboxId, contact_id: contact.id, content: 'x', initiator: 'contact' }),
        403,
        'PermissionException',
      );
      assertError(await create({ inbox_id: inboxId, contact_email: email(), content: 'x' }, null), 401, 'UnauthorizedException');
      // Carol's role lacks conversations:write (the seeded Agent role holds it).
      assertError(await create({ inbox_id: inboxId, contact_email: email(), content: 'x' }, carol), 403, 'PermissionException');
    });
  });

  describe('GET /conversations/{uuid} and access rules', () => {
    it('unknown and malformed uuids are 404; the admin reads any', async () => {
      const c = await newConversation();
      dataOf(await get(c.uuid));
      assertError(await get('00000000-0000-4000-8000-000000000000'), 404, 'NotFoundException');
      assertError(await get('not-a-uuid'), 404, 'NotFoundException');
      assertError(await get(c.uuid, null), 401, 'UnauthorizedException');
    });

    it('read_assigned only: another agent’s or an unassigned conversation is 403 on every route, their own is readable', async () => {
      const c = await newConversation({ assignee_id: alice.id });
      assertError(await get(c.uuid, carol), 403, 'PermissionException');
      assertError(await put(c.uuid, 'status', { status: 'Resolved' }, carol), 403, 'PermissionException');
      assertError(await put(c.uuid, 'last-seen', undefined, carol), 403, 'PermissionException');
      assertError(await put(c.uuid, 'mark-unread', undefined, carol), 403, 'PermissionException');
      const unassigned = await newConversation();
      assertError(await get(unassigned.uuid, carol), 403, 'PermissionException');
      dataOf(await put(c.uuid, 'assignee/user', { assignee_id: carol.id }));
      const mine = dataOf<Detail>(await get(c.uuid, carol));
      assert.equal(mine.assigned_user_id, carol.id);
      assert.equal(dataOf<Detail>(await put(c.uuid, 'status', { status: 'Resolved' }, carol)).status, 'Resolved');
      assert.equal(dataOf<Detail>(await get(c.uuid)).status, 'Resolved', 'the change is stored');
    });

    it('team inbox: a member of the team reads its conversations, a member of another team does not', async () => {
      const c = await newConversation({ team_id: teamA, assignee_id: t.admin.id });
      dataOf(await get(c.uuid, alice));
      assertError(await get(c.uuid, bob), 403, 'PermissionException');
      assertError(await tags(c.uuid, { tags: ['vip'] }, bob), 403, 'PermissionException');
      assert.deepEqual(dataOf<Detail>(await get(c.uuid)).tags, [], 'the refused change changed nothing');
    });
  });

  describe('lists', () => {
    let mine: Caller;
    const created: Detail[] = [];
    before(async () => {
      mine = await t.makeAgent({ first_name: 'Lister' });
      for (let i = 0; i < 7; i += 1) created.push(await newConversation({ assignee_id: mine.id, subject: `List ${i}` }));
    });

    it('GET /conversations/assigned: the caller’s conversations with exactly the list fields, newest message first', async () => {
      const page = dataOf<Paged<Item>>(await list('conversations/assigned', mine));
      assert.equal(page.total, 7);
      assert.equal(page.per_page, 30);
      assert.equal(page.page, 1);
      assert.equal(page.total_pages, 1);
      assert.deepEqual(
        page.results.map((r) => r.uuid),
        [...created].reverse().map((c) => c.uuid),
      );
      for (const item of page.results) {
        assert.deepEqual(Object.keys(item).sort(), LIST_FIELDS);
        assert.deepEqual(Object.keys(item.contact).sort(), LIST_CONTACT_FIELDS);
        assert.equal(item.assigned_user_id, mine.id);
        assert.equal(item.unread_message_count, 1);
      }
      const other = dataOf<Paged<Item>>(await list('conversations/assigned', bob));
      assert.ok(other.results.every((r) => r.assigned_user_id === bob.id));
    });

    it('pagination: defaults, clamps, true total past the last page, non-integers refused', async () => {
      const two = dataOf<Paged<Item>>(await list('conversations/assigned?page=2&page_size=3', mine));
      assert.equal(two.results.length, 3);
      assert.equal(two.total_pages, 3);
      assert.equal(two.results[0]?.uuid, created[3]?.uuid);
      const clampedLow = dataOf<Paged<Item>>(await list('conversations/assigned?page=0&page_size=0', mine));
      assert.equal(clampedLow.per_page, 1);
      assert.equal(clampedLow.page, 1);
      assert.equal(clampedLow.results.length, 1);
      const clampedHigh = dataOf<Paged<Item>>(await list('conversations/assigned?page_size=1000', mine));
      assert.equal(clampedHigh.per_page, 100);
      const past = dataOf<Paged<Item>>(await list('conversations/assigned?page=50', mine));
      assert.deepEqual(past.results, []);
      assert.equal(past.total, 7);
      assertError(await list('conversations/assigned?page=abc', mine), 400, 'InputException');
      assertError(await list('conversations/assigned?page_size=1.5', mine), 400, 'InputException');
      assertError(await list('conversations/assigned?order_by=subject', mine), 400, 'InputException');
      assertError(await list('conversations/assigned', null), 401, 'UnauthorizedException');
    });

    it('ordering by created_at asc, and filters by status, priority, tag, inbox, assignee', async () => {
      const asc = dataOf<Paged<Item>>(await list('conversations/assigned?order_by=created_at&order=asc', mine));
      assert.deepEqual(
        asc.results.map((r) => r.uuid),
        created.map((c) => c.uuid),
      );
      const [first, second] = created as [Detail, Detail];
      dataOf(await put(first.uuid, 'status', { status: 'Resolved' }));
      dataOf(await put(second.uuid, 'priority', { priority: 'urgent' }));
      dataOf(await tags(second.uuid, { tags: ['VIP'] }));
      const resolved = dataOf<Paged<Item>>(await list('conversations/assigned?status=resolved', mine));
      assert.deepEqual(
        resolved.results.map((r) => r.uuid),
        [first.uuid],
      );
      const openOrResolved = dataOf<Paged<Item>>(await list('conversations/assigned?status=Open&status=Resolved', mine));
      assert.equal(openOrResolved.total, 7);
      assert.deepEqual(
        dataOf<Paged<Item>>(await list('conversations/assigned?priority=Urgent', mine)).results.map((r) => r.uuid),
        [second.uuid],
      );
      assert.deepEqual(
        dataOf<Paged<Item>>(await list('conversations/assigned?tag=vip', mine)).results.map((r) => r.uuid),
        [second.uuid],
      );
      // Each item carries its own tags, sorted by name; an untagged one has none.
      dataOf(await tags(first.uuid, { tags: ['vip', 'Billing'] }));
      const tagged = dataOf<Paged<Item>>(await list('conversations/assigned?order_by=created_at&order=asc', mine)).results;
      assert.deepEqual(
        tagged.map((r) => r.tags),
        created.map((c) => (c.uuid === first.uuid ? ['billing', 'vip'] : c.uuid === second.uuid ? ['vip'] : [])),
      );
      dataOf(await tags(first.uuid, { tags: [], action: 'set_tags' }));
      assert.equal(dataOf<Paged<Item>>(await list(`conversations/all?assignee_id=${mine.id}&inbox_id=${inboxId}`)).total, 7);
      assert.equal(dataOf<Paged<Item>>(await list(`conversations/all?assignee_id=${mine.id}&inbox_id=999999`)).total, 0);
      assertError(await list('conversations/assigned?status=Nope', mine), 400, 'InputException');
      assertError(await list('conversations/assigned?tag=nope', mine), 400, 'InputException');
    });

    it('filters by contact_id (repeatable); a bad id is a 400', async () => {
      const ada = dataOf<{ id: number }>(
        await t.call({ method: 'POST', url: '/api/v1/contacts', payload: { email: email('ada'), first_name: 'Ada' } }),
      ).id;
      const bea = dataOf<{ id: number }>(
        await t.call({ method: 'POST', url: '/api/v1/contacts', payload: { email: email('bea'), first_name: 'Bea' } }),
      ).id;
      const adas = [
        await newConversation({ contact_email: undefined, contact_id: ada }),
        await newConversation({ contact_email: undefined, contact_id: ada }),
      ];
      const beas = [await newConversation({ contact_email: undefined, contact_id: bea })];
      await newConversation();
      const uuids = (res: Awaited<ReturnType<typeof list>>) =>
        dataOf<Paged<Item>>(res)
          .results.map((r) => r.uuid)
          .sort();
      assert.deepEqual(uuids(await list(`conversations/all?contact_id=${ada}`)), adas.map((c) => c.uuid).sort());
      assert.deepEqual(
        uuids(await list(`conversations/all?contact_id=${ada}&contact_id=${bea}`)),
        [...adas, ...beas].map((c) => c.uuid).sort(),
      );
      assert.deepEqual(
        uuids(await list(`conversations/unassigned?contact_id=${bea}`)),
        beas.map((c) => c.uuid),
      );
      assert.equal(dataOf<Paged<Item>>(await list(`conversations/all?contact_id=${ada}&page_size=1`)).total, 2);
      assert.equal(dataOf<Paged<Item>>(await list('conversations/all?contact_id=999999')).total, 0);
      for (const bad of ['x', '0', '-1', '1.5']) assertError(await list(`conversations/all?contact_id=${bad}`), 400, 'InputException');
    });

    it('/all needs read_all; /unassigned lists conversations with no agent; a team’s unassigned list needs membership', async () => {
      assertError(await list('conversations/all', alice), 403, 'PermissionException');
      const all = dataOf<Paged<Item>>(await list('conversations/all?page_size=100'));
      assert.ok(all.total >= 7);
      const unassigned = dataOf<Paged<Item>>(await list('conversations/unassigned?page_size=100', alice));
      assert.ok(unassigned.results.length > 0);
      assert.ok(unassigned.results.every((r) => r.assigned_user_id === null));
      assertError(await list('conversations/unassigned', carol), 403, 'PermissionException');
      const waiting = await newConversation({ team_id: teamA });
      const teamList = dataOf<Paged<Item>>(await list(`teams/${teamA}/conversations/unassigned`, alice));
      assert.ok(teamList.results.some((r) => r.uuid === waiting.uuid));
      assert.ok(teamList.results.every((r) => r.assigned_team_id === teamA && r.assigned_user_id === null));
      assertError(await list(`teams/${teamA}/conversations/unassigned`, bob), 403, 'PermissionException');
      assertError(await list('teams/999999/conversations/unassigned', alice), 404, 'NotFoundException');
      dataOf(await list(`teams/${teamB}/conversations/unassigned`));
    });
  });

  describe('changes', () => {
    it('status: by name, resolved_at, activity and event; unknown → 400 and nothing changes', async () => {
      const c = await newConversation();
      const resolved = dataOf<Detail>(await put(c.uuid, 'status', { status: 'resolved' }));
      assert.equal(resolved.status, 'Resolved');
      assert.equal(resolved.status_category, 'resolved');
      assert.ok(resolved.resolved_at);
      const closed = dataOf<Detail>(await put(c.uuid, 'status', { status: 'Closed' }));
      assert.equal(closed.resolved_at, resolved.resolved_at, 'resolved to resolved keeps the time');
      const reopened = dataOf<Detail>(await put(c.uuid, 'status', { status: 'Open' }));
      assert.equal(reopened.resolved_at, null);
      assertError(await put(c.uuid, 'status', { status: 'Nope' }), 400, 'InputException');
      assertError(await put(c.uuid, 'status', {}), 400, 'InputException');
      assertError(await put(c.uuid, 'status', { status: 5 }), 400, 'InputException');
      assertError(await put('00000000-0000-4000-8000-000000000000', 'status', { status: 'Open' }), 404, 'NotFoundException');
      const log = await activities(c.uuid);
      assert.equal(log.length, 3);
      assert.ok(log.every((a) => a.private));
      assert.match(log[0]?.text_content ?? '', /set the status to Resolved/);
      const types = await events(c.uuid);
      assert.deepEqual(types.filter((e) => e === 'conversation.status_changed').length, 3);
      dataOf(await put(c.uuid, 'status', { status: 'Open' }));
      assert.equal((await activities(c.uuid)).length, 3, 'a no-op change writes nothing');
    });

    it('snooze: a time or a duration, validated; the sweeper opens it again when the time comes', async () => {
      const c = await newConversation();
      assertError(await put(c.uuid, 'status', { status: 'Snoozed' }), 400, 'InputException');
      assertError(await put(c.uuid, 'status', { status: 'Open', snoozed_until: '2h' }), 400, 'InputException');
      assertError(await put(c.uuid, 'status', { status: 'Snoozed', snoozed_until: 'tomorrow' }), 400, 'InputException');
      assertError(await put(c.uuid, 'status', { status: 'Snoozed', snoozed_until: '2020-01-01T00:00:00Z' }), 400, 'InputException');
      assertError(await put(c.uuid, 'status', { status: 'Snoozed', snoozed_until: '500w' }), 400, 'InputException');
      const at = new Date(clock.now().getTime() + 3 * 3600_000).toISOString();
      const byTime = dataOf<Detail>(await put(c.uuid, 'status', { status: 'Snoozed', snoozed_until: at }));
      assert.equal(byTime.status, 'Snoozed');
      assert.equal(byTime.snoozed_until, at);
      const snoozed = dataOf<Detail>(await put(c.uuid, 'status', { status: 'Snoozed', snoozed_until: '1h30m' }));
      assert.equal(new Date(snoozed.snoozed_until ?? 0).getTime() - clock.now().getTime(), 90 * 60_000);
      assert.equal(await wakeSnoozedConversations(t.deps), 0, 'not yet');
      clock.advance(91 * 60_000);
      assert.ok((await wakeSnoozedConversations(t.deps)) >= 1);
      const woken = dataOf<Detail>(await get(c.uuid));
      assert.equal(woken.status, 'Open');
      assert.equal(woken.snoozed_until, null);
      assert.match((await activities(c.uuid)).at(-1)?.text_content ?? '', /snooze ended/i);
    });

    it('priority by name; unknown → 400; permission needed', async () => {
      const c = await newConversation();
      const high = dataOf<Detail>(await put(c.uuid, 'priority', { priority: 'high' }));
      assert.equal(high.priority, 'High');
      assert.ok(Number.isInteger(high['priority_id']));
      assertError(await put(c.uuid, 'priority', { priority: 'Critical' }), 400, 'InputException');
      assertError(await put(c.uuid, 'priority', { priority: 'Low' }, carol), 403, 'PermissionException');
      assert.equal(dataOf<Detail>(await get(c.uuid)).priority, 'High');
    });

    it('user and team assignees: set, remove, unknown → 400, events', async () => {
      const c = await newConversation();
      const assigned = dataOf<Detail>(await put(c.uuid, 'assignee/user', { assignee_id: alice.id }));
      assert.equal(assigned.assigned_user_id, alice.id);
      assertError(await put(c.uuid, 'assignee/user', { assignee_id: 999999 }), 400, 'InputException');
      assertError(await put(c.uuid, 'assignee/user', { assignee_id: 'x' }), 400, 'InputException');
      assertError(await put(c.uuid, 'assignee/team', { assignee_id: 999999 }), 400, 'InputException');
      const withTeam = dataOf<Detail>(await put(c.uuid, 'assignee/team', { assignee_id: teamA }));
      assert.equal(withTeam.assigned_team_id, teamA);
      assert.equal(withTeam.assigned_user_id, alice.id, 'alice is a member of team A and keeps it');
      const moved = dataOf<Detail>(await put(c.uuid, 'assignee/team', { assignee_id: teamB }));
      assert.equal(moved.assigned_team_id, teamB);
      assert.equal(moved.assigned_user_id, null, 'alice is not in team B: she lets it go');
      dataOf(await put(c.uuid, 'assignee/user', { assignee_id: bob.id }));
      assert.equal(dataOf<Detail>(await put(c.uuid, 'assignee/user/remove')).assigned_user_id, null);
      assert.equal(dataOf<Detail>(await put(c.uuid, 'assignee/team/remove')).assigned_team_id, null);
      const types = await events(c.uuid);
      assert.ok(types.includes('conversation.assigned'));
      assert.ok(types.includes('conversation.unassigned'));
      const disabled = await t.makeAgent();
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${disabled.id}`, payload: { enabled: false } }));
      assertError(await put(c.uuid, 'assignee/user', { assignee_id: disabled.id }), 422, 'DataException');
    });

    it('tags: add, remove, set (case-insensitive); unknown names → 400 and nothing changes', async () => {
      const c = await newConversation();
      assert.deepEqual(dataOf<Detail>(await tags(c.uuid, { tags: ['VIP', 'bug'] })).tags, ['bug', 'vip']);
      assert.deepEqual(dataOf<Detail>(await tags(c.uuid, { tags: ['bug'], action: 'remove_tags' })).tags, ['vip']);
      assert.deepEqual(dataOf<Detail>(await tags(c.uuid, { tags: ['billing'], action: 'set_tags' })).tags, ['billing']);
      assertError(await tags(c.uuid, { tags: ['billing', 'nope'], action: 'set_tags' }), 400, 'InputException');
      assertError(await tags(c.uuid, { tags: ['vip'], action: 'toggle' }), 400, 'InputException');
      assertError(await tags(c.uuid, { tags: 'vip' }), 400, 'InputException');
      assert.deepEqual(dataOf<Detail>(await get(c.uuid)).tags, ['billing']);
      assert.deepEqual(dataOf<Detail>(await tags(c.uuid, { tags: [], action: 'set_tags' })).tags, []);
      assert.equal((await events(c.uuid)).filter((e) => e === 'conversation.tags_changed').length, 4);
    });

    it('last-seen and mark-unread move the caller’s unread count only', async () => {
      const c = await newConversation({ assignee_id: alice.id });
      assert.equal(dataOf<Detail>(await get(c.uuid, alice)).unread_message_count, 1);
      const seen = dataOf<Detail>(await put(c.uuid, 'last-seen', undefined, alice));
      assert.equal(seen.unread_message_count, 0);
      assert.ok(seen['assignee_last_seen_at']);
      assert.equal(dataOf<Detail>(await get(c.uuid)).unread_message_count, 1, 'the admin has not seen it');
      const unread = dataOf<Detail>(await put(c.uuid, 'mark-unread', undefined, alice));
      assert.equal(unread.unread_message_count, 1);
      assertError(await put('00000000-0000-4000-8000-000000000000', 'last-seen'), 404, 'NotFoundException');
    });
  });
});

describe('round robin', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inboxId: number;
  /** The agents domain hands round robin over as jobs: run them as the workers would. */
  const runAgentJobs = () => runDueJobs(t.deps, ['conversations.place_for_agent', 'conversations.release_agent']);
  const setAvailability = async (caller: Caller, status: string) => {
    const res = await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload: { status }, as: caller });
    await runAgentJobs();
    return res;
  };
  const updateAgent = async (id: number, payload: Json) => {
    const agent = dataOf<Json>(await t.call({ method: 'PUT', url: `/api/v1/agents/${id}`, payload }));
    return { agent, jobs: await runAgentJobs() };
  };
  const assigneeOf = async (uuid: string) =>
    dataOf<Detail>(await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` })).assigned_user_id;
  const start = async (teamId: number) =>
    dataOf<Detail>(
      await t.call({
        method: 'POST',
        url: '/api/v1/conversations',
        payload: { inbox_id: inboxId, contact_email: email('rr'), content: 'help', initiator: 'contact', team_id: teamId },
      }),
    );

  before(async () => {
    t = await buildTestApp({ clock });
    inboxId = dataOf<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/inboxes', payload: { name: 'RR', channel: 'livechat', config: {} } }),
    ).id;
  });
  after(() => t.close());

  it('only available agents, fair rotation, the cap respected, waiting conversations placed when an agent frees up or becomes available', async () => {
    const team = dataOf<{ id: number }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/teams',
        payload: { name: 'Support RR', conversation_assignment_type: 'round_robin', max_auto_assigned_conversations: 2 },
      }),
    ).id;
    const a1 = await t.makeAgent({ teams: [team] });
    const a2 = await t.makeAgent({ teams: [team] });
    const a3 = await t.makeAgent({ teams: [team] });
    dataOf(await setAvailability(a1, 'available'));
    dataOf(await setAvailability(a2, 'available'));
    dataOf(await setAvailability(a3, 'busy'));
    const got: Array<number | null> = [];
    for (let i = 0; i < 5; i += 1) {
      clock.advance(1000);
      got.push((await start(team)).assigned_user_id);
    }
    assert.deepEqual(got, [a1.id, a2.id, a1.id, a2.id, null], 'alternating, then the cap of 2 stops it; the busy agent gets none');
    const waiting = await start(team);
    assert.equal(waiting.assigned_user_id, null);

    // a1 resolves one: a slot frees and the oldest waiting conversation goes to a1.
    const firstOfA1 = dataOf<Paged<Item>>(
      await t.call({ method: 'GET', url: '/api/v1/conversations/assigned?order_by=created_at&order=asc', as: a1 }),
    ).results[0];
    assert.ok(firstOfA1);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${firstOfA1.uuid}/status`, payload: { status: 'Resolved' }, as: a1 }));
    const a1Open = dataOf<Paged<Item>>(await t.call({ method: 'GET', url: '/api/v1/conversations/assigned?status=Open', as: a1 }));
    assert.equal(a1Open.total, 2, 'a1 is back at the cap');
    // a3 becomes available and takes what still waits.
    dataOf(await setAvailability(a3, 'available'));
    const a3Open = dataOf<Paged<Item>>(await t.call({ method: 'GET', url: '/api/v1/conversations/assigned', as: a3 }));
    assert.equal(a3Open.total, 1);
    const unassigned = dataOf<Paged<Item>>(await t.call({ method: 'GET', url: `/api/v1/teams/${team}/conversations/unassigned` }));
    assert.equal(unassigned.total, 0);
    const activity = await t.deps.db
      .selectFrom('messages')
      .where('type', '=', 'activity')
      .where('text_content', 'like', '%round robin%')
      .select('id')
      .execute();
    assert.equal(activity.length, 6);
  });

  it('deleting an agent releases their unresolved conversations to the team, keeps resolved history', async () => {
    const team = dataOf<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: 'Leavers', conversation_assignment_type: 'round_robin' } }),
    ).id;
    const leaving = await t.makeAgent({ teams: [team] });
    dataOf(await setAvailability(leaving, 'available'));
    const open = await start(team);
    const done = await start(team);
    assert.equal(open.assigned_user_id, leaving.id);
    assert.equal(done.assigned_user_id, leaving.id);
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${done.uuid}/status`, payload: { status: 'Resolved' } }));
    const stays = await t.makeAgent({ teams: [team] });
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/agents/${leaving.id}` }));
    assert.equal(await runAgentJobs(), 1, 'the deletion enqueued the release');
    assert.equal(await assigneeOf(open.uuid), null, 'nobody available yet: it waits');
    assert.equal(await assigneeOf(done.uuid), leaving.id);
    dataOf(await setAvailability(stays, 'available'));
    assert.equal(await assigneeOf(open.uuid), stays.id);
    const releasedOpen = async () => {
      const events = await t.deps.db.selectFrom('domain_events').where('type', '=', 'conversation.unassigned').select('payload').execute();
      return events.filter(
        (e) => (e.payload as Json)['conversation_uuid'] === open.uuid && (e.payload as Json)['previous_assignee_id'] === leaving.id,
      ).length;
    };
    assert.equal(await releasedOpen(), 1);
    await releaseAgentJob(t.deps, { agent_id: leaving.id });
    assert.equal(await releasedOpen(), 1, 'a retried release writes nothing more');
  });

  it('the release job lets go of the conversations of deleted agents only, and refuses a malformed payload', async () => {
    const team = (await createTeam(t, { conversation_assignment_type: 'round_robin' })).id;
    const agent = await t.makeAgent({ teams: [team] });
    dataOf(await setAvailability(agent, 'available'));
    const c = await start(team);
    assert.equal(c.assigned_user_id, agent.id);
    dataOf(await setAvailability(agent, 'busy'));
    await releaseAgentJob(t.deps, { agent_id: agent.id });
    assert.equal(await assigneeOf(c.uuid), agent.id, 'a live agent keeps their conversations');
    for (const payload of [{}, { agent_id: '1' }, { agent_id: 0 }, { agent_id: 1.5 }]) {
      await assert.rejects(releaseAgentJob(t.deps, payload), { name: 'PermanentJobError' });
    }
  });

  it('PUT /agents/{id} places waiting conversations when it makes an agent available, enables them again or adds them to a team', async () => {
    const team = (await createTeam(t, { conversation_assignment_type: 'round_robin' })).id;
    const a = await t.makeAgent({ teams: [team] });
    const first = await start(team);
    assert.equal(first.assigned_user_id, null, 'a is offline: it waits');
    assert.equal((await updateAgent(a.id, { availability_status: 'available' })).jobs, 1);
    assert.equal(await assigneeOf(first.uuid), a.id, 'available: a takes it');

    assert.equal((await updateAgent(a.id, { enabled: false })).jobs, 0);
    const second = await start(team);
    assert.equal(second.assigned_user_id, null, 'a is disabled: it waits');
    assert.equal((await updateAgent(a.id, { enabled: true })).jobs, 1);
    assert.equal(await assigneeOf(second.uuid), a.id, 'enabled again: a takes it');

    const b = await t.makeAgent();
    dataOf(await setAvailability(b, 'available'));
    assert.equal((await updateAgent(a.id, { availability_status: 'busy' })).jobs, 0);
    const third = await start(team);
    assert.equal(third.assigned_user_id, null, 'nobody of the team is available: it waits');
    assert.equal((await updateAgent(b.id, { first_name: 'Bea' })).jobs, 0, 'a change that cannot free a slot enqueues nothing');
    assert.equal((await updateAgent(b.id, { teams: [team] })).jobs, 1);
    assert.equal(await assigneeOf(third.uuid), b.id, 'b joined the team while available: b takes it');
  });

  it('a team that gains members or switches to round robin places its waiting conversations (a job per change)', async () => {
    const placeTeam = () => runDueJobs(t.deps, ['conversations.place_team']);
    const team = dataOf<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: 'Grows' } })).id;
    const a = await t.makeAgent();
    const b = await t.makeAgent();
    dataOf(await setAvailability(a, 'available'));
    dataOf(await setAvailability(b, 'available'));
    const waiting = await start(team);
    assert.equal(waiting.assigned_user_id, null, 'a manual team leaves it unassigned');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/teams/${team}`, payload: { name: 'Grows' } }));
    assert.equal(await placeTeam(), 0, 'a rename enqueues nothing');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/teams/${team}`, payload: { conversation_assignment_type: 'round_robin' } }));
    assert.equal(await placeTeam(), 1);
    assert.equal(await assigneeOf(waiting.uuid), null, 'round robin now, but nobody is a member yet');
    dataOf(await t.call({ method: 'POST', url: `/api/v1/teams/${team}/members`, payload: { user_id: a.id } }));
    assert.equal(await placeTeam(), 1);
    assert.equal(await assigneeOf(waiting.uuid), a.id, 'the new member takes it at once, without waiting for the sweep');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${a.id}`, payload: { availability_status: 'busy' } }));
    await runAgentJobs();
    const next = await start(team);
    assert.equal(next.assigned_user_id, null, 'a is busy: it waits');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/teams/${team}/members`, payload: { user_ids: [a.id, b.id] } }));
    assert.equal(await placeTeam(), 1);
    assert.equal(await assigneeOf(next.uuid), b.id, 'replacing the members places it too');
  });

  it('a manual team leaves conversations unassigned', async () => {
    const team = dataOf<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: 'Manual' } })).id;
    const agent = await t.makeAgent({ teams: [team] });
    dataOf(await setAvailability(agent, 'available'));
    assert.equal((await start(team)).assigned_user_id, null);
  });

  it('two app instances on one database never double-assign nor break the cap', async () => {
    const team = dataOf<{ id: number }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/teams',
        payload: { name: 'Race', conversation_assignment_type: 'round_robin', max_auto_assigned_conversations: 3 },
      }),
    ).id;
    const agents = [await t.makeAgent({ teams: [team] }), await t.makeAgent({ teams: [team] }), await t.makeAgent({ teams: [team] })];
    for (const a of agents) dataOf(await setAvailability(a, 'available'));
    const second = await t.secondInstance();
    try {
      const apps = [t.app, second.app];
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          (apps[i % 2] ?? t.app).inject({
            method: 'POST',
            url: '/api/v1/conversations',
            headers: t.admin.headers,
            payload: { inbox_id: inboxId, contact_email: email('race'), content: 'help', initiator: 'contact', team_id: team },
          }),
        ),
      );
      for (const res of results) assert.equal(res.statusCode, 200, res.body);
      const rows = await t.deps.db.selectFrom('conversations').where('assigned_team_id', '=', team).select(['assigned_user_id']).execute();
      assert.equal(rows.length, 16);
      const perAgent = new Map<number, number>();
      for (const r of rows) if (r.assigned_user_id !== null) perAgent.set(r.assigned_user_id, (perAgent.get(r.assigned_user_id) ?? 0) + 1);
      assert.deepEqual([...perAgent.values()].sort(), [3, 3, 3], 'each agent got exactly the cap');
      assert.equal(rows.filter((r) => r.assigned_user_id === null).length, 7);
      const assignedEvents = await t.deps.db
        .selectFrom('domain_events')
        .where('type', '=', 'conversation.assigned')
        .select('payload')
        .execute();
      const autoForTeam = assignedEvents.filter((e) => (e.payload as Json)['team_id'] === team && (e.payload as Json)['auto'] === true);
      assert.equal(autoForTeam.length, 9, 'one assignment event per placed conversation');
    } finally {
      await second.close();
    }
  });
});
