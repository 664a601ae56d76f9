// Every statement of service levels: the policies, the applied SLAs and their metrics, and the
// SLA columns of conversations (this domain owns them: sla.deadlines.ts computes them).
import { type SqlBool, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { SlaMetric } from '../db/types.ts';

const columns = [
  'id',
  'created_at',
  'updated_at',
  'name',
  'description',
  'first_response_minutes',
  'next_response_minutes',
  'resolution_minutes',
  'warning_minutes',
  'business_hours_only',
] as const;

export interface SlaPolicyValues {
  name?: string;
  description?: string;
  first_response_minutes?: number | null;
  next_response_minutes?: number | null;
  resolution_minutes?: number | null;
  warning_minutes?: number | null;
  business_hours_only?: boolean;
}

export async function listPolicies(db: DB) {
  return db.selectFrom('sla_policies').select(columns).orderBy('name').orderBy('id').execute();
}

export async function findPolicy(db: DB, id: number) {
  return db.selectFrom('sla_policies').where('id', '=', id).select(columns).executeTakeFirst();
}

export type PolicyRow = NonNullable<Awaited<ReturnType<typeof findPolicy>>>;

export async function policyExists(db: DB, id: number): Promise<boolean> {
  return (await db.selectFrom('sla_policies').where('id', '=', id).select('id').executeTakeFirst()) !== undefined;
}

/** Locks the row until the transaction ends: a team that would start using it meanwhile waits (its foreign key check). */
export async function lockPolicy(db: DB, id: number): Promise<boolean> {
  return (await db.selectFrom('sla_policies').where('id', '=', id).select('id').forUpdate().executeTakeFirst()) !== undefined;
}

export async function findPolicyIdByName(db: DB, name: string) {
  return db.selectFrom('sla_policies').where(sql`lower(name)`, '=', name.trim().toLowerCase()).select('id').executeTakeFirst();
}

export async function insertPolicy(db: DB, values: SlaPolicyValues & { name: string; created_at: Date; updated_at: Date }) {
  return db.insertInto('sla_policies').values(values).returning(columns).executeTakeFirstOrThrow();
}

export async function updatePolicy(db: DB, id: number, values: SlaPolicyValues & { updated_at: Date }) {
  return db.updateTable('sla_policies').set(values).where('id', '=', id).returning(columns).executeTakeFirst();
}

export async function deletePolicy(db: DB, id: number): Promise<void> {
  await db.deleteFrom('sla_policies').where('id', '=', id).execute();
}

/** The names of up to `limit` teams using the policy, and how many in all. */
export async function teamsUsingPolicy(db: DB, id: number, limit: number) {
  const rows = await db
    .selectFrom('teams')
    .where('sla_policy_id', '=', id)
    .select(['name', sql<number>`(count(*) over ())::int`.as('total')])
    .orderBy('name')
    .limit(limit)
    .execute();
  return { names: rows.map((row) => row.name), total: rows[0]?.total ?? 0 };
}

// Applying

/** A team's policy and the business hours its conversations count by (the team's, else the default). */
export async function teamSlaFacts(db: DB, teamId: number) {
  return db
    .selectFrom('teams as t')
    .leftJoin('general_settings as g', (join) => join.onTrue())
    .where('t.id', '=', teamId)
    .select(['t.sla_policy_id', sql<number | null>`coalesce(t.business_hours_id, g.business_hours_id)`.as('business_hours_id')])
    .executeTakeFirst();
}

export async function defaultBusinessHoursId(db: DB): Promise<number | null> {
  return (await db.selectFrom('general_settings').select('business_hours_id').executeTakeFirst())?.business_hours_id ?? null;
}

export async function insertAppliedSla(
  db: DB,
  values: {
    conversation_id: number;
    sla_policy_id: number;
    applied_at: Date;
    warning_minutes: number | null;
    business_hours_only: boolean;
  },
) {
  return db.insertInto('applied_slas').values(values).returning(['id']).executeTakeFirstOrThrow();
}

export interface MetricRow {
  metric: SlaMetric;
  target_minutes: number;
  /** When this deadline's cycle started; a wait never moves it (the outcomes' key). */
  started_at: Date;
  deadline_at: Date | null;
  warn_at: Date | null;
  met_at: Date | null;
  warned_at: Date | null;
  breached_at: Date | null;
  remaining_minutes: number | null;
}

const metricColumns = [
  'metric',
  'target_minutes',
  'started_at',
  'deadline_at',
  'warn_at',
  'met_at',
  'warned_at',
  'breached_at',
  'remaining_minutes',
] as const;

export async function insertMetrics(db: DB, appliedSlaId: number, metrics: MetricRow[]): Promise<void> {
  if (metrics.length === 0) return;
  await db
    .insertInto('applied_sla_metrics')
    .values(metrics.map((m) => ({ applied_sla_id: appliedSlaId, ...m })))
    .execute();
}

/** An applied SLA with its metrics (unlocked: the caller holds the conversation's lock). */
export async function findAppliedSla(db: DB, id: number) {
  const applied = await db
    .selectFrom('applied_slas')
    .where('id', '=', id)
    .select(['id', 'conversation_id', 'sla_policy_id', 'applied_at', 'warning_minutes', 'business_hours_only'])
    .executeTakeFirst();
  if (!applied) return undefined;
  const metrics: MetricRow[] = await db
    .selectFrom('applied_sla_metrics')
    .where('applied_sla_id', '=', id)
    .select(metricColumns)
    .orderBy('metric')
    .execute();
  return { ...applied, metrics };
}

export async function saveMetric(db: DB, appliedSlaId: number, metric: MetricRow): Promise<void> {
  const { metric: name, ...values } = metric;
  await db.updateTable('applied_sla_metrics').set(values).where('applied_sla_id', '=', appliedSlaId).where('metric', '=', name).execute();
}

export interface ConversationSlaColumns {
  sla_policy_id?: number | null;
  applied_sla_id?: number | null;
  first_response_deadline_at: Date | null;
  resolution_deadline_at: Date | null;
  next_response_deadline_at: Date | null;
  next_response_met_at: Date | null;
  next_sla_deadline_at: Date | null;
}

export async function setConversationSla(db: DB, conversationId: number, values: ConversationSlaColumns): Promise<void> {
  await db.updateTable('conversations').set(values).where('id', '=', conversationId).execute();
}

export async function conversationAppliedSlaId(db: DB, conversationId: number): Promise<number | null> {
  const row = await db.selectFrom('conversations').where('id', '=', conversationId).select('applied_sla_id').executeTakeFirst();
  return row?.applied_sla_id ?? null;
}

// The periodic claims. A conditional update is the claim: a row whose warned_at or breached_at
// another instance set meanwhile no longer matches (PostgreSQL re-checks the condition on the
// row it waited for), so each deadline is recorded once. Only the conversation's current SLA
// counts, and only while the conversation is not resolved (waiting ones have no deadline).

export interface ClaimedAlert {
  conversation_id: number;
  conversation_uuid: string;
  applied_sla_id: number;
  metric: SlaMetric;
  started_at: Date;
  deadline_at: Date;
}

function claimable(db: DB, kind: 'warning' | 'breach', now: Date, limit: number) {
  const due = kind === 'breach' ? 'm.deadline_at' : 'm.warn_at';
  return db
    .selectFrom('applied_sla_metrics as m')
    .innerJoin('conversations as c', 'c.applied_sla_id', 'm.applied_sla_id')
    .innerJoin('conversation_statuses as s', 's.id', 'c.status_id')
    .where(sql.ref(due), '<=', now)
    .where('m.met_at', 'is', null)
    .where('m.breached_at', 'is', null)
    .where('s.category', '<>', 'resolved')
    .$if(kind === 'warning', (qb) => qb.where('m.warned_at', 'is', null))
    .$if(kind === 'breach', (qb) => qb.where('m.deadline_at', 'is not', null))
    .select(['m.applied_sla_id', 'm.metric'])
    .orderBy(sql.ref(due))
    .limit(limit);
}

export async function claimDue(db: DB, kind: 'warning' | 'breach', now: Date, limit: number): Promise<ClaimedAlert[]> {
  const mark = kind === 'breach' ? { breached_at: now } : { warned_at: now };
  const claimed = await (db
    .updateTable('applied_sla_metrics as m')
    .from('conversations as c')
    .set(mark)
    .whereRef('c.applied_sla_id', '=', 'm.applied_sla_id')
    .where(sql<SqlBool>`(m.applied_sla_id, m.metric) in (${claimable(db, kind, now, limit)})`)
    .where('m.met_at', 'is', null)
    .where('m.breached_at', 'is', null)
    .$if(kind === 'warning', (qb) => qb.where('m.warned_at', 'is', null))
    .returning(['c.id as conversation_id', 'c.uuid as conversation_uuid', 'm.applied_sla_id', 'm.metric', 'm.started_at', 'm.deadline_at'])
    // deadline_at is set on every claimed row (the claimable rows have one).
    .execute() as Promise<ClaimedAlert[]>);
  if (kind === 'breach') {
    const breached = claimed.map((row) => ({
      applied_sla_id: row.applied_sla_id,
      conversation_id: row.conversation_id,
      metric: row.metric,
      started_at: row.started_at,
      deadline_at: row.deadline_at,
      outcome: 'breached' as const,
      at: now,
    }));
    await recordOutcomes(db, breached);
  }
  return claimed;
}

export interface SlaOutcome {
  applied_sla_id: number;
  conversation_id: number;
  metric: SlaMetric;
  started_at: Date;
  deadline_at: Date;
  outcome: 'met' | 'breached';
  at: Date;
}

/**
 * Records deadlines met or breached (the service report): one row per deadline's cycle, however
 * often a wait moved the deadline. A deadline met and later breached (a reopen keeps the
 * resolution deadline) becomes breached, dated by the breach; a breached deadline stays
 * breached whatever comes after.
 */
export async function recordOutcomes(db: DB, outcomes: readonly SlaOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await db
    .insertInto('sla_outcomes')
    .values([...outcomes])
    .onConflict((oc) =>
      oc
        .columns(['applied_sla_id', 'metric', 'started_at'])
        .doUpdateSet({ outcome: 'breached', at: sql<Date>`excluded.at`, deadline_at: sql<Date>`excluded.deadline_at` })
        .where(sql<SqlBool>`sla_outcomes.outcome = 'met' and excluded.outcome = 'breached'`),
    )
    .execute();
}
