// What the service report's tests share (server/src/reports/service-*.test.ts): the report as
// the API returns it, the comparison of the rollups' answer with the rows' (counts exactly,
// medians and 90th percentiles within the bins' 2%), direct counts of a tag's figures, and the
// calls that make a history (replies, status changes, tags, CSAT answers).
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { serviceReport } from '../src/reports/service-report.service.ts';
import { type Caller, dataOf, type TestApp } from './helpers.ts';

export type Report = Awaited<ReturnType<typeof serviceReport>>;

/** Exact percentile_cont over values. */
export function exact(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = p * (sorted.length - 1);
  const low = Math.floor(position);
  return sorted[low]! + (sorted[Math.ceil(position)]! - sorted[low]!) * (position - low);
}

/** The rollups' log bin of a number of seconds (migration 0028, service_bin). */
export const BIN = (seconds: number) => (seconds < 1 ? 0 : 1 + Math.floor(Math.log(seconds) / Math.log(1.04)));

/** Within 2% of the exact figure, or one second (both are rounded to whole seconds). */
export function near(actual: number | null, expected: number | null, what: string) {
  if (expected === null || actual === null) return assert.equal(actual, expected, what);
  assert.ok(Math.abs(actual - expected) <= 0.02 * Math.abs(expected) + 1, `${what}: ${actual} is not within 2% of ${expected}`);
}

/** The rollup report equals the row report: counts exactly, percentiles within the bound. */
export function assertAgrees(rollup: Report, rows: Report, what: string) {
  for (const key of ['first_response_seconds', 'resolution_seconds'] as const) {
    assert.equal(rollup[key].count, rows[key].count, `${what} ${key}.count`);
    near(rollup[key].median, rows[key].median, `${what} ${key}.median`);
    near(rollup[key].p90, rows[key].p90, `${what} ${key}.p90`);
  }
  assert.equal(rollup.by_agent.length, rows.by_agent.length, `${what} by_agent`);
  rollup.by_agent.forEach((agent, index) => {
    const expected = rows.by_agent[index]!;
    assert.deepEqual(
      { ...agent, first_response_median_seconds: null },
      { ...expected, first_response_median_seconds: null },
      `${what} by_agent ${index}`,
    );
    near(agent.first_response_median_seconds, expected.first_response_median_seconds, `${what} agent ${agent.agent_id} median`);
  });
  const strip = (r: Report) => ({ ...r, first_response_seconds: null, resolution_seconds: null, by_agent: null });
  assert.deepEqual(strip(rollup), strip(rows), what);
}

/** Both reports of a query string: over HTTP (the rollups when they serve) and from the rows. */
export async function bothReports(t: TestApp, query: string, read: typeof serviceReport) {
  const rollup = dataOf<Report>(await t.call({ url: `/api/v1/reports/service?${query}` }));
  const rows = await read(t.deps, Object.fromEntries(new URLSearchParams(query)) as never, { fromRows: true });
  return { rollup, rows };
}

export interface TagCounts {
  created: number;
  resolved: number;
  firstReplies: number;
  slaMet: number;
  slaBreached: number;
  surveys: number;
  answers: number;
}

/** A tag's figures counted straight from the tables over [from, to), whatever the report reads. */
export async function countTagged(t: TestApp, tagName: string, from: Date, to: Date): Promise<TagCounts> {
  const { rows } = await sql<TagCounts>`
    with tagged as (select ct.conversation_id from conversation_tags ct join tags g on g.id = ct.tag_id where lower(g.name) = lower(${tagName}))
    select (select count(*)::int from conversations c where c.id in (select * from tagged) and c.created_at >= ${from} and c.created_at < ${to}) as "created",
           (select count(*)::int from conversation_resolutions r where r.conversation_id in (select * from tagged)
               and r.resolved_at >= ${from} and r.resolved_at < ${to}) as "resolved",
           (select count(*)::int from conversations c where c.id in (select * from tagged)
               and c.first_reply_at >= ${from} and c.first_reply_at < ${to}) as "firstReplies",
           (select count(*)::int from sla_outcomes o where o.conversation_id in (select * from tagged) and o.outcome = 'met'
               and o.at >= ${from} and o.at < ${to}) as "slaMet",
           (select count(*)::int from sla_outcomes o where o.conversation_id in (select * from tagged) and o.outcome = 'breached'
               and o.at >= ${from} and o.at < ${to}) as "slaBreached",
           (select count(*)::int from csat_surveys s where s.conversation_id in (select * from tagged)
               and s.created_at >= ${from} and s.created_at < ${to}) as "surveys",
           (select count(s.rating)::int from csat_surveys s where s.conversation_id in (select * from tagged)
               and s.created_at >= ${from} and s.created_at < ${to}) as "answers"`.execute(t.deps.db);
  return rows[0]!;
}

/** The same figures as a report shows them. */
export function countsOf(report: Report): TagCounts {
  const sla = Object.values(report.sla);
  return {
    created: report.conversations.created,
    resolved: report.conversations.resolved,
    firstReplies: report.first_response_seconds.count,
    slaMet: sla.reduce((n, s) => n + s.met, 0),
    slaBreached: sla.reduce((n, s) => n + s.breached, 0),
    surveys: report.csat.sent,
    answers: report.csat.responses,
  };
}

/** The API calls that make a report's history; the app is read when a call is made. */
export function serviceCalls(app: () => TestApp) {
  const call = async (method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>, as?: Caller | null) => {
    const res = await app().call({ method, url, ...(payload ? { payload } : {}), ...(as !== undefined ? { as } : {}) });
    assert.ok(res.statusCode < 300, res.body);
    return res;
  };
  const put = (uuid: string, path: string, payload: Record<string, unknown>) =>
    call('PUT', `/api/v1/conversations/${uuid}/${path}`, payload);
  return {
    call,
    put,
    reply: (uuid: string, as: Caller) => call('POST', `/api/v1/conversations/${uuid}/messages`, { message: 'On it' }, as),
    status: (uuid: string, status: string) => put(uuid, 'status', { status }),
    tag: (uuid: string, ...tags: string[]) => call('POST', `/api/v1/conversations/${uuid}/tags`, { tags }),
    untag: (uuid: string, ...tags: string[]) => call('POST', `/api/v1/conversations/${uuid}/tags`, { tags, action: 'remove_tags' }),
    answer: async (uuid: string, rating: number) => {
      const survey = dataOf<{ csat: { uuid: string } | null }>(await app().call({ url: `/api/v1/conversations/${uuid}` })).csat;
      assert.ok(survey, 'a survey was sent');
      await call('POST', `/api/v1/csat/${survey.uuid}/response`, { rating }, null);
    },
  };
}
