// Macros: CRUD, validation, visibility, permissions, and applying one to a conversation (docs/api.md: Tags, macros, teams).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createInbox, createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

type Json = Record<string, unknown>;
type Macro = {
  id: number;
  created_at: string;
  updated_at: string;
  name: string;
  actions: Json;
  visibility: string;
  visible_when: string[];
  message_content: string;
  user_id: string | null;
  team_id: string | null;
  usage_count: number;
};
type Conversation = Json & {
  id: number;
  uuid: string;
  reference_number: string;
  status: string;
  status_category: string;
  priority: string | null;
  tags: string[];
  assigned_user_id: number | null;
  assigned_team_id: number | null;
  last_message_sender: string | null;
};
type Applied = { conversation: Conversation; message_content: string };

const MACRO_FIELDS = [
  'actions',
  'created_at',
  'id',
  'message_content',
  'name',
  'team_id',
  'updated_at',
  'usage_count',
  'user_id',
  'visibility',
  'visible_when',
];
const ALL_WHEN = ['conversation_open', 'conversation_waiting', 'conversation_resolved'];

let seq = 0;
const email = (label = 'c') => `${label}-${process.pid}-${++seq}@example.com`;

describe('macros', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inboxId: number;
  let teamA: number;
  let teamB: number;
  let alice: Caller; // Agent role, team A
  let bob: Caller; // Agent role, team B
  let carol: Caller; // may read only conversations assigned to her
  let noPriority: Caller; // Agent permissions without conversations:update_priority
  let noWrite: Caller; // may read every conversation and change its status, but not write messages

  const as = (caller?: Caller | null) => (caller !== undefined ? { as: caller } : {});
  const post = (payload: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return t.call({ method: 'POST', url: '/api/v1/macros', payload: payload as Json, ...as(caller) });
  };
  const put = (id: number | string, payload: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return t.call({ method: 'PUT', url: `/api/v1/macros/${id}`, payload: payload as Json, ...as(caller) });
  };
  const get = (id: number | string, caller?: Caller | null) => t.call({ method: 'GET', url: `/api/v1/macros/${id}`, ...as(caller) });
  const del = (id: number | string, caller?: Caller | null) => t.call({ method: 'DELETE', url: `/api/v1/macros/${id}`, ...as(caller) });
  const list = (query = '', caller?: Caller | null) => t.call({ method: 'GET', url: `/api/v1/macros${query}`, ...as(caller) });
  const create = async (payload: Json, caller?: Caller | null) => dataOf<Macro>(await post(payload, caller));
  const apply = (uuid: string, id: number | string, payload?: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return t.call({
      method: 'POST',
      url: `/api/v1/conversations/${uuid}/macros/${id}/apply`,
      ...(payload !== undefined ? { payload: payload as Json } : {}),
      ...as(caller),
    });
  };
  const newConversation = async (extra: Json = {}) => {
    clock.advance(1000);
    return dataOf<Conversation>(
      await t.call({
        method: 'POST',
        url: '/api/v1/conversations',
        payload: {
          inbox_id: inboxId,
          contact_email: email(),
          content: '<p>Hello there</p>',
          initiator: 'contact',
          subject: 'Help',
          ...extra,
        },
      }),
    );
  };
  const conversation = async (uuid: string) => dataOf<Conversation>(await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` }));
  const messagesOf = async (conversationId: number) =>
    t.deps.db
      .selectFrom('messages')
      .where('conversation_id', '=', conversationId)
      .select(['type', 'status', 'content', 'text_content', 'sender_id', 'private'])
      .orderBy('id')
      .execute();
  const macroCount = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('macros')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const fieldsOf = (res: { json: () => unknown }) =>
    ((res.json() as { data: { errors?: Array<{ field: string }> } | null }).data?.errors ?? []).map((e) => e.field);

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
    noPriority = await agentWith(
      t,
      [
        'conversations:read',
        'conversations:read_unassigned',
        'conversations:read_assigned',
        'conversations:update_status',
        'conversations:update_tags',
        'messages:read',
        'messages:write',
      ],
      { first_name: 'Nora' },
    );
    noWrite = await agentWith(t, ['conversations:read', 'conversations:read_all', 'conversations:update_status', 'messages:read'], {
      first_name: 'Walt',
    });
    for (const name of ['vip', 'billing', 'spam', 'doomed'])
      dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name } }));
  });
  after(() => t.close());

  describe('CRUD', () => {
    it('creates a global macro with exactly the record fields, canonical names and sanitised content', async () => {
      const m = await create({
        name: '  Close as billing  ',
        actions: {
          set_status: 'resolved',
          set_priority: 'high',
          assign_team: teamA,
          assign_user: alice.id,
          add_tags: ['VIP', 'vip', 'Billing'],
          remove_tags: ['spam'],
          set_tags: [],
        },
        visibility: 'global',
        message_content: '<p>Thanks {{contact.first_name}}<script>alert(1)</script></p>',
      });
      assert.deepEqual(Object.keys(m).sort(), MACRO_FIELDS);
      assert.equal(m.name, 'Close as billing');
      assert.deepEqual(m.actions, {
        set_status: 'Resolved',
        set_priority: 'High',
        assign_team: teamA,
        assign_user: alice.id,
        add_tags: ['vip', 'billing'],
        remove_tags: ['spam'],
        set_tags: [],
      });
      assert.equal(m.visibility, 'global');
      assert.deepEqual(m.visible_when, ALL_WHEN, 'default: every status category');
      assert.equal(m.message_content, '<p>Thanks {{contact.first_name}}</p>');
      assert.equal(m.user_id, null);
      assert.equal(m.team_id, null);
      assert.equal(m.usage_count, 0);
      assert.equal(m.created_at, clock.now().toISOString());
      assert.deepEqual(dataOf<Macro>(await get(m.id)), m);
    });

    it('defaults: actions {}, visibility global, empty message', async () => {
      const m = await create({ name: 'Bare' });
      assert.deepEqual(m.actions, {});
      assert.equal(m.visibility, 'global');
      assert.equal(m.message_content, '');
    });

    it('carries team_id and user_id as strings (a string or an integer is accepted)', async () => {
      const team = await create({
        name: 'Team macro',
        visibility: 'team',
        team_id: String(teamA),
        visible_when: ['conversation_resolved', 'conversation_open', 'conversation_open'],
      });
      assert.equal(team.team_id, String(teamA));
      assert.equal(team.user_id, null);
      assert.deepEqual(team.visible_when, ['conversation_open', 'conversation_resolved'], 'duplicates dropped, in a fixed order');
      const team2 = await create({ name: 'Team macro 2', visibility: 'team', team_id: teamB });
      assert.equal(team2.team_id, String(teamB));
      const mine = await create({ name: 'Mine', visibility: 'user', user_id: String(alice.id), team_id: String(teamA) });
      assert.equal(mine.user_id, String(alice.id));
      assert.equal(mine.team_id, null, 'the owner id that does not fit the visibility is cleared');
      const global = await create({ name: 'Global', visibility: 'global', team_id: '', user_id: null });
      assert.equal(global.team_id, null);
    });

    it('answers only the known visible_when categories of a stored row (the column is free text[]), in their order', async () => {
      const m = await create({ name: 'Legacy categories' });
      const stored = ['conversation_closed', 'conversation_resolved', 'conversation_open', 'conversation_open'];
      await t.deps.db.updateTable('macros').set({ visible_when: stored }).where('id', '=', m.id).execute();
      assert.deepEqual(dataOf<Macro>(await get(m.id)).visible_when, ['conversation_open', 'conversation_resolved']);
      const listed = dataOf<Macro[]>(await list()).find((x) => x.id === m.id);
      assert.deepEqual(listed?.visible_when, ['conversation_open', 'conversation_resolved']);
    });

    it('PUT is partial, takes a whole record back, and ignores id, created_at, updated_at and usage_count', async () => {
      const m = await create({ name: 'Original', actions: { set_priority: 'Low' }, message_content: '<p>Hi</p>' });
      const renamed = dataOf<Macro>(await put(m.id, { name: 'Renamed' }));
      assert.equal(renamed.name, 'Renamed');
      assert.deepEqual(renamed.actions, { set_priority: 'Low' }, 'omitted fields keep their value');
      assert.equal(renamed.message_content, '<p>Hi</p>');
      assert.equal(renamed.created_at, m.created_at);
      assert.notEqual(renamed.updated_at, m.updated_at);
      const roundTrip = dataOf<Macro>(
        await put(m.id, {
          ...renamed,
          id: 999999,
          usage_count: 42,
          created_at: '2000-01-01T00:00:00Z',
          updated_at: '2000-01-01T00:00:00Z',
          actions: { add_tags: ['vip'] },
        }),
      );
      assert.equal(roundTrip.id, m.id);
      assert.equal(roundTrip.usage_count, 0);
      assert.equal(roundTrip.created_at, m.created_at);
      assert.equal(roundTrip.updated_at, clock.now().toISOString());
      assert.deepEqual(roundTrip.actions, { add_tags: ['vip'] }, 'actions are replaced as a whole');
      const toTeam = dataOf<Macro>(await put(m.id, { visibility: 'team', team_id: String(teamB) }));
      assert.equal(toTeam.team_id, String(teamB));
      const back = dataOf<Macro>(await put(m.id, { visibility: 'global' }));
      assert.equal(back.team_id, null);
      assertError(await put(999999, { name: 'x' }), 404, 'NotFoundException');
      assertError(await put('abc', { name: 'x' }), 404, 'NotFoundException');
    });

    it('DELETE answers true; the macro is gone', async () => {
      const m = await create({ name: 'Temporary' });
      const res = await del(m.id);
      assert.equal(dataOf<boolean>(res), true);
      assertError(await get(m.id), 404, 'NotFoundException');
      assertError(await del(m.id), 404, 'NotFoundException');
      assertError(await get('0'), 404, 'NotFoundException');
    });

    it('needs credentials', async () => {
      assertError(await list('', null), 401, 'UnauthorizedException');
      assertError(await post({ name: 'x' }, null), 401, 'UnauthorizedException');
      assertError(await get(1, null), 401, 'UnauthorizedException');
      assertError(await put(1, { name: 'x' }, null), 401, 'UnauthorizedException');
      assertError(await del(1, null), 401, 'UnauthorizedException');
    });
  });

  describe('validation', () => {
    const cases: Array<[string, Json, string]> = [
      ['name missing', { actions: {} }, 'name'],
      ['name blank', { name: '   ' }, 'name'],
      ['name too long', { name: 'x'.repeat(256) }, 'name'],
      ['name not a string', { name: 12 }, 'name'],
      ['unknown action', { name: 'm', actions: { send_email: 'x' } }, 'actions.send_email'],
      ['actions not an object', { name: 'm', actions: [{ type: 'set_status', value: ['Open'] }] }, 'actions'],
      ['set_status unknown', { name: 'm', actions: { set_status: 'Nope' } }, 'actions.set_status'],
      ['set_status Snoozed (no snooze time)', { name: 'm', actions: { set_status: 'Snoozed' } }, 'actions.set_status'],
      ['set_status not a string', { name: 'm', actions: { set_status: 3 } }, 'actions.set_status'],
      ['set_priority unknown', { name: 'm', actions: { set_priority: 'Extreme' } }, 'actions.set_priority'],
      ['assign_user not an integer', { name: 'm', actions: { assign_user: 'seven' } }, 'actions.assign_user'],
      ['assign_user a fraction', { name: 'm', actions: { assign_user: 1.5 } }, 'actions.assign_user'],
      ['assign_user unknown', { name: 'm', actions: { assign_user: 999999 } }, 'actions.assign_user'],
      ['assign_team unknown', { name: 'm', actions: { assign_team: 999999 } }, 'actions.assign_team'],
      ['assign_team a string', { name: 'm', actions: { assign_team: '1' } }, 'actions.assign_team'],
      ['add_tags not an array', { name: 'm', actions: { add_tags: 'vip' } }, 'actions.add_tags'],
      ['add_tags unknown tag', { name: 'm', actions: { add_tags: ['vip', 'nope'] } }, 'actions.add_tags'],
      ['add_tags empty', { name: 'm', actions: { add_tags: [] } }, 'actions.add_tags'],
      ['remove_tags blank name', { name: 'm', actions: { remove_tags: ['  '] } }, 'actions.remove_tags.0'],
      ['set_tags unknown tag', { name: 'm', actions: { set_tags: ['nope'] } }, 'actions.set_tags'],
      ['visibility unknown', { name: 'm', visibility: 'all' }, 'visibility'],
      ['team without team_id', { name: 'm', visibility: 'team' }, 'team_id'],
      ['team with unknown team', { name: 'm', visibility: 'team', team_id: '999999' }, 'team_id'],
      ['team_id not numeric', { name: 'm', visibility: 'team', team_id: 'abc' }, 'team_id'],
      ['user without user_id', { name: 'm', visibility: 'user' }, 'user_id'],
      ['user with unknown agent', { name: 'm', visibility: 'user', user_id: '999999' }, 'user_id'],
      ['visible_when unknown entry', { name: 'm', visible_when: ['conversation_open', 'conversation_closed'] }, 'visible_when.1'],
      ['visible_when empty', { name: 'm', visible_when: [] }, 'visible_when'],
      ['visible_when not an array', { name: 'm', visible_when: 'conversation_open' }, 'visible_when'],
      ['message_content too long', { name: 'm', message_content: 'x'.repeat(100_001) }, 'message_content'],
      ['message_content nested 20000 levels deep', { name: 'm', message_content: '<b>'.repeat(20_000) }, 'message_content'],
      ['message_content nested 101 levels deep', { name: 'm', message_content: `${'<div>'.repeat(101)}x` }, 'message_content'],
      ['unknown field', { name: 'm', colour: 'red' }, 'colour'],
    ];

    it('refuses every bad create with 400 naming the field, and stores nothing', async () => {
      const before = await macroCount();
      for (const [label, payload, field] of cases) {
        const res = await post(payload);
        const body = assertError(res, 400, 'InputException');
        assert.ok(fieldsOf(res).includes(field) || body.message.includes(field), `${label}: expected field ${field}, got ${res.body}`);
      }
      assertError(
        await t.call({ method: 'POST', url: '/api/v1/macros', payload: '{"name":', headers: { 'content-type': 'application/json' } }),
        400,
        'InputException',
      );
      assert.equal(await macroCount(), before);
    });

    it('refuses a bad update with 400 and changes nothing', async () => {
      const m = await create({ name: 'Stable', actions: { set_status: 'Open' } });
      for (const [label, payload, field] of cases) {
        if (label === 'name missing') continue;
        const res = await put(m.id, payload);
        const body = assertError(res, 400, 'InputException');
        assert.ok(fieldsOf(res).includes(field) || body.message.includes(field), `${label}: expected field ${field}, got ${res.body}`);
      }
      assert.deepEqual(dataOf<Macro>(await get(m.id)), m);
    });
  });

  describe('visibility and permissions', () => {
    let global: Macro;
    let teamAMacro: Macro;
    let teamBMacro: Macro;
    let aliceOwn: Macro;
    let bobOwn: Macro;

    before(async () => {
      global = await create({ name: 'V global' });
      teamAMacro = await create({ name: 'V team A', visibility: 'team', team_id: String(teamA) });
      teamBMacro = await create({ name: 'V team B', visibility: 'team', team_id: String(teamB) });
      aliceOwn = await create({ name: 'V alice', visibility: 'user', user_id: String(alice.id) }, alice);
      bobOwn = await create({ name: 'V bob', visibility: 'user', user_id: String(bob.id) }, bob);
    });

    const names = async (caller: Caller) =>
      dataOf<Macro[]>(await list('', caller))
        .map((m) => m.name)
        .filter((n) => n.startsWith('V '));

    it("each agent lists global macros, their teams' macros and their own; a manager lists all", async () => {
      assert.deepEqual(await names(alice), ['V alice', 'V global', 'V team A']);
      assert.deepEqual(await names(bob), ['V bob', 'V global', 'V team B']);
      assert.deepEqual(await names(t.admin), ['V alice', 'V bob', 'V global', 'V team A', 'V team B']);
      assert.deepEqual(await names(carol), ['V global'], 'no team, no own macros');
    });

    it('a macro the caller may not see is 404', async () => {
      assert.equal(dataOf<Macro>(await get(teamAMacro.id, alice)).name, 'V team A');
      assert.equal(dataOf<Macro>(await get(global.id, alice)).name, 'V global');
      assertError(await get(teamBMacro.id, alice), 404, 'NotFoundException');
      assertError(await get(bobOwn.id, alice), 404, 'NotFoundException');
      assert.equal(dataOf<Macro>(await get(bobOwn.id)).name, 'V bob', 'a manager sees every macro');
    });

    it('an agent without macros:manage may not create global or team macros, nor a user macro for someone else', async () => {
      const before = await macroCount();
      assertError(await post({ name: 'x', visibility: 'global' }, alice), 403, 'PermissionException');
      assertError(await post({ name: 'x' }, alice), 403, 'PermissionException');
      assertError(await post({ name: 'x', visibility: 'team', team_id: String(teamA) }, alice), 403, 'PermissionException');
      assertError(await post({ name: 'x', visibility: 'user', user_id: String(bob.id) }, alice), 403, 'PermissionException');
      assert.equal(await macroCount(), before);
      const own = await create({ name: 'Own', visibility: 'user', user_id: alice.id, actions: { add_tags: ['vip'] } }, alice);
      assert.equal(own.user_id, String(alice.id));
    });

    it('an agent edits and deletes their own user macros only', async () => {
      const edited = dataOf<Macro>(await put(aliceOwn.id, { name: 'V alice', message_content: '<p>Mine</p>' }, alice));
      assert.equal(edited.message_content, '<p>Mine</p>');
      assertError(await put(aliceOwn.id, { visibility: 'global' }, alice), 403, 'PermissionException');
      assertError(await put(aliceOwn.id, { user_id: String(bob.id) }, alice), 403, 'PermissionException');
      assertError(await put(aliceOwn.id, { visibility: 'team', team_id: String(teamA) }, alice), 403, 'PermissionException');
      assertError(await put(bobOwn.id, { name: 'Hijacked' }, alice), 404, 'NotFoundException');
      assertError(await put(teamAMacro.id, { name: 'Changed' }, alice), 403, 'PermissionException');
      assertError(await put(global.id, { name: 'Changed' }, alice), 403, 'PermissionException');
      assertError(await del(teamAMacro.id, alice), 403, 'PermissionException');
      assertError(await del(bobOwn.id, alice), 404, 'NotFoundException');
      assert.equal(dataOf<Macro>(await get(bobOwn.id)).name, 'V bob');
      assert.equal(dataOf<Macro>(await get(teamAMacro.id)).name, 'V team A');
      // A manager may edit anyone's macro.
      assert.equal(dataOf<Macro>(await put(bobOwn.id, { message_content: 'by admin' })).message_content, 'by admin');
      const throwaway = await create({ name: 'Throwaway', visibility: 'user', user_id: String(alice.id) }, alice);
      assert.equal(dataOf<boolean>(await del(throwaway.id, alice)), true);
    });

    it('?conversation_uuid= lists only the macros offered in its status category', async () => {
      const onlyResolved = await create({ name: 'W resolved only', visible_when: ['conversation_resolved'] });
      const onlyOpen = await create({ name: 'W open only', visible_when: ['conversation_open'] });
      const c = await newConversation();
      const offered = async () => dataOf<Macro[]>(await list(`?conversation_uuid=${c.uuid}`)).map((m) => m.id);
      let ids = await offered();
      assert.ok(ids.includes(onlyOpen.id) && !ids.includes(onlyResolved.id));
      assert.ok(ids.includes(global.id));
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${c.uuid}/status`, payload: { status: 'Resolved' } }));
      ids = await offered();
      assert.ok(!ids.includes(onlyOpen.id) && ids.includes(onlyResolved.id));
      assertError(await list('?conversation_uuid=00000000-0000-4000-8000-000000000000'), 404, 'NotFoundException');
      assertError(await list('?conversation_uuid=not-a-uuid'), 400, 'InputException');
      assertError(await list(`?conversation_uuid=${c.uuid}`, carol), 403, 'PermissionException');
    });
  });

  describe('apply', () => {
    it('runs every action in one go, writes activities, counts the use and renders the message', async () => {
      const c = await newConversation({ first_name: 'Ada & <Co>', last_name: 'Lovelace', subject: 'Late "order"' });
      dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${c.uuid}/tags`, payload: { tags: ['spam', 'doomed'] } }));
      const m = await create({
        name: 'Resolve billing',
        actions: {
          set_status: 'Resolved',
          set_priority: 'High',
          assign_team: teamA,
          assign_user: alice.id,
          add_tags: ['vip', 'billing'],
          remove_tags: ['spam'],
        },
        message_content:
          '<p>Hi {{contact.first_name}} {{ contact.last_name }} ({{contact.email}}), {{agent.first_name}} {{agent.last_name}} here about #{{conversation.reference_number}}: {{conversation.subject}} {{unknown.thing}} {{contact.phone}}</p>',
      });
      const before = await messagesOf(c.id);
      const result = dataOf<Applied>(await apply(c.uuid, m.id));
      assert.deepEqual(Object.keys(result).sort(), ['conversation', 'message_content']);
      const after = result.conversation;
      assert.equal(after.uuid, c.uuid);
      assert.equal(after.status, 'Resolved');
      assert.equal(after.status_category, 'resolved');
      assert.equal(after.priority, 'High');
      assert.equal(after.assigned_team_id, teamA);
      assert.equal(after.assigned_user_id, alice.id);
      assert.deepEqual(after.tags, ['billing', 'doomed', 'vip']);
      assert.deepEqual(await conversation(c.uuid), { ...after, unread_message_count: (await conversation(c.uuid)).unread_message_count });
      const contactEmail = (c['contact'] as Json)['email'];
      const me = dataOf<{ first_name: string; last_name: string }>(await t.call({ method: 'GET', url: '/api/v1/agents/me' }));
      assert.equal(
        result.message_content,
        `<p>Hi Ada &amp; &lt;Co&gt; Lovelace (${contactEmail}), ${me.first_name} ${me.last_name} here about #${c.reference_number}: Late "order" {{unknown.thing}} {{contact.phone}}</p>`,
      );
      const added = (await messagesOf(c.id)).slice(before.length);
      assert.ok(
        added.every((row) => row.type === 'activity'),
        'no reply without send_message',
      );
      const texts = added.map((row) => row.text_content).join('\n');
      for (const pattern of [
        /team Team A/,
        /assigned the conversation to Alice/,
        /status to Resolved/,
        /priority to High/,
        /added the tags/,
        /removed the tags spam/,
      ]) {
        assert.match(texts, pattern);
      }
      assert.equal(dataOf<Macro>(await get(m.id)).usage_count, 1);
      const events = await t.deps.db.selectFrom('domain_events').select(['type', 'payload']).orderBy('id').execute();
      const types = events.filter((e) => (e.payload as Json)['conversation_uuid'] === c.uuid).map((e) => e.type);
      for (const type of [
        'conversation.assigned',
        'conversation.status_changed',
        'conversation.priority_changed',
        'conversation.tags_changed',
      ])
        assert.ok(types.includes(type), type);
    });

    it('what apply returns is sanitised after the placeholders are filled in: a contact named javascript:… never becomes a link', async () => {
      const c = await newConversation({ first_name: 'javascript:alert(document.domain)' });
      const m = await create({
        name: 'Link the name',
        actions: {},
        message_content: '<p><a href="{{contact.first_name}}">click</a><img src="{{contact.first_name}}"> {{contact.first_name}}</p>',
      });
      const shown = dataOf<Applied>(await apply(c.uuid, m.id)).message_content;
      assert.doesNotMatch(shown, /href="javascript|src="javascript/i, shown);
      assert.match(shown, /javascript:alert\(document.domain\)<\/p>$/, 'the name itself stays, as text');
      const sent = dataOf<Applied>(await apply(c.uuid, m.id, { send_message: true })).message_content;
      assert.equal(sent, shown, 'shown and sent are the same HTML');
    });

    it('send_message: true sends the rendered message as a reply, in the same transaction', async () => {
      const c = await newConversation({ first_name: 'Grace' });
      const m = await create({ name: 'Greet', actions: { add_tags: ['vip'] }, message_content: '<p>Hello {{contact.first_name}}!</p>' });
      const before = await messagesOf(c.id);
      const result = dataOf<Applied>(await apply(c.uuid, m.id, { send_message: true }));
      assert.equal(result.message_content, '<p>Hello Grace!</p>');
      assert.equal(result.conversation.last_message_sender, 'agent');
      assert.equal(result.conversation['last_message'], 'Hello Grace!');
      const added = (await messagesOf(c.id)).slice(before.length);
      const replies = added.filter((row) => row.type === 'outgoing');
      assert.equal(replies.length, 1);
      assert.deepEqual(replies[0], {
        type: 'outgoing',
        status: 'pending',
        content: '<p>Hello Grace!</p>',
        text_content: 'Hello Grace!',
        sender_id: t.admin.id,
        private: false,
      });
      assert.equal(added.filter((row) => row.type === 'activity').length, 1, 'the tag change');
      assert.equal(dataOf<Macro>(await get(m.id)).usage_count, 1);

      // An empty message is not sent; send_message false sends nothing.
      const silent = await create({ name: 'Silent', actions: { set_priority: 'Low' } });
      const count = (await messagesOf(c.id)).length;
      dataOf(await apply(c.uuid, silent.id, { send_message: true }));
      assert.equal((await messagesOf(c.id)).filter((row) => row.type === 'outgoing').length, 1);
      assert.equal((await messagesOf(c.id)).length, count + 1, 'only the priority activity');
      dataOf(await apply(c.uuid, m.id, { send_message: false }));
      assert.equal((await messagesOf(c.id)).filter((row) => row.type === 'outgoing').length, 1);
      assert.equal(dataOf<Macro>(await get(m.id)).usage_count, 2);
    });

    it('missing the permission for one action → 403 and nothing changes', async () => {
      const c = await newConversation();
      const m = await create({
        name: 'Needs priority',
        actions: { set_status: 'Resolved', add_tags: ['vip'], set_priority: 'Urgent' },
        message_content: 'x',
      });
      const before = await conversation(c.uuid);
      const messagesBefore = await messagesOf(c.id);
      const err = assertError(await apply(c.uuid, m.id, {}, noPriority), 403, 'PermissionException');
      assert.match(err.message, /set_priority/);
      const now = await conversation(c.uuid);
      assert.equal(now.status, before.status);
      assert.deepEqual(now.tags, before.tags);
      assert.equal(now.priority, before.priority);
      assert.deepEqual(await messagesOf(c.id), messagesBefore);
      assert.equal(dataOf<Macro>(await get(m.id)).usage_count, 0);
      // Without the priority action the same agent may apply it.
      const ok = await create({ name: 'No priority', actions: { set_status: 'Resolved', add_tags: ['vip'] } });
      const applied = dataOf<Applied>(await apply(c.uuid, ok.id, undefined, noPriority));
      assert.equal(applied.conversation.status, 'Resolved');
      assert.deepEqual(applied.conversation.tags, ['vip']);
    });

    it('send_message needs messages:write', async () => {
      const c = await newConversation();
      const m = await create({ name: 'Resolve and say so', actions: { set_status: 'Resolved' }, message_content: '<p>Done</p>' });
      assertError(await apply(c.uuid, m.id, { send_message: true }, noWrite), 403, 'PermissionException');
      assert.equal((await conversation(c.uuid)).status, 'Open');
      assert.equal(dataOf<Macro>(await get(m.id)).usage_count, 0);
      assert.equal(dataOf<Applied>(await apply(c.uuid, m.id, {}, noWrite)).conversation.status, 'Resolved');
    });

    it('something an action names was deleted since the macro was saved → 400 naming it, nothing changes', async () => {
      const c = await newConversation();
      const m = await create({ name: 'Doomed tag', actions: { set_status: 'Resolved', add_tags: ['doomed'] } });
      const tags = dataOf<Array<{ id: number; name: string }>>(await t.call({ method: 'GET', url: '/api/v1/tags' }));
      const doomed = tags.find((tag) => tag.name === 'doomed');
      assert.ok(doomed);
      dataOf(await t.call({ method: 'DELETE', url: `/api/v1/tags/${doomed.id}` }));
      const res = await apply(c.uuid, m.id);
      assertError(res, 400, 'InputException');
      assert.ok(fieldsOf(res).includes('actions.add_tags'), res.body);
      assert.equal((await conversation(c.uuid)).status, 'Open');
      assert.equal(dataOf<Macro>(await get(m.id)).usage_count, 0);
    });

    it('a stored message_content nested too deeply (saved before the bound) is a 422 on apply, never a 500; nothing changes', async () => {
      const c = await newConversation();
      const m = await create({
        name: 'Legacy deep',
        actions: { set_priority: 'High' },
        message_content: '<p>Hi {{contact.first_name}}</p>',
      });
      await t.deps.db
        .updateTable('macros')
        .set({ message_content: `${'<b>'.repeat(20_000)}Hi {{contact.first_name}}` })
        .where('id', '=', m.id)
        .execute();
      const messagesBefore = await messagesOf(c.id);
      for (const body of [{ send_message: true }, { send_message: false }, undefined]) {
        const err = assertError(await apply(c.uuid, m.id, body), 422, 'DataException');
        assert.match(err.message, /message_content: HTML is nested deeper than 100 levels; edit the macro/);
      }
      assert.equal((await conversation(c.uuid)).priority, null);
      assert.deepEqual(await messagesOf(c.id), messagesBefore);
      assert.equal(dataOf<Macro>(await get(m.id)).usage_count, 0);
      // Editing only its name still has to fix the content; fixing it makes the macro usable again.
      assert.deepEqual(fieldsOf(await put(m.id, { name: 'Renamed' })), ['message_content']);
      dataOf(await put(m.id, { message_content: '<p>Hi {{contact.first_name}}</p>' }));
      assert.equal(dataOf<Applied>(await apply(c.uuid, m.id, { send_message: true })).conversation.priority, 'High');
    });

    it('access: a conversation the caller may not read → 403; unknown or invisible → 404; not offered → 422', async () => {
      const c = await newConversation();
      const m = await create({ name: 'Plain', actions: { set_priority: 'Medium' } });
      assertError(await apply(c.uuid, m.id, {}, carol), 403, 'PermissionException');
      assertError(await apply('00000000-0000-4000-8000-000000000000', m.id), 404, 'NotFoundException');
      assertError(await apply('not-a-uuid', m.id), 404, 'NotFoundException');
      assertError(await apply(c.uuid, 999999), 404, 'NotFoundException');
      const bobs = await create({ name: 'Bob private', visibility: 'user', user_id: String(bob.id) }, bob);
      assertError(await apply(c.uuid, bobs.id, {}, alice), 404, 'NotFoundException');
      const resolvedOnly = await create({
        name: 'Resolved only',
        visible_when: ['conversation_resolved'],
        actions: { set_status: 'Open' },
      });
      assertError(await apply(c.uuid, resolvedOnly.id), 422, 'DataException');
      assert.equal(dataOf<Macro>(await get(resolvedOnly.id)).usage_count, 0);
      assertError(await apply(c.uuid, m.id, { send_message: 'yes' }), 400, 'InputException');
      assertError(await apply(c.uuid, m.id, { extra: true }), 400, 'InputException');
      assertError(await apply(c.uuid, m.id, undefined, null), 401, 'UnauthorizedException');
      assert.equal((await conversation(c.uuid)).priority, null, 'nothing applied by the refused calls');
      assert.equal(dataOf<Macro>(await get(m.id)).usage_count, 0);
      // Bob applies his own macro to a conversation he may read (unassigned).
      assert.equal(dataOf<Applied>(await apply(c.uuid, bobs.id, undefined, bob)).message_content, '');
      assert.equal(dataOf<Macro>(await get(bobs.id)).usage_count, 1);
    });
  });
});
