import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type Caller, type TestApp } from '../../test/helpers.ts';

describe('tags', () => {
  let t: TestApp;
  let agent: Caller;
  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent();
  });
  after(() => t.close());

  it('creates a tag with 200 and the spec record', async () => {
    const res = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: '  billing ' } });
    assert.equal(res.statusCode, 200);
    const body = res.json() as { status: string; data: Record<string, unknown> };
    assert.equal(body.status, 'success');
    assert.deepEqual(Object.keys(body.data).sort(), ['created_at', 'id', 'name', 'updated_at']);
    assert.equal(body.data['name'], 'billing');
    assert.match(String(body.data['created_at']), /^\d{4}-\d\d-\d\dT/);
  });

  it('refuses an empty name with 400 InputException', async () => {
    for (const payload of [{ name: '' }, { name: '   ' }, {}, { name: 42 }]) {
      const res = await t.call({ method: 'POST', url: '/api/v1/tags', payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      const body = res.json() as Record<string, unknown>;
      assert.equal(body['status'], 'error');
      assert.equal(body['error_type'], 'InputException');
    }
  });

  it('answers 409 for a duplicate, case-insensitively', async () => {
    const res = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'BILLING' } });
    assert.equal(res.statusCode, 409);
    assert.equal((res.json() as Record<string, unknown>)['error_type'], 'ConflictException');
  });

  it('answers 401 without credentials and 403 without tags:manage', async () => {
    const anon = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'x' }, as: null });
    assert.equal(anon.statusCode, 401);
    assert.equal((anon.json() as Record<string, unknown>)['error_type'], 'UnauthorizedException');
    const denied = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'x' }, as: agent });
    assert.equal(denied.statusCode, 403);
    assert.equal((denied.json() as Record<string, unknown>)['error_type'], 'PermissionException');
  });
});
