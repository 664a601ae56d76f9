// The edge: every answer, whatever fails (401 challenges, Node's HTTP parser, the router), is
// the envelope with an X-Request-Id; the OpenAPI document and the request log.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { edgeFixtures, type Json, refused } from '../../test/edge.ts';
import { buildTestApp, type ErrorBody, type TestApp } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { ERROR_TYPES, WWW_AUTHENTICATE, WWW_AUTHENTICATE_SESSION } from '../errors.ts';
import { redactUrl } from './logging.ts';

describe('edge', () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
    await edgeFixtures(t);
  });
  after(() => t.close());

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
