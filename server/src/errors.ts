// The AppError family and the one place that turns any error into the envelope.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type ErrorType =
  | 'GeneralException'
  | 'PermissionException'
  | 'InputException'
  | 'DataException'
  | 'NetworkException'
  | 'NotFoundException'
  | 'ConflictException'
  | 'UnauthorizedException'
  | 'RateLimitException';

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

function envelope(errorType: ErrorType, message: string, data: unknown = null): ErrorEnvelope {
  return { status: 'error', message, data, error_type: errorType };
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** Turns an AJV validation failure into field errors that name the field. */
function validationErrors(error: FastifyError): { message: string; errors: FieldError[] } {
  const context = error.validationContext ?? 'body';
  const issues = (error.validation ?? []) as ValidationIssue[];
  const errors = issues.map((issue) => {
    let field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const missing = issue.params?.['missingProperty'] ?? issue.params?.['requiredProperties'];
    if (issue.keyword === 'required' && missing !== undefined) {
      field = field ? `${field}.${String(missing)}` : String(missing);
      return { field, reason: 'is required' };
    }
    const extra = issue.params?.['additionalProperty'];
    if (issue.keyword === 'additionalProperties' && extra !== undefined) {
      return { field: field ? `${field}.${String(extra)}` : String(extra), reason: 'is not allowed' };
    }
    return { field: field || context, reason: issue.message ?? 'is invalid' };
  });
  const first = errors[0];
  const message = first ? `Invalid ${context}: ${first.field} ${first.reason}` : `Invalid ${context}`;
  return { message, errors };
}

/** PostgreSQL error codes that mean "the client asked for something impossible", not a server fault. */
function databaseError(error: { code?: unknown }): AppError | null {
  switch (error.code) {
    case '23505':
      return new ConflictError('A record with the same unique value already exists');
    case '23503':
      return new InputError('A referenced record does not exist');
    case '22P02':
    case '22003':
      return new InputError('A value is out of range or malformed');
    default:
      return null;
  }
}

export function registerErrorHandling(app: FastifyInstance, allowedMethods: (url: string) => string[]): void {
  app.setErrorHandler((raw: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (raw instanceof AppError) {
      if (raw instanceof RateLimitError && !reply.hasHeader('retry-after')) reply.header('retry-after', String(raw.retryAfterSeconds ?? 60));
      return reply.code(raw.statusCode).send(envelope(raw.errorType, raw.message, raw.data));
    }
    const error = raw as FastifyError;
    if (error.validation) {
      // Contract §1: a malformed id or uuid in the path is answered like an unknown one.
      if (error.validationContext === 'params') return reply.code(404).send(envelope('NotFoundException', 'Not found: malformed identifier in the path'));
      const { message, errors } = validationErrors(error);
      return reply.code(400).send(envelope('InputException', message, { errors }));
    }
    const mapped = databaseError(error as { code?: unknown });
    if (mapped) return reply.code(mapped.statusCode).send(envelope(mapped.errorType, mapped.message, mapped.data));
    const status = error.statusCode ?? 500;
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(413).send(envelope('InputException', 'Request body is too large'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send(envelope('InputException', 'Unsupported Content-Type; send application/json'));
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.code(400).send(envelope('InputException', 'Request body is empty but Content-Type is application/json'));
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return reply.code(400).send(envelope('InputException', 'Malformed JSON in request body'));
      default:
        break;
    }
    if (status === 429) {
      return reply.code(429).send(envelope('RateLimitException', 'Rate limit exceeded, retry later'));
    }
    if (status >= 400 && status < 500) {
      if (error instanceof SyntaxError) return reply.code(400).send(envelope('InputException', 'Malformed request body'));
      return reply.code(status).send(envelope(status === 404 ? 'NotFoundException' : 'InputException', error.message));
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return reply.code(500).send(envelope('GeneralException', `Internal server error (request ${request.id})`));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const methods = allowedMethods(path);
    if (methods.length > 0 && !methods.includes(request.method)) {
      reply.header('allow', methods.join(', '));
      return reply.code(405).send(envelope('GeneralException', `Method ${request.method} not allowed on ${path}`));
    }
    return reply.code(404).send(envelope('NotFoundException', 'Route not found'));
  });
}
