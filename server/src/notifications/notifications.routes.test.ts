// /api/v1/notifications: an agent reads, marks and deletes their own notifications, and nobody
// else's (docs/api.md, "Notification API and preferences"); the `notification.created` event
// reaches that agent's sockets only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createConversation } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { insertNotification, type Notification } from '../../test/notifications.ts';
import { listen, nextFrame, noFrame, openSocket } from '../../test/sockets.ts';

type Page = { results: Notification[]; total: number; per_page: number; total_pages: number; page: number };
const RECORD_KEYS = ['actor', 'conversation_uuid', 'created_at', 'excerpt', 'id', 'message_uuid', 'read_at', 'title', 'type'];

describe('notifications', () => {
  const clock = fakeClock();
  let t: TestApp;
  let ann: Caller;
  let bob: Caller;
  let conversation: string;
  let message: string;

  before(async () => {
    t = await buildTestApp({ clock });
    ann = await t.makeAgent({ first_name: 'Ann' });
    bob = await t.makeAgent({ first_name: 'Bob' });
    conversation = (await createConversation(t)).uuid;
    const thread = dataOf<{ results: Array<{ uuid: string }> }>(
      await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation}/messages` }),
    );
    message = thread.results[0]?.uuid ?? '';
  });
  after(() => t.close());

  const list = (who: Caller | null, query = '') => t.call({ method: 'GET', url: `/api/v1/notifications${query}`, as: who });
  const count = async (who: Caller) =>
    dataOf<{ count: number }>(await t.call({ method: 'GET', url: '/api/v1/notifications/unread-count', as: who })).count;
  const add = (who: Caller, extra: Partial<Parameters<typeof insertNotification>[1]> = {}) => {
    clock.advance(1000);
    return insertNotification(t, { agentId: who.id, conversationUuid: conversation, ...extra });
  };

  /** Marking or deleting the notification is a 404 for `who`, and read-all marks nothing. */
  const untouchable = async (who: Caller, id: number) => {
    for (const [method, url] of [
      ['PUT', `/api/v1/notifications/${id}/read`],
      ['PUT', `/api/v1/notifications/${id}/unread`],
      ['DELETE', `/api/v1/notifications/${id}`],
    ] as const) {
      assertError(await t.call({ method, url, as: who }), 404, 'NotFoundException');
    }
    assert.equal(dataOf<{ count: number }>(await t.call({ method: 'POST', url: '/api/v1/notifications/read-all', as: who })).count, 0);
  };

  it('lists my notifications newest first, with the conversation and message uuids and the actor', async () => {
    const agent = await t.makeAgent();
    const first = await add(agent, { type: 'mentioned', messageUuid: message, title: 'Bob mentioned you', excerpt: 'Look' });
    const second = await add(agent, { type: 'reply', actor: null, title: 'New reply' });
    await add(bob, { title: 'Not for the agent' });
    const page = dataOf<Page>(await list(agent));
    assert.deepEqual(
      page.results.map((n) => n.id),
      [second.id, first.id],
    );
    assert.equal(page.total, 2);
    for (const item of page.results) assert.deepEqual(Object.keys(item).sort(), RECORD_KEYS);
    const mention = page.results[1];
    assert.equal(mention?.conversation_uuid, conversation);
    assert.equal(mention?.message_uuid, message);
    assert.deepEqual(mention?.actor, { type: 'agent', id: null, name: 'Someone' });
    assert.equal(mention?.excerpt, 'Look');
    assert.equal(mention?.read_at, null);
    assert.equal(page.results[0]?.actor, null);
    assert.equal(page.results[0]?.message_uuid, null);
    assert.deepEqual(page.results[1], JSON.parse(JSON.stringify(first)));
  });

  it('pages with the project envelope (total past the last page; clamped sizes)', async () => {
    const agent = await t.makeAgent();
    const made: number[] = [];
    for (let i = 0; i < 5; i += 1) made.push((await add(agent, { title: `N${i}` })).id);
    const newestFirst = made.reverse();
    const p1 = dataOf<Page>(await list(agent, '?page=1&page_size=2'));
    assert.deepEqual(
      { total: p1.total, per_page: p1.per_page, total_pages: p1.total_pages, page: p1.page },
      {
        total: 5,
        per_page: 2,
        total_pages: 3,
        page: 1,
      },
    );
    const p2 = dataOf<Page>(await list(agent, '?page=2&page_size=2'));
    const p3 = dataOf<Page>(await list(agent, '?page=3&page_size=2'));
    assert.deepEqual(
      [...p1.results, ...p2.results, ...p3.results].map((n) => n.id),
      newestFirst,
    );
    const past = dataOf<Page>(await list(agent, '?page=9&page_size=2'));
    assert.deepEqual(past.results, []);
    assert.equal(past.total, 5);
    assert.equal(dataOf<Page>(await list(agent, '?page_size=1000')).per_page, 100);
    assert.equal(dataOf<Page>(await list(agent, '?page_size=0')).per_page, 1);
  });

  it('same created_at: id breaks the tie, so pages are stable', async () => {
    const agent = await t.makeAgent();
    const at = new Date('2026-01-01T00:00:00Z');
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await insertNotification(t, { agentId: agent.id, conversationUuid: conversation, createdAt: at })).id);
    const pages = [1, 2, 3].map((p) => list(agent, `?page=${p}&page_size=1`));
    const seen = (await Promise.all(pages)).map((r) => dataOf<Page>(r).results[0]?.id);
    assert.deepEqual(seen, ids.reverse());
  });

  it('unread=true lists only the unread ones; unread-count counts them', async () => {
    const agent = await t.makeAgent();
    const a = await add(agent);
    const b = await add(agent, { readAt: clock.now() });
    const c = await add(agent);
    assert.equal(await count(agent), 2);
    const unread = dataOf<Page>(await list(agent, '?unread=true'));
    assert.deepEqual(
      unread.results.map((n) => n.id),
      [c.id, a.id],
    );
    assert.equal(unread.total, 2);
    const all = dataOf<Page>(await list(agent, '?unread=false'));
    assert.deepEqual(
      all.results.map((n) => n.id),
      [c.id, b.id, a.id],
    );
  });

  it('rows made only for mail or push are not shown, counted, marked or deleted', async () => {
    const agent = await t.makeAgent();
    const hidden = await add(agent, { inApp: false });
    assert.equal(dataOf<Page>(await list(agent)).total, 0);
    assert.equal(await count(agent), 0);
    await untouchable(agent, hidden.id);
  });

  it('a notification about a conversation the agent may no longer read is left out and a 404, until the access comes back', async () => {
    const agent = await agentWith(t, ['conversations:read', 'conversations:read_assigned']);
    const c = await createConversation(t);
    const assign = (assignee: number) =>
      t.call({ method: 'PUT', url: `/api/v1/conversations/${c.uuid}/assignee/user`, payload: { assignee_id: assignee } }).then(dataOf);
    await assign(agent.id);
    const mine = await insertNotification(t, { agentId: agent.id, conversationUuid: c.uuid, title: 'Yours' });
    assert.equal(dataOf<Page>(await list(agent)).total, 1);
    await assign(bob.id);
    assert.deepEqual(dataOf<Page>(await list(agent)).results, []);
    assert.equal(dataOf<Page>(await list(agent)).total, 0);
    assert.equal(await count(agent), 0);
    await untouchable(agent, mine.id);
    await assign(agent.id);
    assert.deepEqual(
      dataOf<Page>(await list(agent)).results.map((n) => n.id),
      [mine.id],
    );
    assert.equal(await count(agent), 1, 'left as it was: unread');
  });

  it('read and unread: the record comes back; reading again keeps the first read time', async () => {
    const agent = await t.makeAgent();
    const n = await add(agent);
    const read = (id: number) => t.call({ method: 'PUT', url: `/api/v1/notifications/${id}/read`, as: agent });
    const first = dataOf<Notification>(await read(n.id));
    assert.deepEqual(Object.keys(first).sort(), RECORD_KEYS);
    assert.equal(first.read_at, clock.now().toISOString());
    assert.equal(await count(agent), 0);
    clock.advance(60_000);
    assert.equal(dataOf<Notification>(await read(n.id)).read_at, first.read_at);
    const unread = dataOf<Notification>(await t.call({ method: 'PUT', url: `/api/v1/notifications/${n.id}/unread`, as: agent }));
    assert.equal(unread.read_at, null);
    assert.equal(await count(agent), 1);
    assert.equal(dataOf<Notification>(await read(n.id)).read_at, clock.now().toISOString());
  });

  it('read-all marks every unread one of mine, and answers how many', async () => {
    const agent = await t.makeAgent();
    await add(agent);
    await add(agent);
    const old = await add(agent, { readAt: new Date('2026-01-01T00:00:00Z') });
    const others = await add(bob);
    const marked = dataOf<{ count: number }>(await t.call({ method: 'POST', url: '/api/v1/notifications/read-all', as: agent }));
    assert.deepEqual(marked, { count: 2 });
    assert.equal(await count(agent), 0);
    const page = dataOf<Page>(await list(agent));
    assert.equal(page.results.find((n) => n.id === old.id)?.read_at, '2026-01-01T00:00:00.000Z');
    const bobs = dataOf<Page>(await list(bob, '?unread=true'));
    assert.ok(
      bobs.results.some((n) => n.id === others.id),
      "another agent's stay unread",
    );
  });

  it('delete removes mine; then it is a 404', async () => {
    const agent = await t.makeAgent();
    const n = await add(agent);
    const del = () => t.call({ method: 'DELETE', url: `/api/v1/notifications/${n.id}`, as: agent });
    assert.equal(dataOf(await del()), true);
    assertError(await del(), 404, 'NotFoundException');
    assert.equal(dataOf<Page>(await list(agent)).total, 0);
  });

  it("another agent's notification is a 404 for every call, and stays as it was", async () => {
    const theirs = await add(bob);
    for (const [method, url] of [
      ['PUT', `/api/v1/notifications/${theirs.id}/read`],
      ['PUT', `/api/v1/notifications/${theirs.id}/unread`],
      ['DELETE', `/api/v1/notifications/${theirs.id}`],
    ] as const) {
      assertError(await t.call({ method, url, as: ann }), 404, 'NotFoundException', `${method} ${url}`);
      // Admins too: notifications are personal, whatever the permissions.
      assertError(await t.call({ method, url }), 404, 'NotFoundException', `admin ${method} ${url}`);
    }
    const still = dataOf<Page>(await list(bob)).results.find((n) => n.id === theirs.id);
    assert.equal(still?.read_at, null);
  });

  it('malformed ids are 404s (wrong type, zero, negative, huge, NUL)', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '1e3', '0x10', '99999999999999999999', '9007199254740992', 'a%00b', '%00']) {
      for (const [method, url] of [
        ['PUT', `/api/v1/notifications/${id}/read`],
        ['PUT', `/api/v1/notifications/${id}/unread`],
        ['DELETE', `/api/v1/notifications/${id}`],
      ] as const) {
        const res = await t.call({ method, url, as: ann });
        assert.ok([400, 404].includes(res.statusCode), `${method} ${url}: ${res.statusCode} ${res.body}`);
        assertError(res, res.statusCode, res.statusCode === 404 ? 'NotFoundException' : 'InputException', `${method} ${url}`);
      }
    }
    // A well-formed id nobody has.
    assertError(await t.call({ method: 'PUT', url: '/api/v1/notifications/9007199254740991/read', as: ann }), 404, 'NotFoundException');
  });

  it('bad query values and unknown parameters are 400s', async () => {
    for (const query of ['?unread=yes', '?unread=', '?page=abc', '?page_size=1.5', '?page=-', '?since=1', '?unread=true%00', '?a%00=1']) {
      assertError(await list(ann, query), 400, 'InputException', query);
    }
  });

  it('refuses callers without credentials or with wrong ones (401), and cookie writes without the CSRF token (403)', async () => {
    const n = await add(ann);
    const anonymous = [
      ['GET', '/api/v1/notifications'],
      ['GET', '/api/v1/notifications/unread-count'],
      ['POST', '/api/v1/notifications/read-all'],
      ['PUT', `/api/v1/notifications/${n.id}/read`],
      ['PUT', `/api/v1/notifications/${n.id}/unread`],
      ['DELETE', `/api/v1/notifications/${n.id}`],
    ] as const;
    const wrong = { ...ann, headers: { authorization: `token ${ann.apiKey}:${'x'.repeat(64)}` } };
    for (const [method, url] of anonymous) {
      assertError(await t.call({ method, url, as: null }), 401, 'UnauthorizedException', `${method} ${url}`);
      assertError(await t.call({ method, url, as: wrong }), 401, 'UnauthorizedException', `${method} ${url} (wrong secret)`);
    }
    const login = await t.call({
      method: 'POST',
      url: '/api/v1/auth/login',
      as: null,
      payload: { email: t.admin.email, password: 'admin-password-123' },
    });
    const cookies = Object.fromEntries(
      ([] as string[]).concat(login.headers['set-cookie'] as string | string[]).map((c) => c.split(';')[0]?.split('=') as [string, string]),
    );
    const cookie = Object.entries(cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    assertError(
      await t.call({ method: 'POST', url: '/api/v1/notifications/read-all', as: null, headers: { cookie } }),
      403,
      'PermissionException',
    );
    const withToken = await t.call({
      method: 'POST',
      url: '/api/v1/notifications/read-all',
      as: null,
      headers: { cookie, 'x-csrf-token': cookies['csrf_token'] ?? '' },
    });
    assert.equal(typeof dataOf<{ count: number }>(withToken).count, 'number');
    assert.equal(await count(ann), 1, "the admin's read-all left Ann's alone");
  });

  it('an API key works like a session: the same agent, the same rows, no CSRF token needed', async () => {
    const agent = await t.makeAgent();
    const n = await add(agent);
    const token = { ...agent, headers: { authorization: `token ${agent.apiKey}:${agent.apiSecret}` } };
    assert.equal(dataOf<Page>(await list(token)).results[0]?.id, n.id);
    assert.equal(dataOf<Notification>(await t.call({ method: 'PUT', url: `/api/v1/notifications/${n.id}/read`, as: token })).id, n.id);
  });

  it('a deleted conversation takes its notifications with it', async () => {
    const agent = await t.makeAgent();
    const other = (await createConversation(t)).uuid;
    await insertNotification(t, { agentId: agent.id, conversationUuid: other });
    assert.equal(await count(agent), 1);
    await t.deps.db.deleteFrom('conversations').where('uuid', '=', other).execute();
    assert.equal(await count(agent), 0);
  });

  it("recording notification.created sends the frame to that agent's sockets only", async () => {
    const base = await listen(t.app);
    const annSocket = await openSocket(`${base}/ws`, ann.headers);
    const bobSocket = await openSocket(`${base}/ws`, bob.headers);
    try {
      const made = await add(ann, { type: 'mentioned', title: 'Bob mentioned you', messageUuid: message });
      const frame = await nextFrame(annSocket, (f) => f.type === 'notification');
      assert.deepEqual(frame.data, JSON.parse(JSON.stringify(made)));
      assert.equal(typeof frame.event?.id, 'number');
      await noFrame(bobSocket, (f) => f.type === 'notification');
      // A row made only for mail or push sends nothing.
      await add(ann, { inApp: false });
      await noFrame(annSocket, (f) => f.type === 'notification');
    } finally {
      await annSocket.close();
      await bobSocket.close();
    }
  });
});
