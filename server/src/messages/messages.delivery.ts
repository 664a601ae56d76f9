// Delivery of agent replies on the live-chat channel. The widget reads replies over HTTP and
// receives them on its socket; either way the reply is delivered once it is stored and
// announced, so the job marks it `sent` and records `message.updated` for sockets and webhooks.
//
// Under load many replies' jobs run at once: their marks are gathered into one statement while
// the previous one runs (db/batched.ts), as the runner's claims and completions are. A job is
// still one durable row per reply; only the statements are shared.
import { batched } from '../db/batched.ts';
import type { AppDeps } from '../deps.ts';
import { PermanentJobError } from '../jobs/jobs.runner.ts';
import * as q from './messages.queries.ts';

function messageIdOf(payload: Record<string, unknown>): number {
  const id = payload['message_id'];
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1)
    throw new PermanentJobError('livechat.deliver: payload.message_id must be a positive integer');
  return id;
}

const markSentByApp = new WeakMap<AppDeps, (id: number) => Promise<void>>();

function markSentOf(deps: AppDeps): (id: number) => Promise<void> {
  let markSent = markSentByApp.get(deps);
  if (markSent) return markSent;
  markSent = batched(async (ids: number[]) => {
    // One statement: the statuses move and each `message.updated` is recorded together. Already
    // sent (a retried job) or deleted with its conversation: nothing is written for it.
    await q.markMessagesStatus(
      deps.db,
      ids.map((id) => ({ id, to: 'sent' as const })),
      { from: ['pending'], now: deps.clock.now() },
    );
    return ids.map(() => undefined);
  });
  markSentByApp.set(deps, markSent);
  return markSent;
}

export async function deliverLivechatMessage(deps: AppDeps, payload: Record<string, unknown>): Promise<void> {
  await markSentOf(deps)(messageIdOf(payload));
}
