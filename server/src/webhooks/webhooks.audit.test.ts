// What webhook changes write to the audit log: an entry per create, update, toggle, secret
// rotation and delete; the signing secret and credential headers only ever masked; none for a
// refused request or an update that changes nothing.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertAudited, assertNotAudited, auditEntries } from '../../test/audit.ts';
import { buildTestApp, type TestApp, dataOf as ok } from '../../test/helpers.ts';
import { MASKED } from '../audit/audit.service.ts';
import { SECRET_MASK } from '../security/encryption.ts';
import { webhookChanges, withoutCredentials } from './webhooks.audit.ts';

const ownSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

describe('webhook changes in the audit log', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('create, update, toggle, rotation and delete name what changed; secrets and credential headers stay masked', async () => {
    const given = ownSecret();
    const body = {
      name: 'Orders',
      url: 'https://hooks.example.com/orders',
      events: ['conversation.created'],
      headers: { 'X-Team': 'red', Authorization: 'Bearer header-token-1', 'X-Api-Key': 'header-key-1' },
      secret: given,
    };
    const created = await t.call({ method: 'POST', url: '/api/v1/webhooks', payload: body });
    const hook = ok<{ id: number }>(created);
    const resource = { type: 'webhook', id: hook.id, name: 'Orders' };
    const secrets = [given, 'header-token-1', 'header-key-1', 'header-key-2'];
    await assertAudited(t, created, {
      action: 'webhook.created',
      resource,
      changes: {
        name: [null, 'Orders'],
        url: [null, 'https://hooks.example.com/orders'],
        enabled: [null, true],
        events: [null, ['conversation.created']],
        'headers.X-Team': [null, 'red'],
        'headers.Authorization': [null, MASKED],
        'headers.X-Api-Key': [null, MASKED],
        secret: [null, MASKED],
      },
      secrets,
    });

    const next = ownSecret();
    const updated = await t.call({
      method: 'PUT',
      url: `/api/v1/webhooks/${hook.id}`,
      payload: {
        ...body,
        events: ['conversation.created', 'contact.created'],
        headers: { 'X-Team': 'blue', Authorization: SECRET_MASK, 'X-Api-Key': 'header-key-2' },
        secret: next,
      },
    });
    ok(updated);
    await assertAudited(t, updated, {
      action: 'webhook.updated',
      resource,
      changes: {
        events: [['conversation.created'], ['conversation.created', 'contact.created']],
        'headers.X-Team': ['red', 'blue'],
        'headers.X-Api-Key': [MASKED, MASKED],
        secret: [MASKED, MASKED],
      },
      secrets: [...secrets, next],
    });

    const same = await t.call({
      method: 'PUT',
      url: `/api/v1/webhooks/${hook.id}`,
      payload: { name: 'Orders', url: body.url, events: ['conversation.created', 'contact.created'], secret: SECRET_MASK },
    });
    ok(same);
    await assertNotAudited(t, same, 'update that changes nothing');

    const toggled = await t.call({ method: 'PUT', url: `/api/v1/webhooks/${hook.id}/toggle`, payload: { enabled: false } });
    ok(toggled);
    await assertAudited(t, toggled, { action: 'webhook.updated', resource, changes: { enabled: [true, false] } });

    const rotated = await t.call({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/secret/rotate` });
    const shown = ok<{ secret: string }>(rotated).secret;
    assert.match(shown, /^whsec_/);
    await assertAudited(t, rotated, {
      action: 'webhook.secret_rotated',
      resource,
      changes: { secret: [MASKED, MASKED] },
      secrets: [...secrets, next, shown],
    });

    const deleted = await t.call({ method: 'DELETE', url: `/api/v1/webhooks/${hook.id}` });
    ok(deleted);
    await assertAudited(t, deleted, {
      action: 'webhook.deleted',
      resource,
      changesInclude: { name: ['Orders', null], 'headers.Authorization': [MASKED, null], secret: [MASKED, null] },
      secrets: [...secrets, next, shown],
    });
    assert.deepEqual(
      (await auditEntries(t, { resource_type: 'webhook', resource_id: hook.id })).map((e) => e.action),
      ['webhook.created', 'webhook.updated', 'webhook.updated', 'webhook.secret_rotated', 'webhook.deleted'],
    );
  });

  it('refused requests write nothing', async () => {
    const agent = await t.makeAgent();
    const body = { name: 'Taken', url: 'https://hooks.example.com/taken', events: ['contact.created'] };
    const hook = ok<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/webhooks', payload: body }));
    const before = (await auditEntries(t)).length;
    const refusals: Array<[number, Parameters<TestApp['call']>[0]]> = [
      [409, { method: 'POST', url: '/api/v1/webhooks', payload: { ...body, name: 'TAKEN' } }],
      [403, { method: 'POST', url: '/api/v1/webhooks', payload: { ...body, name: 'Other' }, as: agent }],
      [400, { method: 'POST', url: '/api/v1/webhooks', payload: { ...body, name: 'Weak', secret: 'whsec_short' } }],
      [404, { method: 'PUT', url: '/api/v1/webhooks/999999', payload: body }],
      [404, { method: 'PUT', url: '/api/v1/webhooks/999999/toggle', payload: { enabled: true } }],
      [404, { method: 'POST', url: '/api/v1/webhooks/999999/secret/rotate' }],
      [403, { method: 'POST', url: `/api/v1/webhooks/${hook.id}/secret/rotate`, as: agent }],
      [404, { method: 'DELETE', url: '/api/v1/webhooks/999999' }],
    ];
    for (const [status, request] of refusals) {
      const res = await t.call(request);
      assert.equal(res.statusCode, status, `${request.method} ${request.url}: ${res.body}`);
      await assertNotAudited(t, res, `${request.method} ${request.url}`);
    }
    assert.equal((await auditEntries(t)).length, before, 'no entry at all');
  });
});

describe('a webhook address in the audit log', () => {
  it('shows no user info and no query value, which often carry a token; a change to one is still a change', () => {
    assert.equal(
      withoutCredentials('https://bot:pw-123@hooks.example.com/in/x?token=tok-456&team=a&team=b'),
      `https://${MASKED}@hooks.example.com/in/x?token=${MASKED}&team=${MASKED}`,
    );
    assert.equal(withoutCredentials('https://hooks.example.com/orders'), 'https://hooks.example.com/orders');
    assert.equal(withoutCredentials('not a url'), MASKED);
    const changes = webhookChanges(
      { name: 'A', url: 'https://h.example.com/x?token=old-1', enabled: true, events: [], headers: {} },
      { name: 'A', url: 'https://h.example.com/x?token=new-2', enabled: true, events: [], headers: {} },
      false,
    );
    assert.deepEqual(changes, { url: [`https://h.example.com/x?token=${MASKED}`, `https://h.example.com/x?token=${MASKED}`] });
  });
});
