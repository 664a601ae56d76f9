// What inbox changes write to the audit log: an entry per create, update, toggle, secret rotation
// and delete, naming each setting that changed, with the IMAP and SMTP passwords and the live-chat
// secret masked; none for a refused request or an update that changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAudited, assertNotAudited, auditEntries } from '../../test/audit.ts';
import { testEmailConfig } from '../../test/factories.ts';
import { buildTestApp, type TestApp, dataOf as ok } from '../../test/helpers.ts';
import { MASKED } from '../audit/audit.service.ts';
import { SECRET_MASK } from '../security/encryption.ts';

describe('inbox changes in the audit log', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('an email inbox: create, update, toggle and delete name what changed, the passwords masked', async () => {
    const config = testEmailConfig();
    config.imap.password = 'imap-secret-4711';
    config.smtp.password = 'smtp-secret-4712';
    const created = await t.call({
      method: 'POST',
      url: '/api/v1/inboxes',
      payload: { name: 'Support mail', channel: 'email', from: 'support@example.com', config },
    });
    const inbox = ok<{ id: number }>(created);
    const resource = { type: 'inbox', id: inbox.id, name: 'Support mail' };
    const secrets = ['imap-secret-4711', 'smtp-secret-4712', 'smtp-secret-4713'];
    await assertAudited(t, created, {
      action: 'inbox.created',
      resource,
      changesInclude: {
        name: [null, 'Support mail'],
        channel: [null, 'email'],
        from: [null, 'support@example.com'],
        'config.imap.host': [null, 'imap.example.com'],
        'config.imap.password': [null, MASKED],
        'config.smtp.password': [null, MASKED],
      },
      secrets,
    });

    // The IMAP password sent as the mask is kept: no change; the SMTP one is new.
    const next = {
      imap: { ...config.imap, password: SECRET_MASK },
      smtp: { ...config.smtp, password: 'smtp-secret-4713', port: 465, tls: 'tls' },
    };
    const updated = await t.call({ method: 'PUT', url: `/api/v1/inboxes/${inbox.id}`, payload: { csat_enabled: true, config: next } });
    ok(updated);
    await assertAudited(t, updated, {
      action: 'inbox.updated',
      resource,
      changes: {
        csat_enabled: [false, true],
        'config.smtp.port': [587, 465],
        'config.smtp.tls': ['starttls', 'tls'],
        'config.smtp.password': [MASKED, MASKED],
      },
      secrets,
    });

    const unchanged = await t.call({ method: 'PUT', url: `/api/v1/inboxes/${inbox.id}`, payload: { name: 'Support mail', config: next } });
    ok(unchanged);
    await assertNotAudited(t, unchanged, 'update that changes nothing');

    const toggled = await t.call({ method: 'PUT', url: `/api/v1/inboxes/${inbox.id}/toggle`, payload: { enabled: false } });
    ok(toggled);
    await assertAudited(t, toggled, { action: 'inbox.updated', resource, changes: { enabled: [true, false] } });

    const deleted = await t.call({ method: 'DELETE', url: `/api/v1/inboxes/${inbox.id}` });
    ok(deleted);
    await assertAudited(t, deleted, {
      action: 'inbox.deleted',
      resource,
      changesInclude: { name: ['Support mail', null], enabled: [false, null], 'config.imap.password': [MASKED, null] },
      secrets,
    });
    assert.deepEqual(
      (await auditEntries(t, { resource_type: 'inbox', resource_id: inbox.id })).map((e) => e.action),
      ['inbox.created', 'inbox.updated', 'inbox.updated', 'inbox.deleted'],
    );
  });

  it('a live chat: its secret, generated or rotated, shows only masked', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/api/v1/inboxes',
      payload: { name: 'Chat', channel: 'livechat', config: { trusted_domains: ['shop.example.com'] } },
    });
    const inbox = ok<{ id: number; config: { secret: string } }>(created);
    const resource = { type: 'inbox', id: inbox.id, name: 'Chat' };
    await assertAudited(t, created, {
      action: 'inbox.created',
      resource,
      changesInclude: { 'config.secret': [null, MASKED], 'config.trusted_domains': [null, ['shop.example.com']] },
      secrets: [inbox.config.secret],
    });

    const rotated = await t.call({ method: 'POST', url: `/api/v1/inboxes/${inbox.id}/secret/rotate`, payload: {} });
    const { secret } = ok<{ secret: string }>(rotated);
    await assertAudited(t, rotated, {
      action: 'inbox.secret_rotated',
      resource,
      changes: { 'config.secret': [MASKED, MASKED] },
      secrets: [inbox.config.secret, secret],
    });

    const domains = await t.call({
      method: 'PUT',
      url: `/api/v1/inboxes/${inbox.id}`,
      payload: { config: { trusted_domains: ['shop.example.com', 'www.example.com'] } },
    });
    ok(domains);
    await assertAudited(t, domains, {
      action: 'inbox.updated',
      resource,
      changes: { 'config.trusted_domains': [['shop.example.com'], ['shop.example.com', 'www.example.com']] },
      secrets: [secret],
    });
  });

  it('refused requests write nothing', async () => {
    const agent = await t.makeAgent();
    const email = ok<{ id: number }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/inboxes',
        payload: { name: 'Mail', channel: 'email', from: 'a@example.com', config: testEmailConfig() },
      }),
    );
    const before = (await auditEntries(t)).length;
    const refusals: Array<[number, Parameters<TestApp['call']>[0]]> = [
      [400, { method: 'POST', url: '/api/v1/inboxes', payload: { name: 'Bad', channel: 'email', config: testEmailConfig() } }],
      [403, { method: 'POST', url: '/api/v1/inboxes', payload: { name: 'Nope', channel: 'livechat', config: {} }, as: agent }],
      [
        400,
        {
          method: 'PUT',
          url: `/api/v1/inboxes/${email.id}`,
          payload: {
            config: { ...testEmailConfig(), imap: { ...testEmailConfig().imap, host: 'elsewhere.example.com', password: SECRET_MASK } },
          },
        },
      ],
      [404, { method: 'PUT', url: '/api/v1/inboxes/999999', payload: { name: 'Ghost' } }],
      [404, { method: 'PUT', url: '/api/v1/inboxes/999999/toggle', payload: { enabled: false } }],
      [422, { method: 'POST', url: `/api/v1/inboxes/${email.id}/secret/rotate`, payload: {} }],
      [404, { method: 'DELETE', url: '/api/v1/inboxes/999999' }],
    ];
    for (const [status, request] of refusals) {
      const res = await t.call(request);
      assert.equal(res.statusCode, status, `${request.method} ${request.url}: ${res.body}`);
      await assertNotAudited(t, res, `${request.method} ${request.url}`);
    }
    assert.equal((await auditEntries(t)).length, before, 'no entry at all');
  });
});
