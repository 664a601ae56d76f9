// Macros: visibility (global, team, user) and permissions, and the macros offered for a
// conversation (docs/api.md: Tags, macros, teams).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { type Macro, macroCalls, macroFixtures } from '../../test/macros.ts';

describe('macros', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inboxId: number;
  let teamA: number;
  let teamB: number;
  let alice: Caller; // Agent role, team A
  let bob: Caller; // Agent role, team B
  let carol: Caller; // may read only conversations assigned to her

  const { post, put, get, del, list, create, newConversation, macroCount } = macroCalls(
    () => t,
    clock,
    () => inboxId,
  );

  before(async () => {
    t = await buildTestApp({ clock });
    ({ inboxId, teamA, teamB, alice, bob, carol } = await macroFixtures(t));
  });
  after(() => t.close());

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
});
