// An agent's own sessions (docs/api.md, "Sessions"): listed with the device they were opened
// from, ended one at a time or all but the current one, and the logout that ends the current.
//
// Ending a session takes effect at once on every instance: its row goes, then the agent's cached
// credentials are dropped here and, through the bus, on every other instance, whose hubs re-verify
// the agent's sockets and close those whose session is gone (realtime/hub.ts). A session is named
// by its `public_id`: its primary key is the hash of its cookie and the key of its cached credential.
import Bowser from 'bowser';
import { type AuditActor, recordAudit } from '../audit/audit.service.ts';
import type { AppDeps } from '../deps.ts';
import { NotFoundError } from '../errors.ts';
import * as q from './auth.queries.ts';
import { invalidateCredentials, type Principal } from './credential-cache.ts';

/** The most sessions the list shows (the most recently seen); every session lives SESSION_TTL_SECONDS at most. */
export const SESSION_LIST_LIMIT = 100;

export interface Device {
  /** The browser's name ("Chrome"), or null when the user agent does not say. */
  browser: string | null;
  /** The operating system's name ("Linux", "iOS"), or null. */
  os: string | null;
}

export interface SessionView {
  id: string;
  created_at: Date | string;
  last_seen_at: Date | string | null;
  ip: string | null;
  user_agent: string | null;
  device: Device;
  current: boolean;
}

/** The browser and system a user agent names, read with bowser. */
export function deviceOf(userAgent: string | null): Device {
  if (!userAgent?.trim()) return { browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  return { browser: parsed.browser.name || null, os: parsed.os.name || null };
}

/** A session's device in words, for its audit entry ("Chrome on Linux"). */
function deviceName(userAgent: string | null): string {
  const { browser, os } = deviceOf(userAgent);
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? 'Unknown device';
}

/** The caller's live sessions, last seen first. Only a cookie session is `current`: with API credentials none is. */
export async function listMySessions(deps: AppDeps, principal: Principal): Promise<SessionView[]> {
  const rows = await q.listLiveSessionsOf(deps.db, principal.userId, deps.clock.now(), SESSION_LIST_LIMIT);
  return rows.map((row) => ({
    id: row.public_id,
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    ip: row.ip,
    user_agent: row.user_agent,
    device: deviceOf(row.user_agent),
    current: row.id === principal.sessionId,
  }));
}

/**
 * Ends one of the caller's sessions (the current one too: that is a logout). Another agent's
 * session, or an unknown one, is a 404. Answers whether it was the current one.
 */
export async function endMySession(
  deps: AppDeps,
  actor: AuditActor,
  principal: Principal,
  publicId: string,
): Promise<{ current: boolean }> {
  const now = deps.clock.now();
  const current = await deps.db.transaction().execute(async (trx) => {
    const ended = await q.deleteSessionOf(trx, principal.userId, publicId, now);
    if (!ended) throw new NotFoundError('Session not found');
    const isCurrent = ended.id === principal.sessionId;
    await recordAudit(
      trx,
      actor,
      {
        action: isCurrent ? 'auth.logout' : 'auth.session_ended',
        resource: { type: 'session', id: ended.public_id, name: deviceName(ended.user_agent) },
      },
      now,
    );
    return isCurrent;
  });
  await invalidateCredentials(deps, principal.userId);
  return { current };
}

/** Ends every session of the caller but the current one (with API credentials: every one). Answers how many ended. */
export async function endMyOtherSessions(deps: AppDeps, actor: AuditActor, principal: Principal): Promise<number> {
  const now = deps.clock.now();
  const ended = await deps.db.transaction().execute(async (trx) => {
    const count = await q.deleteSessionsOfExcept(trx, principal.userId, principal.sessionId);
    if (count > 0) {
      await recordAudit(
        trx,
        actor,
        {
          action: 'auth.session_ended',
          resource: { type: 'agent', id: principal.userId, name: actor.name },
          changes: { sessions: [count, 0] },
        },
        now,
      );
    }
    return count;
  });
  if (ended > 0) await invalidateCredentials(deps, principal.userId);
  return ended;
}

/** Ends the current session (POST /auth/logout). With API credentials there is none: nothing happens. */
export async function logout(deps: AppDeps, actor: AuditActor, principal: Principal): Promise<void> {
  const sessionId = principal.sessionId;
  if (!sessionId) return;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const session = await q.findSessionById(trx, sessionId);
    if (!session) return;
    await q.deleteSession(trx, sessionId);
    await recordAudit(
      trx,
      actor,
      { action: 'auth.logout', resource: { type: 'session', id: session.public_id, name: deviceName(session.user_agent) } },
      now,
    );
  });
  // Here and on every other instance (their hubs close the sockets of this session).
  await invalidateCredentials(deps, principal.userId);
}
