// Routing by inbox: a new conversation arriving without a team enters its inbox's default team
// (widget, inbound email, the API without team_id) as an assignment to that team does (the team's
// SLA policy, its round robin), and `assign_on_first_reply` gives an unassigned conversation to
// the agent who sends its first public reply, once, whoever else replies at the same moment.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ingestMail } from '../email/email.ingest.ts';
import { createContact, createInbox, createTeam, uniqueEmail } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, runDueJobs, type TestApp } from '../../test/helpers.ts';
import { buildMail, emailInbox, newMessageId, nextSource } from '../../test/mail.ts';
import { createWidgetInbox, startVisitor } from '../../test/widget.ts';

type Json = Record<string, unknown>;

describe('routing by inbox', () => {
  let t: TestApp;
  const clock = fakeClock(new Date('2026-03-02T10:00:00Z'));
  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t.close());

  const conversation = async (uuid: string) => dataOf<Json>(await t.call({ url: `/api/v1/conversations/${uuid}` }));
  const available = async (agent: Caller) => {
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload: { status: 'available' }, as: agent }));
    await runDueJobs(t.deps, ['conversations.place_for_agent']);
  };
  const putInbox = (id: number, payload: Json, as?: Caller) => t.call({ method: 'PUT', url: `/api/v1/inboxes/${id}`, payload, as });
  const activity = async (uuid: string) => {
    const rows = await t.deps.db
      .selectFrom('messages as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .where('c.uuid', '=', uuid)
      .where('m.type', '=', 'activity')
      .orderBy('m.id')
      .select(['m.content', 'm.sender_id'])
      .execute();
    return rows;
  };
  const events = async (uuid: string, type: string) => {
    const rows = await t.deps.db.selectFrom('domain_events').where('type', '=', type).orderBy('id').select('payload').execute();
    return rows.map((r) => r.payload as Json).filter((p) => p['conversation_uuid'] === uuid);
  };
  /** A round-robin team with an SLA policy: one member available, one busy. */
  const routedTeam = async () => {
    const policy = dataOf<{ id: number; name: string }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/sla',
        payload: { name: `Routing ${Date.now()}-${Math.random()}`, first_response_minutes: 30 },
      }),
    );
    const team = await createTeam(t, { conversation_assignment_type: 'round_robin', sla_policy_id: policy.id });
    const busy = await t.makeAgent({ teams: [team.id] });
    const free = await t.makeAgent({ teams: [team.id] });
    await available(free);
    return { team, policy, free, busy };
  };
  const assertRouted = async (uuid: string, routed: Awaited<ReturnType<typeof routedTeam>>) => {
    const c = await conversation(uuid);
    assert.equal(c['assigned_team_id'], routed.team.id, 'the inbox default team');
    assert.equal(c['assigned_user_id'], routed.free.id, "the team's round robin picked its available member");
    assert.equal(c['sla_policy_id'], routed.policy.id, "the team's SLA policy applies");
    assert.equal(c['first_response_deadline_at'], new Date(clock.now().getTime() + 30 * 60_000).toISOString());
    const lines = (await activity(uuid)).map((a) => a.content);
    assert.deepEqual(lines, [
      `System assigned the conversation to team ${routed.team.name}`,
      `The SLA policy ${routed.policy.name} of the team applies`,
      lines[2],
    ]);
    assert.match(String(lines[2]), /by round robin$/);
    const assigned = await events(uuid, 'conversation.assigned');
    assert.deepEqual(
      assigned.map((e) => [e['assignee_type'], e['team_id'], e['assignee_id'] ?? null, e['actor_id']]),
      [
        ['team', routed.team.id, null, null],
        ['user', routed.team.id, routed.free.id, null],
      ],
    );
  };

  describe('the inbox settings', () => {
    it('default_team_id and assign_on_first_reply are stored, answered, and default to null and false on every channel', async () => {
      const team = await createTeam(t);
      const chat = await createInbox(t);
      assert.equal(chat.default_team_id, null);
      assert.equal(chat.assign_on_first_reply, false);
      const email = await createInbox(t, { channel: 'email', default_team_id: team.id, assign_on_first_reply: true });
      assert.equal(email.default_team_id, team.id);
      assert.equal(email.assign_on_first_reply, true);
      const updated = dataOf<Json>(await putInbox(chat.id, { default_team_id: team.id, assign_on_first_reply: true }));
      assert.equal(updated['default_team_id'], team.id);
      assert.equal(updated['assign_on_first_reply'], true);
      const read = dataOf<Json>(await t.call({ url: `/api/v1/inboxes/${chat.id}` }));
      assert.equal(read['default_team_id'], team.id);
      const partial = dataOf<Json>(await putInbox(chat.id, { name: 'Renamed chat' }));
      assert.equal(partial['default_team_id'], team.id, 'a partial update keeps it');
      const cleared = dataOf<Json>(await putInbox(chat.id, { default_team_id: null }));
      assert.equal(cleared['default_team_id'], null);
      assert.equal(cleared['assign_on_first_reply'], true);
    });

    it('refuses an unknown team, wrong types and callers without the permission, changing nothing', async () => {
      const team = await createTeam(t);
      const inbox = await createInbox(t, { default_team_id: team.id });
      const error = assertError(await putInbox(inbox.id, { default_team_id: 999_999 }), 400, 'InputException');
      assert.match(error.message, /default_team_id/);
      assertError(await putInbox(inbox.id, { default_team_id: '1' }), 400, 'InputException');
      assertError(await putInbox(inbox.id, { default_team_id: 0 }), 400, 'InputException');
      assertError(await putInbox(inbox.id, { assign_on_first_reply: 'yes' }), 400, 'InputException');
      assertError(await putInbox(inbox.id, { assign_on_first_reply: null }), 400, 'InputException');
      assertError(
        await t.call({
          method: 'POST',
          url: '/api/v1/inboxes',
          payload: { name: 'X', channel: 'livechat', config: {}, default_team_id: 999_999 },
        }),
        400,
        'InputException',
      );
      const agent = await t.makeAgent();
      assertError(await putInbox(inbox.id, { default_team_id: null }, agent), 403, 'PermissionException');
      assertError(
        await t.call({ method: 'PUT', url: `/api/v1/inboxes/${inbox.id}`, payload: { default_team_id: null }, as: null }),
        401,
        'UnauthorizedException',
      );
      const after = dataOf<Json>(await t.call({ url: `/api/v1/inboxes/${inbox.id}` }));
      assert.equal(after['default_team_id'], team.id, 'nothing changed');
      assert.equal(after['assign_on_first_reply'], false);
    });

    it('deleting the team clears it', async () => {
      const team = await createTeam(t);
      const inbox = await createInbox(t, { default_team_id: team.id });
      dataOf(await t.call({ method: 'DELETE', url: `/api/v1/teams/${team.id}` }));
      assert.equal(dataOf<Json>(await t.call({ url: `/api/v1/inboxes/${inbox.id}` }))['default_team_id'], null);
      // and a new conversation of the inbox then has no team
      const chat = await createWidgetInbox(t);
      const visitor = await startVisitor(t, chat.uuid);
      assert.equal((await conversation(visitor.conversationUuid))['assigned_team_id'], null);
    });
  });

  describe('a default team', () => {
    it('a live chat started in the widget enters it: its SLA policy and round robin, as an assignment to the team', async () => {
      const routed = await routedTeam();
      const chat = await createWidgetInbox(t);
      dataOf(await putInbox(chat.inbox.id, { default_team_id: routed.team.id }));
      const visitor = await startVisitor(t, chat.uuid, 'Where is my parcel?');
      await assertRouted(visitor.conversationUuid, routed);
    });

    it('an inbound mail that starts a conversation enters it; a reply into that conversation changes nothing', async () => {
      const routed = await routedTeam();
      const inbox = await emailInbox(t);
      dataOf(await putInbox(inbox.id, { default_team_id: routed.team.id }));
      const sender = uniqueEmail('mail');
      const messageId = newMessageId();
      const outcome = await ingestMail(
        t.deps,
        inbox,
        await buildMail({ from: sender, to: inbox.from, subject: 'Broken', messageId }),
        nextSource(),
      );
      assert.equal(outcome.kind, 'stored');
      if (outcome.kind !== 'stored') return;
      await assertRouted(outcome.conversationUuid, routed);
      const again = await ingestMail(
        t.deps,
        inbox,
        await buildMail({ from: sender, to: inbox.from, subject: 'Re: Broken', inReplyTo: messageId, references: [messageId] }),
        nextSource(),
      );
      assert.equal(again.kind === 'stored' && again.conversationUuid, outcome.conversationUuid);
      await assertRouted(outcome.conversationUuid, routed);
    });

    it('the API applies it when no team_id is given, and not when one is', async () => {
      const routed = await routedTeam();
      const other = await createTeam(t);
      const inbox = await createInbox(t, { default_team_id: routed.team.id });
      const contact = await createContact(t);
      const base = { inbox_id: inbox.id, contact_id: contact.id, content: 'Hello', initiator: 'contact' };
      const created = dataOf<Json>(await t.call({ method: 'POST', url: '/api/v1/conversations', payload: base }));
      await assertRouted(String(created['uuid']), routed);
      const explicit = dataOf<Json>(
        await t.call({ method: 'POST', url: '/api/v1/conversations', payload: { ...base, team_id: other.id } }),
      );
      assert.equal(explicit['assigned_team_id'], other.id);
      // The team asked for is entered by the same path, in the caller's name.
      assert.deepEqual(
        (await activity(String(explicit['uuid']))).map((a) => [
          a.content.endsWith(`assigned the conversation to team ${other.name}`),
          a.sender_id,
        ]),
        [[true, t.admin.id]],
      );
      // An explicit assignee is kept, though not a member of the default team.
      const outsider = await t.makeAgent();
      const kept = dataOf<Json>(
        await t.call({ method: 'POST', url: '/api/v1/conversations', payload: { ...base, assignee_id: outsider.id } }),
      );
      assert.equal(kept['assigned_team_id'], routed.team.id);
      assert.equal(kept['assigned_user_id'], outsider.id);
    });

    it('an inbox without a default team leaves new conversations without a team', async () => {
      const chat = await createWidgetInbox(t);
      const visitor = await startVisitor(t, chat.uuid);
      const c = await conversation(visitor.conversationUuid);
      assert.equal(c['assigned_team_id'], null);
      assert.deepEqual(await activity(visitor.conversationUuid), []);
    });
  });

  describe('assign_on_first_reply', () => {
    const reply = (uuid: string, as: Caller, extra: Json = {}) =>
      t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload: { message: 'On it', ...extra }, as });
    /** A live chat routed to a team (manual assignment) whose members reply: what agents without read_unassigned can answer. */
    let team: { id: number };
    const member = (first_name?: string) => t.makeAgent({ teams: [team.id], ...(first_name ? { first_name } : {}) });
    const firstReplyInbox = async (on = true) => {
      team ??= await createTeam(t);
      const chat = await createWidgetInbox(t);
      dataOf(await putInbox(chat.inbox.id, { assign_on_first_reply: on, default_team_id: team.id }));
      return chat;
    };
    /** The activity lines after the team's. */
    const ownActivity = async (uuid: string) => (await activity(uuid)).slice(1);

    it('the agent who sends the first public reply is assigned; a note before it does not; a second agent does not take it over', async () => {
      const chat = await firstReplyInbox();
      const first = await member('Ada');
      const second = await member();
      const { conversationUuid: uuid } = await startVisitor(t, chat.uuid);
      dataOf(await reply(uuid, second, { private: true }));
      assert.equal((await conversation(uuid))['assigned_user_id'], null, 'a private note is no reply');
      dataOf(await reply(uuid, first));
      assert.equal((await conversation(uuid))['assigned_user_id'], first.id);
      dataOf(await reply(uuid, second));
      assert.equal((await conversation(uuid))['assigned_user_id'], first.id, 'the second reply reassigns nothing');
      const lines = await ownActivity(uuid);
      assert.deepEqual(lines, [{ content: 'Ada Test sent the first reply and was assigned the conversation', sender_id: first.id }]);
      const assigned = await events(uuid, 'conversation.assigned');
      assert.deepEqual(
        assigned.map((e) => [e['assignee_type'], e['assignee_id'], e['previous_assignee_id'], e['actor_id'], e['auto']]),
        [
          ['team', undefined, undefined, null, undefined],
          ['user', first.id, null, first.id, true],
        ],
      );
    });

    it('does nothing when the option is off, the conversation has an assignee, or it was answered before', async () => {
      const off = await firstReplyInbox(false);
      const agent = await member();
      const other = await member();
      const a = await startVisitor(t, off.uuid);
      dataOf(await reply(a.conversationUuid, agent));
      assert.equal((await conversation(a.conversationUuid))['assigned_user_id'], null, 'option off');

      const on = await firstReplyInbox();
      const b = await startVisitor(t, on.uuid);
      dataOf(
        await t.call({
          method: 'PUT',
          url: `/api/v1/conversations/${b.conversationUuid}/assignee/user`,
          payload: { assignee_id: other.id },
        }),
      );
      dataOf(await reply(b.conversationUuid, agent));
      assert.equal((await conversation(b.conversationUuid))['assigned_user_id'], other.id, 'already assigned');

      const c = await startVisitor(t, on.uuid);
      dataOf(await reply(c.conversationUuid, agent));
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${c.conversationUuid}/assignee/user/remove` }));
      dataOf(await reply(c.conversationUuid, other));
      assert.equal((await conversation(c.conversationUuid))['assigned_user_id'], null, 'not the first reply any more');
    });

    it('two agents replying at once: exactly one is assigned, with one event', async () => {
      const chat = await firstReplyInbox();
      const agents = [await member(), await member()];
      const second = await t.secondInstance();
      try {
        for (let round = 0; round < 6; round += 1) {
          const { conversationUuid: uuid } = await startVisitor(t, chat.uuid);
          const answers = await Promise.all(
            agents.map((agent, i) =>
              (i === 0 ? t.app : second.app).inject({
                method: 'POST',
                url: `/api/v1/conversations/${uuid}/messages`,
                headers: agent.headers,
                payload: { message: `Reply ${i}` },
              }),
            ),
          );
          for (const answer of answers) assert.equal(answer.statusCode, 200, answer.body);
          const assignee = (await conversation(uuid))['assigned_user_id'];
          assert.ok(
            agents.some((a) => a.id === assignee),
            `round ${round}: one of the two (${String(assignee)})`,
          );
          const users = (await events(uuid, 'conversation.assigned')).filter((e) => e['assignee_type'] === 'user');
          assert.equal(users.length, 1, `round ${round}: one assignment`);
          assert.equal((await ownActivity(uuid)).length, 1);
        }
      } finally {
        await second.close();
      }
    });
  });
});
