// Who is viewing and replying (docs/api.md, "Presence"), through real agent sockets and the route.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createConversation } from '../../test/factories.ts';
import { buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { closeOf, type Frame, listen, nextFrame, noFrame, openSocket, type TestSocket } from '../../test/sockets.ts';
import { MAX_VIEWING_PER_SOCKET } from './viewers.live.ts';
import { upsertViewers } from './viewers.queries.ts';
import { expireViewers } from './viewers.service.ts';

interface Viewer {
  agent_id: number;
  name: string;
  avatar_url: string | null;
  replying: boolean;
}

/** A `conversation_viewers` frame of this conversation whose list passes `check`. */
const viewersOf =
  (uuid: string, check: (viewers: Viewer[]) => boolean = () => true) =>
  (f: Frame) => {
    const data = f.data as { conversation_uuid?: string; viewers?: Viewer[] } | undefined;
    return f.type === 'conversation_viewers' && data?.conversation_uuid === uuid && check(data.viewers ?? []);
  };
const ids = (viewers: Viewer[]) => viewers.map((v) => v.agent_id);
const same = (expected: number[]) => (viewers: Viewer[]) => JSON.stringify(ids(viewers)) === JSON.stringify(expected);
const view = (uuid: string) => ({ type: 'viewing', data: { conversation_uuid: uuid } });
const stop = (uuid: string) => ({ type: 'viewing_stopped', data: { conversation_uuid: uuid } });
const typing = (uuid: string, is_typing: boolean, is_private = false) => ({
  type: 'typing',
  data: { conversation_uuid: uuid, is_typing, is_private },
});

describe('viewers', () => {
  let t: TestApp;
  let base: string;
  let colleague: Caller;
  const open: TestSocket[] = [];
  const connect = async (caller: Caller, at = base) => {
    const socket = await openSocket(`${at}/ws`, caller.headers);
    open.push(socket);
    return socket;
  };
  const listed = async (uuid: string, as: Caller = t.admin): Promise<Viewer[]> =>
    dataOf<Viewer[]>(await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}/viewers`, as }));

  before(async () => {
    t = await buildTestApp();
    base = await listen(t.app);
    colleague = await t.makeAgent({ roles: ['Admin'], first_name: 'Colleague' });
  });
  after(async () => {
    for (const socket of open) await socket.close();
    await t.close();
  });

  it('two agents viewing: both get the list, the route answers it, and stopping drops one', async () => {
    const conversation = await createConversation(t);
    const a = await connect(t.admin);
    const b = await connect(colleague);
    a.send(view(conversation.uuid));
    const first = await nextFrame(a, viewersOf(conversation.uuid, same([t.admin.id])));
    assert.equal((first.data as { viewers: Viewer[] }).viewers[0]?.replying, false);
    await nextFrame(b, viewersOf(conversation.uuid, same([t.admin.id])));
    b.send(view(conversation.uuid));
    const both = await nextFrame(a, viewersOf(conversation.uuid, same([t.admin.id, colleague.id])));
    await nextFrame(b, viewersOf(conversation.uuid, same([t.admin.id, colleague.id])));
    const entry = (both.data as { viewers: Viewer[] }).viewers[1];
    assert.deepEqual(entry, { agent_id: colleague.id, name: 'Colleague Test', avatar_url: null, replying: false });
    assert.deepEqual(ids(await listed(conversation.uuid)), [t.admin.id, colleague.id]);
    assert.deepEqual(await listed(conversation.uuid, colleague), await listed(conversation.uuid));

    b.send(stop(conversation.uuid));
    await nextFrame(a, viewersOf(conversation.uuid, same([t.admin.id])));
    assert.deepEqual(ids(await listed(conversation.uuid)), [t.admin.id]);
    // Stopping again, or stopping what was never viewed, changes nothing.
    b.send(stop(conversation.uuid));
    b.send({ type: 'ping' });
    await nextFrame(b, (f) => f.type === 'pong');
    await noFrame(a, viewersOf(conversation.uuid), 200);
  });

  it('a closed socket is dropped; one agent with two tabs is one viewer until the last tab goes', async () => {
    const conversation = await createConversation(t);
    const watcher = await connect(t.admin);
    const tab1 = await connect(colleague);
    const tab2 = await connect(colleague);
    tab1.send(view(conversation.uuid));
    await nextFrame(watcher, viewersOf(conversation.uuid, same([colleague.id])));
    tab2.send(view(conversation.uuid));
    await nextFrame(watcher, viewersOf(conversation.uuid, same([colleague.id])));
    assert.deepEqual(ids(await listed(conversation.uuid)), [colleague.id]);
    // Typing in one tab: the agent replies.
    tab2.send(typing(conversation.uuid, true));
    await nextFrame(
      watcher,
      viewersOf(conversation.uuid, (v) => v[0]?.replying === true),
    );
    await tab2.close();
    await nextFrame(
      watcher,
      viewersOf(conversation.uuid, (v) => same([colleague.id])(v) && v[0]?.replying === false),
    );
    await tab1.close();
    await nextFrame(watcher, viewersOf(conversation.uuid, same([])));
    assert.deepEqual(await listed(conversation.uuid), []);
  });

  it('typing a reply sets replying, its end clears it; a private note is no reply', async () => {
    const conversation = await createConversation(t);
    const watcher = await connect(t.admin);
    const typist = await connect(colleague);
    typist.send(view(conversation.uuid));
    await nextFrame(watcher, viewersOf(conversation.uuid, same([colleague.id])));
    typist.send(typing(conversation.uuid, true));
    await nextFrame(
      watcher,
      viewersOf(conversation.uuid, (v) => v[0]?.replying === true),
    );
    assert.equal((await listed(conversation.uuid))[0]?.replying, true);
    typist.send(typing(conversation.uuid, false));
    await nextFrame(
      watcher,
      viewersOf(conversation.uuid, (v) => v[0]?.replying === false),
    );
    typist.send(typing(conversation.uuid, true, true));
    await noFrame(watcher, viewersOf(conversation.uuid), 300);
    assert.equal((await listed(conversation.uuid))[0]?.replying, false);
  });

  it('an agent who may not read the conversation gets not_found for viewing, and never its list', async () => {
    const conversation = await createConversation(t);
    const outsider = await agentWith(t, ['conversations:read', 'conversations:read_assigned']);
    const theirs = await connect(outsider);
    const admin = await connect(t.admin);
    theirs.send(view(conversation.uuid));
    const refused = await nextFrame(theirs);
    assert.equal(refused.type, 'error');
    assert.equal((refused.data as { code?: string }).code, 'not_found');
    admin.send(view(conversation.uuid));
    await nextFrame(admin, viewersOf(conversation.uuid, same([t.admin.id])));
    await noFrame(theirs, (f) => f.type === 'conversation_viewers', 300);
    assert.deepEqual(ids(await listed(conversation.uuid)), [t.admin.id]);
    const hidden = await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}/viewers`, as: outsider });
    assert.equal(hidden.statusCode, 404);
  });

  it('bad frames get error frames and change nothing', async () => {
    const conversation = await createConversation(t);
    const socket = await connect(colleague);
    const bad: unknown[] = [
      { type: 'viewing' },
      { type: 'viewing', data: {} },
      { type: 'viewing', data: { conversation_uuid: 42 } },
      { type: 'viewing', data: { conversation_uuid: 'not-a-uuid' } },
      { type: 'viewing', data: { conversation_uuid: `${conversation.uuid}\u0000` } },
      { type: 'viewing', data: { conversation_uuid: conversation.uuid.repeat(1000) } },
      { type: 'viewing', data: { conversation_uuid: conversation.uuid, extra: true } },
      { type: 'viewing', data: [conversation.uuid] },
      { type: 'viewing_stopped', data: { conversation_uuid: null } },
      { type: 'viewing_stopped' },
    ];
    for (const frame of bad) {
      socket.send(frame);
      const answer = await nextFrame(socket);
      assert.equal(answer.type, 'error', JSON.stringify(frame).slice(0, 100));
    }
    socket.send(view('00000000-0000-4000-8000-000000000000'));
    const unknown = await nextFrame(socket);
    assert.equal(unknown.type, 'error');
    assert.equal((unknown.data as { code?: string }).code, 'not_found');
    await noFrame(socket, (f) => f.type === 'conversation_viewers', 200);
    assert.deepEqual(await listed(conversation.uuid), []);
  });

  it(`views at most ${MAX_VIEWING_PER_SOCKET} conversations per socket`, async () => {
    const conversations = [];
    for (let i = 0; i <= MAX_VIEWING_PER_SOCKET; i++) conversations.push(await createConversation(t));
    const socket = await connect(colleague);
    for (const conversation of conversations.slice(0, MAX_VIEWING_PER_SOCKET)) {
      socket.send(view(conversation.uuid));
      await nextFrame(socket, viewersOf(conversation.uuid, same([colleague.id])));
    }
    const last = conversations[MAX_VIEWING_PER_SOCKET];
    assert.ok(last);
    socket.send(view(last.uuid));
    // The error, not a frame the relay brings late about the conversations made above (new_conversation).
    const refused = await nextFrame(socket, (frame) => frame.type === 'error');
    assert.match((refused.data as { message: string }).message, /Too many/);
    assert.deepEqual(await listed(last.uuid), []);
    // Viewing one again is no new one: the socket gets the list.
    const again = conversations[0];
    assert.ok(again);
    socket.send(view(again.uuid));
    await nextFrame(socket, viewersOf(again.uuid, same([colleague.id])));
  });

  it('the route: 404 for an unknown conversation and a malformed uuid, 401 without credentials', async () => {
    const unknown = await t.call({ method: 'GET', url: '/api/v1/conversations/00000000-0000-4000-8000-000000000000/viewers' });
    assert.equal(unknown.statusCode, 404);
    const bad = await t.call({ method: 'GET', url: '/api/v1/conversations/nope/viewers' });
    assert.equal(bad.statusCode, 404);
    const conversation = await createConversation(t);
    const anonymous = await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}/viewers`, as: null });
    assert.equal(anonymous.statusCode, 401);
  });

  it('the viewers of an instance that stopped without a word expire after 60 s', async () => {
    const conversation = await createConversation(t);
    const watcher = await connect(t.admin);
    await upsertViewers(
      t.deps.db,
      [{ conversation_id: conversation.id, socket_key: 'gone:1', agent_id: colleague.id, instance: 'gone', replying: true }],
      new Date(t.deps.clock.now().getTime() - 61_000),
    );
    assert.deepEqual(ids(await listed(conversation.uuid)), [colleague.id]);
    assert.ok((await expireViewers(t.deps)) >= 1);
    await nextFrame(watcher, viewersOf(conversation.uuid, same([])));
    assert.deepEqual(await listed(conversation.uuid), []);
  });

  it('across instances: a viewer on one instance is seen on the other, and so is its drop', async () => {
    const second = await t.secondInstance();
    try {
      const baseB = await listen(second.app);
      const conversation = await createConversation(t);
      const onA = await connect(t.admin);
      const onB = await connect(colleague, baseB);
      onB.send(view(conversation.uuid));
      await nextFrame(onA, viewersOf(conversation.uuid, same([colleague.id])));
      onA.send(view(conversation.uuid));
      await nextFrame(onB, viewersOf(conversation.uuid, same([colleague.id, t.admin.id])));
      onB.send(typing(conversation.uuid, true));
      await nextFrame(
        onA,
        viewersOf(conversation.uuid, (v) => v[0]?.replying === true),
      );
      const fromB = await second.app.inject({
        method: 'GET',
        url: `/api/v1/conversations/${conversation.uuid}/viewers`,
        headers: t.admin.headers,
      });
      assert.deepEqual(ids(dataOf<Viewer[]>(fromB)), [colleague.id, t.admin.id]);
      await onB.close();
      await nextFrame(onA, viewersOf(conversation.uuid, same([t.admin.id])));
    } finally {
      await second.close();
    }
  });
});

describe('viewers of a silent socket', () => {
  it('are dropped when the hub closes the socket after 60 s without a frame', async () => {
    const { fakeClock } = await import('../../test/helpers.ts');
    const clock = fakeClock(new Date());
    const t = await buildTestApp({ clock });
    try {
      const base = await listen(t.app);
      const conversation = await createConversation(t);
      const socket = await openSocket(`${base}/ws`, t.admin.headers);
      socket.send(view(conversation.uuid));
      await nextFrame(socket, viewersOf(conversation.uuid, same([t.admin.id])));
      clock.advance(61_000);
      await closeOf(socket, 10_000);
      const deadline = Date.now() + 10_000;
      let viewers = ['still there'];
      while (viewers.length > 0 && Date.now() < deadline) {
        viewers = dataOf<string[]>(await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}/viewers` }));
        if (viewers.length > 0) await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(viewers, []);
    } finally {
      await t.close();
    }
  });
});
