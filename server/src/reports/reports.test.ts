// GET /api/v1/reports/overview/tags and /counts (docs/api.md: Reports; spec: Tag distribution report).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation, createInbox, type Inbox } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { nextUtcMidnight } from './reports.queries.ts';
import { clampDays, foldReportRollups, startOfLocalDay, taggedPercentage, windowStart } from './reports.service.ts';

type TagReport = {
  top_tags: Array<{ tag_id: number; tag_name: string; count: number }>;
  tagged_conversations: number;
  untagged_conversations: number;
  tagged_percentage: number;
};
type Counts = { open: number; waiting: number; unassigned: number; awaiting_first_reply: number; agents: Record<string, number> };

const REPORT_FIELDS = ['tag_id', 'tag_name', 'count'].sort();
const DAY = 24 * 60 * 60 * 1000;

function assertReportShape(report: TagReport): void {
  assert.deepEqual(Object.keys(report).sort(), ['tagged_conversations', 'tagged_percentage', 'top_tags', 'untagged_conversations']);
  assert.ok(report.top_tags.length <= 10);
  for (const tag of report.top_tags) {
    assert.deepEqual(Object.keys(tag).sort(), REPORT_FIELDS);
    assert.ok(Number.isInteger(tag.tag_id) && Number.isInteger(tag.count));
  }
  assert.ok(Number.isInteger(report.tagged_conversations) && Number.isInteger(report.untagged_conversations));
  assert.equal(typeof report.tagged_percentage, 'number');
}

/** Test data through the public API: one inbox, tags by name, conversations created at a given time. */
function factory(t: TestApp, clock: ReturnType<typeof fakeClock>) {
  let inbox: Promise<Inbox> | null = null;
  const tagIds = new Map<string, number>();
  return {
    async tag(name: string): Promise<number> {
      const known = tagIds.get(name);
      if (known) return known;
      const id = dataOf<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name } })).id;
      tagIds.set(name, id);
      return id;
    },
    /** A conversation created at `at` (the clock is moved there and back), with these tags. */
    async conversation(
      at: Date,
      tags: string[] = [],
      extra: Parameters<typeof createConversation>[1] = {},
    ): Promise<{ uuid: string; id: number }> {
      inbox ??= createInbox(t, { name: 'Reports inbox' });
      const inboxId = (await inbox).id;
      for (const name of tags) await this.tag(name);
      const saved = clock.now();
      clock.set(at);
      try {
        const conversation = await createConversation(t, { inbox_id: inboxId, ...extra });
        if (tags.length > 0) {
          dataOf(
            await t.call({ method: 'POST', url: `/api/v1/conversations/${conversation.uuid}/tags`, payload: { tags, action: 'set_tags' } }),
          );
        }
        return conversation;
      } finally {
        clock.set(saved);
      }
    },
  };
}

describe('reports: pure rules', () => {
  it('clamps days into 0..365 and defaults to 30', () => {
    assert.equal(clampDays(undefined), 30);
    assert.equal(clampDays(-5), 0);
    assert.equal(clampDays(0), 0);
    assert.equal(clampDays(7), 7);
    assert.equal(clampDays(365), 365);
    assert.equal(clampDays(999), 365);
  });

  it('rounds the tagged percentage to one decimal, 0 when there is nothing', () => {
    const cases: Array<[number, number, number]> = [
      [0, 0, 0],
      [0, 5, 0],
      [1, 3, 33.3],
      [2, 3, 66.7],
      [5, 7, 71.4],
      [5, 8, 62.5],
      [1, 16, 6.3],
      [1, 1, 100],
      [1, 1000, 0.1],
      [1, 3000, 0],
    ];
    for (const [tagged, total, expected] of cases) assert.equal(taggedPercentage(tagged, total), expected, `${tagged}/${total}`);
  });

  it('finds local midnight in any IANA zone, DST days included', () => {
    const cases: Array<[string, string, string]> = [
      ['2026-01-15T10:00:00Z', 'UTC', '2026-01-15T00:00:00.000Z'],
      // Local date differs from the UTC date: 22:00 EST on the 14th.
      ['2026-01-15T03:00:00Z', 'America/New_York', '2026-01-14T05:00:00.000Z'],
      // Spring forward (2:00 → 3:00) later that day: midnight was still EST.
      ['2026-03-08T15:00:00Z', 'America/New_York', '2026-03-08T05:00:00.000Z'],
      ['2026-03-09T15:00:00Z', 'America/New_York', '2026-03-09T04:00:00.000Z'],
      // Fall back (2:00 → 1:00) later that day: midnight was still EDT.
      ['2026-11-01T15:00:00Z', 'America/New_York', '2026-11-01T04:00:00.000Z'],
      ['2026-01-15T10:00:00Z', 'Asia/Kolkata', '2026-01-14T18:30:00.000Z'],
      ['2026-01-15T10:00:00Z', 'Pacific/Chatham', '2026-01-14T10:15:00.000Z'],
      // Midnight skipped: the day starts at 01:00 local, the transition itself.
      ['2026-03-29T10:00:00Z', 'Asia/Beirut', '2026-03-28T22:00:00.000Z'],
      ['2026-09-06T12:00:00Z', 'America/Santiago', '2026-09-06T04:00:00.000Z'],
      // Midnight reached after the repeated hour 23:00-24:00 of the day before.
      ['2026-04-05T12:00:00Z', 'America/Santiago', '2026-04-05T04:00:00.000Z'],
    ];
    for (const [now, zone, expected] of cases)
      assert.equal(startOfLocalDay(new Date(now), zone).toISOString(), expected, `${zone} at ${now}`);
  });

  it('splits a window at its first UTC midnight: whole days from the rollups, the rest from the rows', () => {
    assert.equal(
      nextUtcMidnight(new Date('2026-01-15T00:00:00.000Z')).toISOString(),
      '2026-01-15T00:00:00.000Z',
      'a window starting at midnight has no edge',
    );
    assert.equal(nextUtcMidnight(new Date('2026-01-15T00:00:00.001Z')).toISOString(), '2026-01-16T00:00:00.000Z');
    assert.equal(nextUtcMidnight(new Date('2026-01-14T15:00:00.000Z')).toISOString(), '2026-01-15T00:00:00.000Z', 'Tokyo midnight');
    assert.equal(nextUtcMidnight(new Date('2026-01-15T05:00:00.000Z')).toISOString(), '2026-01-16T00:00:00.000Z', 'New York midnight');
    assert.equal(
      nextUtcMidnight(new Date('2026-12-31T18:30:00.000Z')).toISOString(),
      '2027-01-01T00:00:00.000Z',
      'Kolkata midnight, across a year',
    );
  });

  it('opens the window N × 24 h before now, or at local midnight for 0', () => {
    const now = new Date('2026-01-15T10:00:00Z');
    assert.equal(windowStart(now, 1, 'UTC').toISOString(), '2026-01-14T10:00:00.000Z');
    assert.equal(windowStart(now, 365, 'Europe/Paris').toISOString(), '2025-01-15T10:00:00.000Z');
    assert.equal(windowStart(now, 0, 'Europe/Paris').toISOString(), '2026-01-14T23:00:00.000Z');
  });
});

describe('reports over HTTP', () => {
  const NOW = new Date('2026-01-15T10:00:00Z');
  const clock = fakeClock(NOW);
  let t: TestApp;
  let agent: Caller;
  let make: ReturnType<typeof factory>;
  const report = async (query: string) => {
    const data = dataOf<TagReport>(await t.call({ method: 'GET', url: `/api/v1/reports/overview/tags${query}` }));
    assertReportShape(data);
    return data;
  };
  const names = (r: TagReport) => r.top_tags.map((tag) => `${tag.tag_name}:${tag.count}`);

  before(async () => {
    t = await buildTestApp({ clock });
    agent = await t.makeAgent();
    make = factory(t, clock);
  });
  after(async () => {
    await t?.close();
  });

  it('401 without credentials, 403 without reports:manage', async () => {
    for (const url of ['/api/v1/reports/overview/tags', '/api/v1/reports/overview/tags?days=3', '/api/v1/reports/overview/counts']) {
      assertError(await t.call({ method: 'GET', url, as: null }), 401, 'UnauthorizedException');
      assertError(
        await t.call({ method: 'GET', url, headers: { authorization: 'token nope:nope' }, as: null }),
        401,
        'UnauthorizedException',
      );
      const denied = assertError(await t.call({ method: 'GET', url, as: agent }), 403, 'PermissionException');
      assert.match(denied.message, /reports:manage/);
    }
  });

  it('refuses a days value that is not an integer (400, names the field)', async () => {
    // Only plain decimal integers: numbers written otherwise, or past the safe integers, are refused too.
    for (const days of ['abc', '1.5', '', '3x', 'true', '[1]', '1e3', '1e999', '-1e999', '+7', '007', '0x7', '9007199254740993']) {
      const body = assertError(
        await t.call({ method: 'GET', url: `/api/v1/reports/overview/tags?days=${encodeURIComponent(days)}` }),
        400,
        'InputException',
      );
      assert.match(body.message, /days/, days);
    }
    // Plain integers out of range are clamped like the others.
    for (const days of ['999999', '-5', '9007199254740991']) {
      dataOf(await t.call({ method: 'GET', url: `/api/v1/reports/overview/tags?days=${encodeURIComponent(days)}` }));
    }
  });

  it('an empty window: no tags, zero counts, percentage 0', async () => {
    const data = await report('');
    assert.deepEqual(data, { top_tags: [], tagged_conversations: 0, untagged_conversations: 0, tagged_percentage: 0 });
  });

  it('counts the conversations created in the window; clamps; top 10 by count then name', async () => {
    // Outside every window (365 days at most).
    await make.conversation(new Date(NOW.getTime() - 400 * DAY), ['alpha']);
    await make.conversation(new Date(NOW.getTime() - 200 * DAY));
    await make.conversation(new Date(NOW.getTime() - 20 * DAY), ['bravo']);
    // Exactly on the 2-day boundary: included in days=2.
    await make.conversation(new Date(NOW.getTime() - 2 * DAY), ['alpha', 'bravo']);
    // 23:00 UTC yesterday: inside days=1, outside days=0 (UTC midnight).
    await make.conversation(new Date('2026-01-14T23:00:00Z'));
    // Today.
    await make.conversation(new Date('2026-01-15T00:00:00Z'), ['zeta', 'Echo', 'delta', 'alpha']);
    await make.conversation(new Date('2026-01-15T01:00:00Z'), ['zeta', 'Echo', 'bravo']);
    await make.conversation(new Date('2026-01-15T02:00:00Z'), ['golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'foxtrot']);
    await make.conversation(new Date('2026-01-15T09:59:59Z'));
    // A tag nobody uses never shows.
    await make.tag('unused');

    const today = await report('?days=0');
    assert.deepEqual(names(today), [
      'Echo:2',
      'zeta:2',
      'alpha:1',
      'bravo:1',
      'delta:1',
      'foxtrot:1',
      'golf:1',
      'hotel:1',
      'india:1',
      'juliet:1',
    ]);
    assert.equal(today.tagged_conversations, 3);
    assert.equal(today.untagged_conversations, 1);
    assert.equal(today.tagged_percentage, 75);
    const echo = today.top_tags[0];
    assert.equal(echo?.tag_id, await make.tag('Echo'));
    assert.deepEqual(await report('?days=-5'), today);

    const oneDay = await report('?days=1');
    assert.equal(oneDay.tagged_conversations, 3);
    assert.equal(oneDay.untagged_conversations, 2);
    assert.equal(oneDay.tagged_percentage, 60);

    const twoDays = await report('?days=2');
    assert.deepEqual(
      twoDays.top_tags.slice(0, 5).map((tag) => `${tag.tag_name}:${tag.count}`),
      ['alpha:2', 'bravo:2', 'Echo:2', 'zeta:2', 'delta:1'],
    );
    assert.equal(twoDays.tagged_conversations, 4);
    assert.equal(twoDays.untagged_conversations, 2);
    assert.equal(twoDays.tagged_percentage, 66.7);

    const thirty = await report('?days=30');
    assert.deepEqual(names(thirty).slice(0, 4), ['bravo:3', 'alpha:2', 'Echo:2', 'zeta:2']);
    assert.equal(thirty.tagged_conversations, 5);
    assert.equal(thirty.untagged_conversations, 2);
    assert.equal(thirty.tagged_percentage, 71.4);
    assert.deepEqual(await report(''), thirty);

    const year = await report('?days=365');
    assert.equal(year.tagged_conversations, 5);
    assert.equal(year.untagged_conversations, 3);
    assert.equal(year.tagged_percentage, 62.5);
    assert.equal(year.top_tags.length, 10);
    assert.deepEqual(await report('?days=999'), year);
    assert.deepEqual(await report('?days=366'), year);
    assert.ok(!names(year).some((name) => name.startsWith('unused')));
  });

  it('follows tag changes: removed tags stop counting, deleted tags disappear', async () => {
    const c = await make.conversation(new Date('2026-01-15T09:00:00Z'), ['kilo']);
    let today = await report('?days=0');
    assert.ok(names(today).includes('kilo:2'), names(today).join());
    dataOf(
      await t.call({ method: 'POST', url: `/api/v1/conversations/${c.uuid}/tags`, payload: { tags: ['kilo'], action: 'remove_tags' } }),
    );
    today = await report('?days=0');
    assert.equal(today.untagged_conversations, 2);
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/tags/${await make.tag('Echo')}` }));
    today = await report('?days=0');
    assert.ok(!names(today).some((name) => name.startsWith('Echo')));
    assert.equal(today.tagged_conversations, 3);
  });

  it('counts: conversations by state and agents by availability', async () => {
    const counts = dataOf<Counts>(await t.call({ method: 'GET', url: '/api/v1/reports/overview/counts' }));
    assert.deepEqual(Object.keys(counts).sort(), ['agents', 'awaiting_first_reply', 'open', 'unassigned', 'waiting']);
    assert.deepEqual(Object.keys(counts.agents).sort(), ['available', 'away', 'busy', 'offline']);
    // Every conversation so far (10) is open, unassigned and from a contact with no reply yet.
    const { agents: _agents, ...conversations } = counts;
    assert.deepEqual(conversations, { open: 10, waiting: 0, unassigned: 10, awaiting_first_reply: 10 });

    const replied = await make.conversation(clock.now(), [], { initiator: 'agent', assignee_id: t.admin.id });
    const snoozed = await make.conversation(clock.now());
    dataOf(
      await t.call({
        method: 'PUT',
        url: `/api/v1/conversations/${snoozed.uuid}/status`,
        payload: { status: 'Snoozed', snoozed_until: '2h' },
      }),
    );
    const resolved = await make.conversation(clock.now());
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${resolved.uuid}/status`, payload: { status: 'Resolved' } }));
    const assigned = await make.conversation(clock.now());
    dataOf(
      await t.call({ method: 'PUT', url: `/api/v1/conversations/${assigned.uuid}/assignee/user`, payload: { assignee_id: agent.id } }),
    );
    assert.ok(replied.uuid);

    // Agents: admin busy, agent available, a disabled one and a deleted one not counted.
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload: { status: 'busy' } }));
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload: { status: 'available' }, as: agent }));
    const disabled = await t.makeAgent();
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload: { status: 'away' }, as: disabled }));
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${disabled.id}`, payload: { enabled: false } }));
    const deleted = await t.makeAgent();
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/agents/${deleted.id}` }));
    const offline = await t.makeAgent();
    assert.ok(offline.id);

    const after = dataOf<Counts>(await t.call({ method: 'GET', url: '/api/v1/reports/overview/counts' }));
    assert.deepEqual(after, {
      open: 12, // 10 + replied + assigned
      waiting: 1,
      unassigned: 11, // 10 + snoozed
      awaiting_first_reply: 12, // 10 + snoozed + assigned
      agents: { available: 1, busy: 1, away: 0, offline: 1 },
    });
  });

  it('keeps its daily rollups equal to a recount through every kind of change', async () => {
    const setTags = async (uuid: string, tags: string[]) =>
      dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/tags`, payload: { tags, action: 'set_tags' } }));
    const a = await make.conversation(new Date('2026-01-10T12:00:00Z'), ['alpha', 'bravo', 'zeta']);
    const b = await make.conversation(new Date('2026-01-10T23:59:59Z'), ['alpha']);
    const c = await make.conversation(new Date('2026-01-11T00:00:00Z'), ['bravo']);
    await make.conversation(new Date('2026-01-11T06:00:00Z'), ['solo']); // keeps only 'solo'
    await setTags(a.uuid, []); // three tags gone in one statement: untagged once
    await setTags(a.uuid, ['golf', 'hotel']);
    await setTags(a.uuid, ['hotel']);
    await setTags(b.uuid, ['alpha', 'solo']);
    await foldReportRollups(t.deps); // 'solo' reaches the rollups before it is deleted
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/tags/${await make.tag('solo')}` })); // d's only tag, one of b's
    await t.deps.db.deleteFrom('conversations').where('id', '=', c.id).execute(); // gone with its tags

    // The report agrees with the conversations themselves, before and after the changes are folded.
    const direct = async () => {
      const { rows } = await sql<{ total: number; tagged: number }>`
        select count(*)::int as total,
               (count(*) filter (where exists (select 1 from conversation_tags ct where ct.conversation_id = c.id)))::int as tagged
          from conversations c where created_at >= ${new Date(NOW.getTime() - 6 * DAY)}`.execute(t.deps.db);
      return { tagged_conversations: rows[0]?.tagged ?? -1, untagged_conversations: (rows[0]?.total ?? 0) - (rows[0]?.tagged ?? 0) };
    };
    const reportCounts = async () => {
      const r = await report('?days=6'); // from 2026-01-09T10:00Z: whole days from the rollups, the edge of the 9th from the rows
      return { tagged_conversations: r.tagged_conversations, untagged_conversations: r.untagged_conversations };
    };
    const pendingBefore = await report('?days=6');
    assert.ok(
      !pendingBefore.top_tags.some((tag) => tag.tag_name === 'solo'),
      'a deleted tag is not reported, even with rolled-up rows left',
    );
    assert.deepEqual(await reportCounts(), await direct());
    assert.ok((await foldReportRollups(t.deps)) > 0);
    assert.equal(await foldReportRollups(t.deps), 0, 'nothing left to fold');
    assert.deepEqual(await report('?days=6'), pendingBefore, 'folding changes no report');
    assert.deepEqual(await reportCounts(), await direct());

    const { rows: days } = await sql<{ line: string }>`
      select to_char(day, 'YYYY-MM-DD') || ' ' || total || ' ' || tagged as line
        from report_daily_conversations where total <> 0 or tagged <> 0 order by day`.execute(t.deps.db);
    const { rows: recountedDays } = await sql<{ line: string }>`
      select to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') || ' ' || count(*) || ' '
             || count(*) filter (where exists (select 1 from conversation_tags ct where ct.conversation_id = c.id)) as line
        from conversations c group by (created_at at time zone 'UTC')::date order by (created_at at time zone 'UTC')::date`.execute(
      t.deps.db,
    );
    assert.deepEqual(
      days.map((r) => r.line),
      recountedDays.map((r) => r.line),
    );
    assert.ok(days.some((r) => r.line.startsWith('2026-01-10 ')) && days.some((r) => r.line.startsWith('2026-01-11 ')));

    const { rows: tags } = await sql<{ line: string }>`
      select to_char(day, 'YYYY-MM-DD') || ' ' || tag_id || ' ' || count as line
        from report_daily_tags where count <> 0 and tag_id in (select id from tags) order by day, tag_id`.execute(t.deps.db);
    const { rows: recountedTags } = await sql<{ line: string }>`
      select to_char((conversation_created_at at time zone 'UTC')::date, 'YYYY-MM-DD') || ' ' || tag_id || ' ' || count(*) as line
        from conversation_tags group by (conversation_created_at at time zone 'UTC')::date, tag_id
        order by (conversation_created_at at time zone 'UTC')::date, tag_id`.execute(t.deps.db);
    assert.deepEqual(
      tags.map((r) => r.line),
      recountedTags.map((r) => r.line),
    );

    // Folding in between changes gives the same: a tag added after a fold, then the conversation untagged.
    await setTags(b.uuid, ['alpha', 'bravo']);
    assert.ok((await foldReportRollups(t.deps)) > 0);
    await setTags(b.uuid, []);
    assert.deepEqual(await reportCounts(), await direct());
    await foldReportRollups(t.deps);
    assert.deepEqual(await reportCounts(), await direct());
    // Conversation tags are never updated in place (the rollups count inserts and deletes).
    await assert.rejects(t.deps.db.updateTable('conversation_tags').set({ created_at: new Date() }).execute(), /never updated/);
  });

  it(
    'tag changes on conversations of one day never wait on each other nor deadlock (PostgreSQL)',
    { skip: process.env['DATABASE_URL'] ? false : 'needs concurrent connections (DATABASE_URL)' },
    async () => {
      const x = await make.conversation(new Date('2026-01-12T08:00:00Z'), ['tier1']);
      const y = await make.conversation(new Date('2026-01-12T09:00:00Z'), ['tier2']);
      const swap = (uuid: string, tags: string[]) =>
        t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/tags`, payload: { tags, action: 'set_tags' } });
      // Opposite swaps at once: each removes the tag the other adds.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0 ? swap(x.uuid, i % 4 === 0 ? ['tier2'] : ['tier1']) : swap(y.uuid, i % 4 === 1 ? ['tier1'] : ['tier2']),
        ),
      );
      assert.deepEqual(
        answers.map((r) => r.statusCode),
        answers.map(() => 200),
      );
      await foldReportRollups(t.deps);
      const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from (
        select tag_id, count from report_daily_tags where day = '2026-01-12' and count <> 0
        except
        select tag_id, count(*)::int from conversation_tags where (conversation_created_at at time zone 'UTC')::date = '2026-01-12' group by tag_id
      ) drift`.execute(t.deps.db);
      assert.equal(rows[0]?.n, 0);
    },
  );

  it('is documented in the OpenAPI document', async () => {
    const doc = (await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null })).json() as {
      paths: Record<
        string,
        Record<string, { parameters?: Array<{ name: string }>; responses: Record<string, unknown>; description?: string }>
      >;
    };
    const tags = doc.paths['/api/v1/reports/overview/tags']?.['get'];
    assert.ok(tags);
    assert.ok(tags.parameters?.some((p) => p.name === 'days'));
    assert.ok(tags.responses['200'] && tags.responses['400'] && tags.responses['401'] && tags.responses['403']);
    assert.match(tags.description ?? '', /reports:manage/);
    assert.ok(doc.paths['/api/v1/reports/overview/counts']?.['get']?.responses['200']);
  });
});

describe('reports in a configured timezone', () => {
  // 2026-03-08 is the spring-forward day in New York; at 15:00 UTC it is 11:00 EDT, and the
  // day began at 00:00 EST = 05:00 UTC.
  const clock = fakeClock(new Date('2026-03-08T15:00:00Z'));
  let t: TestApp;
  let make: ReturnType<typeof factory>;

  before(async () => {
    t = await buildTestApp({ clock, env: { TIMEZONE: 'America/New_York' } });
    make = factory(t, clock);
  });
  after(async () => {
    await t?.close();
  });

  it('days=0 starts at local midnight, not UTC midnight', async () => {
    await make.conversation(new Date('2026-03-08T01:00:00Z'), ['late-utc-today']); // 20:00 EST on the 7th
    await make.conversation(new Date('2026-03-08T04:59:59Z'), ['just-before']); // 23:59:59 EST on the 7th
    await make.conversation(new Date('2026-03-08T05:00:00Z'), ['at-midnight']); // 00:00 EST on the 8th
    await make.conversation(new Date('2026-03-08T08:00:00Z')); // 04:00 EDT, after the jump
    const data = dataOf<TagReport>(await t.call({ method: 'GET', url: '/api/v1/reports/overview/tags?days=0' }));
    assert.deepEqual(data, {
      top_tags: [{ tag_id: await make.tag('at-midnight'), tag_name: 'at-midnight', count: 1 }],
      tagged_conversations: 1,
      untagged_conversations: 1,
      tagged_percentage: 50,
    });
    const day = dataOf<TagReport>(await t.call({ method: 'GET', url: '/api/v1/reports/overview/tags?days=1' }));
    assert.equal(day.tagged_conversations, 3);
    assert.equal(day.untagged_conversations, 1);
  });

  it('the general settings time zone, once set, wins over TIMEZONE', async () => {
    const settings = (timezone: string | null) => t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { timezone } });
    const today = async () => dataOf<TagReport>(await t.call({ method: 'GET', url: '/api/v1/reports/overview/tags?days=0' }));
    dataOf(await settings('UTC'));
    // Since 00:00 UTC on the 8th: the three tagged conversations of the test above and the untagged one.
    assert.deepEqual([(await today()).tagged_conversations, (await today()).untagged_conversations], [3, 1]);
    dataOf(await settings(null));
    assert.deepEqual([(await today()).tagged_conversations, (await today()).untagged_conversations], [1, 1], 'New York again');
  });
});

describe('reports in a zone east of UTC', () => {
  // At 10:00 UTC on 2026-03-08 it is 19:00 in Tokyo; the local day began at 15:00 UTC on the 7th,
  // so the window is an edge of the 7th (from the rows) and the whole UTC 8th (from the rollups).
  const clock = fakeClock(new Date('2026-03-08T10:00:00Z'));
  let t: TestApp;
  let make: ReturnType<typeof factory>;

  before(async () => {
    t = await buildTestApp({ clock, env: { TIMEZONE: 'Asia/Tokyo' } });
    make = factory(t, clock);
  });
  after(async () => {
    await t?.close();
  });

  it('days=0 starts at Tokyo midnight, and folding the rollups changes nothing', async () => {
    await make.conversation(new Date('2026-03-07T14:59:59Z'), ['before']); // 23:59:59 on the 7th in Tokyo
    await make.conversation(new Date('2026-03-07T15:00:00Z'), ['tokyo-midnight', 'shared']);
    await make.conversation(new Date('2026-03-08T02:00:00Z'), ['utc-day', 'shared']);
    await make.conversation(new Date('2026-03-08T09:00:00Z'));
    const expected = {
      top_tags: [
        { tag_id: await make.tag('shared'), tag_name: 'shared', count: 2 },
        { tag_id: await make.tag('tokyo-midnight'), tag_name: 'tokyo-midnight', count: 1 },
        { tag_id: await make.tag('utc-day'), tag_name: 'utc-day', count: 1 },
      ],
      tagged_conversations: 2,
      untagged_conversations: 1,
      tagged_percentage: 66.7,
    };
    const today = () => t.call({ method: 'GET', url: '/api/v1/reports/overview/tags?days=0' });
    assert.deepEqual(dataOf<TagReport>(await today()), expected);
    await foldReportRollups(t.deps);
    assert.deepEqual(dataOf<TagReport>(await today()), expected);
  });
});
