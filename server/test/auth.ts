// Shared by the authentication tests (server/src/auth/auth.*.test.ts): the agent record, the
// test password, reading Set-Cookie, and the requests of an `auth` suite (a password login, a
// session's headers, GET /agents/me and /agents/{id}).
import assert from 'node:assert/strict';
import { AGENT_RECORD_FIELDS, dataOf, MY_AGENT_RECORD_FIELDS, type TestApp } from './helpers.ts';

export type Response = { statusCode: number; body: string; headers: Record<string, unknown>; json: () => unknown };
export type Agent = Record<string, unknown> & { id: number; email: string; api_key: string | null; api_key_last_used_at: string | null };

export const AGENT_FIELDS = AGENT_RECORD_FIELDS;
export const MY_AGENT_FIELDS = MY_AGENT_RECORD_FIELDS;
export const PASSWORD = 'correct-horse-battery';

export function setCookies(res: Response): string[] {
  const raw = res.headers['set-cookie'];
  if (raw === undefined) return [];
  return Array.isArray(raw) ? (raw as string[]) : [String(raw)];
}

export function cookieValue(res: Response, name: string): string | undefined {
  const line = setCookies(res).find((c) => c.startsWith(`${name}=`));
  return line ? decodeURIComponent(line.slice(name.length + 1).split(';')[0] ?? '') : undefined;
}

export interface Session {
  session: string;
  csrf: string;
  cookie: string;
  agent: Agent;
}

/** The requests of an `auth` suite, against the app `app()` answers (the suite's, once its before has run). */
export function authCalls(app: () => TestApp) {
  async function login(email: string, password: string): Promise<Session> {
    const res = await app().call({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, as: null });
    const agentRecord = dataOf<Agent>(res);
    const session = cookieValue(res, 'parley_session');
    const csrf = cookieValue(res, 'csrf_token');
    assert.ok(session && csrf, 'both cookies are set');
    return { session, csrf, cookie: `parley_session=${session}; csrf_token=${csrf}`, agent: agentRecord };
  }

  function asSession(s: Session, options: { csrf?: string | null } = {}) {
    const headers: Record<string, string> = { cookie: s.cookie };
    const csrf = options.csrf === undefined ? s.csrf : options.csrf;
    if (csrf !== null) headers['x-csrf-token'] = csrf;
    return { as: null, headers };
  }

  const me = (headers: Record<string, string>) => app().call({ method: 'GET', url: '/api/v1/agents/me', headers, as: null });
  const getAgent = async (id: number) => dataOf<Agent>(await app().call({ method: 'GET', url: `/api/v1/agents/${id}` }));
  return { login, asSession, me, getAgent };
}
