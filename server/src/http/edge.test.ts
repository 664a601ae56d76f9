// The edge: bad input never gives a 500, never changes anything, and every answer, whatever
// fails (validation, the router, Node's HTTP parser), is the envelope with an X-Request-Id.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { assertError, buildTestApp, dataOf, type ErrorBody, type TestApp } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { ERROR_TYPES, WWW_AUTHENTICATE, WWW_AUTHENTICATE_SESSION } from '../errors.ts';
import { isEmailAddress, isHttpUrl } from './formats.ts';
import { scanJson } from './json.ts';
import { redactUrl } from './logging.ts';

type Json = Record<string, unknown>;
type Answer = { statusCode: number; body: string; headers: Record<string, unknown>; json: () => unknown };
type FieldErrors = { errors: Array<{ field: string; reason: string }> };

/** An error envelope with this status and type, carrying X-Request-Id. */
function refused(res: Answer, status: number, errorType: string): ErrorBody {
  const body = assertError(res, status, errorType);
  assert.equal(typeof res.headers['x-request-id'], 'string', `X-Request-Id on ${res.statusCode} ${res.body}`);
  return body;
}

const fieldsOf = (body: ErrorBody) => (body.data as FieldErrors).errors.map((e) => e.field);

const jsonText = (payload: string) => ({ payload, headers: { 'content-type': 'application/json' } });

describe('edge', () => {
  let t: TestApp;
  let teamId: number;
  let inboxId: number;
  let conversation: string;

  const counts = async () => {
    const count = async (table: 'tags' | 'teams' | 'inboxes' | 'users' | 'conversations') =>
      Number(
        (
          await t.deps.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const tables = ['tags', 'teams', 'inboxes', 'users', 'conversations'] as const;
    return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await count(table)])));
  };

  before(async () => {
    t = await buildTestApp();
    teamId = dataOf<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: 'Edge team' } })).id;
    inboxId = dataOf<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/inboxes', payload: { name: 'Chat', channel: 'livechat', config: {} } }),
    ).id;
    const created = await t.call({
      method: 'POST',
      url: '/api/v1/conversations',
      payload: { inbox_id: inboxId, contact_email: 'edge-contact@example.com', content: '<p>Hello</p>', initiator: 'contact' },
    });
    conversation = dataOf<{ uuid: string }>(created).uuid;
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

  describe('integers are plain decimal digits', () => {
    it('a path id written otherwise, or out of range, is a 404 like an unknown id', async () => {
      dataOf(await t.call({ method: 'GET', url: `/api/v1/teams/${teamId}` }));
      const variants = [
        `0x${teamId.toString(16)}`,
        `${teamId}e0`,
        `%2B${teamId}`,
        `0${teamId}`,
        `${teamId}.0`,
        `%20${teamId}`,
        `${teamId}%20`,
      ];
      variants.push('9007199254740993', '2147483648');
      for (const id of variants) {
        const body = refused(await t.call({ method: 'GET', url: `/api/v1/teams/${id}` }), 404, 'NotFoundException');
        assert.match(body.message, /malformed identifier/, id);
      }
    });

    it('a path uuid is only the 36 characters: a urn:uuid: prefix is a 404 like an unknown uuid, not a database error', async () => {
      dataOf(await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation}` }));
      dataOf(await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.toUpperCase()}` }));
      for (const uuid of [`urn:uuid:${conversation}`, `{${conversation}}`, conversation.replace(/-/g, '')]) {
        refused(await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` }), 404, 'NotFoundException');
      }
    });

    it('a query integer written otherwise, or past the safe integers, is a 400 naming it', async () => {
      const cases: Array<[string, string]> = [
        ['/api/v1/conversations/all?page_size=0x2', 'page_size'],
        ['/api/v1/conversations/all?page_size=2.0', 'page_size'],
        ['/api/v1/conversations/all?page=%2B1', 'page'],
        ['/api/v1/conversations/all?page=01', 'page'],
        ['/api/v1/conversations/all?page=99999999999999999999', 'page'],
        ['/api/v1/conversations/all?inbox_id=1&inbox_id=0x2', 'inbox_id.1'],
        ['/api/v1/reports/overview/tags?days=1e1', 'days'],
        ['/api/v1/search?q=x&limit=1e1', 'limit'],
      ];
      for (const [url, field] of cases) {
        const body = refused(await t.call({ method: 'GET', url }), 400, 'InputException');
        assert.deepEqual(fieldsOf(body), [field], url);
      }
      assert.equal(
        dataOf<{ per_page: number }>(await t.call({ method: 'GET', url: '/api/v1/conversations/all?page_size=2&page=1' })).per_page,
        2,
      );
      dataOf(await t.call({ method: 'GET', url: `/api/v1/conversations/all?inbox_id=${inboxId}&inbox_id=2` }));
      dataOf(await t.call({ method: 'GET', url: '/api/v1/reports/overview/tags?days=10' }));
    });

    it('a body integer written with a fraction or exponent, or unsafe, is a 400 and changes nothing', async () => {
      const url = `/api/v1/conversations/${conversation}/assignee/user`;
      for (const written of ['3.0', '1e0', `${t.admin.id}.0`, `${t.admin.id}E0`, '9007199254740993', '1e400']) {
        const body = refused(await t.call({ method: 'PUT', url, ...jsonText(`{"assignee_id":${written}}`) }), 400, 'InputException');
        assert.deepEqual(fieldsOf(body), ['assignee_id'], written);
      }
      const team = refused(
        await t.call({ method: 'POST', url: '/api/v1/teams', ...jsonText('{"name":"Fraction","max_auto_assigned_conversations":1.0}') }),
        400,
        'InputException',
      );
      assert.deepEqual(fieldsOf(team), ['max_auto_assigned_conversations']);
      const unchanged = dataOf<{ assigned_user_id: number | null }>(
        await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation}` }),
      );
      assert.equal(unchanged.assigned_user_id, null);
      assert.equal(
        dataOf<Array<{ name: string }>>(await t.call({ method: 'GET', url: '/api/v1/teams' })).filter((x) => x.name === 'Fraction').length,
        0,
      );
      const assigned = await t.call({ method: 'PUT', url, ...jsonText(`{"assignee_id":${t.admin.id}}`) });
      assert.equal(dataOf<{ assigned_user_id: number }>(assigned).assigned_user_id, t.admin.id);
    });

    it('numbers where the schema takes any number stay numbers, however written', async () => {
      const contact = dataOf<{ custom_attributes: Json }>(
        await t.call({
          method: 'POST',
          url: '/api/v1/contacts',
          ...jsonText('{"first_name":"Num","email":"num@example.com","custom_attributes":{"price":3.0,"ratio":2.5e-1,"big":1e3}}'),
        }),
      );
      assert.deepEqual(contact.custom_attributes, { price: 3, ratio: 0.25, big: 1000 });
    });
  });

  describe('query parameters', () => {
    it('an unknown one is a 400 naming it (all of them), also on routes that take none', async () => {
      const one = refused(await t.call({ method: 'GET', url: '/api/v1/conversations/all?per_page=5' }), 400, 'InputException');
      assert.deepEqual(fieldsOf(one), ['per_page']);
      assert.match(one.message, /per_page/);
      const two = refused(await t.call({ method: 'GET', url: '/api/v1/contacts?per_page=5&sort=name&page=1' }), 400, 'InputException');
      assert.deepEqual(fieldsOf(two), ['per_page', 'sort']);
      assert.match(two.message, /per_page, sort/);
      for (const url of ['/api/v1/tags?x=1', `/api/v1/teams/${teamId}?expand=members`, '/api/v1/openapi.json?v=2']) {
        const res = await t.call({ method: 'GET', url, as: url.includes('openapi') ? null : undefined });
        assert.deepEqual(fieldsOf(refused(res, 400, 'InputException')), [url.split('?')[1]?.split('=')[0]]);
      }
      dataOf(await t.call({ method: 'GET', url: '/api/v1/conversations/all?page_size=5&order=asc' }));
    });
  });

  describe('validation messages', () => {
    it('an enum error lists the allowed values, once', async () => {
      const cases: Array<[Answer, string, string]> = [
        [
          await t.call({ method: 'POST', url: '/api/v1/statuses', payload: { name: 'Bogus', category: 'bogus' } }),
          'category',
          'open, waiting, resolved',
        ],
        [
          await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload: { status: 'gone' } }),
          'status',
          'available, busy, away, offline',
        ],
        [await t.call({ method: 'GET', url: '/api/v1/conversations/all?order=sideways' }), 'order', 'asc, desc'],
      ];
      for (const [res, field, values] of cases) {
        const body = refused(res, 400, 'InputException');
        assert.deepEqual((body.data as FieldErrors).errors, [{ field, reason: `must be one of: ${values}` }]);
        assert.ok(body.message.endsWith(`${field} must be one of: ${values}`), body.message);
      }
    });

    it('a pattern or format failure says what is expected, never the regular expression', async () => {
      const cases: Array<[Answer, string, RegExp]> = [
        [
          await t.call({ method: 'POST', url: '/api/v1/contacts', payload: { first_name: 'X', email: 'not-an-email' } }),
          'email',
          /valid email address/,
        ],
        [
          await t.call({
            method: 'POST',
            url: '/api/v1/contacts',
            payload: { first_name: 'X', email: 'p@example.com', phone_number_country_code: 'XYZ' },
          }),
          'phone_number_country_code',
          /ISO 3166/,
        ],
        [
          await t.call({ method: 'POST', url: '/api/v1/contacts', payload: { first_name: '   ', email: 'p@example.com' } }),
          'first_name',
          /must not be blank/,
        ],
        [await t.call({ method: 'GET', url: '/api/v1/macros?conversation_uuid=nope' }), 'conversation_uuid', /UUID/],
      ];
      for (const [res, field, reason] of cases) {
        const body = refused(res, 400, 'InputException');
        assert.equal(fieldsOf(body)[0], field);
        assert.match(body.message, reason);
        assert.doesNotMatch(res.body, /\^|\$"|\\\\[sS]|\[A-Z|must match (pattern|format)/, res.body);
      }
    });
  });

  describe('email addresses', () => {
    it('international addresses are accepted wherever an email is', async () => {
      const agent = dataOf<{ id: number; email: string }>(
        await t.call({
          method: 'POST',
          url: '/api/v1/agents',
          payload: { first_name: 'Zoë', email: 'zoë@exämple.com', roles: ['Agent'], password: 'zoe-password-123' },
        }),
      );
      assert.equal(agent.email, 'zoë@exämple.com');
      const login = await t.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'ZOË@EXÄMPLE.COM', password: 'zoe-password-123' },
        as: null,
      });
      assert.equal(dataOf<{ id: number }>(login).id, agent.id);
      const padded = await t.call({
        method: 'POST',
        url: '/api/v1/contacts',
        payload: { first_name: 'Jürgen', email: ' Jürgen@Bücher.de ' },
      });
      const contact = dataOf<{ email: string }>(padded);
      assert.equal(contact.email, 'jürgen@bücher.de');
      const started = await t.call({
        method: 'POST',
        url: '/api/v1/conversations',
        payload: { inbox_id: inboxId, contact_email: '用户@例子.广告', content: 'Hi', initiator: 'contact' },
      });
      assert.equal(dataOf<{ contact: { email: string } }>(started).contact.email, '用户@例子.广告');
    });

    it('isEmailAddress: a table', () => {
      const valid = [
        'a@example.com',
        'first.last+tag@sub.example.co.uk',
        'zoë@exämple.com',
        '用户@例子.广告',
        "o'brien@example.ie",
        'x@localhost',
      ];
      valid.push('a@xn--exmple-cua.com');
      const invalid = [
        '',
        'plain',
        '@example.com',
        'a@',
        'a@@example.com',
        'a@b@example.com',
        'a..b@example.com',
        '.a@example.com',
        'a.@example.com',
      ];
      invalid.push(
        'a b@example.com',
        ' a@example.com',
        'a@example.com ',
        'a@-example.com',
        'a@example-.com',
        'a@exa_mple.com',
        'a@example..com',
      );
      invalid.push(
        'a@example.com.',
        'a@1.2.3.4',
        'a@[1.2.3.4]',
        '"quoted"@example.com',
        'a@ex%41mple.com',
        'a\u0000@example.com',
        'a@exa\u200bmple.com',
      );
      invalid.push(`${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(64)}.com`);
      for (const email of valid) assert.equal(isEmailAddress(email), true, email);
      for (const email of invalid) assert.equal(isEmailAddress(email), false, email);
    });
  });

  describe('URLs', () => {
    const bad = [
      'javascript:alert(1)',
      'not a url',
      'ftp://example.com/a.png',
      'http://',
      'https:example.com/a.png',
      'data:image/png;base64,AAAA',
    ];
    bad.push('//example.com/a.png', 'https://user:secret@example.com/a.png', 'https://exa mple.com/a.png', 'https://example.com/\u0001');
    bad.push(`https://example.com/${'a'.repeat(2048)}`);

    it('avatar_url takes only absolute http(s) URLs, and nothing changes otherwise', async () => {
      for (const avatar_url of bad) {
        const body = refused(await t.call({ method: 'PUT', url: '/api/v1/agents/me', payload: { avatar_url } }), 400, 'InputException');
        assert.deepEqual(
          (body.data as FieldErrors).errors.map((e) => e.field),
          ['avatar_url'],
          avatar_url,
        );
        const payload = { first_name: 'U', email: `u${randomUUID()}@example.com`, roles: ['Agent'], avatar_url };
        const created = await t.call({ method: 'POST', url: '/api/v1/agents', payload });
        refused(created, 400, 'InputException');
      }
      const me = dataOf<{ avatar_url: string | null }>(await t.call({ method: 'GET', url: '/api/v1/agents/me' }));
      assert.equal(me.avatar_url, null);
      const set = await t.call({
        method: 'PUT',
        url: '/api/v1/agents/me',
        payload: { avatar_url: 'https://cdn.example.com/me.png?size=64' },
      });
      assert.equal(dataOf<{ avatar_url: string }>(set).avatar_url, 'https://cdn.example.com/me.png?size=64');
      assert.equal(
        dataOf<{ avatar_url: null }>(await t.call({ method: 'PUT', url: '/api/v1/agents/me', payload: { avatar_url: null } })).avatar_url,
        null,
      );
    });

    it('isHttpUrl: a table', () => {
      const good = [
        'http://example.com',
        'https://example.com/a/b.png?x=1#y',
        'HTTPS://EXAMPLE.COM/',
        'https://exämple.com/päth',
        'http://127.0.0.1:8080/x',
      ];
      for (const url of [...good, 'http://[::1]/']) {
        assert.equal(isHttpUrl(url), true, url);
      }
      for (const url of bad) assert.equal(isHttpUrl(url), false, url);
    });
  });

  describe('content types', () => {
    it('a JSON API: text/plain and multipart bodies are a 415 outside the upload route, and change nothing', async () => {
      const agent = await t.makeAgent();
      const before = dataOf<{ api_key: string }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent })).api_key;
      for (const [url, type, payload] of [
        ['/api/v1/agents/me/api-key', 'text/plain', 'x'],
        ['/api/v1/tags', 'text/plain', '{"name":"Plain"}'],
        ['/api/v1/tags', 'multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nPlain\r\n--b--\r\n'],
      ] as const) {
        const as = url.endsWith('/api-key') ? agent : t.admin;
        refused(await t.call({ method: 'POST', url, payload, headers: { 'content-type': type }, as }), 415, 'InputException');
      }
      assert.equal(dataOf<{ api_key: string }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent })).api_key, before);
      assert.equal(
        dataOf<Array<{ name: string }>>(await t.call({ method: 'GET', url: '/api/v1/tags' })).filter((tag) => tag.name === 'Plain').length,
        0,
      );
    });
  });

  describe('401', () => {
    it('carries the Basic challenge for API clients, and a session challenge (no browser dialog) for the login form and cookies', async () => {
      const basic = [
        await t.call({ method: 'GET', url: '/api/v1/tags', as: null }),
        await t.call({ method: 'GET', url: '/api/v1/tags', as: null, headers: { authorization: 'Basic Zm9vOmJhcg==' } }),
        await t.call({
          method: 'GET',
          url: '/api/v1/tags',
          as: null,
          headers: { authorization: 'token a:b', cookie: 'parley_session=stale' },
        }),
        await t.call({ method: 'GET', url: '/api/v1/tags', as: null, headers: { 'sec-fetch-mode': 'navigate' } }),
      ];
      for (const res of basic) {
        refused(res, 401, 'UnauthorizedException');
        assert.equal(res.headers['www-authenticate'], WWW_AUTHENTICATE);
      }
      assert.equal(WWW_AUTHENTICATE, 'Basic realm="Parley", charset="UTF-8"');
      const session = [
        await t.call({
          method: 'POST',
          url: '/api/v1/auth/login',
          as: null,
          payload: { email: 'nobody@example.com', password: 'wrong-password' },
        }),
        await t.call({ method: 'GET', url: '/api/v1/tags', as: null, headers: { cookie: 'parley_session=expired-or-forged' } }),
        await t.call({
          method: 'POST',
          url: '/api/v1/auth/login/',
          as: null,
          payload: { email: 'nobody@example.com', password: 'wrong-pw-123' },
        }),
        // An expired session: the browser no longer sends the cookie, but its fetch carries Fetch Metadata.
        await t.call({
          method: 'GET',
          url: '/api/v1/tags',
          as: null,
          headers: { 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin' },
        }),
      ];
      for (const res of session) {
        refused(res, 401, 'UnauthorizedException');
        assert.equal(res.headers['www-authenticate'], WWW_AUTHENTICATE_SESSION);
      }
      const forbidden = await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'Not mine' }, as: await t.makeAgent() });
      refused(forbidden, 403, 'PermissionException');
      assert.equal(forbidden.headers['www-authenticate'], undefined);
    });
  });

  describe('the OpenAPI document', () => {
    it('builds, lists every string enum as an enum, and the error types once', async () => {
      const res = await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null });
      assert.equal(res.statusCode, 200, res.body);
      const doc = res.json() as Json;
      const literalUnions: string[] = [];
      const walk = (node: unknown, path: string): void => {
        if (typeof node !== 'object' || node === null) return;
        const anyOf = (node as Json)['anyOf'];
        if (Array.isArray(anyOf) && anyOf.length > 1 && anyOf.every((b) => typeof (b as Json)['const'] === 'string'))
          literalUnions.push(path);
        for (const [key, value] of Object.entries(node)) walk(value, `${path}/${key}`);
      };
      walk(doc, '');
      assert.deepEqual(literalUnions, []);
      const schemas = (doc['components'] as { schemas: Record<string, { properties: Record<string, { enum?: unknown }> }> }).schemas;
      assert.deepEqual(schemas['ErrorEnvelope']?.properties['error_type']?.enum, [...ERROR_TYPES]);
      type Body = { requestBody?: { content: Record<string, { schema: { properties: Record<string, Json> } }> } };
      const paths = doc['paths'] as Record<string, Record<string, Body>>;
      const category = paths['/api/v1/statuses']?.['post']?.requestBody?.content['application/json']?.schema.properties['category'];
      assert.deepEqual(category?.['enum'], ['open', 'waiting', 'resolved']);
    });
  });

  describe('the request log', () => {
    it('never holds the signature of a media URL', async () => {
      const lines: string[] = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      const logged = await buildApp({ ...t.deps, log });
      try {
        const uuid = randomUUID();
        for (const query of [
          'exp=4102444800&sig=SECRET-SIGNATURE-1',
          'exp=4102444800&s%69g=SECRET-SIGNATURE-2',
          'SIG=SECRET-SIGNATURE-3',
        ]) {
          const res = await logged.inject({ method: 'GET', url: `/api/v1/media/${uuid}?${query}` });
          assert.ok([400, 403, 404].includes(res.statusCode), res.body);
        }
      } finally {
        await logged.close();
      }
      const incoming = lines
        .map((line) => JSON.parse(line) as { msg: string; req?: { url: string } })
        .filter((l) => l.msg === 'incoming request');
      assert.equal(incoming.length, 3);
      for (const line of incoming) assert.match(line.req?.url ?? '', /^\/api\/v1\/media\/[0-9a-f-]+\?.*=\[redacted\]/);
      assert.doesNotMatch(lines.join('\n'), /SECRET-SIGNATURE/);
      assert.equal(redactUrl('/a?x=1&sig=abc&token=t'), '/a?x=1&sig=[redacted]&token=[redacted]');
    });
  });

  describe('failures below the routes, over a real socket', () => {
    let port: number;
    before(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as net.AddressInfo).port;
    });

    /** Writes raw bytes, reads until the server closes: status, headers (lower-cased), body. */
    function raw(request: Buffer | string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
      return new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const [head = '', body = ''] = text.split('\r\n\r\n');
          const [statusLine = '', ...headerLines] = head.split('\r\n');
          const headers = Object.fromEntries(
            headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
          );
          resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
        });
        socket.end(request);
      });
    }
    const get = (target: string | Buffer, extraHeaders = '') => {
      const tail = ` HTTP/1.1\r\nHost: localhost\r\n${extraHeaders}Connection: close\r\n\r\n`;
      return Buffer.concat([Buffer.from('GET '), Buffer.isBuffer(target) ? target : Buffer.from(target), Buffer.from(tail)]);
    };

    it('every one is the envelope with an X-Request-Id', async () => {
      const cases: Array<[string, Buffer | string, number, string, RegExp]> = [
        ['a 20 KB header', get('/api/v1/tags', `X-Big: ${'a'.repeat(20_000)}\r\n`), 431, 'InputException', /too large/],
        [
          'a raw non-ASCII byte in the query',
          get(Buffer.from('/api/v1/tags?q=\xff\xc3\xa9', 'latin1')),
          400,
          'InputException',
          /Malformed HTTP request/,
        ],
        [
          'a control character in a header',
          get('/api/v1/tags', 'X-Anything: a\u0001b\r\n'),
          400,
          'InputException',
          /Malformed HTTP request/,
        ],
        ['a NUL in Idempotency-Key', get('/api/v1/tags', 'Idempotency-Key: a\u0000b\r\n'), 400, 'InputException', /Malformed HTTP request/],
        [
          'a method that is no token',
          'GE@T /api/v1/tags HTTP/1.1\r\nHost: localhost\r\n\r\n',
          400,
          'InputException',
          /Malformed HTTP request/,
        ],
        ['a path param over the length limit', get(`/api/v1/teams/${'1'.repeat(300)}`), 404, 'NotFoundException', /malformed identifier/],
        ['bad percent-encoding in the path', get('/api/v1/teams/%E'), 400, 'InputException', /percent-encoded/],
        ['a NUL in the query', get('/api/v1/search?q=a%00b'), 400, 'InputException', /q must not contain the NUL/],
        ['an HTTP/1.1 request without Host', 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'InputException', /Host header/],
      ];
      for (const [name, request, status, errorType, message] of cases) {
        const res = await raw(request);
        assert.equal(res.status, status, `${name}: ${res.status} ${res.body}`);
        assert.match(res.headers['content-type'] ?? '', /^application\/json/, name);
        assert.match(res.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/, name);
        const body = JSON.parse(res.body) as ErrorBody;
        assert.deepEqual(Object.keys(body).sort(), ['data', 'error_type', 'message', 'status'], name);
        assert.equal(body.status, 'error');
        assert.equal(body.error_type, errorType, name);
        assert.match(body.message, message, name);
      }
    });

    it('a router failure keeps the inbound X-Request-Id', async () => {
      const res = await raw(get('/api/v1/teams/%E', 'X-Request-Id: edge-trace-1\r\n'));
      assert.equal(res.status, 400);
      assert.equal(res.headers['x-request-id'], 'edge-trace-1');
    });
  });
});
