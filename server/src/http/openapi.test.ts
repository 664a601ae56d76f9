// The OpenAPI document: complete (every route, its responses and security), and fit for client
// generators (operationIds, named components, 3.1 nullable types, resolvable references): a
// TypeScript client is generated from it here, so a document generators reject fails the tests.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import swagger from '@fastify/swagger';
import { Ajv2020 } from 'ajv/dist/2020.js';
import Fastify, { type FastifyInstance } from 'fastify';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildTestApp, dataOf, registeredRoutes, type TestApp } from '../../test/helpers.ts';
import { SECRET_MASK } from '../security/encryption.ts';
import { WEBHOOK_EVENTS } from '../webhooks/webhooks.events.ts';
import { apiDocsCsp } from './api-docs.ts';
import { openApiDocumentOptions, operationIdFor, registerOpenApiCompletion } from './openapi.ts';

type Json = Record<string, unknown>;
type Doc = { openapi: string; paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Browser routes of the single sign-on: they answer a redirect (302, no body), never a 200. */
const REDIRECTS = new Set(['get /api/v1/oidc/{id}/login', 'get /api/v1/oidc/{id}/finish']);
/** The interface specification's one exception to the envelope: `success: true` in place of `status`. */
const SPEC_SUCCESS_ENVELOPE = new Set(['get /api/v1/oidc/{id}']);

/** Every operation of the document, with its method and path. */
function operationsOf(doc: Doc): Array<{ method: string; path: string; op: Json }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => ({ method, path, op: op as Json })),
  );
}

/** Calls `visit` on every object in the document, with its JSON pointer. */
function eachNode(node: unknown, visit: (node: Json, pointer: string) => void, pointer = ''): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      eachNode(item, visit, `${pointer}/${i}`);
    });
  } else if (typeof node === 'object' && node !== null) {
    visit(node as Json, pointer);
    for (const [key, value] of Object.entries(node)) eachNode(value, visit, `${pointer}/${key}`);
  }
}

/** A subschema that stands for one value: `const`, or an `enum` of one. */
function isSingleValue(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const values = (schema as Json)['enum'];
  return 'const' in schema || (Array.isArray(values) && values.length === 1);
}

describe('operationIdFor', () => {
  const cases: Array<[string, string, Json | undefined, string]> = [
    [
      'GET',
      '/api/v1/conversations/:cuuid/messages',
      { response: { 200: { properties: { data: { type: 'array' } } } } },
      'listConversationMessages',
    ],
    ['GET', '/api/v1/conversations/:cuuid/messages/:uuid', undefined, 'getConversationMessage'],
    ['POST', '/api/v1/conversations/:cuuid/messages', undefined, 'createConversationMessage'],
    [
      'GET',
      '/api/v1/contacts',
      { response: { 200: { properties: { data: { properties: { results: { type: 'array' } } } } } } },
      'listContacts',
    ],
    [
      'GET',
      '/api/v1/reports/overview/counts',
      { response: { 200: { properties: { data: { type: 'object' } } } } },
      'getReportsOverviewCounts',
    ],
    ['POST', '/api/v1/agents', undefined, 'createAgent'],
    ['PUT', '/api/v1/statuses/:id', undefined, 'updateStatus'],
    ['DELETE', '/api/v1/teams/:id/members/:user_id', undefined, 'deleteTeamMember'],
    ['GET', '/api/v1/priorities/:id', undefined, 'getPriority'],
    ['GET', '/api/v1/inboxes/:id', undefined, 'getInbox'],
    ['PUT', '/api/v1/inboxes/:id/toggle', undefined, 'toggleInbox'],
    ['PUT', '/api/v1/conversations/:cuuid/assignee/user/remove', undefined, 'removeConversationAssigneeUser'],
    ['PUT', '/api/v1/conversations/:cuuid/mark-unread', undefined, 'markConversationUnread'],
    ['PUT', '/api/v1/conversations/:cuuid/last-seen', undefined, 'updateConversationLastSeen'],
    ['POST', '/api/v1/conversations/:cuuid/macros/:id/apply', undefined, 'applyConversationMacro'],
    ['POST', '/api/v1/agents/:id/api-key', undefined, 'createAgentApiKey'],
    ['PUT', '/api/v1/agents/me/availability', undefined, 'updateAgentMeAvailability'],
    ['GET', '/api/v1/business-hours/:id', undefined, 'getBusinessHours'],
    ['POST', '/api/v1/webhooks/:id/deliveries/:delivery_id/retry', undefined, 'retryWebhookDelivery'],
    ['POST', '/api/v1/auth/login', undefined, 'login'],
    ['GET', '/api/v1/search', undefined, 'search'],
    ['PATCH', '/api/v1/things/:id', undefined, 'patchThing'],
    ['GET', '/widget/chat/settings/launcher', undefined, 'getWidgetChatSettingsLauncher'],
  ];
  for (const [method, url, schema, expected] of cases) {
    it(`${method} ${url} → ${expected}`, () => assert.equal(operationIdFor(method, url, schema), expected));
  }
});

describe('registerOpenApiCompletion on a bare app', () => {
  async function bareApp(): Promise<FastifyInstance> {
    const app = Fastify();
    await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } }, ...openApiDocumentOptions });
    registerOpenApiCompletion(app);
    return app;
  }
  const handler = async () => ({ status: 'success', data: true });

  it('keeps an operationId the route names, and derives the others', async () => {
    const app = await bareApp();
    app.get('/api/v1/things/:id', { schema: { operationId: 'fetchThing' } }, handler);
    app.delete('/api/v1/things/:id', handler);
    await app.ready();
    const doc = app.swagger() as unknown as Doc;
    assert.equal(doc.paths['/api/v1/things/{id}']?.['get']?.['operationId'], 'fetchThing');
    assert.equal(doc.paths['/api/v1/things/{id}']?.['delete']?.['operationId'], 'deleteThing');
    await app.close();
  });

  it('refuses a second operation with the same operationId, and two different schemas with one $id', async () => {
    const app = await bareApp();
    app.get('/api/v1/things', { schema: { operationId: 'things' } }, handler);
    assert.throws(
      () => app.get('/api/v1/other-things', { schema: { operationId: 'things' } }, handler),
      /operationId "things" of GET \/api\/v1\/other-things is already used by GET \/api\/v1\/things/,
    );
    const shape = (type: string) => ({ type: 'object', properties: { data: { $id: 'Shape', type } } });
    app.get('/api/v1/a', { schema: { response: { 200: shape('string') } } }, handler);
    app.get('/api/v1/b', { schema: { response: { 200: shape('string') } } }, handler);
    assert.throws(
      () => app.get('/api/v1/c', { schema: { response: { 200: shape('integer') } } }, handler),
      /two different schemas have \$id "Shape"/,
    );
    await app.close();
  });

  it('names a component by the $id of a nested schema, never def-N', async () => {
    const app = await bareApp();
    const widget = { $id: 'Widget', type: 'object', properties: { n: { type: 'integer' } } };
    app.get('/api/v1/widgets', { schema: { response: { 200: { type: 'object', properties: { data: widget } } } } }, handler);
    await app.ready();
    const doc = app.swagger() as unknown as Doc;
    assert.deepEqual(Object.keys(doc.components.schemas), ['Widget']);
    assert.doesNotMatch(JSON.stringify(doc), /def-\d|"\$id"/);
    await app.close();
  });
});

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  before(async () => {
    t = await buildTestApp();
    const res = await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null });
    assert.equal(res.statusCode, 200, res.body);
    doc = res.json() as Doc;
  });
  after(() => t.close());

  describe('routes, responses and security', () => {
    type Operation = {
      responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
      security?: unknown[];
    };
    type Document = {
      openapi: string;
      info: { version: string; title: string };
      paths: Record<string, Record<string, Operation>>;
      components?: { schemas?: Record<string, unknown> };
    };
    let doc: Document;
    const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

    before(async () => {
      const res = await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null });
      assert.equal(res.statusCode, 200, res.body);
      doc = res.json() as Document;
    });

    it('is public, OpenAPI 3.1.x, version 1.0.0', async () => {
      assert.match(doc.openapi, /^3\.1\.\d+$/);
      assert.equal(doc.info.version, '1.0.0');
      assert.equal(typeof doc.info.title, 'string');
      const bad = await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null, headers: { authorization: 'Basic Zm9vOmJhcg==' } });
      assert.equal(bad.statusCode, 200, 'bad credentials do not matter on a public route');
    });

    it('documents the routes the clients depend on', () => {
      const expected: Array<[string, string]> = [
        ['/api/v1/tags', 'get'],
        ['/api/v1/tags', 'post'],
        ['/api/v1/tags/{id}', 'put'],
        ['/api/v1/tags/{id}', 'delete'],
        ['/api/v1/agents', 'get'],
        ['/api/v1/agents', 'post'],
        ['/api/v1/agents/{id}', 'get'],
        ['/api/v1/agents/{id}', 'put'],
        ['/api/v1/agents/{id}', 'delete'],
        ['/api/v1/agents/{id}/api-key', 'post'],
        ['/api/v1/agents/{id}/api-key', 'delete'],
        ['/api/v1/agents/me/availability', 'put'],
        ['/api/v1/teams/{id}', 'get'],
        ['/api/v1/statuses', 'get'],
        ['/api/v1/statuses', 'post'],
        ['/api/v1/statuses/{id}', 'put'],
        ['/api/v1/statuses/{id}', 'delete'],
        ['/api/v1/priorities', 'get'],
        ['/api/v1/roles', 'get'],
        ['/api/v1/roles', 'post'],
        ['/api/v1/auth/login', 'post'],
      ];
      for (const [path, method] of expected) {
        assert.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`);
      }
    });

    it('documents every /api/v1 route the app registers, and nothing it does not', () => {
      const registered = registeredRoutes(t.app)
        .filter((r) => r.path.startsWith('/api/v1/') && r.path !== '/api/v1/openapi.json' && r.method !== 'HEAD')
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
      assert.ok(registered.length >= 30, `the route tree was read (${registered.length} routes)`);
      assert.ok(registered.includes('put /api/v1/tags/{id}'));
      const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => METHODS.includes(m))
          .map((m) => `${m} ${path}`),
      );
      assert.deepEqual([...documented].sort(), [...registered].sort());
      for (const route of documented) {
        const [method, path] = route.split(' ') as [string, string];
        assert.ok(t.app.hasRoute({ method: method.toUpperCase() as 'GET', url: path.replace(/\{([A-Za-z_]+)\}/g, ':$1') }), route);
      }
    });

    it('every operation has a JSON 200 response schema (file downloads: a binary one)', () => {
      let binary = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          if (!METHODS.includes(method)) continue;
          const content = op.responses?.['200']?.content;
          if (content?.['application/octet-stream'] || content?.['text/csv']) {
            binary += 1;
            assert.ok(
              ['/api/v1/media/{uuid}', '/api/v1/audit-log/export'].includes(path),
              `${method} ${path}: only file downloads answer bytes`,
            );
            continue;
          }
          if (REDIRECTS.has(`${method} ${path}`)) {
            assert.ok(op.responses?.['302'] && !op.responses['200'], `${method} ${path}: a redirect`);
            continue;
          }
          const schema = op.responses?.['200']?.content?.['application/json']?.schema;
          assert.ok(schema && typeof schema === 'object', `${method} ${path}: 200 schema`);
          const properties = schema['properties'] as Record<string, unknown> | undefined;
          const outcome = SPEC_SUCCESS_ENVELOPE.has(`${method} ${path}`) ? 'success' : 'status';
          assert.ok(properties?.[outcome] && 'data' in properties, `${method} ${path}: 200 is the envelope (with \`${outcome}\`)`);
        }
      }
      assert.ok(binary >= 1, 'the media download is documented as bytes');
    });

    it('every operation that needs credentials declares security and a 401 error envelope, and really answers 401', async () => {
      const errorRef = (op: Operation, code: string) => op.responses?.[code]?.content?.['application/json']?.schema;
      let authenticated = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          if (!METHODS.includes(method)) continue;
          const url = path.replace(/\{[A-Za-z_]+\}/g, '1');
          const res = await t.call({
            method: method.toUpperCase() as 'GET',
            url,
            as: null,
            ...(method === 'get' || method === 'delete' ? {} : { payload: {} }),
          });
          const needsAuth = res.statusCode === 401;
          assert.equal(
            Boolean(op.security?.length),
            needsAuth,
            `${method} ${path}: security declared iff anonymous call is 401 (got ${res.statusCode})`,
          );
          if (!needsAuth) continue;
          authenticated += 1;
          const schema = errorRef(op, '401');
          assert.ok(schema, `${method} ${path}: 401 documented`);
          assert.ok(errorRef(op, '429'), `${method} ${path}: 429 (too many failed authentications) documented`);
          const ref = schema['$ref'];
          if (typeof ref === 'string') {
            const name = ref.replace('#/components/schemas/', '');
            assert.ok(doc.components?.schemas?.[name], `${method} ${path}: ${ref} resolves`);
          } else {
            assert.ok(
              (schema['properties'] as Record<string, unknown> | undefined)?.['error_type'],
              `${method} ${path}: 401 is the error envelope`,
            );
          }
        }
      }
      assert.ok(authenticated >= 25, `most routes are authenticated (${authenticated})`);
      assert.equal(doc.paths['/api/v1/auth/login']?.['post']?.security, undefined, 'login is public');
    });

    it('GET /api/docs serves the HTML documentation page without credentials', async () => {
      for (const start of ['/api/docs', '/api/docs/']) {
        let url = start;
        let res = await t.call({ method: 'GET', url, as: null });
        for (let hops = 0; hops < 3 && res.statusCode >= 300 && res.statusCode < 400; hops += 1) {
          const location = String(res.headers['location']);
          url = new URL(location, `http://localhost${url}`).pathname;
          res = await t.call({ method: 'GET', url, as: null });
        }
        assert.equal(res.statusCode, 200, `${start} -> ${url}`);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.match(res.body, /<html/i);
      }
    });

    it('GET /api/docs and its files carry a CSP and may not be framed', async () => {
      const page = await t.call({ method: 'GET', url: '/api/docs/', as: null });
      const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => new URL(m[1]!, 'http://localhost/api/docs/').pathname);
      assert.ok(scripts.length >= 3, page.body);
      assert.doesNotMatch(page.body, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
      for (const url of ['/api/docs/', ...scripts, '/api/docs/json']) {
        const res = await t.call({ method: 'GET', url, as: null });
        assert.equal(res.statusCode, 200, url);
        const csp = String(res.headers['content-security-policy']);
        assert.equal(csp, apiDocsCsp('http://localhost:9000'), url);
        assert.match(csp, /frame-ancestors 'none'/);
        assert.match(csp, /script-src 'self'(;|$)/);
        assert.equal(res.headers['x-frame-options'], 'DENY', url);
      }
    });
  });

  describe('for client generators', () => {
    it('gives every operation an operationId: camelCase, unique, readable', () => {
      const seen = new Map<string, string>();
      for (const { method, path, op } of operationsOf(doc)) {
        const id = op['operationId'];
        assert.equal(typeof id, 'string', `${method} ${path} has an operationId`);
        assert.match(id as string, /^[a-z][A-Za-z0-9]*$/, `${method} ${path}`);
        assert.equal(seen.get(id as string), undefined, `${method} ${path}: operationId ${id} is unique`);
        seen.set(id as string, `${method} ${path}`);
      }
      const expected: Record<string, string> = {
        listConversationMessages: 'get /api/v1/conversations/{cuuid}/messages',
        getConversationMessage: 'get /api/v1/conversations/{cuuid}/messages/{uuid}',
        createConversation: 'post /api/v1/conversations',
        listConversationsAll: 'get /api/v1/conversations/all',
        listInboxes: 'get /api/v1/inboxes',
        createInbox: 'post /api/v1/inboxes',
        updateInbox: 'put /api/v1/inboxes/{id}',
        toggleInbox: 'put /api/v1/inboxes/{id}/toggle',
        deleteTag: 'delete /api/v1/tags/{id}',
        getAgentMe: 'get /api/v1/agents/me',
        login: 'post /api/v1/auth/login',
      };
      for (const [id, route] of Object.entries(expected)) assert.equal(seen.get(id), route, id);
    });

    it('documents, for every /api/v1 operation, its success answer and an error answer that is the ErrorEnvelope', () => {
      for (const { method, path, op } of operationsOf(doc)) {
        if (!path.startsWith('/api/v1/')) continue;
        const responses = op['responses'] as Record<string, { content?: Record<string, { schema?: Json }> }>;
        const success = REDIRECTS.has(`${method} ${path}`) ? '302' : '200';
        assert.ok(
          REDIRECTS.has(`${method} ${path}`) ? responses['302'] : responses['200']?.content,
          `${method} ${path}: ${success} documented`,
        );
        const errors = Object.entries(responses).filter(([code]) => /^[45]\d\d$/.test(code));
        assert.ok(errors.length > 0, `${method} ${path}: an error answer documented`);
        for (const [code, response] of errors) {
          assert.equal(
            response.content?.['application/json']?.schema?.['$ref'],
            '#/components/schemas/ErrorEnvelope',
            `${method} ${path} ${code}`,
          );
        }
      }
    });

    it('resolves every $ref and discriminator mapping; names components plainly; keeps no $id, def-N or 3.0 nullable', () => {
      const names = Object.keys(doc.components.schemas);
      for (const name of names) assert.match(name, /^[A-Za-z][A-Za-z0-9._-]*$/);
      assert.ok(!names.some((n) => /^def-\d+$/.test(n)), names.join());
      const resolves = (ref: unknown, where: string) => {
        assert.equal(typeof ref, 'string', where);
        const name = (ref as string).replace('#/components/schemas/', '');
        assert.ok((ref as string).startsWith('#/components/schemas/') && doc.components.schemas[name], `${where}: ${ref} resolves`);
      };
      let refs = 0;
      eachNode(doc, (node, pointer) => {
        if ('$ref' in node) {
          refs += 1;
          resolves(node['$ref'], pointer);
        }
        const mapping = (node['discriminator'] as { mapping?: Json } | undefined)?.mapping;
        for (const [value, ref] of Object.entries(mapping ?? {})) resolves(ref, `${pointer} discriminator ${value}`);
        assert.ok(!('$id' in node), `${pointer}: no $id in the document`);
        assert.ok(!('nullable' in node), `${pointer}: nullable is OpenAPI 3.0; 3.1 writes type: [T, "null"]`);
      });
      assert.ok(refs > 300, `components are referenced (${refs})`);
    });

    it('declares each path parameter once and as required, required properties that exist, and only its own security schemes', () => {
      const schemes = Object.keys((doc.components as { securitySchemes?: Json }).securitySchemes ?? {});
      for (const { method, path, op } of operationsOf(doc)) {
        const parameters = (op['parameters'] ?? []) as Array<{ in: string; name: string; required?: boolean }>;
        const inPath = parameters.filter((p) => p.in === 'path');
        assert.deepEqual(inPath.map((p) => p.name).sort(), [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(), `${method} ${path}`);
        assert.ok(
          inPath.every((p) => p.required === true),
          `${method} ${path}: path parameters are required`,
        );
        const keys = parameters.map((p) => `${p.in}:${p.name}`);
        assert.equal(new Set(keys).size, keys.length, `${method} ${path}: no parameter twice`);
        for (const requirement of (op['security'] ?? []) as Json[]) {
          for (const name of Object.keys(requirement)) assert.ok(schemes.includes(name), `${method} ${path}: security scheme ${name}`);
        }
      }
      eachNode(doc, (node, pointer) => {
        const properties = node['properties'];
        if (!Array.isArray(node['required']) || typeof properties !== 'object' || properties === null) return;
        for (const name of node['required'] as string[]) assert.ok(name in properties, `${pointer}: required "${name}" is a property`);
      });
    });

    it('makes each titled schema a component (one title, one shape) and writes plain nullable values as type arrays', () => {
      for (const { method, path, op } of operationsOf(doc)) {
        eachNode(op, (node, pointer) => {
          // A `properties` map is not a schema: its `title` is a field of that name (an AI prompt's).
          if (pointer.endsWith('/properties')) return;
          assert.equal(
            node['title'],
            undefined,
            `${method} ${path}${pointer}: "${node['title']}" is another shape than the component of that title`,
          );
          const anyOf = node['anyOf'];
          if (!Array.isArray(anyOf) || anyOf.length !== 2) return;
          const plain = anyOf.find((s: Json) => s['type'] !== 'null' && typeof s['type'] === 'string' && !('$ref' in s));
          const nullable = anyOf.some((s: Json) => s['type'] === 'null');
          assert.ok(!(plain && nullable), `${method} ${path}${pointer}: anyOf [T, null] is written type: [T, "null"]`);
        });
      }
      for (const name of ['Agent', 'Conversation', 'Message', 'Inbox', 'Tag', 'ErrorEnvelope'])
        assert.ok(doc.components.schemas[name], name);
      const from = (doc.components.schemas['EmailInbox']?.['properties'] as Record<string, Json>)['from'];
      assert.deepEqual(from?.['type'], ['string', 'null']);
    });

    it('documents what Parley POSTs to webhooks (the `webhooks` section): each event, its signed body, its headers', () => {
      const webhooks = (doc as Doc & { webhooks?: Record<string, Record<string, Json>> }).webhooks ?? {};
      assert.deepEqual(Object.keys(webhooks).sort(), [...WEBHOOK_EVENTS].sort());
      const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
      for (const event of WEBHOOK_EVENTS) {
        const op = webhooks[event]?.['post'] as Json | undefined;
        assert.ok(op, `${event}: a POST`);
        const headers = (op['parameters'] as Array<{ in: string; name: string; required: boolean }>).filter((p) => p.in === 'header');
        assert.deepEqual(
          headers.map((p) => [p.name, p.required]),
          [
            ['webhook-id', true],
            ['webhook-timestamp', true],
            ['webhook-signature', true],
          ],
        );
        const body = op['requestBody'] as { content: Record<string, { schema: Json }> };
        const ref = body.content['application/json']?.schema['$ref'];
        assert.equal(typeof ref, 'string', `${event}: the body is a component`);
        const component = doc.components.schemas[String(ref).replace('#/components/schemas/', '')] as Json;
        assert.deepEqual(component['required'], ['type', 'timestamp', 'data']);
        assert.deepEqual((component['properties'] as Record<string, Json>)['type'], { const: event, type: 'string' });
        ajv.compile({ $ref: ref, components: doc.components });
      }
      const validate = (event: string, value: unknown) =>
        ajv.compile({
          $ref: (webhooks[event]?.['post'] as { requestBody: { content: Record<string, { schema: Json }> } }).requestBody.content[
            'application/json'
          ]?.schema['$ref'],
          components: doc.components,
        })(value);
      const timestamp = '2026-01-15T10:00:00.000Z';
      assert.ok(validate('webhook.test', { type: 'webhook.test', timestamp, data: { webhook_id: 3, name: 'CRM' } }));
      assert.ok(!validate('webhook.test', { type: 'webhook.test', timestamp, data: { webhook_id: 3 } }));
      assert.ok(
        validate('contact.enabled_changed', { type: 'contact.enabled_changed', timestamp, data: { contact_id: 4, enabled: false } }),
      );
      assert.ok(!validate('contact.enabled_changed', { type: 'contact.created', timestamp, data: { contact_id: 4, enabled: false } }));
    });

    it('writes a set of values as an enum, not as anyOf of consts', () => {
      const found: string[] = [];
      eachNode(doc, (node, pointer) => {
        for (const key of ['anyOf', 'oneOf']) {
          const members = node[key];
          if (Array.isArray(members) && members.filter(isSingleValue).length >= 2) found.push(pointer);
        }
      });
      assert.deepEqual(found, []);
    });

    it('gives every field that holds a set of values its enum, in responses as in requests', () => {
      // Names that mean one set of values wherever they appear (docs/api.md, Enums)…
      const enumNames = new Set([
        'availability_status',
        'conversation_assignment_type',
        'category',
        'status_category',
        'sender_type',
        'last_message_sender',
        'visibility',
        'visible_when',
        'disposition',
        'channel',
        'inbox_channel',
      ]);
      // …and names that do only in some records (a conversation's `status` is a status name).
      const enumFieldsOf: Record<string, string[]> = { Agent: ['type'], Message: ['type', 'status', 'content_type'] };
      const resolve = (schema: Json): Json => {
        const ref = schema['$ref'];
        return typeof ref === 'string' ? (doc.components.schemas[ref.replace('#/components/schemas/', '')] ?? schema) : schema;
      };
      /** The schema holds values of one set: an enum, a const, or every non-null branch such a schema (an array: its items). */
      const isEnum = (raw: Json): boolean => {
        const schema = resolve(raw);
        if (Array.isArray(schema['enum']) || 'const' in schema) return true;
        if (schema['type'] === 'array' && schema['items']) return isEnum(schema['items'] as Json);
        const branches = (schema['anyOf'] ?? schema['oneOf']) as Json[] | undefined;
        return Array.isArray(branches) && branches.filter((b) => b['type'] !== 'null').every(isEnum);
      };
      const missing: string[] = [];
      const checked = new Set<string>();
      eachNode(doc, (node, pointer) => {
        const properties = node['properties'] as Record<string, Json> | undefined;
        if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return;
        const component = /^\/components\/schemas\/([^/]+)$/.exec(pointer)?.[1];
        const names = new Set([...enumNames, ...(component ? (enumFieldsOf[component] ?? []) : [])]);
        for (const [name, schema] of Object.entries(properties)) {
          if (!names.has(name) || typeof schema !== 'object') continue;
          checked.add(component ? `${component}.${name}` : name);
          if (!isEnum(schema)) missing.push(`${pointer}/properties/${name}`);
        }
      });
      assert.deepEqual(missing, []);
      // The rule saw the records it is about (a renamed component would make it pass vacuously).
      for (const field of [
        'Agent.type',
        'Agent.availability_status',
        'Message.status',
        'Message.content_type',
        'Team.conversation_assignment_type',
      ]) {
        assert.ok(checked.has(field), field);
      }
    });

    it('generates a TypeScript client with openapi-typescript', async () => {
      const client = astToString(await openapiTS(doc as never));
      for (const id of ['listConversationMessages', 'createInbox', 'updateInbox', 'listTags', 'login']) {
        assert.match(client, new RegExp(`^ {4}${id}: \\{$`, 'm'), `operations.${id}`);
      }
      for (const path of ['/api/v1/inboxes', '/api/v1/conversations/{cuuid}/messages', '/api/v1/tags/{id}']) {
        assert.ok(client.includes(`"${path}": {`), `paths["${path}"]`);
      }
      for (const name of ['ErrorEnvelope', 'EmailInboxConfig', 'LivechatInboxConfig', 'Inbox', 'Conversation']) {
        assert.match(client, new RegExp(`^ {8}${name}: `, 'm'), `components.schemas.${name}`);
      }
      assert.match(client, /Inbox: components\["schemas"\]\["EmailInbox"\] \| components\["schemas"\]\["LivechatInbox"\];/);
    });
  });

  describe('inbox config components', () => {
    const schemas = () => doc.components.schemas;
    const propertiesOf = (name: string) => schemas()[name]?.['properties'] as Record<string, Json>;

    it('describe every field of the email and live-chat config, with defaults and enums', () => {
      assert.deepEqual(Object.keys(propertiesOf('EmailInboxConfig')), [
        'imap',
        'smtp',
        'plus_addressing',
        'reopen_window_days',
        'signature',
      ]);
      assert.equal(propertiesOf('EmailInboxConfig')['reopen_window_days']?.['default'], 30);
      assert.deepEqual(schemas()['EmailInboxConfig']?.['required'], ['imap', 'smtp']);
      const imap = propertiesOf('ImapConfig');
      assert.deepEqual(imap['tls']?.['enum'], ['none', 'starttls', 'tls']);
      assert.equal(imap['mailbox']?.['default'], 'INBOX');
      assert.equal(imap['poll_interval_seconds']?.['default'], 60);
      assert.equal(imap['import_since_hours']?.['default'], 24);
      assert.equal(imap['tls_skip_verify']?.['default'], false);
      assert.deepEqual(schemas()['ImapConfig']?.['required'], ['host', 'port', 'tls'], 'fields with a default may be left out');

      const chat = propertiesOf('LivechatInboxConfig');
      for (const field of [
        'brand_name',
        'colors',
        'launcher',
        'greeting_message',
        'users',
        'visitors',
        'prechat_form',
        'file_upload',
        'trusted_domains',
      ]) {
        assert.ok(chat[field], field);
      }
      for (const field of ['blocked_ips', 'session_duration', 'business_hours_id', 'timezone', 'secret']) assert.ok(chat[field], field);
      assert.equal(schemas()['LivechatInboxConfig']?.['required'], undefined, 'every live-chat field has a default');
      assert.equal(chat['session_duration']?.['default'], '30d');
      assert.deepEqual(chat['business_hours_id'], { type: ['integer', 'null'], minimum: 1, default: null });
      const upload = chat['file_upload']?.['properties'] as Record<string, Json>;
      assert.equal(upload['max_size_mb']?.['default'], 10);
      assert.ok((upload['allowed_extensions']?.['default'] as string[]).includes('pdf'));
      const launcher = chat['launcher']?.['properties'] as Record<string, Json>;
      assert.deepEqual(launcher['position'], { type: 'string', enum: ['left', 'right'], default: 'right' });
      assert.equal(chat['users']?.['$ref'], '#/components/schemas/LivechatPermissions');
      assert.ok(Array.isArray(propertiesOf('PrechatField')['type']?.['enum']));
    });

    it('tell inboxes, and the bodies creating them, apart by channel', () => {
      for (const [union, email, livechat] of [
        ['Inbox', 'EmailInbox', 'LivechatInbox'],
        ['CreateInbox', 'CreateEmailInbox', 'CreateLivechatInbox'],
      ] as const) {
        assert.deepEqual(schemas()[union]?.['discriminator'], {
          propertyName: 'channel',
          mapping: { email: `#/components/schemas/${email}`, livechat: `#/components/schemas/${livechat}` },
        });
        assert.deepEqual(propertiesOf(email)['channel']?.['enum'], ['email']);
        assert.deepEqual(propertiesOf(livechat)['channel']?.['enum'], ['livechat']);
      }
      assert.equal(propertiesOf('EmailInbox')['config']?.['$ref'], '#/components/schemas/EmailInboxConfig');
      assert.equal(propertiesOf('LivechatInbox')['config']?.['$ref'], '#/components/schemas/LivechatInboxConfig');
      const update = propertiesOf('UpdateInbox')['config']?.['oneOf'] as Json[];
      assert.deepEqual(
        update.map((s) => s['$ref']),
        ['#/components/schemas/EmailInboxConfig', '#/components/schemas/LivechatInboxConfig'],
      );
      const body = (path: string, method: string) =>
        (doc.paths[path]?.[method]?.['requestBody'] as { content: Record<string, { schema: Json }> }).content['application/json']?.schema;
      assert.equal(body('/api/v1/inboxes', 'post')?.['$ref'], '#/components/schemas/CreateInbox');
      assert.equal(body('/api/v1/inboxes/{id}', 'put')?.['$ref'], '#/components/schemas/UpdateInbox');
      const answer = (
        doc.paths['/api/v1/inboxes/{id}']?.['get']?.['responses'] as Record<string, { content: Record<string, { schema: Json }> }>
      )['200'];
      const data = (answer?.content['application/json']?.schema['properties'] as Record<string, Json>)['data'];
      assert.equal(data?.['$ref'], '#/components/schemas/Inbox');
    });

    it('match what the API really accepts and answers, masks included', async () => {
      const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
      const validator = (name: string) => ajv.compile({ $ref: `#/components/schemas/${name}`, components: doc.components });
      const [inbox, createInbox, updateInbox] = [validator('Inbox'), validator('CreateInbox'), validator('UpdateInbox')];
      const conforms = (validate: typeof inbox, value: unknown, label: string) =>
        assert.ok(validate(value), `${label}: ${JSON.stringify(validate.errors)}`);

      const server = { host: 'mail.example.com', port: 993, username: 'support', password: 'app-password-1', tls: 'tls' };
      const bodies = [
        {
          name: 'Mail',
          channel: 'email',
          from: 'support@example.com',
          config: { imap: server, smtp: { ...server, port: 587, tls: 'starttls' } },
        },
        {
          name: 'Chat',
          channel: 'livechat',
          config: { brand_name: 'Acme', launcher: { position: 'left' }, trusted_domains: ['*.example.com'] },
        },
      ];
      for (const body of bodies) {
        conforms(createInbox, body, `create ${body.channel} body`);
        const created = dataOf<Json>(await t.call({ method: 'POST', url: '/api/v1/inboxes', payload: body }));
        conforms(inbox, created, `created ${body.channel} inbox`);
        // The creation answer shows the live-chat secret once; the email passwords stay masked.
        if (body.channel === 'email') assert.ok(JSON.stringify(created).includes(SECRET_MASK));
        // The record read back, echoed whole as the update body (masks and read-only fields included).
        const read = dataOf<Json>(await t.call({ method: 'GET', url: `/api/v1/inboxes/${created['id']}` }));
        conforms(updateInbox, read, `${body.channel} record echoed as an update`);
        conforms(
          inbox,
          dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${created['id']}`, payload: read })),
          `updated ${body.channel} inbox`,
        );
      }
      for (const listed of dataOf<Json[]>(await t.call({ method: 'GET', url: '/api/v1/inboxes' }))) conforms(inbox, listed, 'listed inbox');
      assert.ok(!createInbox({ ...bodies[1], channel: 'email' }), 'a live-chat config under channel email is refused by the document too');
    });
  });
});
