// Widget sessions (docs/api.md, "Live chat"): opaque bearer tokens of 32 random bytes
// (base64url, 43 characters). Only the token's SHA-256 is stored. A session belongs to one
// inbox and one contact or visitor; its expiry slides on use (visitors 180 days, verified
// contacts the inbox's `session_duration`). The database is the store, so sessions survive
// restarts and work on every instance; the expiry is written at most once a minute per session.
import type { DB } from '../db/database.ts';
import { randomToken, sha256 } from '../security/hashing.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
export const VISITOR_SESSION_MS = 180 * DAY;
/** Sliding is written only when it would move the expiry by more than this. */
const SLIDE_GRANULARITY_MS = MINUTE;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface WidgetSession {
  userId: number;
  inboxId: number;
  isVisitor: boolean;
  expiresAt: Date;
}

/** `30d`, `12h`, `90m` (the inbox config's `session_duration`) in milliseconds. */
export function parseSessionDuration(value: string): number {
  const match = /^([1-9][0-9]{0,5})([mhd])$/.exec(value);
  if (!match) return VISITOR_SESSION_MS;
  const unit = match[2] === 'd' ? DAY : match[2] === 'h' ? 60 * MINUTE : MINUTE;
  return Number(match[1]) * unit;
}

/** The lifetime of a session: visitors 180 days; verified contacts the inbox's setting. */
export function sessionLifetimeMs(isVisitor: boolean, sessionDuration: string): number {
  return isVisitor ? VISITOR_SESSION_MS : parseSessionDuration(sessionDuration);
}

/** A new session; returns the token, which is shown once and never stored. */
export async function issueWidgetSession(
  db: DB,
  session: { userId: number; inboxId: number; isVisitor: boolean; lifetimeMs: number },
  now: Date,
): Promise<string> {
  const token = randomToken(32);
  await db
    .insertInto('widget_sessions')
    .values({
      token_hash: sha256(token),
      inbox_id: session.inboxId,
      user_id: session.userId,
      is_visitor: session.isVisitor,
      expires_at: new Date(now.getTime() + session.lifetimeMs),
      created_at: now,
    })
    .execute();
  return token;
}

/**
 * The live session of this token for this inbox, its expiry slid to `now + lifetimeMs`; null for
 * a malformed, unknown or expired token, or one issued for another inbox. `lifetimeOf` gives the
 * lifetime from the session's kind (the caller knows the inbox's `session_duration`).
 */
export async function resolveWidgetSession(
  db: DB,
  token: string,
  inboxId: number,
  now: Date,
  lifetimeOf: (isVisitor: boolean) => number,
): Promise<WidgetSession | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const tokenHash = sha256(token);
  const row = await db
    .selectFrom('widget_sessions')
    .where('token_hash', '=', tokenHash)
    .select(['user_id', 'inbox_id', 'is_visitor', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.inbox_id !== inboxId || row.expires_at.getTime() <= now.getTime()) return null;
  const expiresAt = new Date(now.getTime() + lifetimeOf(row.is_visitor));
  if (expiresAt.getTime() - row.expires_at.getTime() > SLIDE_GRANULARITY_MS) {
    await db.updateTable('widget_sessions').set({ expires_at: expiresAt }).where('token_hash', '=', tokenHash).execute();
    return { userId: row.user_id, inboxId: row.inbox_id, isVisitor: row.is_visitor, expiresAt };
  }
  return { userId: row.user_id, inboxId: row.inbox_id, isVisitor: row.is_visitor, expiresAt: row.expires_at };
}

/** Ends one session (the token of a visitor merged into a contact). */
export async function endWidgetSession(db: DB, token: string): Promise<void> {
  if (!TOKEN_PATTERN.test(token)) return;
  await db.deleteFrom('widget_sessions').where('token_hash', '=', sha256(token)).execute();
}

/** Of these token hashes (a joined socket's session), those still live. */
export async function liveSessionHashes(db: DB, hashes: readonly string[], now: Date): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .selectFrom('widget_sessions')
    .where('token_hash', 'in', [...hashes])
    .where('expires_at', '>', now)
    .select('token_hash')
    .execute();
  return new Set(rows.map((row) => row.token_hash));
}

/** Periodic: expired sessions are removed. */
export async function purgeExpiredWidgetSessions(deps: { db: DB; clock: { now(): Date } }): Promise<void> {
  await deps.db.deleteFrom('widget_sessions').where('expires_at', '<=', deps.clock.now()).execute();
}
