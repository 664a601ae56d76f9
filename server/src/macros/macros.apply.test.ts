// Macros: applying one to a conversation (actions, activities, the rendered message, refusals
// that change nothing, access) (docs/api.md: Tags, macros, teams).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { type Applied, type Json, type Macro, macroCalls, macroFixtures } from '../../test/macros.ts';

describe('macros', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inboxId: number;
  let teamA: number;
  let alice: Caller; // Agent role, team A
  let bob: Caller; // Agent role, team B
  let carol: Caller; // may read only conversations assigned to her
  let noPriority: Caller; // Agent permissions without conversations:update_priority
  let noWrite: Caller; // may read every conversation and change its status, but not write messages

  const { put, get, create, apply, newConversation, conversation, messagesOf, fieldsOf } = macroCalls(
    () => t,
    clock,
    () => inboxId,
  );

  before(async () => {
    t = await buildTestApp({ clock });
    ({ inboxId, teamA, alice, bob, carol, noPriority, noWrite } = await macroFixtures(t));
  });
  after(() => t.close());

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
