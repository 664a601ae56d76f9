// Web Push subscriptions (docs/api.md, "Web Push"): an agent records the subscription of each
// browser where it turned push on, lists them, removes them. The rules a JSON schema cannot say:
// the endpoint is https (http only for a host of PUSH_ALLOW_HOSTS) and passes the address guard;
// p256dh is a point of P-256, auth 16 bytes; at most PUSH_SUBSCRIPTIONS_MAX per agent.
import { createECDH, createHash } from 'node:crypto';
import { deviceOf } from '../auth/sessions.service.ts';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError, NotFoundError } from '../errors.ts';
import { pushGuard, refusedAddress } from './push.guard.ts';
import * as q from './push.queries.ts';
import { PUSH_ENDPOINT_MAX, PUSH_SUBSCRIPTIONS_MAX } from './push.schema.ts';
import { vapidKeys } from './push.vapid.ts';

export interface SubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

type ListedRow = Awaited<ReturnType<typeof q.listSubscriptionsOf>>[number];

function view(row: ListedRow) {
  return {
    id: row.id,
    endpoint_host: new URL(row.endpoint).host,
    endpoint_sha256: createHash('sha256').update(row.endpoint).digest('hex'),
    device: deviceOf(row.user_agent),
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_success_at: row.last_success_at,
  };
}

export async function vapidPublicKey(deps: AppDeps): Promise<{ public_key: string }> {
  return { public_key: (await vapidKeys(deps)).publicKey };
}

export async function listMySubscriptions(deps: AppDeps, agentId: number) {
  return (await q.listSubscriptionsOf(deps.db, agentId)).map(view);
}

/** Canonical base64url (no padding) of exactly `bytes` bytes, or null. */
function base64UrlBytes(value: string, bytes: number): Buffer | null {
  const text = value.replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const decoded = Buffer.from(text, 'base64url');
  if (decoded.length !== bytes || decoded.toString('base64url') !== text) return null;
  return decoded;
}

function isP256Point(point: Buffer): boolean {
  if (point[0] !== 0x04) return false;
  try {
    // Computing a shared secret checks that the point is on the curve.
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
    return true;
  } catch {
    return false;
  }
}

async function cleanEndpoint(deps: AppDeps, raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw InputError.field('endpoint', 'must be an absolute https URL');
  }
  const guard = pushGuard(deps.config);
  const listed = guard.isListed(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && listed)) throw InputError.field('endpoint', 'must be an https URL');
  if (url.username !== '' || url.password !== '') throw InputError.field('endpoint', 'must not carry a user name or password');
  if (url.hash !== '') throw InputError.field('endpoint', 'must not have a fragment');
  if (url.href.length > PUSH_ENDPOINT_MAX) throw InputError.field('endpoint', `must be at most ${PUSH_ENDPOINT_MAX} characters`);
  const refused = await refusedAddress(guard, url);
  if (refused !== null) {
    throw InputError.field('endpoint', `${url.hostname} is (or resolves to) ${refused}, an address push may not reach (PUSH_ALLOW_HOSTS)`);
  }
  return url.href;
}

/** `sessionId`: the caller's sign-in (null for API credentials): when it ends (sign-out, revoked, password reset, expiry), so does the subscription. */
export async function subscribe(
  deps: AppDeps,
  agentId: number,
  sessionId: string | null,
  input: SubscriptionInput,
  userAgent: string | null,
) {
  const endpoint = await cleanEndpoint(deps, input.endpoint);
  const p256dh = base64UrlBytes(input.keys.p256dh, 65);
  if (p256dh === null || !isP256Point(p256dh)) {
    throw InputError.field('keys.p256dh', 'must be the base64url of an uncompressed P-256 public key (65 bytes)');
  }
  const auth = base64UrlBytes(input.keys.auth, 16);
  if (auth === null) throw InputError.field('keys.auth', 'must be the base64url of 16 bytes');
  if ((await q.countSubscriptionsOf(deps.db, agentId, endpoint)) >= PUSH_SUBSCRIPTIONS_MAX) {
    throw new DataError(`An agent may have at most ${PUSH_SUBSCRIPTIONS_MAX} push subscriptions: remove one first`);
  }
  const row = await q.upsertSubscription(
    deps.db,
    {
      agent_id: agentId,
      session_id: sessionId,
      endpoint,
      p256dh: p256dh.toString('base64url'),
      auth: auth.toString('base64url'),
      user_agent: userAgent?.replaceAll('\u0000', '').slice(0, 512) || null,
    },
    deps.clock.now(),
  );
  deps.log.info({ agent_id: agentId, subscription_id: row.id, push_host: new URL(endpoint).host }, 'push subscription recorded');
  return view(row);
}

export async function unsubscribe(deps: AppDeps, agentId: number, id: number): Promise<void> {
  if (!(await q.deleteSubscriptionOf(deps.db, agentId, id))) throw new NotFoundError('Push subscription not found');
}
