// The attempts an admin asks for (docs/api.md, "Webhooks" → "Retries and the log"), made within
// the request: `POST /webhooks/{id}/test` (a signed webhook.test, also to a disabled webhook)
// and `POST …/deliveries/{delivery_id}/retry` (one more attempt now, never after a success).
// Each claims its delivery with a lease first, exactly like the dispatcher, so that no
// dispatcher sends it at the same time.
import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../deps.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { finishAttempt, leaseMsOf, prepareBodies, sendAttempt, type WebhookSender } from './webhooks.attempt.ts';
import {
  type ClaimedDelivery,
  claimForRetry,
  deliveryState,
  insertClaimedTestDelivery,
  releaseClaims,
} from './webhooks.dispatch.queries.ts';

function manualName(): string {
  return `manual:${process.pid}:${randomBytes(4).toString('hex')}`;
}

async function attemptNow(deps: AppDeps, sender: WebhookSender, claimed: ClaimedDelivery, lockedBy: string): Promise<void> {
  const claim = { id: claimed.id, lockedBy, attempts: claimed.attempts };
  let ready: Awaited<ReturnType<typeof prepareBodies>>;
  try {
    ready = await prepareBodies(deps, [claimed]);
  } catch (error) {
    await releaseClaims(deps.db, [claim], deps.clock.now()).catch(() => 0);
    throw error;
  }
  const delivery = ready[0];
  if (!delivery) return;
  const sent = await sendAttempt(deps, sender, delivery);
  await finishAttempt(deps, claim, delivery, sent, { manual: true });
}

/** Writes a webhook.test delivery and makes its one attempt; returns the delivery's id. 404 for an unknown webhook. */
export async function testWebhook(deps: AppDeps, sender: WebhookSender, webhookId: number): Promise<number> {
  const lockedBy = manualName();
  const claimed = await insertClaimedTestDelivery(deps.db, { webhookId, lockedBy, leaseMs: leaseMsOf(sender), clockNow: deps.clock.now() });
  if (!claimed) throw new NotFoundError('Webhook not found');
  await attemptNow(deps, sender, claimed, lockedBy);
  return claimed.id;
}

/**
 * One manual attempt of a delivery of this webhook, now. 404 when the delivery is unknown or
 * another webhook's; 409 when it succeeded (never sent twice) or is being sent right now.
 */
export async function retryDelivery(deps: AppDeps, sender: WebhookSender, webhookId: number, deliveryId: number): Promise<void> {
  const lockedBy = manualName();
  const clockNow = deps.clock.now();
  const claimed = await claimForRetry(deps.db, { webhookId, deliveryId, lockedBy, leaseMs: leaseMsOf(sender), clockNow });
  if (!claimed) {
    const state = await deliveryState(deps.db, webhookId, deliveryId, clockNow);
    if (!state) throw new NotFoundError('Delivery not found');
    if (state.status === 'succeeded') throw new ConflictError('This delivery succeeded: it is never sent again');
    throw new ConflictError('This delivery is being sent right now; retry once the attempt has ended');
  }
  await attemptNow(deps, sender, claimed, lockedBy);
}
