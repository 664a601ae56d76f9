// The widget API as the frame calls it: same origin as the frame, the inbox in
// X-Service-Inbox-ID, the session as a bearer token, and, after setUser, the earlier visitor's
// token in X-Service-Visitor-Token until the answer carries X-Service-Clear-Visitor (the server
// merged the visitor into the signed-in contact). Types come from the server's OpenAPI document.
import type { components } from './api.gen.ts';
import type { SessionStore } from './session.ts';

type Schemas = components['schemas'];
export type Settings = Schemas['WidgetSettings'];
export type ChatConversation = Schemas['ChatConversation'];
export type ChatMessage = Schemas['ChatMessage'];
export type ChatAttachment = Schemas['ChatAttachment'];
export type WidgetUser = Schemas['WidgetUser'];
export type WidgetConversation = Schemas['WidgetConversation'];
export type InitResult = Schemas['WidgetInitResult'];
export type WidgetSession = Schemas['WidgetSession'];
export type CsatSurvey = Schemas['PublicCsatSurvey'];
export type PrechatField = Schemas['PrechatField'];
export type BusinessHours = Schemas['BusinessHours'];

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

interface Options {
  body?: unknown;
  form?: FormData;
  /** Send the session token (default true). */
  auth?: boolean;
}

export interface Api {
  settings(): Promise<Settings>;
  exchange(jwt: string): Promise<WidgetSession>;
  me(): Promise<WidgetUser>;
  conversations(): Promise<ChatConversation[]>;
  conversation(uuid: string): Promise<WidgetConversation>;
  init(message: string, formData: Record<string, string | number | boolean>): Promise<InitResult>;
  send(uuid: string, message: string): Promise<ChatMessage>;
  upload(uuid: string, file: File): Promise<ChatMessage>;
  seen(uuid: string): Promise<void>;
  survey(uuid: string): Promise<CsatSurvey>;
  rate(uuid: string, rating: number, feedback: string): Promise<CsatSurvey>;
}

/** `onUnauthorized` runs when the stored session is refused (expired, or its contact blocked). */
export function createApi(base: string, inbox: string, store: SessionStore, onUnauthorized: () => void): Api {
  async function call<T>(method: 'GET' | 'POST', path: string, options: Options = {}): Promise<T> {
    const headers: Record<string, string> = { 'X-Service-Inbox-ID': inbox };
    const token = options.auth === false ? null : store.token();
    if (token) {
      headers['Authorization'] = `Bearer ${token}`;
      const visitor = store.visitorToken();
      if (visitor && visitor !== token) headers['X-Service-Visitor-Token'] = visitor;
    }
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, { method, headers, body, credentials: 'omit' });
    } catch {
      throw new ApiError(0, 'network error');
    }
    if (res.headers.get('X-Service-Clear-Visitor') === 'true') store.setVisitorToken(null);
    let envelope: { status?: string; data?: T; message?: string } = {};
    try {
      envelope = (await res.json()) as typeof envelope;
    } catch {
      // Not JSON (a proxy's page): the status code tells.
    }
    if (res.ok && envelope.status === 'success') return envelope.data as T;
    if (res.status === 401 && token) onUnauthorized();
    throw new ApiError(res.status, envelope.message || `HTTP ${res.status}`);
  }

  const chat = '/api/v1/widget/chat';
  const enc = encodeURIComponent;
  return {
    settings: () => call('GET', `${chat}/settings`, { auth: false }),
    exchange: (jwt) => call('POST', `${chat}/auth/exchange`, { body: { jwt }, auth: false }),
    me: () => call('GET', `${chat}/auth/me`),
    conversations: () => call('GET', `${chat}/conversations`),
    conversation: (uuid) => call('GET', `${chat}/conversations/${enc(uuid)}`),
    init: (message, formData) => call('POST', `${chat}/conversations/init`, { body: { message, form_data: formData } }),
    send: (uuid, message) => call('POST', `${chat}/conversations/${enc(uuid)}/message`, { body: { message } }),
    upload(uuid, file) {
      const form = new FormData();
      form.append('conversation_uuid', uuid);
      form.append('files', file, file.name);
      return call('POST', '/api/v1/widget/media/upload', { form });
    },
    seen: (uuid) => call('POST', `${chat}/conversations/${enc(uuid)}/update-last-seen`),
    survey: (uuid) => call('GET', `/api/v1/csat/${enc(uuid)}`, { auth: false }),
    rate: (uuid, rating, feedback) =>
      call('POST', `/api/v1/csat/${enc(uuid)}/response`, { body: feedback ? { rating, feedback } : { rating }, auth: false }),
  };
}
