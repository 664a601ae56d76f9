// The envelope and error handling (docs/api.md, Envelope and errors) and the probes; the OpenAPI document: openapi.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type TestApp } from '../../test/helpers.ts';

type ErrorBody = { status: string; message: string; data: unknown; error_type: string };
type Response = { statusCode: number; body: string; headers: Record<string, unknown>; json: () => unknown };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function assertRequestId(res: Response): string {
  const id = res.headers['x-request-id'];
  assert.equal(typeof id, 'string', `X-Request-Id on a ${res.statusCode}`);
  assert.ok((id as string).length > 0);
  return id as string;
}

describe('http: envelope, errors, probes', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  describe('routing errors', () => {
    it('an unknown route is a 404 NotFoundException envelope, even without credentials', async () => {
      // `/` is the web app (http/web-app.test.ts).
      for (const url of ['/api/v1/nope', '/api/v1/tags/1/extra', '/nope?x=1', '/api/v2/tags']) {
        for (const as of [null, undefined]) {
          const body = assertError(await t.call({ method: 'GET', url, ...(as === null ? { as } : {}) }), 404, 'NotFoundException');
          assert.equal(body.data, null);
        }
      }
      assertError(await t.call({ method: 'POST', url: '/api/v1/nope', payload: { a: 1 } }), 404, 'NotFoundException');
    });

    it('a wrong method on a known path is 405 with an envelope and an Allow header', async () => {
      const cases: Array<[string, string, string[]]> = [
        ['PATCH', '/api/v1/tags', ['GET', 'POST']],
        ['DELETE', '/api/v1/tags', ['GET', 'POST']],
        ['PATCH', '/api/v1/tags/', ['GET', 'POST']],
        ['PATCH', '/api/v1/tags?x=1', ['GET', 'POST']],
        ['POST', '/api/v1/tags/5', ['PUT', 'DELETE']],
        ['GET', '/api/v1/tags/5', ['PUT', 'DELETE']],
        ['GET', '/api/v1/auth/login', ['POST']],
        ['DELETE', '/api/v1/statuses', ['GET', 'POST']],
      ];
      for (const [method, url, expected] of cases) {
        for (const as of [null, undefined]) {
          const res = await t.call({ method: method as 'GET', url, ...(as === null ? { as } : {}) });
          assert.equal(res.statusCode, 405, `${method} ${url}: ${res.body}`);
          const body = res.json() as ErrorBody;
          assert.equal(body.status, 'error');
          assert.ok(['GeneralException', 'InputException'].includes(body.error_type), body.error_type);
          assert.ok(body.message.length > 0);
          assertRequestId(res);
          const allow = String(res.headers['allow'] ?? '')
            .split(',')
            .map((m) => m.trim())
            .filter(Boolean);
          for (const m of expected) assert.ok(allow.includes(m), `${method} ${url}: Allow "${allow}" lacks ${m}`);
          assert.ok(!allow.includes(method), `${method} ${url}: Allow must not list ${method}`);
        }
      }
    });
  });

  describe('request bodies', () => {
    it('malformed JSON is a 400 InputException', async () => {
      for (const payload of ['{"name":', '{name: "x"}', "{'name':'x'}", '[1,2', '{"name":"x"}}']) {
        const body = assertError(
          await t.call({ method: 'POST', url: '/api/v1/tags', payload, headers: { 'content-type': 'application/json' } }),
          400,
          'InputException',
        );
        assert.doesNotMatch(body.message, /SyntaxError|at JSON\.parse|\n/);
      }
      const tags = await t.call({ method: 'GET', url: '/api/v1/tags' });
      assert.deepEqual((tags.json() as { data: unknown[] }).data, []);
    });

    it('a JSON body that is not an object is a 400 InputException', async () => {
      for (const payload of ['"name"', '42', 'null', '[]', '[{"name":"x"}]']) {
        assertError(
          await t.call({ method: 'POST', url: '/api/v1/tags', payload, headers: { 'content-type': 'application/json' } }),
          400,
          'InputException',
        );
      }
    });

    it('a non-JSON Content-Type on a JSON route is a 4xx InputException envelope (415 or 400)', async () => {
      const cases: Array<[string, string]> = [
        ['text/plain', '{"name":"plain"}'],
        ['text/plain', 'plain'],
        ['application/xml', '<name>xml</name>'],
        ['application/x-www-form-urlencoded', 'name=form'],
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nmp\r\n--x--\r\n'],
      ];
      for (const [contentType, payload] of cases) {
        const res = await t.call({ method: 'POST', url: '/api/v1/tags', payload, headers: { 'content-type': contentType } });
        assert.ok([400, 415].includes(res.statusCode), `${contentType}: ${res.statusCode} ${res.body}`);
        assertError(res, res.statusCode, 'InputException');
      }
      // the unknown media types are 415
      for (const contentType of ['application/xml', 'application/x-www-form-urlencoded']) {
        const res = await t.call({ method: 'POST', url: '/api/v1/tags', payload: 'x', headers: { 'content-type': contentType } });
        assertError(res, 415, 'InputException');
      }
      const tags = await t.call({ method: 'GET', url: '/api/v1/tags' });
      assert.deepEqual((tags.json() as { data: unknown[] }).data, [], 'nothing was created from a non-JSON body');
    });

    it('a JSON Content-Type with parameters is accepted', async () => {
      const res = await t.call({
        method: 'POST',
        url: '/api/v1/tags',
        payload: JSON.stringify({ name: 'charset' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      assert.equal(res.statusCode, 200, res.body);
      const del = await t.call({ method: 'DELETE', url: `/api/v1/tags/${(res.json() as { data: { id: number } }).data.id}` });
      assert.equal(del.statusCode, 200, del.body);
    });

    it('a field of the wrong type is a 400 that names the field', async () => {
      const body = assertError(
        await t.call({ method: 'POST', url: '/api/v1/statuses', payload: { name: 'x', category: 'nope' } }),
        400,
        'InputException',
      );
      assert.match(body.message, /category/);
      assert.deepEqual((body.data as { errors: Array<{ field: string }> }).errors[0]?.field, 'category');
    });
  });

  describe('X-Request-Id', () => {
    it('is on every response, a fresh uuid by default and different per request', async () => {
      const responses = [
        await t.call({ method: 'GET', url: '/health', as: null }),
        await t.call({ method: 'GET', url: '/ready', as: null }),
        await t.call({ method: 'GET', url: '/api/v1/tags' }),
        await t.call({ method: 'GET', url: '/api/v1/tags', as: null }),
        await t.call({ method: 'GET', url: '/api/v1/nope' }),
        await t.call({ method: 'PATCH', url: '/api/v1/tags' }),
        await t.call({ method: 'POST', url: '/api/v1/tags', payload: '{', headers: { 'content-type': 'application/json' } }),
        await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null }),
      ];
      const ids = responses.map((res) => assertRequestId(res));
      for (const id of ids) assert.match(id, UUID);
      assert.equal(new Set(ids).size, ids.length);
    });

    it('echoes a safe inbound X-Request-Id, on success and on errors', async () => {
      const inbound = 'client-req_42.abc';
      for (const [method, url] of [
        ['GET', '/api/v1/tags'],
        ['GET', '/api/v1/nope'],
        ['PATCH', '/api/v1/tags'],
        ['GET', '/health'],
      ] as const) {
        const res = await t.call({ method, url, headers: { 'x-request-id': inbound } });
        assert.equal(res.headers['x-request-id'], inbound, `${method} ${url}`);
      }
      const anon = await t.call({ method: 'GET', url: '/api/v1/tags', as: null, headers: { 'x-request-id': inbound } });
      assert.equal(anon.statusCode, 401);
      assert.equal(anon.headers['x-request-id'], inbound);
    });

    it('replaces an unsafe or oversized inbound X-Request-Id with a fresh one', async () => {
      for (const unsafe of ['has space', '<script>', 'a'.repeat(129), 'semi;colon', 'ünïcode', '']) {
        const res = await t.call({ method: 'GET', url: '/api/v1/tags', headers: { 'x-request-id': unsafe } });
        assert.equal(res.statusCode, 200);
        const id = assertRequestId(res);
        assert.notEqual(id, unsafe);
        assert.match(id, UUID);
      }
    });
  });

  describe('probes', () => {
    it('GET /health is 200 without credentials', async () => {
      const res = await t.call({ method: 'GET', url: '/health', as: null });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'success', data: true });
      assertRequestId(res);
    });

    it('GET /ready is 200 without credentials when the database answers', async () => {
      const res = await t.call({ method: 'GET', url: '/ready', as: null });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'success', data: true });
    });

    it('GET /ready is 503 with an error envelope when the database does not answer', async () => {
      const deps = t.deps as unknown as { ping: () => Promise<void> };
      const original = deps.ping;
      deps.ping = async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432 password=hunter2');
      };
      try {
        const res = await t.call({ method: 'GET', url: '/ready', as: null });
        const body = assertError(res, 503, 'NetworkException');
        assert.doesNotMatch(body.message, /ECONNREFUSED|hunter2/);
      } finally {
        deps.ping = original;
      }
      assert.equal((await t.call({ method: 'GET', url: '/ready', as: null })).statusCode, 200);
    });
  });

  describe('server faults', () => {
    // Fault injection: the tags list query throws, as a broken database would.
    async function withFailingTagQuery(error: Error, run: () => Promise<void>): Promise<void> {
      const db = t.deps.db as unknown as { selectFrom: (table: unknown) => unknown };
      const original = db.selectFrom;
      db.selectFrom = function (this: unknown, table: unknown) {
        if (table === 'tags') throw error;
        return original.call(this, table);
      };
      try {
        await run();
      } finally {
        Reflect.deleteProperty(db, 'selectFrom');
        if (db.selectFrom !== original) db.selectFrom = original;
      }
    }

    it('an unexpected error is a masked 500 GeneralException: no stack, no SQL, no secrets', async () => {
      const error = Object.assign(
        new Error('relation "tags" does not exist: SELECT api_secret_hash FROM agents WHERE password = \'hunter2\''),
        {
          code: '42P01',
        },
      );
      await withFailingTagQuery(error, async () => {
        const res = await t.call({ method: 'GET', url: '/api/v1/tags', headers: { 'x-request-id': 'fault-500' } });
        const body = assertError(res, 500, 'GeneralException');
        assert.equal(body.data, null);
        assert.doesNotMatch(res.body, /SELECT|relation|hunter2|api_secret|42P01|\bat\s.+\.ts:\d+/);
        assert.equal(res.headers['x-request-id'], 'fault-500');
      });
      assert.equal((await t.call({ method: 'GET', url: '/api/v1/tags' })).statusCode, 200, 'the fault injection is undone');
    });

    it('a database unique violation, a deadlock or a serialization failure is a 409 and bad client text (invalid representation, NUL, too long) a 400, not a 500', async () => {
      await withFailingTagQuery(
        Object.assign(new Error('duplicate key value violates unique constraint "tags_name_key"'), { code: '23505' }),
        async () => {
          const body = assertError(await t.call({ method: 'GET', url: '/api/v1/tags' }), 409, 'ConflictException');
          assert.doesNotMatch(body.message, /tags_name_key/);
        },
      );
      // A deadlock (40P01) or serialization failure (40001): the request was rolled back, a 409 to retry.
      for (const code of ['40P01', '40001']) {
        await withFailingTagQuery(Object.assign(new Error(`deadlock detected (${code}) on relation "users"`), { code }), async () => {
          const body = assertError(await t.call({ method: 'GET', url: '/api/v1/tags' }), 409, 'ConflictException');
          assert.match(body.message, /concurrent change.*retry/);
          assert.doesNotMatch(body.message, /users|deadlock/);
        });
      }
      // Bad client text that got past the edge: NUL in text (22021) or jsonb (22P05), too long, a malformed LIKE pattern.
      for (const code of ['22P02', '22021', '22P05', '22001', '22025']) {
        await withFailingTagQuery(Object.assign(new Error(`invalid input (${code}): "x"`), { code }), async () => {
          const body = assertError(await t.call({ method: 'GET', url: '/api/v1/tags' }), 400, 'InputException');
          assert.doesNotMatch(body.message, /invalid input/);
        });
      }
    });
  });
});

describe('http: body size limit', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { BODY_LIMIT_BYTES: '2048' } });
  });
  after(() => t.close());

  it('a body over BODY_LIMIT_BYTES is a 413 InputException and nothing is created', async () => {
    // Insignificant whitespace makes the body big whatever the body schema allows.
    const payload = `{"name":"big"${' '.repeat(4000)}}`;
    assert.ok(Buffer.byteLength(payload) > 2048);
    const body = assertError(
      await t.call({ method: 'POST', url: '/api/v1/tags', payload, headers: { 'content-type': 'application/json' } }),
      413,
      'InputException',
    );
    assert.doesNotMatch(body.message, /FST_/);
    const tags = await t.call({ method: 'GET', url: '/api/v1/tags' });
    assert.deepEqual((tags.json() as { data: unknown[] }).data, []);
  });

  it('a body under the limit is accepted', async () => {
    const payload = `{"name":"small"${' '.repeat(1500)}}`;
    assert.ok(Buffer.byteLength(payload) > 1024);
    assert.ok(Buffer.byteLength(payload) < 2048);
    const res = await t.call({ method: 'POST', url: '/api/v1/tags', payload, headers: { 'content-type': 'application/json' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((res.json() as { data: { name: string } }).data.name, 'small');
  });
});
