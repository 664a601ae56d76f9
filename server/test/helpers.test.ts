// The test helpers check what they claim to, and the factories make what they promise.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createContact, createConversation, createInbox, createTeam } from './factories.ts';
import { assertError, buildTestApp, dataOf, errorOf, type TestApp } from './helpers.ts';

describe('envelope helpers', () => {
  const answer = (statusCode: number, body: unknown, headers?: Record<string, unknown>) => ({
    statusCode,
    body: JSON.stringify(body),
    json: () => body,
    ...(headers ? { headers } : {}),
  });
  const envelope = { status: 'error', message: 'Tag not found', data: null, error_type: 'NotFoundException' };
  const jsonHeaders = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r1' };

  it('assertError accepts exactly the error envelope, with the status and type asked for', () => {
    assert.deepEqual(assertError(answer(404, envelope, jsonHeaders), 404, 'NotFoundException'), envelope);
    const refused: Array<[string, ReturnType<typeof answer>]> = [
      ['another status', answer(400, envelope)],
      ['another type', answer(404, { ...envelope, error_type: 'InputException' })],
      ['a stray key', answer(404, { ...envelope, stack: 'at x.ts' })],
      ['no data key', answer(404, { status: 'error', message: 'x', error_type: 'NotFoundException' })],
      ['an empty message', answer(404, { ...envelope, message: '' })],
      ['status success', answer(404, { ...envelope, status: 'success' })],
      ['no request id', answer(404, envelope, { 'content-type': 'application/json' })],
      ['not JSON', answer(404, envelope, { ...jsonHeaders, 'content-type': 'text/html' })],
    ];
    for (const [label, res] of refused) assert.throws(() => assertError(res, 404, 'NotFoundException'), Error, label);
    assert.throws(() => errorOf({ statusCode: 500, body: '<html>', json: () => JSON.parse('<html>') }), /JSON error envelope/);
  });

  it('dataOf accepts exactly a 200 success envelope and returns its data', () => {
    assert.deepEqual(dataOf(answer(200, { status: 'success', data: { id: 1 } })), { id: 1 });
    assert.throws(() => dataOf(answer(201, { status: 'success', data: 1 })), /expected 200/);
    assert.throws(() => dataOf(answer(200, { status: 'success', data: 1, extra: true })));
    assert.throws(() => dataOf(answer(200, { success: true, data: 1 })));
  });
});

describe('test factories', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('createInbox: a live-chat inbox by default, an email inbox on request, overrides applied', async () => {
    const chat = await createInbox(t);
    assert.equal(chat.channel, 'livechat');
    const email = await createInbox(t, { channel: 'email', name: 'Billing mail' });
    assert.equal(email.channel, 'email');
    assert.equal(email.name, 'Billing mail');
    assert.match(email.from ?? '', /@example\.com>$/);
    assert.notEqual(chat.name, (await createInbox(t)).name, 'default names are unique');
  });

  it('createTeam and createContact: unique defaults, overrides applied', async () => {
    const [a, b] = [await createTeam(t), await createTeam(t, { name: 'Named team', emoji: '🦊' })];
    assert.notEqual(a.name, b.name);
    assert.deepEqual([b.name, b.emoji], ['Named team', '🦊']);
    const contact = await createContact(t, { first_name: 'Ada' });
    assert.equal(contact.type, 'contact');
    assert.equal(contact.first_name, 'Ada');
    assert.notEqual(contact.email, (await createContact(t)).email);
  });

  it('createConversation makes its inbox and contact, or uses the given ones', async () => {
    const fresh = await createConversation(t);
    assert.equal(fresh.status, 'Open');
    assert.equal(fresh.last_message_sender, 'contact');
    const inbox = await createInbox(t, { name: 'Given inbox' });
    const contact = await createContact(t);
    const given = await createConversation(t, { inbox_id: inbox.id, contact_id: contact.id, subject: 'Given' });
    assert.deepEqual([given.inbox_id, given.contact.id, given.subject], [inbox.id, contact.id, 'Given']);
    assert.notEqual(fresh.inbox_id, inbox.id);
  });

  it('agentWith: exactly the permissions given, in the teams given; [] gives an agent with no role', async () => {
    const team = await createTeam(t);
    const caller = await agentWith(t, ['tags:manage', 'contacts:read'], { teams: [team.id], first_name: 'Perm' });
    const me = dataOf<{ permissions: string[]; teams: Array<{ id: number }>; first_name: string }>(
      await t.call({ method: 'GET', url: '/api/v1/agents/me', as: caller }),
    );
    assert.deepEqual(me.permissions, ['contacts:read', 'tags:manage']);
    assert.deepEqual(
      me.teams.map((x) => x.id),
      [team.id],
    );
    assert.equal(me.first_name, 'Perm');
    const none = await agentWith(t, []);
    assert.deepEqual(
      dataOf<{ permissions: string[] }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: none })).permissions,
      [],
    );
    assertError(await t.call({ method: 'GET', url: '/api/v1/contacts', as: none }), 403, 'PermissionException');
  });
});
