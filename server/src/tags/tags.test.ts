import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';

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

type Tag = { id: number; name: string; created_at: string; updated_at: string };
type Envelope<T> = { status: string; data: T };

describe('tags: list, rename, delete', () => {
  let t: TestApp;
  let agent: Caller;
  const ids: Record<string, number> = {};

  const create = async (name: string) => dataOf<Tag>(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name } }));
  async function list(as?: Caller): Promise<Tag[]> {
    const tags = dataOf<Tag[]>(await t.call({ method: 'GET', url: '/api/v1/tags', ...(as ? { as } : {}) }));
    assert.ok(Array.isArray(tags));
    return tags;
  }

  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent();
    for (const name of ['delta', 'Alpha', 'charlie', 'Bravo']) ids[name] = (await create(name)).id;
  });
  after(() => t.close());

  it('GET /tags answers any authenticated agent, ordered by name case-insensitively', async () => {
    for (const caller of [t.admin, agent]) {
      const tags = await list(caller);
      assert.deepEqual(
        tags.map((tag) => tag.name),
        ['Alpha', 'Bravo', 'charlie', 'delta'],
      );
      for (const tag of tags) {
        assert.deepEqual(Object.keys(tag).sort(), ['created_at', 'id', 'name', 'updated_at']);
        assert.equal(typeof tag.id, 'number');
        assert.match(tag.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
        assert.match(tag.updated_at, /^\d{4}-\d\d-\d\dT/);
      }
    }
  });

  it('GET /tags without credentials is 401', async () => {
    assertError(await t.call({ method: 'GET', url: '/api/v1/tags', as: null }), 401, 'UnauthorizedException');
    assertError(
      await t.call({
        method: 'GET',
        url: '/api/v1/tags',
        as: null,
        headers: { authorization: 'Basic ' + Buffer.from('nope:nope').toString('base64') },
      }),
      401,
      'UnauthorizedException',
    );
  });

  it('PUT /tags/{id} renames with 200, trims the name and keeps the id', async () => {
    const before = (await list()).find((tag) => tag.id === ids['delta']);
    assert.ok(before);
    const res = await t.call({ method: 'PUT', url: `/api/v1/tags/${ids['delta']}`, payload: { name: '  Echo  ' } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Envelope<Tag>;
    assert.equal(body.status, 'success');
    assert.deepEqual(Object.keys(body.data).sort(), ['created_at', 'id', 'name', 'updated_at']);
    assert.equal(body.data.id, ids['delta']);
    assert.equal(body.data.name, 'Echo');
    assert.equal(body.data.created_at, before.created_at);
    assert.ok(Date.parse(body.data.updated_at) >= Date.parse(before.updated_at));
    const names = (await list()).map((tag) => tag.name);
    assert.ok(names.includes('Echo'));
    assert.ok(!names.includes('delta'));
  });

  it('PUT /tags/{id} may change only the case of its own name', async () => {
    const res = await t.call({ method: 'PUT', url: `/api/v1/tags/${ids['charlie']}`, payload: { name: 'Charlie' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as Envelope<Tag>).data.name, 'Charlie');
    const same = await t.call({ method: 'PUT', url: `/api/v1/tags/${ids['charlie']}`, payload: { name: 'Charlie' } });
    assert.equal(same.statusCode, 200, same.body);
  });

  it('PUT /tags/{id} onto another tag name is 409, case-insensitively, and changes nothing', async () => {
    for (const name of ['Alpha', 'alpha', ' ALPHA ']) {
      const res = await t.call({ method: 'PUT', url: `/api/v1/tags/${ids['Bravo']}`, payload: { name } });
      assertError(res, 409, 'ConflictException');
    }
    const bravo = (await list()).find((tag) => tag.id === ids['Bravo']);
    assert.equal(bravo?.name, 'Bravo');
  });

  it('PUT /tags/{id} with an empty, blank, missing or non-string name is 400', async () => {
    for (const payload of [{ name: '' }, { name: '   ' }, {}, { name: 7 }, { name: null }]) {
      const res = await t.call({ method: 'PUT', url: `/api/v1/tags/${ids['Bravo']}`, payload });
      const body = assertError(res, 400, 'InputException');
      assert.match(body.message, /name/, JSON.stringify(payload));
    }
    const bravo = (await list()).find((tag) => tag.id === ids['Bravo']);
    assert.equal(bravo?.name, 'Bravo');
  });

  it('PUT /tags/{id} on an unknown or malformed id is 404', async () => {
    assertError(await t.call({ method: 'PUT', url: '/api/v1/tags/987654', payload: { name: 'ghost' } }), 404, 'NotFoundException');
    // docs/api.md: Envelope and errors: a malformed id is a 404 like an unknown one
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      assertError(await t.call({ method: 'PUT', url: `/api/v1/tags/${id}`, payload: { name: 'ghost' } }), 404, 'NotFoundException');
    }
    assert.ok(!(await list()).some((tag) => tag.name === 'ghost'));
  });

  it('PUT /tags/{id} needs tags:manage (403 for the Agent role, 401 anonymous)', async () => {
    assertError(
      await t.call({ method: 'PUT', url: `/api/v1/tags/${ids['Bravo']}`, payload: { name: 'hijack' }, as: agent }),
      403,
      'PermissionException',
    );
    assertError(
      await t.call({ method: 'PUT', url: `/api/v1/tags/${ids['Bravo']}`, payload: { name: 'hijack' }, as: null }),
      401,
      'UnauthorizedException',
    );
    assert.equal((await list()).find((tag) => tag.id === ids['Bravo'])?.name, 'Bravo');
  });

  it('names are 1..100 characters after trimming: 100 is fine, 101 is 400', async () => {
    const hundred = 'n'.repeat(100);
    const created = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: hundred } });
    assert.equal(created.statusCode, 200, created.body);
    assert.equal((created.json() as Envelope<Tag>).data.name, hundred);

    const tooLong = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'x'.repeat(101) } });
    assert.match(assertError(tooLong, 400, 'InputException').message, /name/);
    const renameTooLong = await t.call({ method: 'PUT', url: `/api/v1/tags/${ids['Bravo']}`, payload: { name: 'y'.repeat(101) } });
    assertError(renameTooLong, 400, 'InputException');

    // the limit applies to the trimmed name
    const padded = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: `  ${'p'.repeat(100)}  ` } });
    assert.equal(padded.statusCode, 200, padded.body);
    assert.equal((padded.json() as Envelope<Tag>).data.name, 'p'.repeat(100));
    // characters, not UTF-16 code units
    const emoji = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: '🙂'.repeat(100) } });
    assert.equal(emoji.statusCode, 200, emoji.body);
    const emojiTooLong = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: '🙂'.repeat(101) } });
    assertError(emojiTooLong, 400, 'InputException');

    const names = (await list()).map((tag) => tag.name);
    assert.ok(!names.some((name) => name.length > 100 && !name.startsWith('🙂')));
  });

  it('created names are trimmed of surrounding whitespace (tabs and newlines too)', async () => {
    const res = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: '\t  Foxtrot \n' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as Envelope<Tag>).data.name, 'Foxtrot');
    // trimmed before the uniqueness check
    assertError(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: ' foxtrot' } }), 409, 'ConflictException');
  });

  it('DELETE /tags/{id} needs tags:manage (403 for the Agent role, 401 anonymous)', async () => {
    assertError(await t.call({ method: 'DELETE', url: `/api/v1/tags/${ids['Alpha']}`, as: agent }), 403, 'PermissionException');
    assertError(await t.call({ method: 'DELETE', url: `/api/v1/tags/${ids['Alpha']}`, as: null }), 401, 'UnauthorizedException');
    assert.ok((await list()).some((tag) => tag.id === ids['Alpha']));
  });

  it('DELETE /tags/{id} answers true, removes the tag, and a second delete is 404', async () => {
    const res = await t.call({ method: 'DELETE', url: `/api/v1/tags/${ids['Alpha']}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { status: 'success', data: true });
    assert.ok(!(await list()).some((tag) => tag.id === ids['Alpha']));
    assertError(await t.call({ method: 'DELETE', url: `/api/v1/tags/${ids['Alpha']}` }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'PUT', url: `/api/v1/tags/${ids['Alpha']}`, payload: { name: 'back' } }), 404, 'NotFoundException');
    // the name is free again
    const again = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'alpha' } });
    assert.equal(again.statusCode, 200, again.body);
    assert.notEqual((again.json() as Envelope<Tag>).data.id, ids['Alpha']);
  });

  it('DELETE /tags/{id} on an unknown or malformed id is 404', async () => {
    assertError(await t.call({ method: 'DELETE', url: '/api/v1/tags/987654' }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'DELETE', url: '/api/v1/tags/not-a-number' }), 404, 'NotFoundException');
  });
});
