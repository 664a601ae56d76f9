// Followers and mentions (docs/api.md, "Working together"): who follows a conversation on their
// own (the assignee, an agent who writes in it, a mentioned agent), the mention rules of notes
// (only agents who may read the conversation; teams expand to their members; never the writer;
// never from a public reply), the caller's Mentions list, and the followers API with its
// unhappy paths.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createConversation, createInbox, createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, runDueJobs, type TestApp } from '../../test/helpers.ts';

type Follower = { id: number; first_name: string; last_name: string; avatar_url: string | null };
type Mentioned = { uuid: string; subject: string; mentioned_at: string; mention_message_uuid: string; tags: string[] };
type Paged<T> = { results: T[]; total: number; per_page: number; total_pages: number; page: number };

const READ_ASSIGNED = ['conversations:read', 'conversations:read_assigned', 'messages:read', 'messages:write'];
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

describe('followers and mentions', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inboxId: number;
  /** An agent of the default Agent role: reads what is assigned to them, to their teams, or to nobody. */
  let ana: Caller;
  /** Reads only what is assigned to them. */
  let bruno: Caller;

  const conversation = async () => createConversation(t, { inbox_id: inboxId });
  const send = (uuid: string, message: string, options: { private?: boolean; as?: Caller } = {}) =>
    t.call({
      method: 'POST',
      url: `/api/v1/conversations/${uuid}/messages`,
      payload: { message, private: options.private ?? true },
      as: options.as,
    });
  const followers = async (uuid: string, as?: Caller) =>
    dataOf<Follower[]>(await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}/followers`, as })).map((f) => f.id);
  const mentioned = async (as: Caller, query = '') =>
    dataOf<Paged<Mentioned>>(await t.call({ method: 'GET', url: `/api/v1/conversations/mentioned${query}`, as }));
  const assign = async (uuid: string, agentId: number) =>
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/assignee/user`, payload: { assignee_id: agentId } }));
  const agentSpan = (id: number, name = 'Someone') => `<span data-mention-agent-id="${id}">@${name}</span>`;

  before(async () => {
    t = await buildTestApp({ clock });
    inboxId = (await createInbox(t)).id;
    ana = await t.makeAgent({ first_name: 'Ana' });
    bruno = await agentWith(t, READ_ASSIGNED, { first_name: 'Bruno' });
  });
  after(() => t.close());

  describe('following on their own', () => {
    it('the assignee follows (a manual assignment and round robin)', async () => {
      const c = await conversation();
      assert.deepEqual(await followers(c.uuid), []);
      await assign(c.uuid, ana.id);
      assert.deepEqual(await followers(c.uuid), [ana.id]);
      await assign(c.uuid, bruno.id);
      assert.deepEqual(await followers(c.uuid), [ana.id, bruno.id], 'the former assignee keeps following');

      const team = (await createTeam(t, { conversation_assignment_type: 'round_robin' })).id;
      const carla = await t.makeAgent({ teams: [team], first_name: 'Carla' });
      dataOf(await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload: { status: 'available' }, as: carla }));
      await runDueJobs(t.deps, ['conversations.place_for_agent', 'conversations.release_agent']);
      const placed = await createConversation(t, { inbox_id: inboxId, team_id: team });
      assert.equal(placed.assigned_user_id, carla.id);
      assert.deepEqual(await followers(placed.uuid), [carla.id]);
    });

    it('an agent who replies or writes a note follows', async () => {
      const c = await conversation();
      dataOf(await send(c.uuid, '<p>a note</p>', { as: ana }));
      clock.advance(1000);
      assert.deepEqual(await followers(c.uuid), [ana.id]);
      dataOf(await send(c.uuid, '<p>a reply</p>', { private: false }));
      assert.deepEqual(await followers(c.uuid), [ana.id, t.admin.id]);
    });
  });

  describe('mentions in notes', () => {
    it('a mentioned agent who may read it gets a mention and follows; the Mentions list shows it', async () => {
      const c = await conversation();
      const before = await mentioned(ana);
      clock.advance(1000);
      const note = dataOf<{ uuid: string; content: string }>(await send(c.uuid, `<p>Look ${agentSpan(ana.id, 'Ana')} please</p>`));
      assert.equal(note.content, `<p>Look ${agentSpan(ana.id, 'Ana')} please</p>`, 'the markup is stored');
      assert.deepEqual(await followers(c.uuid), [t.admin.id, ana.id], 'the writer, then the mentioned agent');
      const list = await mentioned(ana);
      assert.equal(list.total, before.total + 1);
      const [first] = list.results;
      assert.equal(first?.uuid, c.uuid);
      assert.equal(first?.mention_message_uuid, note.uuid);
      assert.equal(first?.mentioned_at, clock.now().toISOString());
      assert.equal(first?.subject, c.subject, 'the usual list item');
      assert.deepEqual(first?.tags, []);
      // The item is the lists' item, plus the mention.
      const all = dataOf<Paged<Mentioned & { uuid: string }>>(
        await t.call({ method: 'GET', url: '/api/v1/conversations/all?page_size=100' }),
      );
      const { mentioned_at: _at, mention_message_uuid: _uuid, ...item } = first ?? ({} as Mentioned);
      assert.deepEqual(
        item,
        all.results.find((one) => one.uuid === c.uuid),
      );
    });

    it('an agent who may not read it, an unknown id and the writer are ignored without an error', async () => {
      const c = await conversation();
      await assign(c.uuid, ana.id);
      const res = await send(c.uuid, `<p>${agentSpan(bruno.id)} ${agentSpan(999999)} ${agentSpan(ana.id)}</p>`, { as: ana });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(await followers(c.uuid), [ana.id], 'bruno reads only his own conversations');
      assert.equal((await mentioned(bruno)).total, 0);
      assert.ok(!(await mentioned(ana)).results.some((item) => item.uuid === c.uuid), 'a self-mention is no mention');
    });

    it('a team mention reaches each member who may read it', async () => {
      const team = (await createTeam(t)).id;
      const dora = await t.makeAgent({ teams: [team], first_name: 'Dora' });
      const eve = await agentWith(t, READ_ASSIGNED, { teams: [team], first_name: 'Eve' });
      const disabled = await t.makeAgent({ teams: [team] });
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${disabled.id}`, payload: { enabled: false } }));
      const c = await conversation();
      dataOf(await send(c.uuid, `<p><span data-mention-team-id="${team}">@Team</span></p>`));
      const now = await followers(c.uuid);
      assert.ok(now.includes(dora.id));
      assert.ok(!now.includes(eve.id), 'eve may not read it');
      assert.ok(!now.includes(disabled.id), 'a disabled member is left out');
      assert.deepEqual(
        (await mentioned(dora)).results.map((item) => item.uuid),
        [c.uuid],
      );
      assert.equal((await mentioned(eve)).total, 0);
    });

    it('a public reply with the markup mentions nobody, and is stored without it', async () => {
      const c = await conversation();
      const fred = await t.makeAgent({ first_name: 'Fred' });
      const reply = dataOf<{ content: string }>(await send(c.uuid, `<p>${agentSpan(fred.id)}</p>`, { private: false }));
      assert.equal(reply.content, '<p><span>@Someone</span></p>', 'the customer gets no agent id');
      assert.deepEqual(await followers(c.uuid), [t.admin.id]);
      assert.equal((await mentioned(fred)).total, 0);
    });

    it('the Mentions list: newest mention first, each conversation once, paged, and only what the caller may still read', async () => {
      const gil = await agentWith(t, READ_ASSIGNED, { first_name: 'Gil' });
      const [one, two, three] = [await conversation(), await conversation(), await conversation()];
      for (const c of [one, two, three]) {
        if (!c) throw new Error('no conversation');
        await assign(c.uuid, gil.id);
      }
      if (!one || !two || !three) throw new Error('no conversation');
      for (const c of [one, two, three, one]) {
        clock.advance(60_000);
        dataOf(await send(c.uuid, `<p>${agentSpan(gil.id)}</p>`));
      }
      const all = await mentioned(gil);
      assert.deepEqual(
        all.results.map((item) => item.uuid),
        [one.uuid, three.uuid, two.uuid],
      );
      assert.equal(all.total, 3);
      const second = await mentioned(gil, '?page=2&page_size=2');
      assert.deepEqual(
        second.results.map((item) => item.uuid),
        [two.uuid],
      );
      assert.equal(second.total_pages, 2);
      await assign(three.uuid, ana.id);
      const after = await mentioned(gil);
      assert.deepEqual(
        after.results.map((item) => item.uuid),
        [one.uuid, two.uuid],
        'three is no longer his to read',
      );
      assert.equal(after.total, 2);
      const past = await mentioned(gil, '?page=9');
      assert.deepEqual(past.results, []);
      assert.equal(past.total, 2);
      assertError(await t.call({ method: 'GET', url: '/api/v1/conversations/mentioned', as: null }), 401, 'UnauthorizedException');
      assertError(await t.call({ method: 'GET', url: '/api/v1/conversations/mentioned?page=x', as: gil }), 400, 'InputException');
      const nobody = await agentWith(t, ['messages:read']);
      assertError(await t.call({ method: 'GET', url: '/api/v1/conversations/mentioned', as: nobody }), 403, 'PermissionException');
    });
  });

  describe('the followers API', () => {
    const url = (uuid: string, rest = '') => `/api/v1/conversations/${uuid}/followers${rest}`;

    it('follows and unfollows oneself, adds and removes others with the permission', async () => {
      const c = await conversation();
      const me = dataOf<Follower[]>(await t.call({ method: 'POST', url: url(c.uuid), payload: {}, as: ana }));
      assert.deepEqual(me, [{ id: ana.id, first_name: 'Ana', last_name: me[0]?.last_name ?? '', avatar_url: null }]);
      assert.deepEqual(Object.keys(me[0] ?? {}).sort(), ['avatar_url', 'first_name', 'id', 'last_name']);
      dataOf(await t.call({ method: 'POST', url: url(c.uuid), payload: {}, as: ana }));
      assert.deepEqual(await followers(c.uuid), [ana.id], 'following twice is following once');
      const helen = await t.makeAgent({ first_name: 'Helen' });
      const added = dataOf<Follower[]>(await t.call({ method: 'POST', url: url(c.uuid), payload: { agent_id: helen.id }, as: ana }));
      assert.deepEqual(
        added.map((f) => f.id),
        [ana.id, helen.id],
      );
      dataOf(await t.call({ method: 'DELETE', url: url(c.uuid, `/${helen.id}`), as: ana }));
      dataOf(await t.call({ method: 'DELETE', url: url(c.uuid, `/${ana.id}`), as: ana }));
      assert.deepEqual(await followers(c.uuid), []);
      dataOf(await t.call({ method: 'DELETE', url: url(c.uuid, `/${ana.id}`), as: ana }), 'not following: no error');
    });

    it('refuses what it must, and changes nothing', async () => {
      const c = await conversation();
      await assign(c.uuid, bruno.id);
      const ivan = await agentWith(t, ['conversations:read', 'conversations:read_all']);
      // No credentials.
      assertError(await t.call({ method: 'GET', url: url(c.uuid), as: null }), 401, 'UnauthorizedException');
      assertError(await t.call({ method: 'POST', url: url(c.uuid), payload: {}, as: null }), 401, 'UnauthorizedException');
      assertError(await t.call({ method: 'DELETE', url: url(c.uuid, `/${bruno.id}`), as: null }), 401, 'UnauthorizedException');
      // Unknown conversation, or one the caller may not read: 404 alike.
      for (const uuid of [UNKNOWN_UUID]) {
        assertError(await t.call({ method: 'GET', url: url(uuid) }), 404, 'NotFoundException');
        assertError(await t.call({ method: 'POST', url: url(uuid), payload: {} }), 404, 'NotFoundException');
        assertError(await t.call({ method: 'DELETE', url: url(uuid, `/${bruno.id}`) }), 404, 'NotFoundException');
      }
      const other = await conversation();
      await assign(other.uuid, ana.id);
      assertError(await t.call({ method: 'GET', url: url(other.uuid), as: bruno }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'POST', url: url(other.uuid), payload: {}, as: bruno }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'DELETE', url: url(other.uuid, `/${ana.id}`), as: bruno }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'GET', url: '/api/v1/conversations/not-a-uuid/followers' }), 404, 'NotFoundException');
      // Bad agent ids.
      for (const agent_id of ['7', 1.5, 0, -1, 2147483648, 1e300, null, true, '\u0000', [1]]) {
        assertError(await t.call({ method: 'POST', url: url(c.uuid), payload: { agent_id } }), 400, 'InputException', String(agent_id));
      }
      assertError(await t.call({ method: 'POST', url: url(c.uuid), payload: { agent_id: bruno.id, extra: 1 } }), 400, 'InputException');
      for (const id of ['x', '0', '2147483648', '1.5', '%00']) {
        const res = await t.call({ method: 'DELETE', url: url(c.uuid, `/${id}`) });
        assert.ok(res.statusCode === 400 || res.statusCode === 404, `${id}: ${res.statusCode}`);
      }
      // Another agent without the permission.
      assertError(await t.call({ method: 'POST', url: url(c.uuid), payload: { agent_id: ana.id }, as: ivan }), 403, 'PermissionException');
      assertError(await t.call({ method: 'DELETE', url: url(c.uuid, `/${bruno.id}`), as: ivan }), 403, 'PermissionException');
      // The agent added must be able to read it (a contact, an unknown or disabled agent, one of another scope).
      const disabled = await t.makeAgent();
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${disabled.id}`, payload: { enabled: false } }));
      const gus = await agentWith(t, READ_ASSIGNED);
      for (const agent_id of [gus.id, 999999, disabled.id, c.contact.id]) {
        assertError(await t.call({ method: 'POST', url: url(c.uuid), payload: { agent_id } }), 422, 'DataException', String(agent_id));
      }
      assert.deepEqual(await followers(c.uuid), [bruno.id], 'nothing changed');
    });
  });
});
