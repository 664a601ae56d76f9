// The service report by tag from its rollups (migration 0035) against the rows and against
// direct counts: a tag added after the fact brings the conversation's whole history (creation,
// first reply, resolutions, SLA outcomes, CSAT) into the tag, untagging takes it out, later
// changes (reopen, resolve, reassignment, an answer) follow the tags the conversation has,
// a deleted tag leaves nothing behind, a deleted conversation neither; folded or still pending,
// with team, inbox and agent filters besides; and the rebuild gives what the triggers kept.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation, createInbox, createTeam } from '../../test/factories.ts';
import { buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { assertAgrees, bothReports, countsOf, countTagged, serviceCalls } from '../../test/service-report.ts';
import { recordSlaAlerts } from '../conversations/conversations.sla.ts';
import { foldReportRollups } from './reports.service.ts';
import { serviceReport } from './service-report.service.ts';
import { rebuildServiceRollups } from './service-rollups.service.ts';

/** The tag rollups' rows, summed per key (zero sums left out): what a rebuild must reproduce. */
async function tagRollupRows(t: TestApp) {
  const { rows } = await sql<{ key: string; n: number }>`
    select concat_ws(':', tag_id, size, block, metric, inbox_id, team_id, assignee_id, bin) as key, sum(n)::int as n
      from service_tag_rollups group by 1 having sum(n) <> 0 order by 1`.execute(t.deps.db);
  return rows;
}

describe('the service report by tag, from the tag rollups', () => {
  const clock = fakeClock(new Date('2026-10-20T09:00:00Z'));
  const at = (iso: string) => clock.set(new Date(iso));
  let t: TestApp;
  let alice: Caller;
  let bob: Caller;
  let teamA: { id: number };
  let teamB: { id: number };
  let surveyed: number;
  const calls = serviceCalls(() => t);

  const FROM = new Date('2026-09-29T00:00:00Z');
  const TO = new Date('2026-12-02T00:00:00Z');
  const queries = (tag: string) => [
    `from=2026-10-01&to=2026-11-30&tag=${tag}`,
    `from=2026-11-02&to=2026-11-03&tag=${tag}`,
    `from=2026-11-03&to=2026-11-03&tag=${tag}`,
    `from=2026-10-01&to=2026-11-30&tag=${tag}&team_id=${teamA.id}`,
    `from=2026-10-01&to=2026-11-30&tag=${tag}&team_id=${teamB.id}`,
    `from=2026-10-01&to=2026-11-30&tag=${tag}&agent_id=${alice.id}`,
    `from=2026-10-01&to=2026-11-30&tag=${tag}&inbox_id=${surveyed}`,
    `from=2026-10-01&to=2026-11-30&tag=${tag}&inbox_id=${surveyed}&team_id=${teamB.id}&agent_id=${bob.id}`,
  ];
  /** Every query of every tag: from the rollups as from the rows; the whole range as counted directly. */
  const compare = async (what: string, tags = ['billing', 'urgent']) => {
    for (const tag of tags) {
      for (const query of queries(tag)) {
        const { rollup, rows } = await bothReports(t, query, serviceReport);
        assertAgrees(rollup, rows, `${what} (${query})`);
      }
      const { rollup } = await bothReports(t, queries(tag)[0]!, serviceReport);
      assert.deepEqual(countsOf(rollup), await countTagged(t, tag, FROM, TO), `${what}: ${tag} counted directly`);
    }
  };

  before(async () => {
    t = await buildTestApp({ clock });
    // Kolkata is UTC+5:30: its midnights fall on half hours.
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { timezone: 'Asia/Kolkata' } }));
    await foldReportRollups(t.deps); // keyed in Kolkata from here on
    alice = await t.makeAgent({ first_name: 'Alice' });
    bob = await t.makeAgent({ first_name: 'Bob' });
    teamA = await createTeam(t, { name: 'Team A' });
    teamB = await createTeam(t, { name: 'Team B' });
    for (const [team, agent] of [
      [teamA, alice],
      [teamB, bob],
      [teamB, alice],
    ] as const)
      await calls.call('POST', `/api/v1/teams/${team.id}/members`, { user_id: agent.id });
    const policy = dataOf<{ id: number }>(
      await calls.call('POST', '/api/v1/sla', { name: 'Standard', first_response_minutes: 30, resolution_minutes: 120 }),
    );
    for (const team of [teamA, teamB]) await calls.call('PUT', `/api/v1/teams/${team.id}`, { sla_policy_id: policy.id });
    surveyed = (await createInbox(t, { csat_enabled: true })).id;
    for (const name of ['Billing', 'Urgent']) dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name } }));
  });
  after(() => t.close());

  it('follow tagging after the fact, untagging, reopening, SLA, CSAT, deletions, the fold and the rebuild', async () => {
    // c1: team A, Alice, answered in 10 minutes (SLA met), resolved; untagged for now.
    at('2026-11-02T09:00:00Z');
    const c1 = await createConversation(t, { inbox_id: surveyed });
    await calls.put(c1.uuid, 'assignee/team', { assignee_id: teamA.id });
    await calls.put(c1.uuid, 'assignee/user', { assignee_id: alice.id });
    at('2026-11-02T09:10:00Z');
    await calls.reply(c1.uuid, alice);
    at('2026-11-02T10:00:00Z');
    await calls.status(c1.uuid, 'Resolved');
    // c2 on the edge of two Kolkata days: team B, Bob, both deadlines breached, resolved, reopened, resolved.
    at('2026-11-02T18:25:00Z');
    const c2 = await createConversation(t, { inbox_id: surveyed });
    await calls.put(c2.uuid, 'assignee/team', { assignee_id: teamB.id });
    await calls.put(c2.uuid, 'assignee/user', { assignee_id: bob.id });
    at('2026-11-02T19:20:00Z');
    await recordSlaAlerts(t.deps);
    await calls.reply(c2.uuid, bob);
    at('2026-11-02T21:00:00Z');
    await recordSlaAlerts(t.deps);
    at('2026-11-03T12:00:00Z');
    await calls.status(c2.uuid, 'Resolved');
    at('2026-11-03T15:00:00Z');
    await calls.status(c2.uuid, 'Open');
    at('2026-11-04T10:00:00Z');
    await calls.status(c2.uuid, 'Resolved');
    await compare('nothing tagged');
    assert.equal(countsOf((await bothReports(t, queries('billing')[0]!, serviceReport)).rollup).created, 0);

    // Tagged afterwards: their whole histories move into Billing.
    await calls.tag(c1.uuid, 'billing');
    await calls.tag(c2.uuid, 'billing', 'urgent');
    await compare('tagged after the fact, pending');
    const billing = countsOf((await bothReports(t, queries('billing')[0]!, serviceReport)).rollup);
    assert.deepEqual(
      { created: billing.created, resolved: billing.resolved, slaBreached: billing.slaBreached, surveys: billing.surveys },
      { created: 2, resolved: 3, slaBreached: 2, surveys: 2 },
      'both histories, every resolution and both breaches',
    );
    await foldReportRollups(t.deps);
    await compare('tagged after the fact, folded');

    // Answers, a reopen and a resolve while tagged, a reassignment (first reply and outcomes move with it).
    at('2026-11-05T12:00:00Z');
    await calls.answer(c1.uuid, 5);
    await calls.answer(c2.uuid, 2);
    await calls.status(c1.uuid, 'Open');
    at('2026-11-05T13:00:00Z');
    await calls.status(c1.uuid, 'Resolved');
    await calls.put(c2.uuid, 'assignee/user', { assignee_id: alice.id });
    await compare('changes while tagged, pending');
    await foldReportRollups(t.deps);
    await compare('changes while tagged, folded');

    // Untagged: c1 leaves Billing entirely; a changed answer follows the tags c2 still has.
    await calls.untag(c1.uuid, 'billing');
    await calls.answer(c2.uuid, 4);
    await compare('untagged, pending');
    await foldReportRollups(t.deps);
    await compare('untagged, folded');
    await calls.tag(c1.uuid, 'urgent');
    await compare('tagged again');

    // The rebuild gives exactly what the triggers and the fold kept.
    await foldReportRollups(t.deps);
    const kept = await tagRollupRows(t);
    assert.ok(kept.length > 0, 'the tags have rollup rows');
    await rebuildServiceRollups(t.deps);
    assert.deepEqual(await tagRollupRows(t), kept, 'rebuilt = kept');
    await compare('rebuilt');

    // A deleted tag leaves no rows; a new tag of the same name starts empty.
    const urgent = dataOf<Array<{ id: number; name: string }>>(await t.call({ url: '/api/v1/tags' })).find((tag) => tag.name === 'Urgent')!;
    await calls.call('DELETE', `/api/v1/tags/${urgent.id}`);
    const { rows: left } = await sql<{ n: number }>`
      select (select count(*) from service_tag_rollups where tag_id = ${urgent.id})
           + (select count(*) from service_tag_pending where tag_id = ${urgent.id}) as n`.execute(t.deps.db);
    assert.equal(Number(left[0]!.n), 0, 'no rows of the deleted tag');
    dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'Urgent' } }));
    await compare('tag deleted and made again');

    // A deleted conversation leaves its tags. Its rows go by cascade, in the order the foreign keys
    // were made: here the tags' last (as a dump and restore may leave them). The resolutions' and
    // surveys' triggers fire once every cascade is done (PostgreSQL queues them to the end of the
    // delete), when the tags are gone: the conversation is taken out once, whatever the order.
    await calls.tag(c1.uuid, 'billing');
    await foldReportRollups(t.deps);
    const { rows: keys } = await sql<{ name: string }>`
      select conname as name from pg_constraint
       where conrelid = 'conversation_tags'::regclass and confrelid = 'conversations'::regclass`.execute(t.deps.db);
    const key = keys[0]?.name ?? '';
    await sql`alter table conversation_tags drop constraint ${sql.id(key)}`.execute(t.deps.db);
    await sql`alter table conversation_tags add constraint ${sql.id(key)}
              foreign key (conversation_id) references conversations (id) on delete cascade`.execute(t.deps.db);
    await sql`delete from conversations where uuid = ${c2.uuid}`.execute(t.deps.db);
    await compare('a conversation deleted, pending');
    await foldReportRollups(t.deps);
    await compare('a conversation deleted, folded');
    const afterDelete = await tagRollupRows(t);
    await rebuildServiceRollups(t.deps);
    assert.deepEqual(await tagRollupRows(t), afterDelete, 'rebuilt = kept after the deletion');

    // Another zone: from the rows until the fold rebuilds both rollups in it.
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { timezone: 'America/St_Johns' } }));
    await compare('zone changed: from the rows');
    await foldReportRollups(t.deps);
    await compare('rebuilt in the new zone');
    assert.equal(await foldReportRollups(t.deps), 0, 'nothing left to fold');
  });
});
