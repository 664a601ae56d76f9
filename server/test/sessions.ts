// Shared by the tests of an agent's sessions and of the agents domain's audit entries
// (server/src/agents/agents.sessions*.test.ts, agents.audit.test.ts): signing in with a given
// browser, a session's requests, and the audit entries a change wrote (read from the table).
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { cookieValue, type Response } from './auth.ts';
import type { TestApp } from './helpers.ts';
import { type AuditRow, auditEntries as auditLog } from './audit.ts';

export const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

export interface SignedIn {
  token: string;
  csrf: string;
  /** Cookie and CSRF headers of the session. */
  headers: Record<string, string>;
}

export interface SessionItem {
  id: string;
  created_at: string;
  last_seen_at: string | null;
  ip: string | null;
  user_agent: string | null;
  device: { browser: string | null; os: string | null };
  current: boolean;
}

/** Signs in on `app` (an instance's Fastify app) with this User-Agent. */
export async function signIn(app: FastifyInstance, email: string, password: string, userAgent = CHROME_LINUX): Promise<SignedIn> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    headers: { 'user-agent': userAgent },
  });
  assert.equal(res.statusCode, 200, res.body);
  const token = cookieValue(res as unknown as Response, 'parley_session');
  const csrf = cookieValue(res as unknown as Response, 'csrf_token');
  assert.ok(token && csrf, 'both cookies are set');
  return { token, csrf, headers: { cookie: `parley_session=${token}; csrf_token=${csrf}`, 'x-csrf-token': csrf, 'user-agent': userAgent } };
}

/** A request of a session (or of nobody: null) on `app`. */
export async function asSession(
  app: FastifyInstance,
  session: SignedIn | null,
  request: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: Record<string, unknown>; headers?: Record<string, string> },
) {
  const res = await app.inject({
    method: request.method,
    url: request.url,
    ...(request.payload ? { payload: request.payload } : {}),
    headers: { ...(session?.headers ?? {}), ...(request.headers ?? {}) },
  });
  return Object.assign(res, { json: () => JSON.parse(res.body) as unknown });
}

/** Polls `probe` until it answers `status` (a change reaching another instance over the bus), at most ~2 s. */
export async function eventually<T extends { statusCode: number }>(probe: () => Promise<T>, status: number): Promise<T> {
  let answer = await probe();
  for (let i = 0; i < 200 && answer.statusCode !== status; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    answer = await probe();
  }
  return answer;
}

/** The audit entries of an action (on a resource, when given), oldest first. */
export function auditEntries(t: TestApp, action: string, resourceId?: string | number): Promise<AuditRow[]> {
  return auditLog(t, resourceId === undefined ? { action } : { action, resource_id: resourceId });
}

/** The one entry of an action on a resource. */
export async function auditEntry(t: TestApp, action: string, resourceId: string | number): Promise<AuditRow> {
  const rows = await auditEntries(t, action, resourceId);
  assert.equal(rows.length, 1, `one ${action} entry on ${resourceId}: ${JSON.stringify(rows)}`);
  return rows[0] as AuditRow;
}
