// Who is calling the widget API (docs/api.md, "Live chat (widget API)"): the bearer session
// (visitor or verified contact), the visitor merge, and the JWT exchange that turns a token
// signed by the customer's site into a verified contact's session.
import { errors as joseErrors, jwtVerify } from 'jose';
import { noteContactActive, PAGE_VISITS_KEPT } from '../contacts/contacts.service.ts';
import { recordEvent } from '../events/events.service.ts';
import type { AppDeps } from '../deps.ts';
import { InputError, PermissionError, UnauthorizedError } from '../errors.ts';
import { isEmailAddress } from '../http/formats.ts';
import { enforceLimit, type PublicLimiter } from '../http/public-limits.ts';
import type { WidgetInbox } from './widget.inbox.ts';
import * as q from './widget.queries.ts';
import { issueWidgetSession, resolveWidgetSession, sessionLifetimeMs } from './widget.sessions.ts';
import type { WidgetUser } from './widget.shapes.ts';

export interface WidgetCaller {
  userId: number;
  isVisitor: boolean;
  firstName: string;
  lastName: string;
  externalUserId: string | null;
}

/** The session lifetime of the inbox, by kind of user. */
export function lifetimeOf(inbox: WidgetInbox) {
  return (isVisitor: boolean) => sessionLifetimeMs(isVisitor, inbox.config.session_duration ?? '30d');
}

/** The token of `Authorization: Bearer <token>`, or null when the header is absent; a malformed header is a 401. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new UnauthorizedError('Send Authorization: Bearer <session_token>');
  return match[1];
}

function callerOf(user: q.WidgetUserRow): WidgetCaller {
  return {
    userId: user.id,
    isVisitor: user.type === 'visitor',
    firstName: user.first_name,
    lastName: user.last_name,
    externalUserId: user.external_user_id,
  };
}

export function widgetUserOf(caller: WidgetCaller): WidgetUser {
  return { user_id: caller.userId, is_visitor: caller.isVisitor, first_name: caller.firstName, last_name: caller.lastName };
}

/**
 * The caller of a session route: a live session of this inbox whose user still exists and is
 * not blocked (checked on every request, so blocking a contact ends its widget at once). 401 otherwise.
 */
export async function authenticateWidget(deps: AppDeps, inbox: WidgetInbox, token: string): Promise<WidgetCaller> {
  const session = await resolveWidgetSession(deps.db, token, inbox.id, deps.clock.now(), lifetimeOf(inbox));
  if (!session) throw new UnauthorizedError('Widget session missing, expired or not of this inbox');
  const user = await q.findWidgetUser(deps.db, session.userId);
  if (!user?.enabled) throw new UnauthorizedError('Widget session missing, expired or not of this inbox');
  await noteContactActive(deps.db, user.id, deps.clock.now(), user.last_active_at);
  return callerOf(user);
}

/**
 * The visitor merge: a verified contact's request carrying its earlier visitor token of the same
 * inbox takes over the visitor's conversations (messages, notes and uploads follow), in one
 * transaction; the visitor is soft-deleted and its sessions end. Answers whether a merge
 * happened. A token that is not a live visitor session of this inbox is ignored.
 */
export async function mergeVisitor(deps: AppDeps, inbox: WidgetInbox, caller: WidgetCaller, visitorToken: string): Promise<boolean> {
  if (caller.isVisitor || caller.externalUserId === null) return false;
  const now = deps.clock.now();
  const session = await resolveWidgetSession(deps.db, visitorToken.trim(), inbox.id, now, lifetimeOf(inbox));
  if (!session?.isVisitor || session.userId === caller.userId) return false;
  return deps.db.transaction().execute(async (trx) => {
    const users = await q.lockWidgetUsers(trx, [caller.userId, session.userId]);
    const visitor = users.find((user) => user.id === session.userId);
    const contact = users.find((user) => user.id === caller.userId);
    if (visitor?.type !== 'visitor' || contact?.type !== 'contact') return false;
    const moved = await q.mergeVisitorInto(trx, visitor.id, contact.id, PAGE_VISITS_KEPT, now);
    await recordEvent(trx, 'contact.merged', { contact_id: contact.id, merged_contact_id: visitor.id, conversation_ids: moved }, now);
    return true;
  });
}

// ---------------------------------------------------------------- JWT exchange

/** Tolerated clock difference between the customer's server and Parley, for exp, nbf and iat. */
export const JWT_CLOCK_TOLERANCE_SECONDS = 30;
/** The longest validity of an identity token: a token leaked from a page is not replayable for longer. */
export const MAX_IDENTITY_TOKEN_SECONDS = 24 * 3600;
const ALGORITHMS = ['HS256', 'HS384', 'HS512'];
const MAX_ATTRIBUTES = 50;
const MAX_ATTRIBUTE_KEY = 100;
const MAX_ATTRIBUTE_TEXT = 1000;

export interface IdentityClaims {
  externalUserId: string;
  email: string;
  firstName: string;
  lastName: string | null;
  phoneNumber: string | null;
  countryCode: string | null;
  attributes: Record<string, string | number | boolean | null> | null;
}

function claimError(claim: string, reason: string): InputError {
  return new InputError(`JWT claim ${claim}: ${reason}`, [{ field: claim, reason }]);
}

function text(payload: Record<string, unknown>, claim: string, max: number, required: boolean): string | null {
  const value = payload[claim];
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    if (required) throw claimError(claim, 'is required');
    return null;
  }
  if (typeof value !== 'string') throw claimError(claim, 'must be a string');
  const trimmed = value.trim();
  if ([...trimmed].length > max) throw claimError(claim, `must be at most ${max} characters`);
  if ([...trimmed].some((char) => (char.codePointAt(0) ?? 0) < 0x20 || char === '\u007f'))
    throw claimError(claim, 'must not contain control characters');
  return trimmed;
}

function attributes(value: unknown): IdentityClaims['attributes'] {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw claimError('contact_custom_attributes', 'must be an object');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_ATTRIBUTES) throw claimError('contact_custom_attributes', `must have at most ${MAX_ATTRIBUTES} keys`);
  const out: Record<string, string | number | boolean | null> = {};
  for (const [key, item] of entries) {
    if (key.length === 0 || key.length > MAX_ATTRIBUTE_KEY || key.includes('\u0000'))
      throw claimError('contact_custom_attributes', `keys must be 1..${MAX_ATTRIBUTE_KEY} characters`);
    if (typeof item === 'string') {
      if (item.length > MAX_ATTRIBUTE_TEXT || item.includes('\u0000'))
        throw claimError('contact_custom_attributes', `${key}: text must be at most ${MAX_ATTRIBUTE_TEXT} characters`);
      out[key] = item;
    } else if (typeof item === 'number') {
      if (!Number.isFinite(item)) throw claimError('contact_custom_attributes', `${key}: must be a finite number`);
      out[key] = item;
    } else if (typeof item === 'boolean' || item === null) out[key] = item;
    else throw claimError('contact_custom_attributes', `${key}: values must be strings, numbers, booleans or null`);
  }
  return out;
}

/** The claims, parsed (400 naming the claim when one is missing or invalid). */
export function parseClaims(payload: Record<string, unknown>): IdentityClaims {
  const externalUserId = text(payload, 'external_user_id', 128, true) as string;
  const email = (text(payload, 'email', 254, true) as string).toLowerCase();
  if (!isEmailAddress(email)) throw claimError('email', 'must be a valid email address');
  const firstName = text(payload, 'first_name', 128, true) as string;
  const countryCode = text(payload, 'phone_number_country_code', 2, false);
  if (countryCode !== null && !/^[A-Za-z]{2}$/.test(countryCode))
    throw claimError('phone_number_country_code', 'must be a 2-letter ISO 3166-1 country code');
  return {
    externalUserId,
    email,
    firstName,
    lastName: text(payload, 'last_name', 128, false),
    phoneNumber: text(payload, 'phone_number', 20, false),
    countryCode: countryCode?.toUpperCase() ?? null,
    attributes: attributes(payload['contact_custom_attributes']),
  };
}

/**
 * A token valid for more than MAX_IDENTITY_TOKEN_SECONDS is refused (401): `exp - iat` when `iat`
 * is given (an `iat` in the future is refused too, or it would shorten that span at will), else
 * `exp - now` (with the clock tolerance). `exp` and `iat` are numbers here: jose has checked them.
 */
function assertShortLived(payload: Record<string, unknown>, now: Date): void {
  const exp = payload['exp'] as number;
  const iat = payload['iat'] as number | undefined;
  const nowSeconds = now.getTime() / 1000;
  if (iat !== undefined && iat > nowSeconds + JWT_CLOCK_TOLERANCE_SECONDS)
    throw new UnauthorizedError('The identity token is issued in the future (iat)');
  const lifetime = iat !== undefined ? exp - iat : exp - nowSeconds - JWT_CLOCK_TOLERANCE_SECONDS;
  if (lifetime > MAX_IDENTITY_TOKEN_SECONDS)
    throw new UnauthorizedError('The identity token is valid for more than 24 hours: sign short-lived tokens (minutes)');
}

/** Verifies the JWT with the inbox's secret: HS256/384/512 only, `exp` required, valid at most 24 h. 401 for anything else. */
export async function verifyIdentityToken(deps: AppDeps, inbox: WidgetInbox, jwt: string): Promise<Record<string, unknown>> {
  const secret = inbox.config.secret;
  if (!secret) throw new UnauthorizedError('This inbox has no identity secret');
  const now = deps.clock.now();
  try {
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode(secret), {
      algorithms: ALGORITHMS,
      requiredClaims: ['exp'],
      clockTolerance: JWT_CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
    });
    assertShortLived(payload as Record<string, unknown>, now);
    return payload as Record<string, unknown>;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new UnauthorizedError('The identity token has expired');
    if (error instanceof joseErrors.JOSEError) throw new UnauthorizedError('The identity token is not valid for this inbox');
    throw error;
  }
}

/** Exchanges one contact may make in a minute (all inboxes): past it, 429 with Retry-After. */
export const EXCHANGES_PER_CONTACT_PER_MINUTE = 30;
/** Live sessions a contact keeps per inbox: issuing one more ends the least recently used. */
export const MAX_SESSIONS_PER_CONTACT = 20;

/**
 * The verified contact: found by external id, else by email among contacts without one (it then
 * gets the external id), else created; non-empty claims update it. A blocked contact is a 403.
 * Once the token is verified, the exchange is charged to `perContact` (keyed by the external id;
 * 429 past it) before anything is written; the new session replaces the contact's least recently
 * used ones in this inbox beyond MAX_SESSIONS_PER_CONTACT.
 */
export async function exchangeIdentity(deps: AppDeps, inbox: WidgetInbox, jwt: string, perContact: PublicLimiter) {
  const claims = parseClaims(await verifyIdentityToken(deps, inbox, jwt));
  await enforceLimit(perContact, claims.externalUserId, 'session exchanges for this contact');
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    let contact =
      (await q.findContactByExternalId(trx, claims.externalUserId)) ?? (await q.findContactByEmailWithoutExternalId(trx, claims.email));
    const changes: q.WidgetUserChanges = {
      email: claims.email,
      external_user_id: claims.externalUserId,
      first_name: claims.firstName,
      ...(claims.lastName !== null ? { last_name: claims.lastName } : {}),
      ...(claims.phoneNumber !== null ? { phone_number: claims.phoneNumber } : {}),
      ...(claims.countryCode !== null ? { phone_number_country_code: claims.countryCode } : {}),
    };
    if (contact) {
      if (!contact.enabled) throw new PermissionError('This contact is blocked');
      const merged = claims.attributes ? { ...(await q.customAttributesOf(trx, contact.id)), ...claims.attributes } : undefined;
      await q.updateWidgetUser(trx, contact.id, { ...changes, ...(merged ? { custom_attributes: merged } : {}) }, now);
    } else {
      const record = await q.insertWidgetUser(trx, {
        type: 'contact',
        email: claims.email,
        external_user_id: claims.externalUserId,
        first_name: claims.firstName,
        last_name: claims.lastName ?? '',
        phone_number: claims.phoneNumber,
        phone_number_country_code: claims.countryCode,
        custom_attributes: claims.attributes ?? {},
        now,
      });
      await recordEvent(
        trx,
        'contact.created',
        { ...record, type: 'contact', roles: [], permissions: [], teams: [], api_key: null, api_key_last_used_at: null },
        now,
      );
      contact = { ...record, type: 'contact' };
    }
    const lifetimeMs = lifetimeOf(inbox)(false);
    // Serialised per contact by the row lock taken above (or the new row): trim, then issue.
    await q.trimWidgetSessions(trx, contact.id, inbox.id, MAX_SESSIONS_PER_CONTACT - 1);
    const token = await issueWidgetSession(trx, { userId: contact.id, inboxId: inbox.id, isVisitor: false, lifetimeMs }, now);
    const user: WidgetUser = {
      user_id: contact.id,
      is_visitor: false,
      first_name: claims.firstName,
      last_name: claims.lastName ?? (contact.last_name || ''),
    };
    return { session_token: token, user };
  });
}
