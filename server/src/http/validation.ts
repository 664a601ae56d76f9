// Validation at the edge (docs/api.md, Input rules). Request bodies are checked strictly: a number
// is not a string, an unknown property is refused rather than dropped, and an integer must be
// written as one. Query strings and path params are coerced from text, but only from plain
// decimal integers, and a query string may carry only the parameters its route declares.
import { Ajv, type ErrorObject, type Options, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { registerFormats } from './formats.ts';
import { ECHOED } from './schemas.ts';
import type { LazySchemas } from './lazy-compile.ts';
import { CANONICAL_INTEGER, NumberMarks, registerJsonParser } from './json.ts';
import { refuseUnstorableText } from './text.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under Node's ESM loader.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

type Schema = Record<string, unknown>;

/** An AJV instance with our formats; `verbose` so that error messages can use the schema's description. */
export function buildAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: false, strict: false, verbose: true, ...options });
  addFormats(ajv);
  return registerFormats(ajv);
}

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const wantsInteger = (schema: Schema) =>
  schema['type'] === 'integer' || (Array.isArray(schema['type']) && schema['type'].includes('integer'));
// Keywords whose values are data, not subschemas; and those whose values map names to subschemas.
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples', 'example']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** A copy of a body schema where every integer also says `canonicalInteger` (the shared TypeBox schemas stay untouched). */
function withCanonicalIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withCanonicalIntegers);
  if (!isSchema(schema)) return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(key)) copy[key] = value;
    else if (SCHEMA_MAPS.has(key) && isSchema(value)) {
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withCanonicalIntegers(sub)]));
    } else copy[key] = withCanonicalIntegers(value);
  }
  if (wantsInteger(schema)) copy['canonicalInteger'] = true;
  return copy;
}

function addCanonicalIntegerKeyword(ajv: Ajv, marks: NumberMarks): void {
  const check: SchemaValidateFunction = (_schema, _data, _parent, cxt) => {
    const reason = marks.reason(cxt?.parentData, cxt?.parentDataProperty);
    if (reason === undefined) return true;
    check.errors = [{ keyword: 'canonicalInteger', message: reason, params: {} }];
    return false;
  };
  ajv.addKeyword({ keyword: 'canonicalInteger', schemaType: 'boolean', errors: true, validate: check });
}

/** The first problem of a text value meant as an integer: only plain decimal digits, within the safe range. */
function integerTextProblem(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (!CANONICAL_INTEGER.test(value)) return 'must be an integer written in plain decimal digits';
  if (!Number.isSafeInteger(Number(value))) return 'is out of range';
  return null;
}

/**
 * Wraps the coercing validator of a query string or params schema: values of integer
 * properties must be plain decimal text before AJV turns them into numbers (its `+value`
 * would take `0x1`, `1e0`, `+1`, ` 1`), and a query string names only declared parameters.
 */
function checkingText(validate: ValidateFunction, schema: Schema, part: 'querystring' | 'params'): ValidateFunction {
  const properties = isSchema(schema['properties']) ? (schema['properties'] as Record<string, Schema>) : {};
  const integers = Object.entries(properties)
    .filter(
      ([, property]) =>
        wantsInteger(property) || (property['type'] === 'array' && isSchema(property['items']) && wantsInteger(property['items'])),
    )
    .map(([name]) => name);
  const closed =
    part === 'querystring' &&
    schema['type'] === 'object' &&
    schema['additionalProperties'] !== true &&
    schema['patternProperties'] === undefined;
  const wrapped = ((data: unknown, cxt?: unknown) => {
    const issues: Array<Partial<ErrorObject>> = [];
    const values = isSchema(data) ? data : {};
    if (closed) {
      for (const name of Object.keys(values)) {
        if (!Object.hasOwn(properties, name))
          issues.push({ instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: name } });
      }
    }
    for (const name of integers) {
      const value = values[name];
      for (const [i, one] of (Array.isArray(value) ? value : [value]).entries()) {
        const message = integerTextProblem(one);
        const path = Array.isArray(value) && value.length > 1 ? `/${name}/${i}` : `/${name}`;
        if (message) issues.push({ instancePath: path, keyword: 'canonicalInteger', message, params: {} });
      }
    }
    if (issues.length > 0) {
      wrapped.errors = issues as ErrorObject[];
      return false;
    }
    const valid = validate(data, cxt as Parameters<ValidateFunction>[1]);
    wrapped.errors = validate.errors ?? null;
    return valid;
  }) as ValidateFunction;
  // Fastify passes the parent object only to validators that look like AJV's, so that coercion can replace the root.
  Object.assign(wrapped, { schemaEnv: validate.schemaEnv, schema: validate.schema });
  return wrapped;
}

/** Every /api/v1 route's query string refuses parameters it does not declare; a route without one accepts none. */
function closeQueryStrings(route: { url: string; schema?: Record<string, unknown> }): void {
  if (!route.url.startsWith('/api/v1') || !route.schema) return;
  const querystring = route.schema['querystring'];
  if (querystring === undefined) route.schema['querystring'] = { type: 'object', properties: {}, additionalProperties: false };
  else if (isSchema(querystring) && querystring['additionalProperties'] === undefined) {
    route.schema['querystring'] = { ...querystring, additionalProperties: false };
  }
}

/** The properties of a body schema (or of its union's branches) marked by `PutBody` as echoed from the record. */
function echoedProperties(schema: unknown): string[] {
  if (!isSchema(schema)) return [];
  const own = isSchema(schema['properties'])
    ? Object.entries(schema['properties'])
        .filter(([, property]) => isSchema(property) && property[ECHOED] === true)
        .map(([name]) => name)
    : [];
  const branches = ['anyOf', 'oneOf'].flatMap((key) => (Array.isArray(schema[key]) ? schema[key].flatMap(echoedProperties) : []));
  return [...new Set([...own, ...branches])];
}

/** A copy of a body schema where the echoed properties accept any value: they are ignored, whatever they hold. */
function acceptingEchoed(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const copy: Schema = { ...schema };
  const properties = schema['properties'];
  if (isSchema(properties)) {
    copy['properties'] = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        isSchema(property) && property[ECHOED] === true ? { [ECHOED]: true } : property,
      ]),
    );
  }
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key];
    if (Array.isArray(branches)) copy[key] = branches.map(acceptingEchoed);
  }
  return copy;
}

/** A body validator that, once the body is valid, removes the read-only properties a client echoed back (`PutBody`). */
function stripEchoed(validate: ValidateFunction, names: string[]): ValidateFunction {
  if (names.length === 0) return validate;
  const wrapped = ((data: unknown, cxt?: unknown) => {
    const valid = validate(data, cxt as Parameters<ValidateFunction>[1]);
    wrapped.errors = validate.errors ?? null;
    if (valid && isSchema(data)) for (const name of names) delete data[name];
    return valid;
  }) as ValidateFunction;
  Object.assign(wrapped, { schemaEnv: validate.schemaEnv, schema: validate.schema });
  return wrapped;
}

export function registerValidation(app: FastifyInstance, schemas: LazySchemas): void {
  const marks = new NumberMarks();
  const strict = buildAjv({ coerceTypes: false });
  addCanonicalIntegerKeyword(strict, marks);
  const coercing = buildAjv({ coerceTypes: 'array' });
  app.addHook('onRoute', closeQueryStrings);
  app.addHook('onRequest', refuseUnstorableText);
  const compile = (schema: unknown, httpPart: string | undefined): ValidateFunction => {
    if (httpPart === 'body') {
      return stripEchoed(strict.compile(withCanonicalIntegers(acceptingEchoed(schema)) as Schema), echoedProperties(schema));
    }
    const validate = coercing.compile(schema as Schema);
    return httpPart === 'querystring' || httpPart === 'params' ? checkingText(validate, schema as Schema, httpPart) : validate;
  };
  // Compiled on first use (lazy-compile.ts). It looks like AJV's from the start, so that Fastify
  // hands it the parent object (coercion may replace the root) before it is compiled.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    schemas.defer(
      () => compile(schema, httpPart),
      (lazy) => Object.assign(lazy, { schemaEnv: { lazy: true }, schema }),
    ),
  );
  registerJsonParser(app, marks);
}
