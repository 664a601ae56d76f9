// The one API client of the app: openapi-fetch over the types generated from Parley's OpenAPI
// document (schema.d.ts, `npm run openapi`). Same-origin cookies; every write carries the
// `csrf_token` cookie's value as `X-CSRF-Token` (docs/api.md, Authentication).
import createClient, { type Middleware } from 'openapi-fetch';
import { errorMessage, fieldErrorsOf } from '../i18n/reasons';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];
export type Agent = Schemas['Agent'];
export type Conversation = Schemas['Conversation'];
export type ConversationListItem = Schemas['ConversationListItem'];
export type Message = Schemas['Message'];
export type Macro = Schemas['Macro'];

const CSRF_COOKIE = 'csrf_token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfToken(): string | null {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === CSRF_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** The error envelope every failure answers with, as an exception the queries can throw. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly data: unknown;
  constructor(status: number, message: string, type: string, data: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.type = type;
    this.data = data;
  }
}

/** Called when a request answers 401: the session ended (logout elsewhere, expiry). */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

const session: Middleware = {
  onRequest({ request }) {
    if (!SAFE_METHODS.has(request.method)) {
      const token = csrfToken();
      if (token) request.headers.set('X-CSRF-Token', token);
    }
    return request;
  },
  onResponse({ response, request }) {
    if (response.status === 401 && !request.url.includes('/auth/login')) onUnauthorized();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(session);

type ErrorBody = { message?: unknown; error_type?: unknown; data?: unknown };

/**
 * The `data` of a success envelope, or an ApiError from the error envelope:
 * `const agent = await unwrap(api.GET('/api/v1/agents/me'))`.
 */
export async function unwrap<T>(call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data !== undefined && response.ok) return data.data;
  const body = (error ?? {}) as ErrorBody;
  const message = typeof body.message === 'string' ? body.message : `${response.status} ${response.statusText}`;
  throw new ApiError(
    response.status,
    errorMessage(response.status, message, fieldErrorsOf(body.data)),
    typeof body.error_type === 'string' ? body.error_type : 'GeneralException',
    body.data ?? null,
  );
}

/**
 * Uploads files (multipart, field `files`) and answers their uuids for a message's `attachments`.
 * Through the generated client like every call (CSRF header, 401 handling); the browser writes
 * the multipart body and its boundary from the FormData.
 */
export async function uploadFiles(files: readonly File[]): Promise<Schemas['Message']['attachments']> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  return unwrap(
    api.POST('/api/v1/media/upload', {
      body: { files: files.map((file) => file.name) },
      bodySerializer: () => form,
    }),
  );
}
