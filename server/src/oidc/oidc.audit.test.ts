// What single sign-on provider changes write to the audit log: an entry per create, update and
// delete, the client secret only ever masked (a kept one is no change); none for a refused request
// or an update that changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAudited, assertNotAudited, auditEntries } from '../../test/audit.ts';
import { buildTestApp, type TestApp, dataOf as ok } from '../../test/helpers.ts';
import { MASKED } from '../audit/audit.service.ts';
import { SECRET_MASK } from '../security/encryption.ts';

describe('single sign-on provider changes in the audit log', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const body = (overrides: Record<string, unknown> = {}) => ({
    name: 'Company SSO',
    provider: 'Keycloak',
    provider_url: 'https://sso.example.com/realms/support',
    client_id: 'parley',
    client_secret: 'oidc-client-secret-1',
    ...overrides,
  });

  it('create, update and delete name what changed; the client secret stays masked', async () => {
    const created = await t.call({ method: 'POST', url: '/api/v1/oidc', payload: body() });
    const provider = ok<{ id: number }>(created);
    const resource = { type: 'oidc', id: provider.id, name: 'Company SSO' };
    const secrets = ['oidc-client-secret-1', 'oidc-client-secret-2'];
    await assertAudited(t, created, {
      action: 'oidc.created',
      resource,
      changes: {
        name: [null, 'Company SSO'],
        provider: [null, 'Keycloak'],
        provider_url: [null, 'https://sso.example.com/realms/support'],
        client_id: [null, 'parley'],
        client_secret: [null, MASKED],
        logo_url: [null, ''],
        enabled: [null, true],
        auto_provision: [null, false],
        configured_by: [null, t.admin.id],
      },
      secrets,
    });

    const kept = await t.call({
      method: 'PUT',
      url: `/api/v1/oidc/${provider.id}`,
      payload: body({ client_secret: SECRET_MASK, enabled: false }),
    });
    ok(kept);
    await assertAudited(t, kept, { action: 'oidc.updated', resource, changes: { enabled: [true, false] }, secrets });

    const unchanged = await t.call({
      method: 'PUT',
      url: `/api/v1/oidc/${provider.id}`,
      payload: body({ client_secret: SECRET_MASK, enabled: false }),
    });
    ok(unchanged);
    await assertNotAudited(t, unchanged, 'update that changes nothing');

    const rotated = await t.call({
      method: 'PUT',
      url: `/api/v1/oidc/${provider.id}`,
      payload: body({ client_secret: 'oidc-client-secret-2', enabled: false }),
    });
    ok(rotated);
    await assertAudited(t, rotated, { action: 'oidc.updated', resource, changes: { client_secret: [MASKED, MASKED] }, secrets });

    const deleted = await t.call({ method: 'DELETE', url: `/api/v1/oidc/${provider.id}` });
    ok(deleted);
    await assertAudited(t, deleted, {
      action: 'oidc.deleted',
      resource,
      changesInclude: { name: ['Company SSO', null], client_secret: [MASKED, null] },
      secrets,
    });
    assert.deepEqual(
      (await auditEntries(t, { resource_type: 'oidc', resource_id: provider.id })).map((e) => e.action),
      ['oidc.created', 'oidc.updated', 'oidc.updated', 'oidc.deleted'],
    );
  });

  it('refused requests write nothing', async () => {
    const agent = await t.makeAgent();
    const provider = ok<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/oidc', payload: body({ name: 'Taken' }) }));
    const before = (await auditEntries(t)).length;
    const refusals: Array<[number, Parameters<TestApp['call']>[0]]> = [
      [409, { method: 'POST', url: '/api/v1/oidc', payload: body({ name: 'TAKEN' }) }],
      [403, { method: 'POST', url: '/api/v1/oidc', payload: body({ name: 'Other' }), as: agent }],
      [400, { method: 'POST', url: '/api/v1/oidc', payload: body({ name: 'Plain', provider_url: 'http://sso.example.com' }) }],
      [
        400,
        {
          method: 'PUT',
          url: `/api/v1/oidc/${provider.id}`,
          payload: body({ name: 'Taken', provider_url: 'https://elsewhere.example.com', client_secret: SECRET_MASK }),
        },
      ],
      [404, { method: 'PUT', url: '/api/v1/oidc/999999', payload: body() }],
      [404, { method: 'DELETE', url: '/api/v1/oidc/999999' }],
    ];
    for (const [status, request] of refusals) {
      const res = await t.call(request);
      assert.equal(res.statusCode, status, `${request.method} ${request.url}: ${res.body}`);
      await assertNotAudited(t, res, `${request.method} ${request.url}`);
    }
    assert.equal((await auditEntries(t)).length, before, 'no entry at all');
  });
});
