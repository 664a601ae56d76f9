// Schemas shared by every domain: the envelope, errors, ids, pagination, string enums, URLs, email addresses.
import type { FastifyReply } from 'fastify';
import { type Static, type TObject, type TSchema, Type } from 'typebox';
import { ERROR_TYPES } from '../errors.ts';
import { MAX_EMAIL_LENGTH, MAX_URL_LENGTH } from './formats.ts';

type SchemaOptions = Record<string, unknown>;

// Dates leave the database as Date objects; the serializer writes them as ISO 8601 strings.
export const DateTime = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });
export const NullableDateTime = Type.Union([DateTime, Type.Null()]);
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/** Marks a property of a PUT body that is there only because GET answers it (`PutBody`). */
export const ECHOED = 'x-parley-echoed';

/**
 * A PUT body that accepts the record as its GET answered it (docs/api.md, "Input rules"): clients
 * read, change a field and send the whole record back. `body`'s own properties are checked as
 * usual; every other property of `record` (ids, timestamps, computed fields) is accepted with any
 * value and removed before the handler sees the body (validation.ts, `stripEchoed`); the OpenAPI
 * document shows it with the record's schema, `readOnly`. A property in
 * neither is still refused. The static type is `body`'s: the handler never sees the others.
 */
export function PutBody<B extends TObject>(body: B, record: TObject, options: SchemaOptions = {}) {
  const echoed: Record<string, TSchema> = {};
  for (const [name, property] of Object.entries(record.properties)) {
    // Documented as the record has it, marked read-only; validation accepts any value (validation.ts).
    if (!Object.hasOwn(body.properties, name))
      echoed[name] = Type.Optional(Type.Unsafe<unknown>({ ...property, readOnly: true, [ECHOED]: true }));
  }
  // Not `body`'s title: that names the body without the echoed fields (a POST may use it).
  const rest = Object.fromEntries(Object.entries(body).filter(([key]) => !['properties', 'required', 'title'].includes(key)));
  return Type.Unsafe<Static<B>>({
    ...rest,
    ...options,
    type: 'object',
    properties: { ...body.properties, ...echoed },
    ...(body.required ? { required: body.required } : {}),
  });
}

/** `{status:"success", data}` around a payload schema. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ status: Type.Literal('success'), data });
}

/**
 * A string enum as `{type:"string", enum:[…]}`: one clear error ("must be one of: a, b") instead
 * of one per literal, and an `enum` in the OpenAPI document.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** An absolute http(s) URL (checked by `isHttpUrl`), for every URL stored and later rendered or fetched. */
export function HttpUrl(options: SchemaOptions = {}) {
  return Type.Unsafe<string>({
    type: 'string',
    format: 'http-url',
    maxLength: MAX_URL_LENGTH,
    description: 'Absolute http(s) URL',
    ...options,
  });
}

/** An http(s) URL, or the empty string for none. */
export function HttpUrlOrEmpty(options: SchemaOptions = {}) {
  return Type.Union([HttpUrl(), Type.Literal('')], { description: 'Absolute http(s) URL, or empty', ...options });
}

/** An email address (checked by `isEmailAddress`: international addresses are welcome). */
export function EmailAddress(options: SchemaOptions = {}) {
  return Type.Unsafe<string>({ type: 'string', format: 'email', maxLength: MAX_EMAIL_LENGTH, ...options });
}

export const ErrorEnvelope = Type.Object(
  {
    status: Type.Literal('error'),
    message: Type.String(),
    data: Type.Unknown(),
    error_type: StringEnum(ERROR_TYPES),
  },
  { $id: 'ErrorEnvelope', description: 'Every error answer has this shape.' },
);

const ErrorRef = Type.Ref('ErrorEnvelope');

/** Error responses a route can give, by status code, for the OpenAPI document. */
export function errors(...codes: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const code of codes) out[code] = ErrorRef;
  return out;
}

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Integer id' }) });

export const TrueEnvelope = Envelope(Type.Literal(true));

export const PageQuery = {
  page: Type.Optional(Type.Integer({ default: 1, description: 'Page number, from 1; larger values are clamped.' })),
  page_size: Type.Optional(Type.Integer({ default: 30, description: 'Items per page, 1..100; values outside are clamped.' })),
};

export function Paged<T extends TSchema>(item: T) {
  return Type.Object({
    results: Type.Array(item),
    total: Type.Integer(),
    per_page: Type.Integer(),
    total_pages: Type.Integer(),
    page: Type.Integer(),
  });
}

export interface PageRequest {
  page: number;
  pageSize: number;
  offset: number;
}

const MAX_PAGE = 1_000_000;

/** Clamps page and page_size into their bounds (docs/api.md: Pagination and lists). */
export function pageRequest(query: { page?: number; page_size?: number }): PageRequest {
  const page = Math.min(Math.max(query.page ?? 1, 1), MAX_PAGE);
  const pageSize = Math.min(Math.max(query.page_size ?? 30, 1), 100);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function pagedResult<T>(results: T[], total: number, request: PageRequest) {
  return {
    results,
    total,
    per_page: request.pageSize,
    total_pages: Math.ceil(total / request.pageSize),
    page: request.page,
  };
}

const RESULTS_HEAD = Buffer.from('{"status":"success","data":{"results":');

/**
 * The success envelope of a page whose items are JSON already (UTF-8 bytes written by the
 * database): the same bytes `ok(pagedResult(…))` would serialise, sent as they are.
 */
export function pagedJson(items: Buffer, total: number, request: PageRequest): Buffer {
  const tail = `,"total":${total},"per_page":${request.pageSize},"total_pages":${Math.ceil(total / request.pageSize)},"page":${request.page}}}`;
  return Buffer.concat([RESULTS_HEAD, items, Buffer.from(tail)]);
}

/**
 * Sends JSON (text, or its UTF-8 bytes) as the answer, unserialised: Fastify serialises neither a
 * string nor a Buffer. The route's response schema still documents it (OpenAPI); the type
 * provider, which expects the schema's object, is told so here only.
 */
export function sendJsonText(reply: FastifyReply, json: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json as never);
}

export function ok<T>(data: T): { status: 'success'; data: T } {
  return { status: 'success', data };
}
