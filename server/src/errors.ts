// The AppError family and the one place that turns any error into the envelope.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Every error_type an answer can carry: the ErrorType union and the ErrorEnvelope schema both come from this list. */
export const ERROR_TYPES = [
  'GeneralException',
  'PermissionException',
  'InputException',
  'DataException',
  'NetworkException',
  'NotFoundException',
  'ConflictException',
  'UnauthorizedException',
  'RateLimitException',
] as const;

export type ErrorType = (typeof ERROR_TYPES)[number];

export interface FieldError {
  field: string;
  reason: string;
}

export class AppError extends Error {
  readonly statusCode: number;
  readonly errorType: ErrorType;
  readonly data: unknown;
  constructor(statusCode: number, errorType: ErrorType, message: string, data: unknown = null) {
    super(message);
    this.statusCode = statusCode;
    this.errorType = errorType;
    this.data = data;
  }
}

export class InputError extends AppError {
  constructor(message: string, errors?: FieldError[], statusCode = 400) {
    super(statusCode, 'InputException', message, errors ? { errors } : null);
  }
  static field(field: string, reason: string): InputError {
    return new InputError(`${field}: ${reason}`, [{ field, reason }]);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Invalid or missing credentials') {
    super(401, 'UnauthorizedException', message);
  }
}
export class PermissionError extends AppError {
  constructor(message = 'Permission denied') {
    super(403, 'PermissionException', message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(404, 'NotFoundException', message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, 'ConflictException', message);
  }
}
export class DataError extends AppError {
  constructor(message: string) {
    super(422, 'DataException', message);
  }
}
export class RateLimitError extends AppError {
  /** Sent as Retry-After (60 when unknown). */
  readonly retryAfterSeconds: number | null;
  constructor(message = 'Rate limit exceeded', retryAfterSeconds: number | null = null) {
    super(429, 'RateLimitException', message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
export class NetworkError extends AppError {
  constructor(message: string, timeout = false) {
    super(timeout ? 504 : 502, 'NetworkException', message);
  }
}

export interface ErrorEnvelope {
  status: 'error';
  message: string;
  data: unknown;
  error_type: ErrorType;
}

export function envelope(errorType: ErrorType, message: string, data: unknown = null): ErrorEnvelope {
  return { status: 'error', message, data, error_type: errorType };
}

/** Sent with a 401: Basic clients wait for the challenge before they send credentials. */
export const WWW_AUTHENTICATE = 'Basic realm="Parley", charset="UTF-8"';
/**
 * Sent instead when the request comes from a browser (a session cookie, the login form, or the
 * Fetch Metadata headers every current browser adds to fetch/XHR): a Basic challenge there makes
 * browsers open their own password dialog over the web app, e.g. once a session has expired.
 */
export const WWW_AUTHENTICATE_SESSION = 'Session realm="Parley"';

function challengeFor(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  if (authorization) return WWW_AUTHENTICATE;
  const path = (request.url.split('?')[0] ?? '').replace(/\/+$/, '');
  const fetchMode = request.headers['sec-fetch-mode'];
  const browser =
    (request.headers.cookie ?? '').includes('parley_session=') ||
    path.endsWith('/auth/login') ||
    (typeof fetchMode === 'string' && fetchMode !== 'navigate');
  return browser ? WWW_AUTHENTICATE_SESSION : WWW_AUTHENTICATE;
}

const MALFORMED_ID = 'Not found: malformed identifier in the path';

/** Writes an error answer: the envelope, X-Request-Id whatever ran before, the challenge on a 401. */
function send(reply: FastifyReply, status: number, body: ErrorEnvelope): FastifyReply {
  if (status === 401) reply.header('www-authenticate', challengeFor(reply.request));
  if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', reply.request.id);
  return reply.code(status).send(body);
}

/** An AJV error, as Fastify hands it over (`verbose` adds the failing schema). */
export interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  parentSchema?: Record<string, unknown>;
}

const FORMAT_REASONS: Record<string, string> = {
  email: 'must be a valid email address',
  'trimmed-email': 'must be a valid email address',
  'http-url': 'must be an absolute http(s) URL without user name or password',
  uuid: 'must be a UUID',
  'date-time': 'must be an RFC 3339 date-time',
  date: 'must be a date (YYYY-MM-DD)',
};

/** What is wrong with a value, in words: the allowed values of an enum, never a regular expression. */
export function describeIssue(issue: ValidationIssue): string {
  const params = issue.params ?? {};
  switch (issue.keyword) {
    case 'enum':
      return `must be one of: ${(params['allowedValues'] as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params['allowedValue'])}`;
    case 'format': {
      const format = String(params['format']);
      return FORMAT_REASONS[format] ?? `has an invalid format (${format})`;
    }
    case 'pattern': {
      if (params['pattern'] === '\\S') return 'must not be blank';
      const description = issue.parentSchema?.['description'];
      return typeof description === 'string' ? `has an invalid format: ${description}` : 'has an invalid format';
    }
    default:
      return issue.message ?? 'is invalid';
  }
}

const UNKNOWN_PARAMETER = 'is not a known query parameter';

function fieldErrorOf(issue: ValidationIssue, context: string): FieldError {
  const field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const within = (name: unknown) => (field ? `${field}.${String(name)}` : String(name));
  const missing = issue.params?.['missingProperty'] ?? issue.params?.['requiredProperties'];
  if (issue.keyword === 'required' && missing !== undefined) return { field: within(missing), reason: 'is required' };
  const extra = issue.params?.['additionalProperty'];
  if (issue.keyword === 'additionalProperties' && extra !== undefined) {
    return { field: within(extra), reason: context === 'querystring' ? UNKNOWN_PARAMETER : 'is not allowed' };
  }
  return { field: field || context, reason: describeIssue(issue) };
}

/** Turns an AJV validation failure into field errors that name the field. */
function validationErrors(error: FastifyError): { message: string; errors: FieldError[] } {
  const context = error.validationContext ?? 'body';
  const issues = (error.validation ?? []) as ValidationIssue[];
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  // The branches of a union say why each failed: "must match a schema in anyOf", and the "must be
  // null" of a nullable field's other branch, add nothing to that.
  const noise = (issue: ValidationIssue) =>
    issues.length > 1 && (issue.keyword === 'anyOf' || (issue.keyword === 'type' && issue.params?.['type'] === 'null'));
  const telling = issues.filter((issue) => !noise(issue));
  for (const issue of telling.length > 0 ? telling : issues) {
    const fieldError = fieldErrorOf(issue, context);
    const key = JSON.stringify([fieldError.field, fieldError.reason]);
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(fieldError);
  }
  const unknown = errors.filter((e) => e.reason === UNKNOWN_PARAMETER).map((e) => e.field);
  const first = errors[0];
  let message = first ? `Invalid ${context}: ${first.field} ${first.reason}` : `Invalid ${context}`;
  if (unknown.length > 1) message = `Invalid ${context}: ${unknown.join(', ')} are not known query parameters`;
  return { message, errors };
}

/**
 * PostgreSQL error codes that mean "the client sent something impossible", or (40P01, 40001) that
 * the request collided with a concurrent one and was rolled back whole: not a server fault.
 */
function databaseError(error: { code?: unknown }): AppError | null {
  switch (error.code) {
    case '40P01': // deadlock detected
    case '40001': // serialization failure
      return new ConflictError('The request collided with a concurrent change and was not applied; retry it');
    case '23505':
      return new ConflictError('A record with the same unique value already exists');
    case '23503':
      return new InputError('A referenced record does not exist');
    case '22P02':
    case '22003':
      return new InputError('A value is out of range or malformed');
    case '22021': // a byte sequence the encoding cannot hold (U+0000 in text)
    case '22P05': // a character jsonb cannot hold (\u0000)
      return new InputError('A text value contains a character that cannot be stored (such as U+0000)');
    case '22001':
    case '54000':
      return new InputError('A value is too long');
    case '22007':
    case '22008':
      return new InputError('A date or time value is malformed or out of range');
    case '22025':
    case '2201B':
      return new InputError('A search pattern is malformed');
    default:
      return null;
  }
}

/**
 * `pageFallback` answers, before the 404, what no route matched but is a page of the web app
 * (http/web-app.ts); it answers false for anything else.
 */
export function registerErrorHandling(
  app: FastifyInstance,
  allowedMethods: (url: string) => string[],
  pageFallback: (request: FastifyRequest, reply: FastifyReply) => boolean = () => false,
): void {
  app.setErrorHandler((raw: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (raw instanceof AppError) {
      if (raw instanceof RateLimitError && !reply.hasHeader('retry-after'))
        reply.header('retry-after', String(raw.retryAfterSeconds ?? 60));
      return send(reply, raw.statusCode, envelope(raw.errorType, raw.message, raw.data));
    }
    const error = raw as FastifyError;
    if (error.validation) {
      // A malformed id or uuid in the path is answered like an unknown one (docs/api.md, Envelope and errors).
      if (error.validationContext === 'params') return send(reply, 404, envelope('NotFoundException', MALFORMED_ID));
      const { message, errors } = validationErrors(error);
      return send(reply, 400, envelope('InputException', message, { errors }));
    }
    const mapped = databaseError(error as { code?: unknown });
    if (mapped) return send(reply, mapped.statusCode, envelope(mapped.errorType, mapped.message, mapped.data));
    const status = error.statusCode ?? 500;
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 413, envelope('InputException', 'Request body is too large'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 415, envelope('InputException', 'Unsupported Content-Type; send application/json'));
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(reply, 400, envelope('InputException', 'Request body is empty but Content-Type is application/json'));
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return send(reply, 400, envelope('InputException', 'Malformed JSON in request body'));
      default:
        break;
    }
    if (status === 429) return send(reply, 429, envelope('RateLimitException', 'Rate limit exceeded, retry later'));
    if (status >= 400 && status < 500) {
      if (error instanceof SyntaxError) return send(reply, 400, envelope('InputException', 'Malformed request body'));
      return send(reply, status, envelope(status === 404 ? 'NotFoundException' : 'InputException', error.message));
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return send(reply, 500, envelope('GeneralException', `Internal server error (request ${request.id})`));
  });

  app.setNotFoundHandler((request, reply) => {
    if (pageFallback(request, reply)) return reply;
    const path = request.url.split('?')[0] ?? '/';
    const methods = allowedMethods(path);
    if (methods.length > 0 && !methods.includes(request.method)) {
      reply.header('allow', methods.join(', '));
      return send(reply, 405, envelope('GeneralException', `Method ${request.method} not allowed on ${path}`));
    }
    return send(reply, 404, envelope('NotFoundException', 'Route not found'));
  });
}

/** Fastify's `frameworkErrors`: the router failed before any route or hook ran. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      send(reply, 400, envelope('InputException', 'Malformed URL: the path is not valid percent-encoded UTF-8'));
      return;
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // Longer than any id or uuid: a malformed identifier, answered like an unknown one.
      send(reply, 404, envelope('NotFoundException', MALFORMED_ID));
      return;
    default:
      request.log.error({ err: error, reqId: request.id }, 'router error');
      send(reply, 500, envelope('GeneralException', `Internal server error (request ${request.id})`));
  }
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'The request headers did not arrive in time'],
};

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the request (oversized or
 * malformed headers, bytes not allowed in the URL), so no request object exists. The answer
 * is written on the socket by hand, still as the envelope with an X-Request-Id.
 */
export function clientErrorHandler(log: FastifyBaseLogger) {
  return (error: Error & { code?: string; reason?: string }, socket: Duplex): void => {
    // A reset connection has no one left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, `Malformed HTTP request${error.reason ? `: ${error.reason}` : ''}`];
    const requestId = randomUUID();
    log.debug({ err: { code: error.code, message: error.message }, reqId: requestId }, 'client error');
    // As Node does: answer only if no response has started on this connection.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(envelope('InputException', message));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
