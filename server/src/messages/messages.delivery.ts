// Delivery of agent replies on the live-chat channel. The widget reads replies over HTTP and
// receives them on its socket; either way the reply is delivered once it is stored and
// announced, so the job marks it `sent` and records `message.updated` for sockets and webhooks.
import type { AppDeps } from '../deps.ts';
import { PermanentJobError } from '../jobs/jobs.runner.ts';
import * as q from './messages.queries.ts';

function messageIdOf(payload: Record<string, unknown>): number {
  const id = payload['message_id'];
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1)
    throw new PermanentJobError('livechat.deliver: payload.message_id must be a positive integer');
  return id;
}

export async function deliverLivechatMessage(deps: AppDeps, payload: Record<string, unknown>): Promise<void> {
  // One statement: the status moves and `message.updated` is recorded together. Already sent
  // (a retried job) or deleted with its conversation: nothing is written.
  await q.markMessageStatus(deps.db, messageIdOf(payload), { from: ['pending'], to: 'sent', now: deps.clock.now() });
}
