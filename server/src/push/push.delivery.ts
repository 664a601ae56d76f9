// Delivering a notification to its agent's browsers (docs/api.md, "Web Push"). The job
// `push.notify` {notification_id} (enqueued by the notification fan-out when the agent wants
// push for that type) sends to every subscription of the agent at once; each one that fails in
// a way worth retrying (429, 5xx, no answer) gets a job of its own, `push.retry`
// {notification_id, subscription_id}, retried 10 s later (or after the push service's
// Retry-After) and then with the runner's backoff. A 404 or 410 means the browser dropped the
// subscription: it is forgotten. Each request is a POST that web-push
// prepares (RFC 8291 aes128gcm body, RFC 8292 VAPID) and push.send.ts sends through the
// address guard. Endpoints are bearer capabilities: logs name their host only.
import webpush from 'web-push';
import type { AppDeps } from '../deps.ts';
import { type JobContext, PermanentJobError } from '../jobs/jobs.runner.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { settingsOf } from '../notifications/notification-settings.ts';
import { pushGuard } from './push.guard.ts';
import * as q from './push.queries.ts';
import { AddressRefusedError, PushNetworkError, sendPushRequest } from './push.send.ts';
import { vapidKeys, vapidSubject } from './push.vapid.ts';

export const PUSH_RETRY_JOB = 'push.retry';
/** How long a push service keeps an undelivered message (the device offline), and how long a retry stays worth it. */
export const PUSH_TTL_SECONDS = 24 * 3600;
/** Attempts of one retried push: with the runner's backoff (10 s doubling, full jitter) about 10 minutes. */
const RETRY_ATTEMPTS = 6;
const REQUEST_TIMEOUT_MS = 10_000;

type Notification = NonNullable<Awaited<ReturnType<typeof q.notificationToPush>>>;
type Subscription = Awaited<ReturnType<typeof q.sendableSubscriptionsOf>>[number];
type Outcome = 'sent' | 'gone' | 'retry' | 'refused' | 'rejected';
/** The first retry waits this long, or the push service's Retry-After when longer (capped at an hour). */
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_AFTER_MS = 3_600_000;

/** What the service worker shows (web/public/sw.js): no more than the in-app notification says. */
export function pushPayload(notification: Pick<Notification, 'title' | 'excerpt' | 'conversation_uuid'>) {
  return {
    title: notification.title,
    body: notification.excerpt,
    url: `/conversations/${notification.conversation_uuid}`,
    // One notification per conversation on the device: a newer one replaces it.
    tag: `parley-conversation-${notification.conversation_uuid}`,
  };
}

function idOf(payload: Record<string, unknown>, name: string): number {
  const value = payload[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new PermanentJobError(`payload.${name} must be a positive integer`);
  return value;
}

/** The notification, if pushing it is still wanted: it exists, its agent is active, wants push for its type, has not read it, and it is fresh. */
async function pushable(deps: AppDeps, notificationId: number): Promise<Notification | null> {
  const notification = await q.notificationToPush(deps.db, notificationId);
  if (!notification || !notification.enabled || notification.deleted_at !== null || notification.read_at !== null) return null;
  if (deps.clock.now().getTime() - new Date(notification.created_at).getTime() > PUSH_TTL_SECONDS * 1000) return null;
  const settings = (await settingsOf(deps.db, [notification.agent_id])).get(notification.agent_id);
  return settings?.types[notification.type].push ? notification : null;
}

async function sendOne(
  deps: AppDeps,
  notification: Notification,
  subscription: Subscription,
  signal: AbortSignal,
): Promise<{ outcome: Outcome; retryAfterMs?: number }> {
  const keys = await vapidKeys(deps);
  const host = new URL(subscription.endpoint).host;
  const log = deps.log.child({ component: 'push', notification_id: notification.id, subscription_id: subscription.id, push_host: host });
  const request = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(pushPayload(notification)),
    {
      vapidDetails: { subject: vapidSubject(deps.config), publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: PUSH_TTL_SECONDS,
      contentEncoding: 'aes128gcm',
      urgency: 'high',
    },
  );
  try {
    const answer = await sendPushRequest(
      pushGuard(deps.config),
      { endpoint: subscription.endpoint, headers: request.headers as Record<string, string>, body: request.body ?? null },
      REQUEST_TIMEOUT_MS,
      signal,
    );
    if (answer.status >= 200 && answer.status < 300) {
      await q.markSubscriptionSucceeded(deps.db, subscription.id, deps.clock.now());
      return { outcome: 'sent' };
    }
    if (answer.status === 404 || answer.status === 410) {
      await q.deleteExpiredSubscription(deps.db, subscription.id, subscription.endpoint);
      log.info({ status: answer.status }, 'push subscription expired: removed');
      return { outcome: 'gone' };
    }
    if (answer.status === 429 || answer.status >= 500) {
      log.warn({ status: answer.status }, 'push service failed: will retry');
      const retryAfterMs = answer.retryAfterSeconds === null ? FIRST_RETRY_MS : answer.retryAfterSeconds * 1000;
      return { outcome: 'retry', retryAfterMs: Math.min(MAX_RETRY_AFTER_MS, Math.max(FIRST_RETRY_MS, retryAfterMs)) };
    }
    // 400 (malformed), 401/403 (VAPID refused), 413 (too large): retrying would get the same answer.
    log.warn({ status: answer.status }, 'push service refused the push');
    return { outcome: 'rejected' };
  } catch (error) {
    if (error instanceof AddressRefusedError) {
      log.warn('push refused by the address guard (PUSH_ALLOW_HOSTS)');
      return { outcome: 'refused' };
    }
    if (error instanceof PushNetworkError) {
      log.warn({ err: error.message }, 'push service unreachable: will retry');
      return { outcome: 'retry', retryAfterMs: FIRST_RETRY_MS };
    }
    throw error;
  }
}

/** `push.notify` {notification_id}: every subscription of the agent at once; the failures worth it are retried one by one. */
export async function pushNotification(deps: AppDeps, payload: Record<string, unknown>, job: JobContext): Promise<void> {
  const notificationId = idOf(payload, 'notification_id');
  const notification = await pushable(deps, notificationId);
  if (!notification) return;
  const subscriptions = await q.sendableSubscriptionsOf(deps.db, notification.agent_id);
  // Settled one by one: an unexpected failure of one send is retried for that subscription only
  // (failing the job would push again to those that had it).
  const settled = await Promise.allSettled(subscriptions.map((subscription) => sendOne(deps, notification, subscription, job.signal)));
  const outcomes = settled.map((result): Awaited<ReturnType<typeof sendOne>> => {
    if (result.status === 'fulfilled') return result.value;
    deps.log.warn({ err: result.reason instanceof Error ? result.reason.message : String(result.reason) }, 'push send failed: will retry');
    return { outcome: 'retry', retryAfterMs: FIRST_RETRY_MS };
  });
  for (const [i, { outcome, retryAfterMs }] of outcomes.entries()) {
    const subscription = subscriptions[i];
    if (outcome !== 'retry' || !subscription) continue;
    await enqueueJob(deps, deps.db, {
      kind: PUSH_RETRY_JOB,
      payload: { notification_id: notificationId, subscription_id: subscription.id },
      maxAttempts: RETRY_ATTEMPTS,
      // A job run twice (at least once delivery) does not retry twice.
      dedupeKey: `${PUSH_RETRY_JOB}:${notificationId}:${subscription.id}`,
      runAt: new Date(deps.clock.now().getTime() + (retryAfterMs ?? FIRST_RETRY_MS)),
    });
  }
}

/** `push.retry` {notification_id, subscription_id}: one subscription again; failing again throws, and the runner backs off. */
export async function retryPush(deps: AppDeps, payload: Record<string, unknown>, job: JobContext): Promise<void> {
  const notification = await pushable(deps, idOf(payload, 'notification_id'));
  if (!notification) return;
  const subscription = await q.sendableSubscription(deps.db, notification.agent_id, idOf(payload, 'subscription_id'));
  if (!subscription) return;
  const { outcome } = await sendOne(deps, notification, subscription, job.signal);
  if (outcome === 'retry') throw new Error(`the push service of subscription ${subscription.id} failed again`);
}
