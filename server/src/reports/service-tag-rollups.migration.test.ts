// Migration 0035 on an installation with a history: conversations tagged, untagged, resolved,
// reopened, with SLA outcomes and CSAT answers, all before the tag rollups existed. The
// migration's backfill gives the tag-filtered report exactly what the rows give (counts, and
// medians within the bins' 2%), in the zone the rollups are keyed in, and the triggers it adds
// keep them right afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation, createInbox, createTeam } from '../../test/factories.ts';
import { buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { assertAgrees, bothReports, countsOf, countTagged, serviceCalls } from '../../test/service-report.ts';
import { recordSlaAlerts } from '../conversations/conversations.sla.ts';
import { up } from '../db/migrations/2026_11_28_0035_service_tag_rollups.ts';
import { foldReportRollups } from './reports.service.ts';
import { serviceReport } from './service-report.service.ts';

/** Back to the schema before 0035. */
const UNDO = [
  ...[
    'note(integer, integer, integer, integer, integer, integer, integer, integer)',
    'note_all(integer, integer, integer)',
    'conversation_changed()',
    'conversation_note(conversations, integer, boolean)',
    'resolution_changed()',
    'resolution_note(conversation_resolutions, integer)',
    'sla_outcome_changed()',
    'sla_outcome_note(sla_outcomes, integer)',
    'csat_changed()',
    'csat_note(csat_surveys, integer)',
    'tagging_changed()',
    'deleted()',
    'rollups_fold()',
    'rollups_rebuild()',
  ].map((fn) => `drop function service_tag_${fn} cascade`),
  'drop view service_facts',
  'drop table service_tag_rollups, service_tag_pending',
  'drop index sla_outcomes_conversation_idx',
  'drop function service_rollups_rebuild(text)',
  'alter function service_rollups_rebuild_counts(text) rename to service_rollups_rebuild',
];

describe('migration 0035: the service report’s rollups by tag', () => {
  const clock = fakeClock(new Date('2026-10-20T09:00:00Z'));
  const at = (iso: string) => clock.set(new Date(iso));
  let t: TestApp;
  let alice: Caller;
  let bob: Caller;
  let team: { id: number };
  let surveyed: number;
  const calls = serviceCalls(() => t);

  before(async () => {
    t = await buildTestApp({ clock });
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { timezone: 'Asia/Kolkata' } }));
    await foldReportRollups(t.deps);
    alice = await t.makeAgent({ first_name: 'Alice' });
    bob = await t.makeAgent({ first_name: 'Bob' });
    team = await createTeam(t, { name: 'Team' });
    for (const agent of [alice, bob]) await calls.call('POST', `/api/v1/teams/${team.id}/members`, { user_id: agent.id });
    const policy = dataOf<{ id: number }>(
      await calls.call('POST', '/api/v1/sla', { name: 'Standard', first_response_minutes: 30, resolution_minutes: 120 }),
    );
    await calls.call('PUT', `/api/v1/teams/${team.id}`, { sla_policy_id: policy.id });
    surveyed = (await createInbox(t, { csat_enabled: true })).id;
    for (const name of ['Billing', 'Urgent']) dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name } }));
  });
  after(() => t.close());

  it('backfills the history that was there, and keeps it right afterwards', async () => {
    for (const statement of UNDO) await sql.raw(statement).execute(t.deps.db);

    // The history, made without tag rollups (the previous release).
    const made = [];
    for (const [index, [agent, minutes]] of [
      [alice, 10],
      [bob, 45],
      [alice, 200],
      [bob, 3],
    ].entries()) {
      at(`2026-11-0${index + 1}T18:2${index}:00Z`);
      const c = await createConversation(t, { inbox_id: surveyed });
      await calls.put(c.uuid, 'assignee/team', { assignee_id: team.id });
      await calls.put(c.uuid, 'assignee/user', { assignee_id: (agent as Caller).id });
      at(new Date(clock.now().getTime() + (minutes as number) * 60_000).toISOString());
      await recordSlaAlerts(t.deps);
      await calls.reply(c.uuid, agent as Caller);
      at(new Date(clock.now().getTime() + 3 * 3_600_000).toISOString());
      await recordSlaAlerts(t.deps);
      await calls.status(c.uuid, 'Resolved');
      made.push(c);
    }
    at('2026-11-06T12:00:00Z');
    await calls.answer(made[0]!.uuid, 5);
    await calls.answer(made[1]!.uuid, 2);
    await calls.status(made[1]!.uuid, 'Open');
    await calls.status(made[1]!.uuid, 'Resolved');
    await calls.tag(made[0]!.uuid, 'billing', 'urgent');
    await calls.tag(made[1]!.uuid, 'billing');
    await calls.tag(made[2]!.uuid, 'billing');
    await calls.tag(made[3]!.uuid, 'urgent');
    await calls.untag(made[2]!.uuid, 'billing');

    await t.deps.db.transaction().execute((trx) => up(trx as unknown as Parameters<typeof up>[0]));

    const { rows } = await sql<{ n: number }>`select count(*)::int as n from service_tag_rollups`.execute(t.deps.db);
    assert.ok(rows[0]!.n > 0, 'the backfill wrote rollup rows');
    const compare = async (what: string) => {
      for (const tag of ['billing', 'urgent']) {
        for (const query of [
          `from=2026-10-01&to=2026-11-30&tag=${tag}`,
          `from=2026-11-02&to=2026-11-03&tag=${tag}`,
          `from=2026-10-01&to=2026-11-30&tag=${tag}&agent_id=${alice.id}`,
          `from=2026-10-01&to=2026-11-30&tag=${tag}&team_id=${team.id}&inbox_id=${surveyed}`,
        ]) {
          const { rollup, rows } = await bothReports(t, query, serviceReport);
          assertAgrees(rollup, rows, `${what} (${query})`);
        }
        const { rollup } = await bothReports(t, `from=2026-10-01&to=2026-11-30&tag=${tag}`, serviceReport);
        const direct = await countTagged(t, tag, new Date('2026-09-29T00:00:00Z'), new Date('2026-12-02T00:00:00Z'));
        assert.deepEqual(countsOf(rollup), direct, `${what}: ${tag} counted directly`);
        assert.ok(direct.created > 0, `${tag} has conversations`);
      }
    };
    await compare('backfilled');

    // The triggers keep them from here on.
    await calls.tag(made[2]!.uuid, 'urgent');
    await calls.untag(made[0]!.uuid, 'billing');
    await calls.answer(made[3]!.uuid, 4);
    await compare('changed after the migration, pending');
    await foldReportRollups(t.deps);
    await compare('changed after the migration, folded');
  });
});
