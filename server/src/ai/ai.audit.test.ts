// What AI settings changes write to the audit log: the provider's settings (the key only ever
// masked, a kept key no change) and each prompt's create, update and delete; none for a refused
// request or a save that changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertAudited, assertNotAudited, auditEntries } from '../../test/audit.ts';
import { buildTestApp, type TestApp, dataOf as ok } from '../../test/helpers.ts';
import { MASKED } from '../audit/audit.service.ts';
import { SECRET_MASK } from '../security/encryption.ts';

describe('AI settings changes in the audit log', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const providerId = async () => (await t.deps.db.selectFrom('ai_providers').select('id').executeTakeFirstOrThrow()).id;

  it('the provider: set, changed and removed, the API key masked', async () => {
    const secrets = ['sk-audit-key-0001', 'sk-audit-key-0002'];
    const set = await t.call({ method: 'PUT', url: '/api/v1/ai/provider', payload: { provider: 'openai', api_key: 'sk-audit-key-0001' } });
    ok(set);
    const id = await providerId();
    const resource = { type: 'ai', id, name: 'openai' };
    await assertAudited(t, set, {
      action: 'ai.updated',
      resource,
      changes: {
        provider: [null, 'openai'],
        base_url: [null, 'https://api.openai.com/v1'],
        model: [null, 'gpt-4o-mini'],
        api_key: [null, MASKED],
      },
      secrets,
    });

    const kept = await t.call({
      method: 'PUT',
      url: '/api/v1/ai/provider',
      payload: { provider: 'openai', api_key: SECRET_MASK, model: 'llama3.2' },
    });
    ok(kept);
    await assertAudited(t, kept, { action: 'ai.updated', resource, changes: { model: ['gpt-4o-mini', 'llama3.2'] }, secrets });

    const same = await t.call({ method: 'PUT', url: '/api/v1/ai/provider', payload: { provider: 'openai', api_key: SECRET_MASK } });
    ok(same);
    await assertNotAudited(t, same, 'save that changes nothing');

    const newKey = await t.call({
      method: 'PUT',
      url: '/api/v1/ai/provider',
      payload: { provider: 'openai', api_key: 'sk-audit-key-0002' },
    });
    ok(newKey);
    await assertAudited(t, newKey, { action: 'ai.updated', resource, changes: { api_key: [MASKED, MASKED] }, secrets });

    const removed = await t.call({ method: 'DELETE', url: '/api/v1/ai/provider' });
    ok(removed);
    await assertAudited(t, removed, {
      action: 'ai.deleted',
      resource,
      changesInclude: { api_key: [MASKED, null], model: ['llama3.2', null] },
      secrets,
    });

    const refused = await t.call({ method: 'DELETE', url: '/api/v1/ai/provider' });
    assert.equal(refused.statusCode, 404);
    await assertNotAudited(t, refused, 'no provider to remove');
    const masked = await t.call({ method: 'PUT', url: '/api/v1/ai/provider', payload: { provider: 'openai', api_key: SECRET_MASK } });
    assert.equal(masked.statusCode, 400);
    await assertNotAudited(t, masked, 'the mask with no key stored');
  });

  it('prompts: created, edited and deleted', async () => {
    const created = await t.call({
      method: 'POST',
      url: '/api/v1/ai/prompts',
      payload: { key: 'audit_short', title: 'Shorter', content: 'Make it short.' },
    });
    const prompt = ok<{ id: number }>(created);
    await assertAudited(t, created, {
      action: 'ai.prompt_created',
      resource: { type: 'ai_prompt', id: prompt.id, name: 'Shorter' },
      changes: { key: [null, 'audit_short'], title: [null, 'Shorter'], content: [null, 'Make it short.'] },
    });

    const edited = await t.call({
      method: 'PUT',
      url: '/api/v1/ai/prompts/audit_short',
      payload: { title: 'Brief', content: 'Make it short.' },
    });
    ok(edited);
    await assertAudited(t, edited, {
      action: 'ai.prompt_updated',
      resource: { type: 'ai_prompt', id: prompt.id, name: 'Brief' },
      changes: { title: ['Shorter', 'Brief'] },
    });

    const same = await t.call({ method: 'PUT', url: '/api/v1/ai/prompts/audit_short', payload: { content: 'Make it short.' } });
    ok(same);
    await assertNotAudited(t, same, 'edit that changes nothing');

    const deleted = await t.call({ method: 'DELETE', url: '/api/v1/ai/prompts/audit_short' });
    ok(deleted);
    await assertAudited(t, deleted, {
      action: 'ai.prompt_deleted',
      resource: { type: 'ai_prompt', id: prompt.id, name: 'Brief' },
      changes: { key: ['audit_short', null], title: ['Brief', null], content: ['Make it short.', null] },
    });

    const agent = await t.makeAgent();
    const before = (await auditEntries(t)).length;
    const refusals: Array<[number, Parameters<TestApp['call']>[0]]> = [
      [409, { method: 'POST', url: '/api/v1/ai/prompts', payload: { key: 'make_friendly', title: 'Again', content: 'x' } }],
      [403, { method: 'POST', url: '/api/v1/ai/prompts', payload: { key: 'agent_made', title: 'No', content: 'x' }, as: agent }],
      [400, { method: 'PUT', url: '/api/v1/ai/prompts/make_friendly', payload: { content: '   ' } }],
      [404, { method: 'PUT', url: '/api/v1/ai/prompts/no_such_prompt', payload: { content: 'x' } }],
      [422, { method: 'DELETE', url: '/api/v1/ai/prompts/make_friendly' }],
      [404, { method: 'DELETE', url: '/api/v1/ai/prompts/audit_short' }],
    ];
    for (const [status, request] of refusals) {
      const res = await t.call(request);
      assert.equal(res.statusCode, status, `${request.method} ${request.url}: ${res.body}`);
      await assertNotAudited(t, res, `${request.method} ${request.url}`);
    }
    assert.equal((await auditEntries(t)).length, before, 'no entry at all');
  });
});
