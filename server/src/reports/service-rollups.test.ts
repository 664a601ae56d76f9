// The service report's rollups (migration 0028) against the rows they sum: after every kind of
// change (create, assign, reassign, team change, first reply, resolve, reopen, SLA met and
// breached, CSAT answers, tags, deletion), folded or still pending, filtered or not, in zones
// whose midnight is no whole UTC hour, every count equals the report read from the rows (whose
// own figures service-report.test.ts checks by hand) and every median and 90th percentile is
// within the stated 2% (or one second).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation, createInbox, createTeam } from '../../test/factories.ts';
import { buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { assertAgrees, BIN, exact, type Report } from '../../test/service-report.ts';
import { recordSlaAlerts } from '../conversations/conversations.sla.ts';
import { foldReportRollups } from './reports.service.ts';
import { serviceReport } from './service-report.service.ts';
import { blocksOf, rollupZone } from './service-rollups.queries.ts';
import { spreadOfBins } from './service-rollups.service.ts';

describe('the service report from its rollups', () => {
  it('splits a range into aligned blocks that cover it exactly', () => {
    for (const [first, end] of [
      [0, 1],
      [20_000, 20_366],
      [20_393, 20_759],
      [20_479, 20_481],
      [5, 5],
    ] as const) {
      const blocks = blocksOf(first, end);
      let day = first;
      for (const { size, block } of blocks) {
        assert.equal(block, day);
        assert.equal(block % size, 0, 'aligned');
        day += size;
      }
      assert.equal(day, Math.max(first, end));
      assert.ok(blocks.length <= 24, `${blocks.length} blocks`);
    }
  });

  it('reads medians and 90th percentiles from bins within 2% of the exact ones', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (const size of [1, 2, 3, 10, 101, 5000]) {
      const values = Array.from({ length: size }, () => Math.exp(random() * 14));
      const bins = new Map<number, number>();
      for (const value of values) bins.set(BIN(value), (bins.get(BIN(value)) ?? 0) + 1);
      const spread = spreadOfBins(bins);
      assert.equal(spread.count, size);
      for (const [p, got] of [
        [0.5, spread.median],
        [0.9, spread.p90],
      ] as const) {
        const want = exact(values, p);
        assert.ok(got !== null && Math.abs(got - want) <= 0.02 * want + 1, `${size} values, p${p * 100}: ${got} vs ${want}`);
      }
    }
    assert.deepEqual(spreadOfBins(new Map()), { median: null, p90: null, count: 0 });
    assert.deepEqual(spreadOfBins(new Map([[5, 0]])), { median: null, p90: null, count: 0 });
  });

  describe('after every kind of change', () => {
    const clock = fakeClock(new Date('2026-10-20T09:00:00Z'));
    let t: TestApp;
    let alice: Caller;
    let bob: Caller;
    let teamA: { id: number };
    let teamB: { id: number };
    let inbox2: number;
    let surveyed: number;
    const at = (iso: string) => clock.set(new Date(iso));
    const call = async (method: 'PUT' | 'POST', url: string, payload: Record<string, unknown>, as?: Caller | null) => {
      const res = await t.call({ method, url, payload, ...(as !== undefined ? { as } : {}) });
      assert.ok(res.statusCode < 300, res.body);
      return res;
    };
    const put = (uuid: string, path: string, payload: Record<string, unknown>) =>
      call('PUT', `/api/v1/conversations/${uuid}/${path}`, payload);
    const reply = (uuid: string, as: Caller) => call('POST', `/api/v1/conversations/${uuid}/messages`, { message: 'On it' }, as);
    const answer = async (uuid: string, rating: number) => {
      const survey = dataOf<{ csat: { uuid: string } | null }>(await t.call({ url: `/api/v1/conversations/${uuid}` })).csat;
      assert.ok(survey, 'a survey was sent');
      await call('POST', `/api/v1/csat/${survey.uuid}/response`, { rating }, null);
    };
    const queries = () => [
      'from=2026-10-01&to=2026-11-30',
      'from=2026-11-02&to=2026-11-03',
      'from=2026-11-03&to=2026-11-03',
      `from=2026-10-01&to=2026-11-30&team_id=${teamA.id}`,
      `from=2026-10-01&to=2026-11-30&team_id=${teamB.id}`,
      `from=2026-10-01&to=2026-11-30&agent_id=${alice.id}`,
      `from=2026-10-01&to=2026-11-30&agent_id=${bob.id}`,
      `from=2026-10-01&to=2026-11-30&inbox_id=${surveyed}`,
      `from=2026-10-01&to=2026-11-30&inbox_id=${inbox2}&team_id=${teamB.id}`,
      `from=2026-11-01&to=2026-11-30&team_id=${teamB.id}&agent_id=${alice.id}`,
      'from=2026-10-01&to=2026-11-30&tag=billing',
    ];
    /** Every query, from the rollups (over HTTP) and from the rows; true when the rollups answered. */
    const compare = async (what: string) => {
      for (const query of queries()) {
        const rollup = dataOf<Report>(await t.call({ url: `/api/v1/reports/service?${query}` }));
        const rows = await serviceReport(t.deps, Object.fromEntries(new URLSearchParams(query)) as never, { fromRows: true });
        assertAgrees(rollup, rows, `${what} (${query})`);
      }
    };
    const zone = async () => rollupZone(t.deps.db);

    before(async () => {
      t = await buildTestApp({ clock });
      // Kolkata is UTC+5:30: its midnights fall on half hours.
      dataOf(await t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { timezone: 'Asia/Kolkata' } }));
      alice = await t.makeAgent({ first_name: 'Alice' });
      bob = await t.makeAgent({ first_name: 'Bob' });
      teamA = await createTeam(t, { name: 'Team A' });
      teamB = await createTeam(t, { name: 'Team B' });
      for (const [team, agent] of [
        [teamA, alice],
        [teamB, bob],
        [teamB, alice],
      ] as const)
        await call('POST', `/api/v1/teams/${team.id}/members`, { user_id: agent.id });
      const policy = dataOf<{ id: number }>(
        await call('POST', '/api/v1/sla', { name: 'Standard', first_response_minutes: 30, resolution_minutes: 120 }),
      );
      for (const team of [teamA, teamB]) await call('PUT', `/api/v1/teams/${team.id}`, { sla_policy_id: policy.id });
      inbox2 = (await createInbox(t)).id;
      surveyed = (await createInbox(t, { csat_enabled: true })).id;
      dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'Billing' } }));
    });
    after(() => t.close());

    it('agree with the rows whether folded or pending, through a zone change', async () => {
      assert.equal(await zone(), 'UTC', 'the migration keyed them in UTC');
      await compare('rows before the first fold');
      await foldReportRollups(t.deps);
      assert.equal(await zone(), 'Asia/Kolkata', 'the fold rebuilt them in the settings’ zone');

      // Created 20 October; resolved 2 November without a reply.
      const c4 = await createConversation(t);
      at('2026-11-02T12:00:00Z');
      await put(c4.uuid, 'status', { status: 'Resolved' });
      // 2 November; team A then Alice; answered after 10 minutes (SLA met), resolved after an hour.
      at('2026-11-02T09:00:00Z');
      const c1 = await createConversation(t, { inbox_id: surveyed });
      await put(c1.uuid, 'assignee/team', { assignee_id: teamA.id });
      await put(c1.uuid, 'assignee/user', { assignee_id: alice.id });
      at('2026-11-02T09:10:00Z');
      await reply(c1.uuid, alice);
      at('2026-11-02T10:00:00Z');
      await put(c1.uuid, 'status', { status: 'Resolved' });
      await compare('pending');
      await foldReportRollups(t.deps);
      await compare('folded');

      // 18:15 UTC is 23:45 in Kolkata, 18:45 the next day there: c2 on the edge of two local days.
      at('2026-11-02T18:45:00Z');
      const c2 = await createConversation(t, { inbox_id: surveyed });
      await put(c2.uuid, 'assignee/team', { assignee_id: teamB.id });
      await put(c2.uuid, 'assignee/user', { assignee_id: bob.id });
      at('2026-11-02T19:20:00Z');
      await recordSlaAlerts(t.deps); // first response breached
      await reply(c2.uuid, bob);
      at('2026-11-02T21:00:00Z');
      await recordSlaAlerts(t.deps); // resolution breached
      at('2026-11-03T12:00:00Z');
      await put(c2.uuid, 'status', { status: 'Resolved' });
      at('2026-11-03T15:00:00Z');
      await put(c2.uuid, 'status', { status: 'Open' }); // reopened
      await put(c2.uuid, 'assignee/user', { assignee_id: alice.id }); // reassigned
      await put(c2.uuid, 'assignee/team', { assignee_id: teamA.id }); // another team
      at('2026-11-04T10:00:00Z');
      await put(c2.uuid, 'status', { status: 'Resolved' });
      // c3: another inbox, tagged, then untagged; c5 tagged, assigned, deleted.
      at('2026-11-02T18:20:00Z');
      const c3 = await createConversation(t, { inbox_id: inbox2 });
      await call('POST', `/api/v1/conversations/${c3.uuid}/tags`, { tags: ['billing'] });
      await put(c3.uuid, 'assignee/team', { assignee_id: teamB.id });
      const c5 = await createConversation(t, { inbox_id: surveyed });
      await call('POST', `/api/v1/conversations/${c5.uuid}/tags`, { tags: ['billing'] });
      await put(c5.uuid, 'assignee/user', { assignee_id: bob.id });
      await reply(c5.uuid, bob);
      await put(c5.uuid, 'status', { status: 'Resolved' });
      at('2026-11-05T12:00:00Z');
      await answer(c1.uuid, 5);
      await answer(c2.uuid, 2);
      await answer(c5.uuid, 4);
      await compare('half folded, half pending');
      await foldReportRollups(t.deps);
      await compare('folded again');

      await answer(c2.uuid, 3); // an answer changed
      await call('POST', `/api/v1/conversations/${c3.uuid}/tags`, { tags: ['billing'], action: 'remove_tags' });
      await sql`delete from conversations where uuid = ${c5.uuid}`.execute(t.deps.db);
      await put(c1.uuid, 'assignee/user', { assignee_id: bob.id }); // first reply now credited to Bob
      await compare('after a deletion, an untagging and a reassignment');
      await foldReportRollups(t.deps);
      await compare('and folded');

      // Newfoundland is UTC-3:30: the rollups are keyed in Kolkata's days until the fold rebuilds them.
      dataOf(await t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { timezone: 'America/St_Johns' } }));
      await compare('zone changed: from the rows');
      await foldReportRollups(t.deps);
      assert.equal(await zone(), 'America/St_Johns');
      await compare('rebuilt in the new zone');
      assert.equal(await foldReportRollups(t.deps), 0, 'nothing left to fold');
    });
  });
});
