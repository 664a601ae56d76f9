// Widget test helpers: a live-chat inbox whose JWT secret the test knows, requests as the
// widget (no agent credentials, the inbox in X-Service-Inbox-ID), a visitor with a session,
// and a signer for identity tokens.
import { SignJWT } from 'jose';
import { createInbox, type Inbox, uniqueEmail, uniqueNumber } from './factories.ts';
import { dataOf, type TestApp } from './helpers.ts';

export const WIDGET = '/api/v1/widget';

export interface WidgetInboxFixture {
  inbox: Inbox;
  uuid: string;
  secret: string;
}

/** A live-chat inbox with a known secret; `config` is merged over the defaults. */
export async function createWidgetInbox(t: TestApp, config: Record<string, unknown> = {}): Promise<WidgetInboxFixture> {
  const secret = `widget-secret-${uniqueNumber()}-0123456789abcdefghijklmnopqrstuvwxyz`;
  const inbox = await createInbox(t, { channel: 'livechat', config: { secret, ...config } });
  return { inbox, uuid: inbox.uuid, secret };
}

export interface WidgetRequest {
  method?: 'GET' | 'POST' | 'OPTIONS' | 'PUT' | 'DELETE';
  url: string;
  /** The inbox uuid, sent as X-Service-Inbox-ID (null: none). */
  inbox: string | null;
  token?: string;
  headers?: Record<string, string>;
  payload?: unknown;
}

/** A request as the widget sends it. */
export function widgetCall(t: TestApp, request: WidgetRequest) {
  const headers: Record<string, string> = { ...(request.headers ?? {}) };
  if (request.inbox !== null) headers['x-service-inbox-id'] = request.inbox;
  if (request.token) headers['authorization'] = `Bearer ${request.token}`;
  return t.call({
    method: request.method ?? 'GET',
    url: request.url.startsWith('/') ? request.url : `${WIDGET}/${request.url}`,
    as: null,
    headers,
    ...(request.payload !== undefined ? { payload: request.payload as Record<string, unknown> } : {}),
  });
}

export interface Visitor {
  token: string;
  userId: number;
  conversationUuid: string;
}

/** A new visitor with its first conversation. */
export async function startVisitor(
  t: TestApp,
  inbox: string,
  message = 'Hello from the widget',
  formData?: Record<string, unknown>,
): Promise<Visitor> {
  const data = dataOf<{ session_token: string; user: { user_id: number }; conversation: { uuid: string } }>(
    await widgetCall(t, {
      method: 'POST',
      url: 'chat/conversations/init',
      inbox,
      payload: { message, ...(formData ? { form_data: formData } : {}) },
    }),
  );
  return { token: data.session_token, userId: data.user.user_id, conversationUuid: data.conversation.uuid };
}

/**
 * An identity token as a customer's server would sign it: issued `now` (or at `iat`; null: no
 * `iat`), valid for an hour unless `exp` is given (null: no `exp`).
 */
export async function signIdentity(
  secret: string,
  claims: Record<string, unknown> = {},
  options: { alg?: 'HS256' | 'HS384' | 'HS512'; exp?: number | null; iat?: number | null; now?: Date } = {},
): Promise<string> {
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const body = {
    external_user_id: `ext-${uniqueNumber()}`,
    email: uniqueEmail('verified'),
    first_name: 'Vera',
    ...claims,
  };
  const jwt = new SignJWT(body).setProtectedHeader({ alg: options.alg ?? 'HS256' });
  if (options.iat !== null) jwt.setIssuedAt(options.iat ?? now);
  if (options.exp !== null) jwt.setExpirationTime(options.exp ?? now + 3600);
  return jwt.sign(new TextEncoder().encode(secret));
}

/** The session of a verified contact. */
export async function verifiedSession(t: TestApp, fixture: WidgetInboxFixture, claims: Record<string, unknown> = {}, now?: Date) {
  const jwt = await signIdentity(fixture.secret, claims, now ? { now } : {});
  return dataOf<{ session_token: string; user: { user_id: number } }>(
    await widgetCall(t, { method: 'POST', url: 'chat/auth/exchange', inbox: fixture.uuid, payload: { jwt } }),
  );
}
