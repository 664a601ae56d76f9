// Warnings and breaches of applied SLAs, recorded by the periodic task with a fake clock: each
// once per deadline (also with two instances), a late warning sent before its breach, a next
// response's deadlines each on their own, and what agents' sockets and the thread show.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTeam } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { slaCalls } from '../../test/sla.ts';
import { createWidgetInbox, type WidgetInboxFixture } from '../../test/widget.ts';
import { recordSlaAlerts } from '../conversations/conversations.sla.ts';
import { framesOf } from '../realtime/frames.ts';

describe('SLA warnings and breaches', () => {
  const clock = fakeClock(new Date('2026-01-15T10:00:00Z'));
  let t: TestApp;
  let chat: WidgetInboxFixture;

  before(async () => {
    t = await buildTestApp({ clock });
    chat = await createWidgetInbox(t);
  });
  after(() => t.close());

  const { at, policy, conversation, applied, reply, write, inTeam, slaEvents, slaActivity } = slaCalls(clock, () => ({ t, chat }));

  it('a next response warns and breaches on its own; each owed response is a new deadline, met or breached alone', async () => {
    at('2026-01-15T10:00:00Z');
    const p = await policy({ next_response_minutes: 30, warning_minutes: 10 });
    const team = await createTeam(t, { sla_policy_id: p.id });
    const visitor = await inTeam(team.id);
    const uuid = visitor.conversationUuid;
    const summary = async () => (await slaEvents(uuid)).map((e) => `${e['type']} ${e['metric']} ${e['deadline_at']}`);
    await reply(uuid);
    at('2026-01-15T10:30:00Z');
    await write(visitor); // owed by 11:00
    at('2026-01-15T10:52:00Z');
    await recordSlaAlerts(t.deps);
    assert.deepEqual(await summary(), ['conversation.sla_warning next_response 2026-01-15T11:00:00.000Z']);
    at('2026-01-15T11:01:00Z');
    await recordSlaAlerts(t.deps);
    await recordSlaAlerts(t.deps);
    at('2026-01-15T11:05:00Z');
    await reply(uuid); // late: the breach stands
    assert.deepEqual((await applied(uuid))?.next_response, {
      deadline_at: '2026-01-15T11:00:00.000Z',
      met_at: '2026-01-15T11:05:00.000Z',
      breached: true,
    });

    // The contact writes again: a new deadline, warned, breached and met on its own.
    at('2026-01-15T11:10:00Z');
    await write(visitor);
    let c = await conversation(uuid);
    assert.deepEqual(
      [c['next_response_deadline_at'], c['next_response_met_at'], c['next_sla_deadline_at']],
      ['2026-01-15T11:40:00.000Z', null, '2026-01-15T11:40:00.000Z'],
    );
    assert.deepEqual((await applied(uuid))?.next_response?.breached, false);
    at('2026-01-15T11:20:00Z');
    await reply(uuid);
    c = await conversation(uuid);
    assert.equal(c['next_response_met_at'], '2026-01-15T11:20:00.000Z');
    at('2026-01-15T12:00:00Z');
    await recordSlaAlerts(t.deps);
    assert.deepEqual(await summary(), [
      'conversation.sla_warning next_response 2026-01-15T11:00:00.000Z',
      'conversation.sla_breached next_response 2026-01-15T11:00:00.000Z',
    ]);
    const report = dataOf<{ sla: Record<string, unknown> }>(
      await t.call({ url: `/api/v1/reports/service?from=2026-01-15&to=2026-01-15&team_id=${team.id}` }),
    );
    assert.deepEqual(report.sla['next_response'], { met: 1, breached: 1 });
  });

  it('a warning whose time passed while no task ran is recorded late, just before its breach', async () => {
    at('2026-01-15T10:00:00Z');
    const p = await policy({ first_response_minutes: 30, warning_minutes: 10 });
    const team = await createTeam(t, { sla_policy_id: p.id });
    const uuid = (await inTeam(team.id)).conversationUuid;
    at('2026-01-15T12:00:00Z'); // both the warning (10:20) and the deadline (10:30) passed meanwhile
    await recordSlaAlerts(t.deps);
    await recordSlaAlerts(t.deps);
    assert.deepEqual(
      (await slaEvents(uuid)).map((e) => `${e['type']} ${e['deadline_at']}`),
      ['conversation.sla_warning 2026-01-15T10:30:00.000Z', 'conversation.sla_breached 2026-01-15T10:30:00.000Z'],
    );
    // The thread does not call a deadline already passed near.
    assert.deepEqual(await slaActivity(uuid), [
      'The first response SLA deadline is past; this warning comes late (2026-01-15T10:30:00.000Z)',
      'The first response SLA deadline passed (2026-01-15T10:30:00.000Z)',
    ]);
  });

  it('a warning, then a breach, each recorded exactly once by two instances at the same time', async () => {
    at('2026-01-15T10:00:00Z');
    const p = await policy({ first_response_minutes: 30, warning_minutes: 10 });
    const team = await createTeam(t, { sla_policy_id: p.id });
    const uuids: string[] = [];
    for (let i = 0; i < 5; i++) uuids.push((await inTeam(team.id)).conversationUuid);
    // One of them is answered in time: nothing is recorded for it.
    await reply(uuids[4]!);
    const second = await t.secondInstance();
    try {
      at('2026-01-15T10:19:00Z');
      await recordSlaAlerts(t.deps);
      assert.deepEqual(await slaEvents(uuids[0]!), [], 'not yet');
      at('2026-01-15T10:25:00Z');
      const warned = await Promise.all([recordSlaAlerts(t.deps), recordSlaAlerts(second.deps), recordSlaAlerts(t.deps)]);
      at('2026-01-15T10:31:00Z');
      const breached = await Promise.all([recordSlaAlerts(second.deps), recordSlaAlerts(t.deps), recordSlaAlerts(second.deps)]);
      assert.ok(warned.reduce((a, b) => a + b) >= 4 && breached.reduce((a, b) => a + b) >= 4);
    } finally {
      await second.close();
    }
    for (const [i, uuid] of uuids.entries()) {
      const events = (await slaEvents(uuid)).map((e) => `${e['type']} ${e['metric']} ${e['deadline_at']}`);
      const expected =
        i === 4
          ? []
          : [
              'conversation.sla_warning first_response 2026-01-15T10:30:00.000Z',
              'conversation.sla_breached first_response 2026-01-15T10:30:00.000Z',
            ];
      assert.deepEqual(events, expected, uuid);
    }
    // The webhook payloads and activity messages follow the events: one activity message each.
    assert.deepEqual(await slaActivity(uuids[0]!), [
      'The first response SLA deadline is near (2026-01-15T10:30:00.000Z)',
      'The first response SLA deadline passed (2026-01-15T10:30:00.000Z)',
    ]);
    assert.equal((await applied(uuids[0]!))?.first_response?.breached, true);

    // Agents' sockets get a conversation_update naming the deadline; the widget gets nothing.
    const [event] = await slaEvents(uuids[0]!);
    const frames = framesOf({
      id: 1,
      type: String(event!['type']),
      created_at: '2026-01-15T10:25:00.000Z',
      payload: event!,
      conversation: {
        uuid: uuids[0]!,
        assigned_user_id: null,
        assigned_team_id: team.id,
        contact_id: 1,
        inbox_id: chat.inbox.id,
        livechat: true,
      },
      previous: null,
      message: null,
      widget: null,
    });
    assert.equal(frames.widget, null);
    assert.deepEqual(JSON.parse(frames.agent ?? 'null').data, {
      uuid: uuids[0],
      sla: {
        event: 'warning',
        applied_sla_id: event!['applied_sla_id'],
        metric: 'first_response',
        deadline_at: '2026-01-15T10:30:00.000Z',
      },
    });
  });
});
