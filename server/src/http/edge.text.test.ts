// The edge: text the database cannot store (U+0000, unpaired surrogates) and the JSON nesting
// depth are refused before anything changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { edgeFixtures, fieldsOf, type Json, jsonText, refused, tableCounts } from '../../test/edge.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { scanJson } from './json.ts';

describe('edge', () => {
  let t: TestApp;
  let conversation: string;

  const counts = tableCounts(() => t);

  before(async () => {
    t = await buildTestApp();
    ({ conversation } = await edgeFixtures(t));
  });
  after(() => t.close());

  describe('text the database cannot store (U+0000, unpaired surrogates)', () => {
    const imap = { host: 'imap.example.com', port: 993, username: 'u', password: 'p', tls: 'tls' };
    const smtp = { host: 'smtp.example.com', port: 587, username: 'u', password: 'p', tls: 'starttls' };
    type Case = { name: string; method: 'GET' | 'POST' | 'PUT'; url: string; field: string };
    type Extras = { payload?: Json; headers?: Record<string, string>; anonymous?: true };
    const cases: Array<Case & Extras> = [
      { name: 'a body value', method: 'POST', url: '/api/v1/tags', payload: { name: 'a\u0000b' }, field: 'name' },
      { name: 'an unpaired surrogate', method: 'POST', url: '/api/v1/tags', payload: { name: 'a\ud800b' }, field: 'name' },
      {
        name: 'the login body, unauthenticated',
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'a\u0000@example.com', password: 'x'.repeat(12) },
        anonymous: true,
        field: 'email',
      },
      { name: 'the contacts search', method: 'GET', url: '/api/v1/contacts?q=a%00b', field: 'q' },
      { name: 'the global search', method: 'GET', url: '/api/v1/search?q=a%00b', field: 'q' },
      { name: 'a query parameter name', method: 'GET', url: '/api/v1/tags?a%00=1', field: 'a\\u0000' },
      { name: 'a path param', method: 'GET', url: '/api/v1/conversations/a%00b', field: 'cuuid' },
      {
        name: 'a nested config value',
        method: 'POST',
        url: '/api/v1/inboxes',
        payload: {
          name: 'Mail',
          channel: 'email',
          from: 'help@example.com',
          config: { imap: { ...imap, host: 'imap\u0000.example.com' }, smtp },
        },
        field: 'config.imap.host',
      },
      {
        name: 'a nested config key',
        method: 'POST',
        url: '/api/v1/inboxes',
        payload: { name: 'Mail', channel: 'email', from: 'help@example.com', config: { imap: { ...imap, ['ho\u0000st']: 'x' }, smtp } },
        field: 'config.imap.ho\\u0000st',
      },
      {
        name: 'an array item in free-form attributes',
        method: 'POST',
        url: '/api/v1/contacts',
        payload: { first_name: 'Nul', email: 'nul@example.com', custom_attributes: { a: { b: ['ok', 'x\u0000'] } } },
        field: 'custom_attributes.a.b.1',
      },
      { name: 'a header', method: 'GET', url: '/api/v1/tags', headers: { 'x-anything': 'a\u0000b' }, field: 'x-anything' },
      {
        name: 'the Idempotency-Key header',
        method: 'POST',
        url: '/api/v1/conversations/{uuid}/messages',
        payload: { message: 'hi', private: true },
        headers: { 'idempotency-key': 'k\u0000' },
        field: 'idempotency-key',
      },
    ];

    it('is a 400 InputException naming the field, wherever it comes in, and nothing changes', async () => {
      const before = await counts();
      for (const c of cases) {
        const res = await t.call({
          method: c.method,
          url: c.url.replace('{uuid}', conversation),
          ...(c.payload ? { payload: c.payload } : {}),
          ...(c.headers ? { headers: c.headers } : {}),
          ...(c.anonymous ? { as: null } : {}),
        });
        const body = refused(res, 400, 'InputException');
        assert.deepEqual(fieldsOf(body), [c.field], c.name);
        assert.ok(body.message.includes(c.field), `${c.name}: ${body.message}`);
      }
      assert.deepEqual(await counts(), before);
      const messages = await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation}/messages` });
      assert.equal(dataOf<{ total: number }>(messages).total, 1, 'no message was sent');
    });

    it('is refused on every documented route, in the path and the query (before authentication) and in the body', async () => {
      const doc = (await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null })).json() as {
        paths: Record<string, Record<string, unknown>>;
      };
      const before = await counts();
      let checked = 0;
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const method of Object.keys(operations).filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))) {
          const upper = method.toUpperCase() as 'GET';
          const withBody = method !== 'get' && method !== 'delete';
          const attempts = [
            { url: `${path.replace(/\{[a-z_]+\}/g, '1')}?q=a%00b` },
            ...(path.includes('{') ? [{ url: path.replace(/\{[a-z_]+\}/g, 'a%00b') }] : []),
            ...(withBody ? [{ url: path.replace(/\{[a-z_]+\}/g, '1'), payload: { name: 'a\u0000b' } }] : []),
          ];
          for (const attempt of attempts) {
            // Path and query are checked before authentication; a body is read only after it.
            for (const as of attempt.payload ? [undefined] : [undefined, null]) {
              const res = await t.call({ method: upper, ...attempt, ...(as === null ? { as } : {}) });
              // The upload route refuses any body that is not multipart before reading it.
              const status = attempt.payload && path === '/api/v1/media/upload' ? 415 : 400;
              refused(res, status, 'InputException');
              checked += 1;
            }
          }
        }
      }
      assert.ok(checked > 100, `${checked} requests`);
      assert.deepEqual(await counts(), before);
    });

    it('a valid surrogate pair, escaped or not, is ordinary text', async () => {
      for (const payload of ['{"name":"smile \\ud83d\\ude00"}', JSON.stringify({ name: 'grin 😁' })]) {
        const tag = dataOf<{ id: number; name: string }>(await t.call({ method: 'POST', url: '/api/v1/tags', ...jsonText(payload) }));
        assert.ok(tag.name.isWellFormed() && /[\u{1F600}\u{1F601}]/u.test(tag.name));
        dataOf(await t.call({ method: 'DELETE', url: `/api/v1/tags/${tag.id}` }));
      }
    });
  });

  describe('JSON nesting depth', () => {
    const contact = (depth: number, email: string) =>
      // The body object and custom_attributes are two levels; the arrays make up the rest.
      `{"first_name":"Deep","email":"${email}","custom_attributes":{"a":${'['.repeat(depth - 2)}1${']'.repeat(depth - 2)}}}`;

    it('is bounded at 32 levels: deeper is a 400 before parsing, however deep', async () => {
      const before = await counts();
      for (const depth of [33, 1000, 200_000]) {
        const res = await t.call({ method: 'POST', url: '/api/v1/contacts', ...jsonText(contact(depth, `deep${depth}@example.com`)) });
        const body = refused(res, 400, 'InputException');
        assert.match(body.message, /nested too deeply.*32/);
      }
      assert.deepEqual(await counts(), before);
      dataOf(await t.call({ method: 'POST', url: '/api/v1/contacts', ...jsonText(contact(32, 'deep32@example.com')) }));
    });

    it('scanJson: what it notices, and what it does not', () => {
      const cases: Array<[string, Partial<ReturnType<typeof scanJson>>]> = [
        ['{"a":"plain","b":[1,-2,0]}', { tooDeep: false, suspectText: false, suspectNumbers: false }],
        ['{"a":"\\u0000"}', { suspectText: true }],
        ['{"a":"\\\\u0000"}', { suspectText: false }], // an escaped backslash, then the text u0000
        ['{"a\\ud800":1}', { suspectText: true }],
        ['{"a":"[[[[{{{{\\"]]]"}', { tooDeep: false, suspectText: false }],
        ['[1.0]', { suspectNumbers: true }],
        ['[1e2]', { suspectNumbers: true }],
        ['[-0]', { suspectNumbers: true }],
        ['[1234567890123456]', { suspectNumbers: true }],
        ['[123456789012345]', { suspectNumbers: false }],
        ['{"t":true,"f":false,"n":null}', { suspectNumbers: false }],
        [`${'['.repeat(4)}${']'.repeat(4)}`, { tooDeep: false }],
        [`${'['.repeat(5)}${']'.repeat(5)}`, { tooDeep: true }],
      ];
      for (const [text, expected] of cases) {
        const scan = scanJson(text, 4);
        for (const [key, value] of Object.entries(expected)) assert.equal(scan[key as keyof typeof scan], value, `${text}: ${key}`);
      }
    });

    it('brackets inside strings do not count', async () => {
      const name = `${'['.repeat(40)}${'{'.repeat(40)}`;
      const tag = dataOf<{ id: number; name: string }>(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name } }));
      assert.equal(tag.name, name);
      dataOf(await t.call({ method: 'DELETE', url: `/api/v1/tags/${tag.id}` }));
    });
  });
});
