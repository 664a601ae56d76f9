// The deadlines of applied SLAs, driven through the API with a fake clock: every event that
// moves one (entering a team, replies, contact messages, waiting, resolving, reopening),
// business hours against calendar time. Warnings and breaches: sla.alerts.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createBusinessHours, createConversation, createTeam, uniqueNumber } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { type Applied, type Json, slaCalls } from '../../test/sla.ts';
import { createWidgetInbox, startVisitor, type WidgetInboxFixture } from '../../test/widget.ts';
import { wakeSnoozedConversations } from '../conversations/conversations.changes.ts';
import { recordSlaAlerts } from '../conversations/conversations.sla.ts';

/** Thursday 2026-01-15, 10:00 UTC (11:00 in Berlin). */
const START = new Date('2026-01-15T10:00:00Z');

describe('SLA deadlines', () => {
  const clock = fakeClock(START);
  let t: TestApp;
  let chat: WidgetInboxFixture;

  before(async () => {
    t = await buildTestApp({ clock });
    chat = await createWidgetInbox(t);
  });
  after(() => t.close());

  const { at, policy, conversation, applied, put, reply, write, inTeam, deadlines, slaEvents } = slaCalls(clock, () => ({ t, chat }));

  it('entering a team applies its policy; replies and contact messages move the deadlines (calendar time)', async () => {
    at('2026-01-15T10:00:00Z');
    const p = await policy({ first_response_minutes: 60, next_response_minutes: 30, resolution_minutes: 240 });
    const team = await createTeam(t, { sla_policy_id: p.id });
    const visitor = await inTeam(team.id);
    const uuid = visitor.conversationUuid;
    let c = await conversation(uuid);
    assert.equal(c['sla_policy_id'], p.id);
    assert.equal(typeof c['applied_sla_id'], 'number');
    assert.deepEqual(deadlines(c), {
      first: '2026-01-15T11:00:00.000Z',
      resolution: '2026-01-15T14:00:00.000Z',
      next: null,
      nextMet: null,
      soonest: '2026-01-15T11:00:00.000Z',
    });
    const record = await applied(uuid);
    assert.deepEqual(record, {
      applied_sla_id: c['applied_sla_id'],
      sla_policy_id: p.id,
      applied_at: '2026-01-15T10:00:00.000Z',
      first_response: { deadline_at: '2026-01-15T11:00:00.000Z', met_at: null, breached: false },
      next_response: { deadline_at: null, met_at: null, breached: false },
      resolution: { deadline_at: '2026-01-15T14:00:00.000Z', met_at: null, breached: false },
    });

    // A private note meets nothing; the first public reply meets the first response.
    at('2026-01-15T10:10:00Z');
    await reply(uuid, { private: true });
    assert.equal((await applied(uuid))?.first_response?.met_at, null);
    at('2026-01-15T10:20:00Z');
    await reply(uuid);
    c = await conversation(uuid);
    assert.equal(c['next_sla_deadline_at'], '2026-01-15T14:00:00.000Z', 'the resolution is the next deadline');
    assert.equal((await applied(uuid))?.first_response?.met_at, '2026-01-15T10:20:00.000Z');
    assert.equal(c['first_response_deadline_at'], '2026-01-15T11:00:00.000Z', 'a met deadline keeps its time');

    // The contact writes after the reply: a next response is owed; a second message does not move it.
    at('2026-01-15T10:30:00Z');
    await write(visitor);
    c = await conversation(uuid);
    assert.equal(c['next_response_deadline_at'], '2026-01-15T11:00:00.000Z');
    assert.equal(c['next_sla_deadline_at'], '2026-01-15T11:00:00.000Z');
    at('2026-01-15T10:40:00Z');
    await write(visitor);
    assert.equal((await conversation(uuid))['next_response_deadline_at'], '2026-01-15T11:00:00.000Z');
    at('2026-01-15T10:45:00Z');
    await reply(uuid);
    c = await conversation(uuid);
    assert.equal(c['next_response_met_at'], '2026-01-15T10:45:00.000Z');
    assert.equal(c['next_response_deadline_at'], '2026-01-15T11:00:00.000Z');
    assert.equal(c['next_sla_deadline_at'], '2026-01-15T14:00:00.000Z');

    // Resolved: the resolution is met and nothing is pending.
    at('2026-01-15T11:00:00Z');
    await put(uuid, 'status', { status: 'Resolved' });
    c = await conversation(uuid);
    assert.equal(c['next_sla_deadline_at'], null);
    assert.equal((await applied(uuid))?.resolution?.met_at, '2026-01-15T11:00:00.000Z');
    assert.equal(await recordSlaAlerts(t.deps), 0);

    // Reopened after the original deadline: the met mark goes, the deadline applies again and breaches, once.
    at('2026-01-15T15:00:00Z');
    await put(uuid, 'status', { status: 'Open' });
    c = await conversation(uuid);
    assert.equal(c['resolution_deadline_at'], '2026-01-15T14:00:00.000Z');
    assert.equal(c['next_sla_deadline_at'], '2026-01-15T14:00:00.000Z');
    assert.equal((await applied(uuid))?.resolution?.met_at, null);
    assert.ok((await recordSlaAlerts(t.deps)) >= 1);
    assert.equal(await recordSlaAlerts(t.deps), 0);
    assert.deepEqual(await slaEvents(uuid), [
      {
        type: 'conversation.sla_breached',
        conversation_id: c['id'],
        conversation_uuid: uuid,
        actor_id: null,
        applied_sla_id: c['applied_sla_id'],
        metric: 'resolution',
        deadline_at: '2026-01-15T14:00:00.000Z',
      },
    ]);
    assert.equal((await applied(uuid))?.resolution?.breached, true);
    const messages = dataOf<{ results: Json[] }>(await t.call({ url: `/api/v1/conversations/${uuid}/messages?page_size=100` }));
    assert.ok(messages.results.some((m) => m['type'] === 'activity' && String(m['content']).includes('resolution SLA deadline passed')));
  });

  it('a conversation created in a team gets the team’s policy at once', async () => {
    at('2026-01-15T10:00:00Z');
    const p = await policy({ first_response_minutes: 45 });
    const team = await createTeam(t, { sla_policy_id: p.id });
    const created = await createConversation(t, { team_id: team.id });
    const c = await conversation(created.uuid);
    assert.deepEqual([c['sla_policy_id'], c['first_response_deadline_at']], [p.id, '2026-01-15T10:45:00.000Z']);
    assert.equal((await applied(created.uuid))?.applied_at, '2026-01-15T10:00:00.000Z');
  });

  it('a reopening by the contact clears the resolution mark too, and a new team keeps the applied SLA', async () => {
    at('2026-01-15T10:00:00Z');
    const p = await policy({ resolution_minutes: 60 });
    const other = await policy({ resolution_minutes: 5 });
    const team = await createTeam(t, { sla_policy_id: p.id });
    const visitor = await inTeam(team.id);
    const uuid = visitor.conversationUuid;
    const first = (await applied(uuid))?.applied_sla_id;
    await put(uuid, 'status', { status: 'Resolved' });
    assert.equal((await applied(uuid))?.resolution?.met_at, '2026-01-15T10:00:00.000Z');
    at('2026-01-15T10:10:00Z');
    await write(visitor);
    assert.equal((await applied(uuid))?.resolution?.met_at, null, 'the contact reopened it');
    const second = await createTeam(t, { sla_policy_id: other.id });
    await put(uuid, 'assignee/team', { assignee_id: second.id });
    assert.equal((await applied(uuid))?.applied_sla_id, first, 'a policy is applied only when none is');
  });

  it('waiting freezes the time left; leaving waiting sets the deadline to now + that time', async () => {
    at('2026-01-15T10:00:00Z');
    const p = await policy({ first_response_minutes: 120, resolution_minutes: 600 });
    const team = await createTeam(t, { sla_policy_id: p.id });
    const uuid = (await inTeam(team.id)).conversationUuid;
    at('2026-01-15T10:30:00Z');
    await put(uuid, 'status', { status: 'Snoozed', snoozed_until: '2026-01-15T15:30:00Z' });
    let c = await conversation(uuid);
    assert.deepEqual([c['first_response_deadline_at'], c['resolution_deadline_at'], c['next_sla_deadline_at']], [null, null, null]);
    at('2026-01-15T14:00:00Z');
    await recordSlaAlerts(t.deps);
    assert.deepEqual(await slaEvents(uuid), [], 'no deadline passes while waiting');
    at('2026-01-15T15:30:00Z');
    assert.ok((await wakeSnoozedConversations(t.deps)) >= 1);
    c = await conversation(uuid);
    assert.equal(c['first_response_deadline_at'], '2026-01-15T17:00:00.000Z', '90 minutes were left');
    assert.equal(c['resolution_deadline_at'], '2026-01-16T01:00:00.000Z', '570 minutes were left');
    assert.equal(c['next_sla_deadline_at'], '2026-01-15T17:00:00.000Z');
    // Waiting again, then opened by hand.
    at('2026-01-15T16:00:00Z');
    await put(uuid, 'status', { status: 'Snoozed', snoozed_until: '1d' });
    at('2026-01-15T18:00:00Z');
    await put(uuid, 'status', { status: 'Open' });
    assert.equal((await conversation(uuid))['first_response_deadline_at'], '2026-01-15T19:00:00.000Z');
  });

  it('a reply while waiting meets the frozen deadline for good: leaving waiting does not bring it back', async () => {
    at('2026-01-15T10:00:00Z');
    const p = await policy({ first_response_minutes: 120 });
    const team = await createTeam(t, { sla_policy_id: p.id });
    const uuid = (await inTeam(team.id)).conversationUuid;
    at('2026-01-15T10:30:00Z');
    await put(uuid, 'status', { status: 'Snoozed', snoozed_until: '1d' });
    at('2026-01-15T11:00:00Z');
    await reply(uuid);
    const met = (await applied(uuid))?.first_response;
    // Met with 90 minutes left: its deadline is where the wait would have put it, now + 90 minutes.
    assert.deepEqual(met, { deadline_at: '2026-01-15T12:30:00.000Z', met_at: '2026-01-15T11:00:00.000Z', breached: false });
    at('2026-01-15T13:00:00Z');
    await put(uuid, 'status', { status: 'Open' });
    assert.deepEqual((await applied(uuid))?.first_response, met, 'not thawed again');
    assert.equal((await conversation(uuid))['next_sla_deadline_at'], null);
    at('2026-01-15T23:00:00Z');
    await recordSlaAlerts(t.deps);
    assert.deepEqual(await slaEvents(uuid), [], 'a met deadline never breaches');
  });

  it('business hours: the team’s hours, else the default ones, count; calendar time otherwise', async () => {
    // Monday to Friday 09:00-17:00 in Berlin: 08:00-16:00 UTC in January.
    const hours = await createBusinessHours(t);
    const business = await policy({ first_response_minutes: 120, business_hours_only: true });
    const calendar = await policy({ first_response_minutes: 120, business_hours_only: false });
    const withHours = await createTeam(t, { sla_policy_id: business.id, business_hours_id: hours.id });
    const calendarTeam = await createTeam(t, { sla_policy_id: calendar.id, business_hours_id: hours.id });
    const noHours = await createTeam(t, { sla_policy_id: business.id });

    at('2026-01-15T15:00:00Z');
    const a = (await inTeam(withHours.id)).conversationUuid;
    const b = (await inTeam(calendarTeam.id)).conversationUuid;
    const cal = (await inTeam(noHours.id)).conversationUuid;
    assert.equal((await conversation(a))['first_response_deadline_at'], '2026-01-16T09:00:00.000Z', '60 minutes today, 60 on Friday');
    assert.equal((await conversation(b))['first_response_deadline_at'], '2026-01-15T17:00:00.000Z');
    assert.equal((await conversation(cal))['first_response_deadline_at'], '2026-01-15T17:00:00.000Z', 'no hours anywhere: calendar time');

    // The default hours apply to a team without its own.
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { business_hours_id: hours.id } }));
    const d = (await inTeam(noHours.id)).conversationUuid;
    assert.equal((await conversation(d))['first_response_deadline_at'], '2026-01-16T09:00:00.000Z');
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { business_hours_id: null } }));

    // Waiting in business time: 30 working minutes used, 90 left from the wake-up.
    at('2026-01-15T15:30:00Z');
    await put(a, 'status', { status: 'Snoozed', snoozed_until: '2026-01-16T12:00:00Z' });
    at('2026-01-16T12:00:00Z');
    await wakeSnoozedConversations(t.deps);
    assert.equal((await conversation(a))['first_response_deadline_at'], '2026-01-16T13:30:00.000Z');
  });

  it('PUT …/sla applies (a new applied_sla_id each time) and removes; a macro applies too', async () => {
    at('2026-01-15T10:00:00Z');
    const p = await policy({ first_response_minutes: 30 });
    const q = await policy({ resolution_minutes: 90 });
    const uuid = (await startVisitor(t, chat.uuid)).conversationUuid;
    assert.equal(await applied(uuid), null);
    const one = dataOf<Applied>(
      await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/sla`, payload: { sla_policy_id: p.id } }),
    );
    assert.equal(one.sla_policy_id, p.id);
    assert.deepEqual(one.resolution, null, 'no target, no metric');
    const two = dataOf<Applied>(
      await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/sla`, payload: { sla_policy_id: p.id } }),
    );
    assert.notEqual(two.applied_sla_id, one.applied_sla_id);
    const none = await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/sla`, payload: { sla_policy_id: null } });
    assert.equal(dataOf(none), null);
    const c = await conversation(uuid);
    assert.deepEqual([c['sla_policy_id'], c['applied_sla_id'], c['next_sla_deadline_at']], [null, null, null]);

    const macro = dataOf<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/macros', payload: { name: `SLA ${uniqueNumber()}`, actions: { apply_sla: q.id } } }),
    );
    dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/macros/${macro.id}/apply`, payload: {} }));
    const byMacro = await applied(uuid);
    assert.equal(byMacro?.sla_policy_id, q.id);
    assert.equal(byMacro?.resolution?.deadline_at, '2026-01-15T11:30:00.000Z');
    const bad = await t.call({
      method: 'POST',
      url: '/api/v1/macros',
      payload: { name: `Bad ${uniqueNumber()}`, actions: { apply_sla: 999999 } },
    });
    assert.match(assertError(bad, 400, 'InputException').message, /apply_sla/);
  });

  it('the unhappy paths of …/sla and who may apply', async () => {
    const p = await policy({ first_response_minutes: 30 });
    const team = await createTeam(t);
    const uuid = (await inTeam(team.id)).conversationUuid;
    await put(uuid, 'assignee/user', { assignee_id: t.admin.id });
    const url = `/api/v1/conversations/${uuid}/sla`;
    assertError(await t.call({ method: 'PUT', url, payload: {} }), 400, 'InputException');
    assertError(await t.call({ method: 'PUT', url, payload: { sla_policy_id: 'gold' } }), 400, 'InputException');
    assertError(await t.call({ method: 'PUT', url, payload: { sla_policy_id: 0 } }), 400, 'InputException');
    assertError(await t.call({ method: 'PUT', url, payload: { sla_policy_id: 2 ** 40 } }), 400, 'InputException');
    assertError(await t.call({ method: 'PUT', url, payload: { sla_policy_id: p.id, more: 1 } }), 400, 'InputException');
    assert.match(
      assertError(await t.call({ method: 'PUT', url, payload: { sla_policy_id: 999999 } }), 400, 'InputException').message,
      /sla_policy_id/,
    );
    const unknown = '/api/v1/conversations/00000000-0000-4000-8000-000000000000/sla';
    assertError(await t.call({ method: 'PUT', url: unknown, payload: { sla_policy_id: p.id } }), 404, 'NotFoundException');
    assertError(await t.call({ url: unknown }), 404, 'NotFoundException');
    assertError(await t.call({ url: '/api/v1/conversations/nope/sla' }), 404, 'NotFoundException');
    assertError(await t.call({ url, as: null }), 401, 'UnauthorizedException');

    const reader: Caller = await t.makeAgent({ roles: [] });
    const noPermission = await t.call({ method: 'PUT', url, payload: { sla_policy_id: p.id }, as: reader });
    assert.match(assertError(noPermission, 403, 'PermissionException').message, /sla:manage or conversations:update_team_assignee/);
    // The permission comes first, as for the other changes of a conversation: an unknown one is a 403 too.
    assertError(await t.call({ method: 'PUT', url: unknown, payload: { sla_policy_id: p.id }, as: reader }), 403, 'PermissionException');
    // The Agent role may change team assignments; a member of the team may read (and so apply to) its conversations.
    const member = await t.makeAgent({ teams: [team.id] });
    const stranger = await t.makeAgent();
    assertError(await t.call({ url, as: stranger }), 403, 'PermissionException');
    assertError(await t.call({ method: 'PUT', url, payload: { sla_policy_id: p.id }, as: stranger }), 403, 'PermissionException');
    assert.equal(dataOf<Applied>(await t.call({ method: 'PUT', url, payload: { sla_policy_id: p.id }, as: member })).sla_policy_id, p.id);
    assert.equal((await applied(uuid))?.sla_policy_id, p.id);

    // A macro's apply_sla needs the same permissions.
    const macro = dataOf<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/macros', payload: { name: `SLA ${uniqueNumber()}`, actions: { apply_sla: p.id } } }),
    );
    const viewer = await agentWith(t, ['conversations:read', 'conversations:read_all']);
    const refused = await t.call({
      method: 'POST',
      url: `/api/v1/conversations/${uuid}/macros/${macro.id}/apply`,
      payload: {},
      as: viewer,
    });
    assert.match(assertError(refused, 403, 'PermissionException').message, /apply_sla/);
  });

  it('order_by=next_sla_deadline_at puts conversations without a deadline last, both ways', async () => {
    at('2026-01-15T10:00:00Z');
    const team = await createTeam(t);
    const uuids: string[] = [];
    for (const minutes of [50, 10, 30]) {
      const p = await policy({ first_response_minutes: minutes });
      const uuid = (await inTeam(team.id)).conversationUuid;
      await put(uuid, 'sla', { sla_policy_id: p.id });
      uuids.push(uuid);
    }
    const without = (await inTeam(team.id)).conversationUuid;
    const order = async (direction: string) => {
      const page = dataOf<{ results: Json[] }>(
        await t.call({ url: `/api/v1/conversations/all?team_id=${team.id}&order_by=next_sla_deadline_at&order=${direction}` }),
      );
      return page.results.map((c) => c['uuid']);
    };
    assert.deepEqual(await order('asc'), [uuids[1], uuids[2], uuids[0], without]);
    assert.deepEqual(await order('desc'), [uuids[0], uuids[2], uuids[1], without]);
  });
});
