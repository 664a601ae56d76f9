// The service report against a small history whose every figure is worked out by hand, and
// checked against direct counts: local dates in the settings' zone (a conversation created at
// 23:30 UTC belongs to the next Berlin day), resolutions counted each time and credited to the
// assignee then, the filters, and every refusal.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation, createInbox, createTeam } from '../../test/factories.ts';
import { wakeSnoozedConversations } from '../conversations/conversations.changes.ts';
import { recordSlaAlerts } from '../conversations/conversations.sla.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

interface Report {
  from: string;
  to: string;
  timezone: string;
  conversations: { created: number; resolved: number };
  first_response_seconds: { median: number | null; p90: number | null; count: number };
  resolution_seconds: { median: number | null; p90: number | null; count: number };
  by_day: Array<{ date: string; created: number; resolved: number }>;
  sla: Record<string, { met: number; breached: number }>;
  csat: { responses: number; sent: number; average: number | null; distribution: Record<string, number> };
  by_agent: Array<{
    agent_id: number;
    name: string;
    resolved: number;
    first_response_median_seconds: number | null;
    csat_average: number | null;
  }>;
  by_team: Array<{ team_id: number; name: string; created: number; resolved: number }>;
}

describe('the service report', () => {
  const clock = fakeClock(new Date('2026-10-20T09:00:00Z'));
  let t: TestApp;
  let alice: Caller;
  let bob: Caller;
  let teamA: { id: number; name: string };
  let teamB: { id: number; name: string };
  let inbox2: number;

  const at = (iso: string) => clock.set(new Date(iso));
  const put = async (uuid: string, path: string, payload: Record<string, unknown>) => {
    const res = await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/${path}`, payload });
    assert.equal(res.statusCode, 200, res.body);
  };
  const reply = async (uuid: string, as: Caller) => {
    const res = await t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload: { message: 'On it' }, as });
    assert.equal(res.statusCode, 200, res.body);
  };
  const answer = async (uuid: string, rating: number) => {
    const survey = dataOf<{ csat: { uuid: string } | null }>(await t.call({ url: `/api/v1/conversations/${uuid}` })).csat;
    assert.ok(survey, 'a survey was sent');
    const res = await t.call({ method: 'POST', url: `/api/v1/csat/${survey.uuid}/response`, payload: { rating }, as: null });
    assert.equal(res.statusCode, 200, res.body);
  };
  const report = async (query: string) => dataOf<Report>(await t.call({ url: `/api/v1/reports/service?${query}` }));

  before(async () => {
    t = await buildTestApp({ clock });
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { timezone: 'Europe/Berlin' } }));
    alice = await t.makeAgent({ first_name: 'Alice' });
    bob = await t.makeAgent({ first_name: 'Bob' });
    teamA = await createTeam(t, { name: 'Team A' });
    teamB = await createTeam(t, { name: 'Team B' });
    for (const [team, agent] of [
      [teamA, alice],
      [teamB, bob],
      [teamB, alice],
    ] as const) {
      const res = await t.call({ method: 'POST', url: `/api/v1/teams/${team.id}/members`, payload: { user_id: agent.id } });
      assert.ok(res.statusCode < 300, res.body);
    }
    // Both teams answer within 30 minutes and resolve within 2 hours (calendar time).
    const policy = dataOf<{ id: number }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/sla',
        payload: { name: 'Standard', first_response_minutes: 30, resolution_minutes: 120 },
      }),
    );
    for (const team of [teamA, teamB]) {
      const res = await t.call({ method: 'PUT', url: `/api/v1/teams/${team.id}`, payload: { sla_policy_id: policy.id } });
      assert.equal(res.statusCode, 200, res.body);
    }
    inbox2 = (await createInbox(t)).id;
    const surveyed = (await createInbox(t, { csat_enabled: true })).id;
    dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'Billing' } }));

    // c4: created 20 October, resolved on 2 November without a reply (13 days 3 hours).
    const c4 = await createConversation(t);
    at('2026-11-02T12:00:00Z');
    await put(c4.uuid, 'status', { status: 'Resolved' });

    // c1: 2 November 10:00 in Berlin; Alice answers after 10 minutes and resolves after an hour.
    at('2026-11-02T09:00:00Z');
    const c1 = await createConversation(t, { inbox_id: surveyed });
    await put(c1.uuid, 'assignee/team', { assignee_id: teamA.id });
    await put(c1.uuid, 'assignee/user', { assignee_id: alice.id });
    at('2026-11-02T09:10:00Z');
    await reply(c1.uuid, alice);
    at('2026-11-02T10:00:00Z');
    await put(c1.uuid, 'status', { status: 'Resolved' });

    // c2: 2 November 23:30 in Berlin; Bob answers an hour later (3 November in Berlin), resolves
    // on 3 November; reopened, given to Alice, resolved again on 4 November.
    at('2026-11-02T22:30:00Z');
    const c2 = await createConversation(t, { inbox_id: surveyed });
    await put(c2.uuid, 'assignee/team', { assignee_id: teamB.id });
    await put(c2.uuid, 'assignee/user', { assignee_id: bob.id });
    at('2026-11-02T23:20:00Z');
    await recordSlaAlerts(t.deps); // the first response (due 23:00) breached
    at('2026-11-02T23:30:00Z');
    await reply(c2.uuid, bob);
    at('2026-11-03T01:00:00Z');
    await recordSlaAlerts(t.deps); // the resolution (due 00:30) breached
    at('2026-11-03T12:00:00Z');
    await put(c2.uuid, 'status', { status: 'Resolved' });
    at('2026-11-03T15:00:00Z');
    await put(c2.uuid, 'status', { status: 'Open' });
    await put(c2.uuid, 'assignee/user', { assignee_id: alice.id });
    at('2026-11-04T10:00:00Z');
    await put(c2.uuid, 'status', { status: 'Resolved' });

    // c3: 2 November 23:30 UTC is 3 November 00:30 in Berlin; another inbox, tagged, untouched.
    at('2026-11-02T23:30:00Z');
    const c3 = await createConversation(t, { inbox_id: inbox2 });
    const tagged = await t.call({ method: 'POST', url: `/api/v1/conversations/${c3.uuid}/tags`, payload: { tags: ['billing'] } });
    assert.equal(tagged.statusCode, 200, tagged.body);

    // One survey each (the first resolve sends it): c1 rated 5, c2 rated 2.
    at('2026-11-05T12:00:00Z');
    await answer(c1.uuid, 5);
    await answer(c2.uuid, 2);
  });
  after(() => t.close());

  it('counts each figure over local dates, resolutions each time, credited to the assignee then', async () => {
    const r = await report('from=2026-11-02&to=2026-11-04');
    assert.deepEqual([r.from, r.to, r.timezone], ['2026-11-02', '2026-11-04', 'Europe/Berlin']);
    assert.deepEqual(r.conversations, { created: 3, resolved: 4 });
    assert.deepEqual(r.by_day, [
      { date: '2026-11-02', created: 2, resolved: 2 },
      { date: '2026-11-03', created: 1, resolved: 1 },
      { date: '2026-11-04', created: 0, resolved: 1 },
    ]);
    // Creation to resolution: 3,600; 48,600; 127,800; 1,134,000 s.
    assert.deepEqual(r.resolution_seconds, { median: 88_200, p90: 832_140, count: 4 });
    // Creation to the first reply, for c1 and c2: 600 and 3,600 s.
    assert.deepEqual(r.first_response_seconds, { median: 2_100, p90: 3_300, count: 2 });
    // c1 met both in time; c2 breached both (answered and resolved late: still breached).
    assert.deepEqual(r.sla, {
      first_response: { met: 1, breached: 1 },
      next_response: { met: 0, breached: 0 },
      resolution: { met: 1, breached: 1 },
    });
    assert.deepEqual((await report('from=2026-11-02&to=2026-11-02')).sla.first_response, { met: 1, breached: 0 }, 'by the date decided');
    assert.deepEqual(r.csat, { responses: 2, sent: 2, average: 3.5, distribution: { '1': 0, '2': 1, '3': 0, '4': 0, '5': 1 } });
    assert.deepEqual(
      r.by_agent.map((a) => [a.agent_id, a.resolved, a.first_response_median_seconds, a.csat_average]),
      // c2's survey went out at its first resolve, while Bob had it: his rating, though c2 is Alice's now.
      [
        [alice.id, 2, 2_100, 5],
        [bob.id, 1, null, 2],
      ],
    );
    assert.deepEqual(r.by_agent[0]?.name, 'Alice Test');
    assert.deepEqual(r.by_team, [
      { team_id: teamA.id, name: 'Team A', created: 1, resolved: 1 },
      { team_id: teamB.id, name: 'Team B', created: 1, resolved: 2 },
    ]);
  });

  it('agrees with direct counts over the same instants', async () => {
    const from = new Date('2026-11-01T23:00:00Z'); // 2 November 00:00 in Berlin
    const to = new Date('2026-11-04T23:00:00Z');
    const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(t.deps.db)).rows[0]?.n);
    const created = await count(
      sql<{ n: number }>`select count(*) as n from conversations where created_at >= ${from} and created_at < ${to}`,
    );
    const resolved = await count(
      sql<{ n: number }>`select count(*) as n from conversation_resolutions where resolved_at >= ${from} and resolved_at < ${to}`,
    );
    const r = await report('from=2026-11-02&to=2026-11-04');
    assert.deepEqual(r.conversations, { created, resolved });

    // The SLA figures from the outcomes' rows, the surveys from theirs, the times from the instants.
    const { rows: outcomes } = await sql<{ metric: string; outcome: 'met' | 'breached'; n: number }>`
      select metric, outcome, count(*)::int as n from sla_outcomes where at >= ${from} and at < ${to} group by 1, 2`.execute(t.deps.db);
    const sla: Record<string, { met: number; breached: number }> = {
      first_response: { met: 0, breached: 0 },
      next_response: { met: 0, breached: 0 },
      resolution: { met: 0, breached: 0 },
    };
    for (const row of outcomes) sla[row.metric]![row.outcome] = row.n;
    assert.deepEqual(r.sla, sla);
    const { rows: surveys } = await sql<{ rating: number | null; n: number }>`
      select rating, count(*)::int as n from csat_surveys where created_at >= ${from} and created_at < ${to} group by 1`.execute(t.deps.db);
    const rated = surveys.filter((row) => row.rating !== null);
    const responses = rated.reduce((sum, row) => sum + row.n, 0);
    assert.equal(
      r.csat.sent,
      surveys.reduce((sum, row) => sum + row.n, 0),
    );
    assert.equal(r.csat.responses, responses);
    assert.equal(r.csat.average, Math.round((rated.reduce((sum, row) => sum + row.rating! * row.n, 0) / responses) * 100) / 100);
    for (const rating of ['1', '2', '3', '4', '5']) {
      assert.equal(r.csat.distribution[rating], rated.find((row) => String(row.rating) === rating)?.n ?? 0, `rating ${rating}`);
    }
    const times = await sql<{ first: number; resolution: number; first_median: number; resolution_median: number }>`
      select (select count(*)::int from conversations where first_reply_at >= ${from} and first_reply_at < ${to}) as first,
             (select percentile_cont(0.5) within group (order by date_part('epoch', first_reply_at - created_at))
                from conversations where first_reply_at >= ${from} and first_reply_at < ${to}) as first_median,
             (select count(*)::int from conversation_resolutions where resolved_at >= ${from} and resolved_at < ${to}) as resolution,
             (select percentile_cont(0.5) within group (order by date_part('epoch', resolved_at - conversation_created_at))
                from conversation_resolutions where resolved_at >= ${from} and resolved_at < ${to}) as resolution_median`.execute(
      t.deps.db,
    );
    const direct = times.rows[0]!;
    assert.deepEqual([r.first_response_seconds.count, r.resolution_seconds.count], [direct.first, direct.resolution]);
    // Medians come from 4%-wide bins: within 2% of the exact value.
    assert.ok(Math.abs(r.first_response_seconds.median! - direct.first_median) <= direct.first_median * 0.02);
    assert.ok(Math.abs(r.resolution_seconds.median! - direct.resolution_median) <= direct.resolution_median * 0.02);
  });

  it('filters by team, inbox, agent and tag: the conversation now, a resolution as it was then', async () => {
    const range = 'from=2026-11-02&to=2026-11-04';
    const bobs = await report(`${range}&agent_id=${bob.id}`);
    assert.deepEqual(bobs.conversations, { created: 0, resolved: 1 }, 'c2 is Alice’s now; Bob resolved it once');
    const teamB2 = await report(`${range}&team_id=${teamB.id}`);
    assert.deepEqual(teamB2.conversations, { created: 1, resolved: 2 });
    const billing = await report(`${range}&tag=BILLING`);
    assert.deepEqual(billing.conversations, { created: 1, resolved: 0 });
    assert.deepEqual([billing.csat.sent, billing.csat.average], [0, null]);
    assert.deepEqual(
      billing.by_day.map((d) => d.created),
      [0, 1, 0],
    );
    const second = await report(`${range}&inbox_id=${inbox2}`);
    assert.deepEqual([second.conversations.created, second.first_response_seconds.count], [1, 0]);
    assert.deepEqual([second.first_response_seconds.median, second.resolution_seconds.median], [null, null]);
  });

  it('defaults to the last 30 days ending today, and a single date is one day', async () => {
    const r = await report('');
    assert.deepEqual([r.from, r.to, r.by_day.length], ['2026-10-07', '2026-11-05', 30]);
    assert.deepEqual(r.conversations, { created: 4, resolved: 4 });
    const one = await report('from=2026-11-04&to=2026-11-04');
    assert.deepEqual([one.by_day.length, one.conversations.resolved], [1, 1]);
    const since = await report('from=2026-11-03');
    assert.deepEqual([since.from, since.to], ['2026-11-03', '2026-11-05']);
  });

  it('refuses bad dates, reversed or too long ranges, unknown tags and bad ids (400), changing nothing', async () => {
    for (const query of [
      'from=2026-13-01',
      'from=2026-02-30',
      'from=abc',
      'to=2026-1-1',
      'from=2026-11-05&to=2026-11-04',
      'from=2025-01-01&to=2026-01-02',
      'tag=nope',
      'tag=',
      'team_id=x',
      'agent_id=0',
      'inbox_id=1.5',
      'extra=1',
      'from=2026-11-01%00',
      `tag=${'x'.repeat(101)}`,
    ]) {
      assertError(await t.call({ url: `/api/v1/reports/service?${query}` }), 400, 'InputException', query);
    }
    const fullYear = await report('from=2025-01-01&to=2026-01-01');
    assert.equal(fullYear.by_day.length, 366);
  });

  it('counts a deadline met, then breached after a reopen, once: as breached, on the day of the breach', async () => {
    at('2026-12-01T09:00:00Z');
    const c = await createConversation(t);
    await put(c.uuid, 'assignee/team', { assignee_id: teamA.id });
    at('2026-12-01T09:05:00Z');
    await reply(c.uuid, alice);
    at('2026-12-01T09:30:00Z');
    await put(c.uuid, 'status', { status: 'Resolved' });
    const met = await report('from=2026-12-01&to=2026-12-01');
    assert.deepEqual(
      [met.sla.first_response, met.sla.resolution],
      [
        { met: 1, breached: 0 },
        { met: 1, breached: 0 },
      ],
    );
    at('2026-12-01T10:00:00Z');
    await put(c.uuid, 'status', { status: 'Open' });
    at('2026-12-02T00:00:00Z');
    await recordSlaAlerts(t.deps); // the resolution deadline (11:00) kept by the reopen has passed
    await recordSlaAlerts(t.deps); // and is recorded once
    const breached = await report('from=2026-12-01&to=2026-12-02');
    assert.deepEqual(
      [breached.sla.first_response, breached.sla.resolution],
      [
        { met: 1, breached: 0 },
        { met: 0, breached: 1 },
      ],
    );
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from sla_outcomes o join conversations c on c.id = o.conversation_id
      where c.uuid = ${c.uuid} and o.metric = 'resolution'`.execute(t.deps.db);
    assert.equal(rows[0]?.n, 1, 'one row per deadline');
  });

  it('counts it once also when a wait moved the deadline between the reopen and the breach', async () => {
    at('2026-12-03T09:00:00Z');
    const c = await createConversation(t);
    await put(c.uuid, 'assignee/team', { assignee_id: teamA.id });
    at('2026-12-03T09:05:00Z');
    await reply(c.uuid, alice);
    at('2026-12-03T09:30:00Z');
    await put(c.uuid, 'status', { status: 'Resolved' }); // met, before the 11:00 deadline
    at('2026-12-03T09:40:00Z');
    await put(c.uuid, 'status', { status: 'Open' }); // the 11:00 deadline applies again
    at('2026-12-03T10:00:00Z');
    await put(c.uuid, 'status', { status: 'Snoozed', snoozed_until: '2026-12-03T12:00:00Z' }); // 60 minutes left, frozen
    at('2026-12-03T12:00:00Z');
    assert.ok((await wakeSnoozedConversations(t.deps)) >= 1); // due at 13:00 now
    at('2026-12-03T13:30:00Z');
    await recordSlaAlerts(t.deps);
    const r = await report(`from=2026-12-03&to=2026-12-03&team_id=${teamA.id}`);
    assert.deepEqual(r.sla.resolution, { met: 0, breached: 1 });
    const { rows } = await sql<{ outcome: string; deadline_at: Date }>`select o.outcome, o.deadline_at from sla_outcomes o
      join conversations c on c.id = o.conversation_id where c.uuid = ${c.uuid} and o.metric = 'resolution'`.execute(t.deps.db);
    assert.deepEqual(rows, [{ outcome: 'breached', deadline_at: new Date('2026-12-03T13:00:00Z') }]);
  });

  it('needs reports:manage (403) and credentials (401)', async () => {
    assertError(await t.call({ url: '/api/v1/reports/service', as: alice }), 403, 'PermissionException');
    assertError(await t.call({ url: '/api/v1/reports/service', as: null }), 401, 'UnauthorizedException');
  });
});
