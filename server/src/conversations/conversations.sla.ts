// The SLA of a conversation, as the conversations domain shows it: applying a policy (the route,
// macros, entering a team) with its activity message, reading the applied SLA, and the periodic
// task that records warnings and breaches (an activity message and a domain event each). The
// deadlines themselves are computed by sla/sla.deadlines.ts.
import type { Principal } from '../auth/credential-cache.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { requireAnyPermission } from '../auth/permissions.ts';
import { appliedSlaRecord, applySlaPolicy, applyTeamSla, claimDueSlaAlerts } from '../sla/sla.deadlines.ts';
import { type Actor, actorOf, conversationEvent, logActivity, SYSTEM } from './conversations.activity.ts';
import type { LockedConversation } from './conversations.queries.ts';
import { assertCanRead, lockReadableConversation } from './conversations.read.ts';

export const SLA_PERMISSIONS = ['sla:manage', 'conversations:update_team_assignee'] as const;

/** Applies a policy (or with null removes it) inside the caller's transaction, with its activity message. */
export async function applySlaChange(trx: DB, c: LockedConversation, policyId: number | null, actor: Actor, now: Date): Promise<void> {
  const result = await applySlaPolicy(trx, c, policyId, now);
  if (result === null) return;
  const text = 'name' in result ? `${actor.name} applied the SLA policy ${result.name}` : `${actor.name} removed the SLA policy`;
  await logActivity(trx, c, actor, text, { type: 'sla', sla_policy_id: policyId, applied_sla_id: c.applied_sla_id }, now);
}

/** The conversation entered a team: the team's policy applies if none is applied yet (with its activity message). */
export async function applyTeamSlaChange(trx: DB, c: LockedConversation, now: Date): Promise<void> {
  const name = await applyTeamSla(trx, c, now);
  if (name === null) return;
  const text = `The SLA policy ${name} of the team applies`;
  await logActivity(trx, c, SYSTEM, text, { type: 'sla', applied_sla_id: c.applied_sla_id }, now);
}

/** `PUT /conversations/{uuid}/sla`: answers the applied SLA afterwards (null when removed). */
export async function setConversationSla(deps: AppDeps, principal: Principal, uuid: string, policyId: number | null) {
  requireAnyPermission(principal, SLA_PERMISSIONS);
  const actor = actorOf(principal);
  const id = await deps.db.transaction().execute(async (trx) => {
    const c = await lockReadableConversation(trx, principal, uuid);
    await applySlaChange(trx, c, policyId, actor, deps.clock.now());
    return c.id;
  });
  return appliedSlaRecord(deps.db, id);
}

/** `GET /conversations/{uuid}/sla`: the applied SLA, or null. */
export async function getConversationSla(deps: AppDeps, principal: Principal, uuid: string) {
  const row = await assertCanRead(deps.db, principal, uuid);
  return appliedSlaRecord(deps.db, row.id);
}

const METRIC_NAMES = { first_response: 'first response', next_response: 'next response', resolution: 'resolution' } as const;
const BATCH = 200;

/**
 * The periodic task: records each due warning and breach once, even with several instances
 * (the claim is a conditional update), with an activity message and its domain event in the
 * claim's transaction. Answers how many it recorded.
 */
export async function recordSlaAlerts(deps: AppDeps): Promise<number> {
  let recorded = 0;
  for (const kind of ['warning', 'breach'] as const) {
    for (;;) {
      const claimed = await deps.db.transaction().execute(async (trx) => {
        const now = deps.clock.now();
        const due = await claimDueSlaAlerts(trx, kind, now, BATCH);
        for (const alert of due) {
          const c = { id: alert.conversation_id, uuid: alert.conversation_uuid };
          const deadline = alert.deadline_at.toISOString();
          const metric = METRIC_NAMES[alert.metric];
          const text =
            kind === 'breach'
              ? `The ${metric} SLA deadline passed (${deadline})`
              : alert.deadline_at > now
                ? `The ${metric} SLA deadline is near (${deadline})`
                : `The ${metric} SLA deadline is past; this warning comes late (${deadline})`;
          const data = { applied_sla_id: alert.applied_sla_id, metric: alert.metric, deadline_at: deadline };
          await logActivity(trx, c, SYSTEM, text, { type: kind === 'warning' ? 'sla_warning' : 'sla_breached', ...data }, now);
          await conversationEvent(trx, kind === 'warning' ? 'conversation.sla_warning' : 'conversation.sla_breached', c, SYSTEM, data, now);
        }
        return due.length;
      });
      recorded += claimed;
      if (claimed < BATCH) break;
    }
  }
  return recorded;
}
