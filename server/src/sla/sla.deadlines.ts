// The one owner of SLA deadlines (docs/api.md, "SLA policies"): applying a policy, and each
// event that moves a deadline — a public agent reply, a contact's message, a change of status
// category, entering a team. Each hook runs in the caller's transaction, with the conversation
// locked, on the line after the change; it keeps the applied SLA's metrics and the
// conversation's SLA columns right. A conversation without an applied SLA costs nothing.
//
// Time counts in the policy's business hours when `business_hours_only` (the conversation's
// team's hours, else the installation's default, else calendar time), else in calendar time.
// While the status category is waiting, unmet deadlines are frozen: their deadline becomes
// null and the working time left is kept; leaving waiting sets the deadline to now + that time.
import { addWorkingMinutes, type Schedule, workingMinutesBetween } from '../business-hours/business-hours.calendar.ts';
import { findSchedule } from '../business-hours/business-hours.service.ts';
import type { DB } from '../db/database.ts';
import type { SlaMetric, StatusCategory } from '../db/types.ts';
import { InputError } from '../errors.ts';
import * as q from './sla.queries.ts';

const MINUTE_MS = 60_000;

/** What the hooks need of a locked conversation (the conversations domain's LockedConversation has it). */
export interface SlaConversation {
  id: number;
  applied_sla_id: number | null;
  assigned_team_id: number | null;
  status_category: StatusCategory;
  first_reply_at: Date | null;
  waiting_since: Date | null;
}

type Applied = NonNullable<Awaited<ReturnType<typeof q.findAppliedSla>>>;

async function scheduleFor(db: DB, businessHoursOnly: boolean, teamId: number | null): Promise<Schedule | null> {
  if (!businessHoursOnly) return null;
  const hoursId = teamId !== null ? ((await q.teamSlaFacts(db, teamId))?.business_hours_id ?? null) : await q.defaultBusinessHoursId(db);
  return hoursId === null ? null : findSchedule(db, hoursId);
}

function warnAt(deadline: Date | null, warningMinutes: number | null): Date | null {
  if (deadline === null || !warningMinutes) return null;
  return new Date(deadline.getTime() - warningMinutes * MINUTE_MS);
}

/**
 * Starts a metric's cycle at `from`: its deadline `minutes` of counted time after, or that much
 * frozen while the conversation waits.
 */
function place(m: q.MetricRow, from: Date, minutes: number, schedule: Schedule | null, warning: number | null, waiting: boolean): void {
  m.started_at = from;
  if (waiting) {
    m.deadline_at = null;
    m.warn_at = null;
    m.remaining_minutes = minutes;
    return;
  }
  m.deadline_at = addWorkingMinutes(schedule, from, minutes);
  m.warn_at = warnAt(m.deadline_at, warning);
  m.remaining_minutes = null;
}

/**
 * Meets a metric at `now`. A frozen one (the conversation waits) gets the deadline it would
 * have had had the wait ended now, so a met deadline always keeps a `deadline_at` and is never
 * thawed again.
 */
function meet(m: q.MetricRow, now: Date, schedule: Schedule | null): void {
  if (m.remaining_minutes !== null) {
    m.deadline_at = addWorkingMinutes(schedule, now, m.remaining_minutes);
    m.warn_at = null;
    m.remaining_minutes = null;
  }
  m.met_at = now;
}

/** The working minutes left before a deadline; a span beyond the calendar's horizon counts in calendar time. */
function minutesLeft(schedule: Schedule | null, now: Date, deadline: Date): number {
  try {
    return workingMinutesBetween(schedule, now, deadline);
  } catch (error) {
    if (error instanceof RangeError) return workingMinutesBetween(null, now, deadline);
    throw error;
  }
}

const isOpenDeadline = (m: q.MetricRow) => m.met_at === null && (m.deadline_at !== null || m.remaining_minutes !== null);

/** The conversation's SLA columns from its metrics: `next_sla_deadline_at` is the earliest unmet deadline (none while resolved). */
function columnsOf(c: SlaConversation, metrics: readonly q.MetricRow[]): q.ConversationSlaColumns {
  const of = (name: SlaMetric) => metrics.find((m) => m.metric === name);
  const unmet = metrics.filter((m) => m.met_at === null && m.deadline_at !== null).map((m) => m.deadline_at!.getTime());
  const next = c.status_category === 'resolved' || unmet.length === 0 ? null : new Date(Math.min(...unmet));
  return {
    first_response_deadline_at: of('first_response')?.deadline_at ?? null,
    resolution_deadline_at: of('resolution')?.deadline_at ?? null,
    next_response_deadline_at: of('next_response')?.deadline_at ?? null,
    next_response_met_at: of('next_response')?.met_at ?? null,
    next_sla_deadline_at: next,
  };
}

const NO_SLA: q.ConversationSlaColumns = {
  sla_policy_id: null,
  applied_sla_id: null,
  first_response_deadline_at: null,
  resolution_deadline_at: null,
  next_response_deadline_at: null,
  next_response_met_at: null,
  next_sla_deadline_at: null,
};

/**
 * Applies a policy to the conversation (replacing any applied one: a new applied SLA), or with
 * null removes it. The policy's targets are copied: a later edit of the policy leaves this
 * application alone. Answers the policy's name, or null when none was removed or applied.
 * 400 on `field` for an unknown policy.
 */
export async function applySlaPolicy(
  db: DB,
  c: SlaConversation,
  policyId: number | null,
  now: Date,
  field = 'sla_policy_id',
): Promise<{ name: string } | { removed: true } | null> {
  if (policyId === null) {
    if (c.applied_sla_id === null) return null;
    await q.setConversationSla(db, c.id, NO_SLA);
    c.applied_sla_id = null;
    return { removed: true };
  }
  const policy = await q.findPolicy(db, policyId);
  if (!policy) throw InputError.field(field, `unknown SLA policy id ${policyId}`);
  const applied = await q.insertAppliedSla(db, {
    conversation_id: c.id,
    sla_policy_id: policy.id,
    applied_at: now,
    warning_minutes: policy.warning_minutes,
    business_hours_only: policy.business_hours_only,
  });
  const schedule = await scheduleFor(db, policy.business_hours_only, c.assigned_team_id);
  const waiting = c.status_category === 'waiting';
  const blank = (metric: SlaMetric, target: number): q.MetricRow => ({
    metric,
    target_minutes: target,
    started_at: now,
    deadline_at: null,
    warn_at: null,
    met_at: null,
    warned_at: null,
    breached_at: null,
    remaining_minutes: null,
  });
  const metrics: q.MetricRow[] = [];
  if (policy.first_response_minutes !== null) {
    const m = blank('first_response', policy.first_response_minutes);
    // Already answered before the policy came: met then (its deadline placed, never frozen).
    place(m, now, m.target_minutes, schedule, policy.warning_minutes, waiting && c.first_reply_at === null);
    if (c.first_reply_at !== null) m.met_at = c.first_reply_at;
    metrics.push(m);
  }
  if (policy.next_response_minutes !== null) {
    const m = blank('next_response', policy.next_response_minutes);
    // The contact wrote after an agent's reply and waits for the next one: it is owed from now.
    if (c.first_reply_at !== null && c.waiting_since !== null) place(m, now, m.target_minutes, schedule, policy.warning_minutes, waiting);
    metrics.push(m);
  }
  if (policy.resolution_minutes !== null) {
    const m = blank('resolution', policy.resolution_minutes);
    place(m, now, m.target_minutes, schedule, policy.warning_minutes, waiting);
    if (c.status_category === 'resolved') m.met_at = now;
    metrics.push(m);
  }
  await q.insertMetrics(db, applied.id, metrics);
  await q.setConversationSla(db, c.id, { sla_policy_id: policy.id, applied_sla_id: applied.id, ...columnsOf(c, metrics) });
  c.applied_sla_id = applied.id;
  return { name: policy.name };
}

/**
 * The conversation entered a team (at creation or by a team assignment): the team's policy
 * applies when the conversation has none applied yet. Answers the policy's name when it applied.
 */
export async function applyTeamSla(db: DB, c: SlaConversation, now: Date): Promise<string | null> {
  if (c.applied_sla_id !== null || c.assigned_team_id === null) return null;
  const policyId = (await q.teamSlaFacts(db, c.assigned_team_id))?.sla_policy_id ?? null;
  if (policyId === null) return null;
  const result = await applySlaPolicy(db, c, policyId, now);
  return result && 'name' in result ? result.name : null;
}

/** Loads the applied SLA, lets `change` edit its metrics, and saves the changed ones and the conversation's columns. */
async function withMetrics(
  db: DB,
  c: SlaConversation,
  change: (applied: Applied, schedule: () => Promise<Schedule | null>) => Promise<void> | void,
): Promise<void> {
  if (c.applied_sla_id === null) return;
  const applied = await q.findAppliedSla(db, c.applied_sla_id);
  if (!applied) return;
  const before = applied.metrics.map((m) => JSON.stringify(m));
  const metBefore = applied.metrics.map((m) => m.met_at !== null);
  let schedule: Promise<Schedule | null> | null = null;
  await change(applied, () => {
    schedule ??= scheduleFor(db, applied.business_hours_only, c.assigned_team_id);
    return schedule;
  });
  const changed = applied.metrics.filter((m, i) => JSON.stringify(m) !== before[i]);
  if (changed.length === 0) return;
  for (const m of changed) await q.saveMetric(db, applied.id, m);
  await q.setConversationSla(db, c.id, columnsOf(c, applied.metrics));
  // Deadlines met by this change, for the service report (a breached one stays breached).
  const met = applied.metrics.flatMap((m, i) =>
    m.met_at !== null && m.deadline_at !== null && m.breached_at === null && !metBefore[i]
      ? [
          {
            applied_sla_id: applied.id,
            conversation_id: c.id,
            metric: m.metric,
            started_at: m.started_at,
            deadline_at: m.deadline_at,
            outcome: 'met' as const,
            at: m.met_at,
          },
        ]
      : [],
  );
  await q.recordOutcomes(db, met);
}

export type MessageKind = 'agent_reply' | 'contact' | 'other';

/**
 * Whether a message of this kind can move a deadline: only then, and only on a conversation
 * with an applied SLA, has slaAfterMessage anything to do (the one-statement reply asks this to
 * know whether it may write a message without it).
 */
export function messageMovesSla(kind: MessageKind): boolean {
  return kind !== 'other';
}

/**
 * A message was added. A public agent reply meets the first response and an owed next
 * response; a contact's message (not an automatic one) after an agent's reply owes a next
 * response, unless one is owed already (it does not move).
 */
export async function slaAfterMessage(db: DB, c: SlaConversation, kind: MessageKind, now: Date): Promise<void> {
  if (!messageMovesSla(kind) || c.applied_sla_id === null) return;
  await withMetrics(db, c, async (applied, schedule) => {
    for (const m of applied.metrics) {
      if (kind === 'agent_reply') {
        if (m.metric === 'first_response' && m.met_at === null) meet(m, now, await schedule());
        if (m.metric === 'next_response' && isOpenDeadline(m)) meet(m, now, await schedule());
      } else if (m.metric === 'next_response' && c.first_reply_at !== null && !isOpenDeadline(m)) {
        place(m, now, m.target_minutes, await schedule(), applied.warning_minutes, c.status_category === 'waiting');
        m.met_at = null;
        m.warned_at = null;
        m.breached_at = null;
      }
    }
  });
}

/**
 * The status category changed from `from` to the conversation's current one. Leaving resolved
 * clears the resolution's met mark (the original deadline applies again); leaving waiting
 * thaws the frozen deadlines (now + the time left); entering resolved meets the resolution;
 * entering waiting freezes every unmet deadline.
 */
export async function slaAfterStatusChange(db: DB, c: SlaConversation, from: StatusCategory, now: Date): Promise<void> {
  const to = c.status_category;
  if (from === to || c.applied_sla_id === null) return;
  await withMetrics(db, c, async (applied, schedule) => {
    for (const m of applied.metrics) {
      if (from === 'resolved' && m.metric === 'resolution') m.met_at = null;
      if (from === 'waiting' && m.met_at === null && m.remaining_minutes !== null) {
        m.deadline_at = addWorkingMinutes(await schedule(), now, m.remaining_minutes);
        m.warn_at = warnAt(m.deadline_at, applied.warning_minutes);
        m.remaining_minutes = null;
      }
      if (to === 'resolved' && m.metric === 'resolution' && m.met_at === null) meet(m, now, await schedule());
      if (to === 'waiting' && m.met_at === null && m.deadline_at !== null) {
        m.remaining_minutes = minutesLeft(await schedule(), now, m.deadline_at);
        m.deadline_at = null;
        m.warn_at = null;
      }
    }
  });
}

/** The conversation's applied SLA as `GET /conversations/{uuid}/sla` answers it, or null. */
export async function appliedSlaRecord(db: DB, conversationId: number) {
  const id = await q.conversationAppliedSlaId(db, conversationId);
  if (id === null) return null;
  const applied = await q.findAppliedSla(db, id);
  if (!applied) return null;
  const state = (name: SlaMetric) => {
    const m = applied.metrics.find((row) => row.metric === name);
    return m ? { deadline_at: m.deadline_at, met_at: m.met_at, breached: m.breached_at !== null } : null;
  };
  return {
    applied_sla_id: applied.id,
    sla_policy_id: applied.sla_policy_id,
    applied_at: applied.applied_at,
    first_response: state('first_response'),
    next_response: state('next_response'),
    resolution: state('resolution'),
  };
}

/** The periodic task's claim: due warnings or breaches of current SLAs, each marked in the same statement so it is claimed once. */
export async function claimDueSlaAlerts(db: DB, kind: 'warning' | 'breach', now: Date, limit: number): Promise<q.ClaimedAlert[]> {
  return q.claimDue(db, kind, now, limit);
}
