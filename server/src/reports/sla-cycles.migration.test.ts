// Migration 0033 on an installation that counted a deadline twice: outcomes keyed by the
// deadline's instant, a resolution recorded met and then, its deadline moved by a wait,
// breached. The migration keeps one outcome per cycle (breached wins, else the later one),
// takes the deleted one out of the report's rollups, and gives every metric and outcome its
// cycle's start.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { up } from '../db/migrations/2026_11_28_0033_sla_cycles.ts';

describe('migration 0033: one SLA outcome per cycle', () => {
  const clock = fakeClock(new Date('2026-10-01T09:00:00Z'));
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t.close());

  it('merges the outcomes of one cycle, keeps the report’s sums right and fills started_at', async () => {
    const policy = dataOf<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/sla', payload: { name: 'Cycles', first_response_minutes: 30, resolution_minutes: 60 } }),
    );
    const c = await createConversation(t);
    const applied = dataOf<{ applied_sla_id: number }>(
      await t.call({ method: 'PUT', url: `/api/v1/conversations/${c.uuid}/sla`, payload: { sla_policy_id: policy.id } }),
    );
    const db = t.deps.db;
    // Back to the schema before 0033.
    for (const statement of [
      'drop trigger sla_outcome_cycle on sla_outcomes',
      'drop function sla_outcome_cycle',
      'drop trigger sla_metric_started_at on applied_sla_metrics',
      'drop function sla_metric_started_at',
      'drop index sla_outcomes_cycle_key',
      'alter table sla_outcomes drop column started_at',
      'alter table applied_sla_metrics drop column started_at',
    ]) {
      await sql.raw(statement).execute(db);
    }
    const id = applied.applied_sla_id;
    const conversationId = dataOf<{ id: number }>(await t.call({ url: `/api/v1/conversations/${c.uuid}` })).id;
    // The resolution met before 10:00, then breached at 11:30 (its deadline moved to 11:00 by a
    // wait): two rows. The first response met once. Next responses, two cycles, stay two.
    await sql`insert into sla_outcomes (applied_sla_id, conversation_id, metric, deadline_at, outcome, at) values
      (${id}, ${conversationId}, 'resolution', '2026-10-01T10:00:00Z', 'met', '2026-10-01T09:40:00Z'),
      (${id}, ${conversationId}, 'resolution', '2026-10-01T11:00:00Z', 'breached', '2026-10-01T11:30:00Z'),
      (${id}, ${conversationId}, 'first_response', '2026-10-01T09:30:00Z', 'met', '2026-10-01T09:10:00Z'),
      (${id}, ${conversationId}, 'next_response', '2026-10-01T12:00:00Z', 'met', '2026-10-01T11:50:00Z'),
      (${id}, ${conversationId}, 'next_response', '2026-10-01T13:00:00Z', 'breached', '2026-10-01T13:00:00Z')`.execute(db);
    const report = async () =>
      dataOf<{ sla: Record<string, { met: number; breached: number }> }>(
        await t.call({ url: '/api/v1/reports/service?from=2026-10-01&to=2026-10-01' }),
      ).sla;
    assert.deepEqual((await report())['resolution'], { met: 1, breached: 1 }, 'the double count this migration undoes');

    await db.transaction().execute((trx) => up(trx as unknown as Parameters<typeof up>[0]));

    assert.deepEqual(await report(), {
      first_response: { met: 1, breached: 0 },
      next_response: { met: 1, breached: 1 },
      resolution: { met: 0, breached: 1 },
    });
    const outcomes = await db
      .selectFrom('sla_outcomes')
      .where('applied_sla_id', '=', id)
      .select(['metric', 'outcome', 'started_at'])
      .orderBy('metric')
      .orderBy('started_at')
      .execute();
    const appliedAt = new Date('2026-10-01T09:00:00Z');
    assert.deepEqual(outcomes, [
      { metric: 'first_response', outcome: 'met', started_at: appliedAt },
      { metric: 'next_response', outcome: 'met', started_at: new Date('2026-10-01T12:00:00Z') },
      { metric: 'next_response', outcome: 'breached', started_at: new Date('2026-10-01T13:00:00Z') },
      { metric: 'resolution', outcome: 'breached', started_at: appliedAt },
    ]);
    const metrics = await db.selectFrom('applied_sla_metrics').where('applied_sla_id', '=', id).select(['metric', 'started_at']).execute();
    assert.deepEqual(
      metrics.map((m) => m.started_at),
      metrics.map(() => appliedAt),
    );
    // An instance of the previous version (a rolling upgrade) writes as it did: without started_at,
    // keyed by the deadline. Its breach of the first response, whose deadline a wait moved, folds
    // into the cycle's one row instead of adding a second.
    await sql`insert into sla_outcomes (applied_sla_id, conversation_id, metric, deadline_at, outcome, at)
      values (${id}, ${conversationId}, 'first_response', '2026-10-01T09:50:00Z', 'breached', '2026-10-01T09:55:00Z')
      on conflict (applied_sla_id, metric, deadline_at) do nothing`.execute(db);
    assert.deepEqual((await report())['first_response'], { met: 0, breached: 1 });
    const firstRows = await db
      .selectFrom('sla_outcomes')
      .where('applied_sla_id', '=', id)
      .where('metric', '=', 'first_response')
      .select('outcome')
      .execute();
    assert.deepEqual(firstRows, [{ outcome: 'breached' }]);
    // The rollups' triggers are on again: a new outcome counts.
    await sql`insert into sla_outcomes (applied_sla_id, conversation_id, metric, started_at, deadline_at, outcome, at)
      values (${id}, ${conversationId}, 'next_response', '2026-10-01T14:00:00Z', '2026-10-01T14:30:00Z', 'met', '2026-10-01T14:10:00Z')`.execute(
      db,
    );
    assert.deepEqual((await report())['next_response'], { met: 2, breached: 1 });
  });
});
