// Macros: CRUD and validation (docs/api.md: Tags, macros, teams).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { ALL_WHEN, type Json, MACRO_FIELDS, type Macro, macroCalls, macroFixtures } from '../../test/macros.ts';

describe('macros', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inboxId: number;
  let teamA: number;
  let teamB: number;
  let alice: Caller; // Agent role, team A

  const { post, put, get, del, list, create, macroCount, fieldsOf } = macroCalls(
    () => t,
    clock,
    () => inboxId,
  );

  before(async () => {
    t = await buildTestApp({ clock });
    ({ inboxId, teamA, teamB, alice } = await macroFixtures(t));
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
});
