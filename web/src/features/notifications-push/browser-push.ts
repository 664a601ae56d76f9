// This browser's side of Web Push: the service worker (web/public/sw.js, root scope), the
// permission, and the PushManager subscription made with the installation's VAPID key. The
// server knows a subscription by id; a browser recognises its own by the SHA-256 of its endpoint
// (the endpoint itself is never answered: it is a capability).
import { api, unwrap } from '../../api/client';

export const SERVICE_WORKER_URL = '/sw.js';

export function pushSupported(): boolean {
  return window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** This browser's current subscription, if any (without registering anything). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The SHA-256 of this browser's endpoint, or null when it has no subscription. */
export async function currentEndpointDigest(): Promise<string | null> {
  const subscription = await currentSubscription();
  return subscription ? sha256Hex(subscription.endpoint) : null;
}

/** Asks for the permission, registers the worker, subscribes and records the subscription. False when permission was not granted. */
export async function enablePush(): Promise<boolean> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return false;
  const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  await navigator.serviceWorker.ready;
  const { public_key } = await unwrap(api.GET('/api/v1/push/vapid-public-key'));
  let subscription = await registration.pushManager.getSubscription();
  const key = base64UrlBytes(public_key);
  const existingKey = subscription?.options.applicationServerKey;
  if (subscription && existingKey && !sameBytes(new Uint8Array(existingKey), key)) {
    // Made with another server key (another installation at this origin): it cannot be reused.
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const json = subscription.toJSON();
  await unwrap(
    api.POST('/api/v1/agents/me/push-subscriptions', {
      body: { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.['p256dh'] ?? '', auth: json.keys?.['auth'] ?? '' } },
    }),
  );
  return true;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Unsubscribes this browser; answers its endpoint's digest (to remove it on the server), or null when it had none. */
export async function unsubscribeThisBrowser(): Promise<string | null> {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  const digest = await sha256Hex(subscription.endpoint);
  await subscription.unsubscribe();
  return digest;
}

/**
 * Turning push on for a device should make something arrive: when the agent has push off for
 * every type (the default), it is turned on for the types mailed by default (assigned, mentioned,
 * SLA breached); a choice already made is left alone. Answers whether it changed the preferences.
 */
export async function turnOnPushDefaults(): Promise<boolean> {
  const settings = await unwrap(api.GET('/api/v1/agents/me/notification-settings'));
  if (Object.values(settings.types).some((choice) => choice.push)) return false;
  await unwrap(
    api.PUT('/api/v1/agents/me/notification-settings', {
      body: { types: { assigned: { push: true }, mentioned: { push: true }, sla_breached: { push: true } } },
    }),
  );
  return true;
}

/**
 * This browser stops receiving pushes: its subscription is ended and removed from the server.
 * Also run when the agent signs out, so that a shared browser does not show the next person the
 * previous agent's notifications.
 */
export async function forgetThisBrowser(): Promise<void> {
  const digest = await unsubscribeThisBrowser();
  if (!digest) return;
  const subscriptions = await unwrap(api.GET('/api/v1/agents/me/push-subscriptions'));
  const record = subscriptions.find((s) => s.endpoint_sha256 === digest);
  if (record) await unwrap(api.DELETE('/api/v1/agents/me/push-subscriptions/{id}', { params: { path: { id: record.id } } }));
}
