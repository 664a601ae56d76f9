// Drafts through the public API: per agent and conversation, restored on another session of the
// same agent, sanitised, deleted by sending, seen by colleagues without content, purged after
// 15 days (docs/api.md, "Working together").
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { agentWith, createConversation } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { file, mediaCalls } from '../../test/media.ts';
import { asSession, signIn } from '../../test/sessions.ts';
import { DRAFT_SAVES_PER_MINUTE } from './drafts.routes.ts';
import { purgeStaleDrafts } from './drafts.service.ts';

type Draft = { content: string; private: boolean; attachments: string[]; updated_at: string };
type Colleague = { agent_id: number; name: string; private: boolean; updated_at: string };

const DAY = 24 * 3600 * 1000;

describe('drafts', () => {
  const clock = fakeClock();
  let t: TestApp;
  let ana: Caller;
  let ben: Caller;
  const password = 'correct horse battery staple';

  before(async () => {
    t = await buildTestApp({ clock });
    ana = await t.makeAgent({ roles: ['Admin'], first_name: 'Ana', password });
    ben = await t.makeAgent({ roles: ['Admin'], first_name: 'Ben' });
  });
  after(() => t.close());

  const { uploaded } = mediaCalls(() => t);
  const url = (uuid: string, path = 'draft') => `/api/v1/conversations/${uuid}/${path}`;
  const get = async (uuid: string, as: Caller) => dataOf<Draft | null>(await t.call({ method: 'GET', url: url(uuid), as }));
  const put = (uuid: string, as: Caller | null, payload: unknown) =>
    t.call({ method: 'PUT', url: url(uuid), as, payload: payload as object });
  const saved = async (uuid: string, as: Caller, payload: Record<string, unknown>) => dataOf<Draft>(await put(uuid, as, payload));
  const colleagues = async (uuid: string, as: Caller) => dataOf<Colleague[]>(await t.call({ method: 'GET', url: url(uuid, 'drafts'), as }));
  const send = async (uuid: string, as: Caller, payload: Record<string, unknown>) =>
    dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, as, payload }));

  it('saves, reads, replaces and deletes the caller’s draft', async () => {
    const c = await createConversation(t);
    assert.equal(await get(c.uuid, ana), null, 'none yet');
    const first = await saved(c.uuid, ana, { content: '<p>Hello</p>' });
    assert.deepEqual(first, { content: '<p>Hello</p>', private: false, attachments: [], updated_at: clock.now().toISOString() });
    assert.deepEqual(await get(c.uuid, ana), first);
    clock.advance(5000);
    const second = await saved(c.uuid, ana, { content: '<p>Hello again</p>', private: true });
    assert.deepEqual(second, { content: '<p>Hello again</p>', private: true, attachments: [], updated_at: clock.now().toISOString() });
    // A full replace: what the body leaves out goes back to its default.
    assert.equal((await saved(c.uuid, ana, { content: '<p>Third</p>' })).private, false);
    assert.equal(await get(c.uuid, ben), null, 'Ben has his own (none)');
    assert.equal(dataOf(await t.call({ method: 'DELETE', url: url(c.uuid), as: ana })), true);
    assert.equal(await get(c.uuid, ana), null);
    assert.equal(dataOf(await t.call({ method: 'DELETE', url: url(c.uuid), as: ana })), true, 'deleting none is fine');
  });

  it('an empty draft is deleted instead of kept', async () => {
    const c = await createConversation(t);
    await saved(c.uuid, ana, { content: '<p>Something</p>' });
    assert.equal(dataOf(await put(c.uuid, ana, { content: '<p> </p><br>' })), null);
    assert.equal(await get(c.uuid, ana), null);
    assert.deepEqual(await colleagues(c.uuid, ben), []);
  });

  it('follows the agent to another session (another device)', async () => {
    const c = await createConversation(t);
    const laptop = await signIn(t.app, ana.email, password);
    const phone = await signIn(t.app, ana.email, password);
    const res = await asSession(t.app, laptop, { method: 'PUT', url: url(c.uuid), payload: { content: '<p>From the laptop</p>' } });
    assert.equal(res.statusCode, 200, res.body);
    const onPhone = dataOf<Draft>(await asSession(t.app, phone, { method: 'GET', url: url(c.uuid) }));
    assert.equal(onPhone.content, '<p>From the laptop</p>');
    assert.equal((await get(c.uuid, ana))?.content, '<p>From the laptop</p>', 'and through the API key');
  });

  it('sanitises the content like a message', async () => {
    const c = await createConversation(t);
    const draft = await saved(c.uuid, ana, {
      content:
        '<p onclick="steal()">Hi <script>alert(1)</script><b>there</b></p><img src="/api/v1/agents"><a href="javascript:x()">link</a>',
    });
    assert.doesNotMatch(draft.content, /script|alert|onclick|javascript|\/api\/v1/);
    assert.match(draft.content, /<b>there<\/b>/);
    assert.equal((await get(c.uuid, ana))?.content, draft.content, 'stored sanitised');
  });

  it('keeps the caller’s own uploads as attachments and refuses anyone else’s', async () => {
    const c = await createConversation(t);
    const [mine] = await uploaded([file('mine.txt', 'mine')], ana);
    const [his] = await uploaded([file('his.txt', 'his')], ben);
    const draft = await saved(c.uuid, ana, { content: '', attachments: [mine!.uuid.toUpperCase()] });
    assert.deepEqual(draft.attachments, [mine!.uuid], 'an attachment alone is a draft; uuids in canonical form');
    for (const attachments of [[his!.uuid], [randomUUID()], [mine!.uuid, mine!.uuid]]) {
      assertError(await put(c.uuid, ana, { content: '<p>x</p>', attachments }), 400, 'InputException', JSON.stringify(attachments));
    }
    assert.deepEqual((await get(c.uuid, ana))?.attachments, [mine!.uuid], 'a refused save changes nothing');
  });

  it('is deleted when its agent sends a reply, a note, or a message with attachments, and only then', async () => {
    const c = await createConversation(t);
    await saved(c.uuid, ana, { content: '<p>Ana writes</p>' });
    await saved(c.uuid, ben, { content: '<p>Ben writes</p>' });
    // An activity message of Ana's (a priority change) is no message she sent.
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${c.uuid}/priority`, as: ana, payload: { priority: 'High' } }));
    assert.notEqual(await get(c.uuid, ana), null, 'an activity message keeps the draft');
    await send(c.uuid, ana, { message: '<p>Ana writes</p>' });
    assert.equal(await get(c.uuid, ana), null, 'a reply deletes the sender’s draft');
    assert.notEqual(await get(c.uuid, ben), null, 'not a colleague’s');

    await send(c.uuid, ben, { message: '<p>A note</p>', private: true });
    assert.equal(await get(c.uuid, ben), null, 'a note deletes it too');

    const [upload] = await uploaded([file('a.txt', 'a')], ana);
    await saved(c.uuid, ana, { content: '<p>With a file</p>', attachments: [upload!.uuid] });
    await send(c.uuid, ana, { message: '<p>With a file</p>', attachments: [upload!.uuid] });
    assert.equal(await get(c.uuid, ana), null, 'the locked path (attachments) deletes it too');

    const other = await createConversation(t);
    await saved(other.uuid, ana, { content: '<p>Elsewhere</p>' });
    await send(c.uuid, ana, { message: '<p>Here</p>' });
    assert.notEqual(await get(other.uuid, ana), null, 'a message elsewhere keeps the draft of another conversation');
  });

  it('shows colleagues who has a draft, never its content', async () => {
    const c = await createConversation(t);
    assert.deepEqual(await colleagues(c.uuid, ana), []);
    await saved(c.uuid, ben, { content: '<p>Secret words</p>', private: true });
    const listed = await colleagues(c.uuid, ana);
    assert.deepEqual(listed, [{ agent_id: ben.id, name: 'Ben Test', private: true, updated_at: clock.now().toISOString() }]);
    assert.doesNotMatch(JSON.stringify(listed), /Secret/);
    assert.deepEqual(await colleagues(c.uuid, ben), [], 'one’s own draft is not a colleague’s');
  });

  it('another agent can neither read nor change my draft', async () => {
    const c = await createConversation(t);
    await saved(c.uuid, ana, { content: '<p>Mine</p>' });
    assert.equal(await get(c.uuid, ben), null);
    await saved(c.uuid, ben, { content: '<p>His</p>' });
    dataOf(await t.call({ method: 'DELETE', url: url(c.uuid), as: ben }));
    assert.equal((await get(c.uuid, ana))?.content, '<p>Mine</p>', 'his save and delete touch his own only');
  });

  it('answers 404 for a conversation the caller may not read, and for an unknown one', async () => {
    const c = await createConversation(t);
    await saved(c.uuid, ana, { content: '<p>Mine</p>' });
    const assignedOnly = await agentWith(t, ['conversations:read', 'conversations:read_assigned', 'messages:write']);
    for (const uuid of [c.uuid, randomUUID()]) {
      assertError(await t.call({ method: 'GET', url: url(uuid), as: assignedOnly }), 404, 'NotFoundException');
      assertError(await put(uuid, assignedOnly, { content: '<p>x</p>' }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'DELETE', url: url(uuid), as: assignedOnly }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'GET', url: url(uuid, 'drafts'), as: assignedOnly }), 404, 'NotFoundException');
    }
    const readOnly = await agentWith(t, ['conversations:read', 'conversations:read_all']);
    assertError(await put(c.uuid, readOnly, { content: '<p>x</p>' }), 403, 'PermissionException', 'saving needs messages:write');
    assert.deepEqual(await colleagues(c.uuid, ben), [
      { agent_id: ana.id, name: 'Ana Test', private: false, updated_at: clock.now().toISOString() },
    ]);
  });

  it('refuses bad input with 4xx and changes nothing', async () => {
    const c = await createConversation(t);
    await saved(c.uuid, ana, { content: '<p>Kept</p>' });
    const deep = `${'<div>'.repeat(150)}x${'</div>'.repeat(150)}`;
    const bad: Array<[unknown, number]> = [
      [{}, 400],
      [{ content: 42 }, 400],
      [{ content: null }, 400],
      [{ content: '<p>x</p>', private: 'yes' }, 400],
      [{ content: 'x'.repeat(100_001) }, 400],
      [{ content: 'a\u0000b' }, 400],
      [{ content: deep }, 400],
      [{ content: '<p>x</p>', attachments: 'not-a-list' }, 400],
      [{ content: '<p>x</p>', attachments: ['not-a-uuid'] }, 400],
      [{ content: '<p>x</p>', attachments: Array.from({ length: 21 }, () => randomUUID()) }, 400],
      [{ content: '<p>x</p>', extra: true }, 400],
    ];
    for (const [payload, status] of bad) {
      const res = await put(c.uuid, ana, payload);
      assert.equal(res.statusCode, status, `${JSON.stringify(payload).slice(0, 80)}: ${res.body}`);
      assertError(res, status, 'InputException');
    }
    // A malformed identifier in the path is a 404 (docs/api.md, Input rules).
    assertError(await t.call({ method: 'GET', url: url('not-a-uuid'), as: ana }), 404, 'NotFoundException');
    assertError(await put('not-a-uuid', ana, { content: '<p>x</p>' }), 404, 'NotFoundException');
    assert.equal((await get(c.uuid, ana))?.content, '<p>Kept</p>');
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.call({ method, url: url(c.uuid), as: null, ...(method === 'PUT' ? { payload: { content: 'x' } } : {}) });
      assertError(res, 401, 'UnauthorizedException', method);
    }
    assertError(await t.call({ method: 'GET', url: url(c.uuid, 'drafts'), as: null }), 401, 'UnauthorizedException');
  });

  it('limits saves per agent (429), not per conversation', async () => {
    const c = await createConversation(t);
    const d = await createConversation(t);
    const typist = await t.makeAgent({ roles: ['Admin'] });
    for (let i = 0; i < DRAFT_SAVES_PER_MINUTE; i++)
      dataOf(await put(i % 2 ? c.uuid : d.uuid, typist, { content: `<p>${i}</p>` }), `save ${i}`);
    assertError(await put(c.uuid, typist, { content: '<p>one too many</p>' }), 429, 'RateLimitException');
    assert.equal((await get(c.uuid, typist))?.content, `<p>${DRAFT_SAVES_PER_MINUTE - 1}</p>`, 'the refused save changed nothing');
    dataOf(await put(c.uuid, ana, { content: '<p>Ana is not limited by another agent</p>' }));
  });

  it('deletes drafts not updated for 15 days', async () => {
    const c = await createConversation(t);
    const d = await createConversation(t);
    await saved(c.uuid, ana, { content: '<p>Old</p>' });
    clock.advance(10 * DAY);
    await saved(d.uuid, ana, { content: '<p>Newer</p>' });
    clock.advance(5 * DAY - 1000);
    await purgeStaleDrafts(t.deps);
    assert.notEqual(await get(c.uuid, ana), null, 'not yet 15 days');
    clock.advance(2000);
    assert.ok((await purgeStaleDrafts(t.deps)) >= 1);
    assert.equal(await get(c.uuid, ana), null, 'older than 15 days: gone');
    assert.notEqual(await get(d.uuid, ana), null, 'the newer one stays');
  });
});
