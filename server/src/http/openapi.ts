// The OpenAPI document, completed for client generators: every operation gets a stable
// operationId, schemas with a `title` or an `$id` become named components, nullable
// values are written the way OpenAPI 3.1 tools read them, and nothing the generators
// trip on (anonymous `def-N` names, `$id` inside the document) is left in it.
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import { Envelope } from './schemas.ts';

type Json = Record<string, unknown>;

// ---------------------------------------------------------------- operation ids

/** A last path segment that names what the operation does, not a resource: its first word is the verb. */
const ACTIONS = new Set([
  'apply',
  'block',
  'finish',
  'init',
  'login',
  'logout',
  'mark',
  'remove',
  'retry',
  'rotate',
  'search',
  'test',
  'toggle',
  'upload',
]);
/** Segments that only group routes and add nothing to a name (`POST /auth/login` → `login`). */
const NAMESPACES = new Set(['auth']);
/** Segments that select one item, as a path parameter does (`/agents/me`). */
const SELECTORS = new Set(['me']);
const UNCOUNTABLE = new Set(['business-hours', 'media', 'settings', 'news', 'series']);

const isParam = (segment: string) => segment.startsWith(':') || segment.startsWith('{');

function singular(word: string): string {
  if (UNCOUNTABLE.has(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|us|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/(ss|us|is)$/.test(word)) return word;
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

function pascal(segment: string): string {
  return segment
    .split(/[-_.]/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
}

/** Whether a GET answers a list: `data` is an array or a page of `results`. */
function answersList(schema: Json | undefined): boolean {
  const responses = schema?.['response'] as Record<string, Json> | undefined;
  const data = (responses?.['200']?.['properties'] as Record<string, Json> | undefined)?.['data'];
  if (!data) return false;
  if (data['type'] === 'array') return true;
  const results = (data['properties'] as Record<string, Json> | undefined)?.['results'];
  return results?.['type'] === 'array';
}

/**
 * The operationId a route gets when its schema names none: a verb, then the path's resources in
 * order, singular where one item is meant. `GET /api/v1/conversations/{uuid}/messages` →
 * `listConversationMessages`; `…/messages/{uuid}` → `getConversationMessage`; `POST /agents` →
 * `createAgent`; `PUT /inboxes/{id}/toggle` → `toggleInbox`; `PUT …/assignee/user/remove` →
 * `removeConversationAssigneeUser`. GET is `list` when the answer is a list, else `get`.
 */
export function operationIdFor(method: string, url: string, schema?: Json): string {
  let segments = url
    .replace(/^\/api\/v\d+(?=\/|$)/, '')
    .split('/')
    .filter(Boolean);
  const last = segments[segments.length - 1];
  let verb: string;
  let suffix = '';
  const action = last !== undefined && !isParam(last) ? last.split('-') : [];
  if (action[0] && ACTIONS.has(action[0])) {
    verb = action[0];
    suffix = pascal(action.slice(1).join('-'));
    segments = segments.slice(0, -1);
  } else {
    const upper = method.toUpperCase();
    if (upper === 'GET') verb = last !== undefined && !isParam(last) && answersList(schema) ? 'list' : 'get';
    else verb = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' }[upper] ?? upper.toLowerCase();
  }
  const nouns = segments.map((segment, i) => {
    if (isParam(segment) || NAMESPACES.has(segment)) return '';
    const next = segments[i + 1];
    const one = (next !== undefined && (isParam(next) || SELECTORS.has(next))) || (verb === 'create' && i === segments.length - 1);
    return pascal(one ? singular(segment) : segment);
  });
  return verb + nouns.join('') + suffix;
}

// ---------------------------------------------------------------- route registration

/** Keywords whose value is a schema, or an array of schemas. */
const SCHEMA_KEYWORDS = [
  'items',
  'prefixItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rebuilds a schema bottom-up: `visit` sees each subschema after its own subschemas were rebuilt. */
function mapSchema(schema: unknown, visit: (schema: Json) => Json): unknown {
  if (Array.isArray(schema)) return schema.map((item) => mapSchema(item, visit));
  if (!isObject(schema)) return schema;
  const out: Json = { ...schema };
  for (const key of SCHEMA_KEYWORDS) if (key in out) out[key] = mapSchema(out[key], visit);
  for (const key of SCHEMA_MAPS) {
    const map = out[key];
    if (isObject(map)) out[key] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, mapSchema(sub, visit)]));
  }
  return visit(out);
}

/**
 * Per app: completes each route's schema for the document. A route may name its own
 * `schema.operationId`; two operations with one id, or two different schemas with one `$id`
 * (the resolver would silently keep the first), fail at registration like a duplicate route.
 */
export function registerOpenApiCompletion(app: FastifyInstance): void {
  const operations = new Map<string, string>();
  const ids = new Map<string, string>();
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    const first = methods[0];
    if (first === undefined || route.schema?.hide) return;
    const where = `${methods.join(',')} ${route.url}`;
    route.schema ??= {};
    const schema = route.schema as Json;
    schema['operationId'] ??= operationIdFor(first, route.url, schema);
    const operationId = schema['operationId'] as string;
    const taken = operations.get(operationId);
    if (taken) throw new Error(`operationId "${operationId}" of ${where} is already used by ${taken}: give one of them schema.operationId`);
    operations.set(operationId, where);

    const parts = [
      schema['body'],
      schema['querystring'],
      schema['params'],
      schema['headers'],
      ...Object.values((schema['response'] ?? {}) as Json),
    ];
    mapSchema(parts, (sub) => {
      if (typeof sub['$id'] !== 'string') return sub;
      const text = JSON.stringify(sub);
      const seen = ids.get(sub['$id']);
      if (seen !== undefined && seen !== text) throw new Error(`${where}: two different schemas have $id "${sub['$id']}"`);
      ids.set(sub['$id'], text);
      return sub;
    });
  });
}

// ---------------------------------------------------------------- the document

const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;
const REF_PREFIX = '#/components/schemas/';

/** Collapses `anyOf: [X, {type: "null"}]` into `type: [X.type, "null"]` when X is a plain typed schema. */
function collapseNullable(schema: Json): Json {
  const { anyOf, ...outer } = schema;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return schema;
  const isNull = (s: unknown) => isObject(s) && s['type'] === 'null' && Object.keys(s).length === 1;
  const other = anyOf.find((s) => !isNull(s));
  if (!isNull(anyOf[0]) && !isNull(anyOf[1])) return schema;
  if (
    !isObject(other) ||
    typeof other['type'] !== 'string' ||
    ['$ref', 'anyOf', 'oneOf', 'allOf', 'const', 'title'].some((k) => k in other)
  )
    return schema;
  const merged: Json = { ...other, ...outer, type: [other['type'], 'null'] };
  if (Array.isArray(other['enum'])) merged['enum'] = [...other['enum'], null];
  return merged;
}

/**
 * The document as client generators want it. Each schema with a `title` becomes the component of
 * that name and is referenced (a title names one shape: a second, different shape with the same
 * title stays inline, and the OpenAPI tests report it).
 */
export function completeDocument(document: Json): Json {
  const doc = structuredClone(document);
  doc['components'] ??= {};
  const components = doc['components'] as Json;
  components['schemas'] ??= {};
  const schemas = components['schemas'] as Record<string, unknown>;
  const texts = new Map(Object.entries(schemas).map(([name, schema]) => [name, JSON.stringify(schema)]));

  const complete = (schema: unknown) =>
    mapSchema(schema, (sub) => {
      delete sub['$id'];
      const title = sub['title'];
      if (typeof title === 'string' && COMPONENT_NAME.test(title)) {
        const text = JSON.stringify(sub);
        const existing = texts.get(title);
        if (existing === undefined) {
          texts.set(title, text);
          schemas[title] = sub;
        }
        if (existing === undefined || existing === text) return { $ref: REF_PREFIX + title };
      }
      return collapseNullable(sub);
    });

  for (const [name, schema] of Object.entries(schemas)) {
    // A component's own title must not turn it into a reference to itself.
    const { title, ...rest } = isObject(schema) ? schema : {};
    const done = complete(rest) as Json;
    schemas[name] = title === undefined ? done : { ...done, title };
    texts.set(name, JSON.stringify(schemas[name]));
  }
  const paths = (doc['paths'] ?? {}) as Record<string, Record<string, Json>>;
  // The `webhooks` section (OpenAPI 3.1: what Parley sends) holds path items too.
  const webhooks = (doc['webhooks'] ?? {}) as Record<string, Record<string, Json>>;
  for (const item of [...Object.values(paths), ...Object.values(webhooks)]) {
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      for (const parameter of (operation['parameters'] ?? []) as Json[]) parameter['schema'] = complete(parameter['schema']);
      const bodies = [operation['requestBody'], ...Object.values((operation['responses'] ?? {}) as Json)];
      for (const body of bodies) {
        const content = isObject(body) ? body['content'] : undefined;
        if (!isObject(content)) continue;
        for (const media of Object.values(content)) if (isObject(media) && 'schema' in media) media['schema'] = complete(media['schema']);
      }
    }
  }
  return doc;
}

/**
 * Options for @fastify/swagger: schemas with an `$id` nested in route schemas are components
 * named by that `$id` (not `def-N`), and the finished document goes through completeDocument.
 */
export const openApiDocumentOptions = {
  refResolver: {
    buildLocalReference: (json: Json, _baseUri: unknown, _fragment: unknown, i: number) => {
      const id = json['$id'];
      return typeof id === 'string' ? id.replace(/[^A-Za-z0-9._-]/g, '_') : `Schema${i}`;
    },
  },
  transformObject: (input: { openapiObject?: Json; swaggerObject?: Json }) =>
    completeDocument((input.openapiObject ?? input.swaggerObject) as Json),
};

/**
 * A route's `swaggerTransform` when the document should show more than the route validates: a
 * channel's config or a webhook's events in full, where the route schema leaves them to the
 * service (which checks them with those same schemas once it knows which apply). `data` is the
 * 200 answer's `data`, in the envelope.
 */
export function documentedAs(parts: { body?: TSchema; data?: TSchema }) {
  return ({ schema, url }: { schema: FastifySchema; url: string }) => ({
    url,
    schema: {
      ...schema,
      ...(parts.body ? { body: parts.body } : {}),
      ...(parts.data ? { response: { ...(schema.response as object), 200: Envelope(parts.data) } } : {}),
    },
  });
}
