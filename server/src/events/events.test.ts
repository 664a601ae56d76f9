// Every event the API's actions write has the payload declared for its type in events.schema.ts,
// whichever writer produced it (recordEvent, the message CTE, the set-based agent release).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Value } from 'typebox/value';
import { buildTestApp, type Caller, dataOf, fakeClock, runDueJobs, type TestApp } from '../../test/helpers.ts';
import { wakeSnoozedConversations } from '../conversations/conversations.changes.ts';
import { recordSlaAlerts } from '../conversations/conversations.sla.ts';
import { deliverLivechatMessage } from '../messages/messages.delivery.ts';
import { FAN_OUT_JOB } from '../notifications/notifications.fanout.ts';
import { insertWebhook } from '../../test/receiver.ts';
import { dispatchOnce } from '../webhooks/webhooks.dispatcher.ts';
import { DOMAIN_EVENTS, type DomainEventType } from './events.schema.ts';
import { createWidgetInbox, startVisitor, verifiedSession, widgetCall } from '../../test/widget.ts';

type Json = Record<string, unknown>;

describe('domain events', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inboxId: number;
  let teamId: number;
  let rr: Caller;

  const call = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json, as?: Caller) => {
    clock.advance(1000);
    return dataOf<Json & { id: number; uuid: string }>(
      await t.call({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}), ...(as ? { as } : {}) }),
    );
  };

  before(async () => {
    t = await buildTestApp({ clock });
    inboxId = (await call('POST', '/inboxes', { name: 'Chat', channel: 'livechat', config: {} })).id;
    teamId = (await call('POST', '/teams', { name: 'Round', conversation_assignment_type: 'round_robin' })).id;
    rr = await t.makeAgent({ teams: [teamId], first_name: 'Robin' });
    dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'vip' } }));
  });
  after(() => t.close());

  it('the actions of the API write only declared events, each with its declared payload', async () => {
    // Contacts, availability, round robin.
    const contact = await call('POST', '/contacts', { email: 'ada@example.com', first_name: 'Ada' });
    await call('PUT', '/agents/me/availability', { status: 'available' }, rr);
    const routed = await call('POST', '/conversations', {
      inbox_id: inboxId,
      contact_email: 'new@example.com',
      content: 'Hi',
      initiator: 'contact',
      team_id: teamId,
    });
    assert.equal(routed['assigned_user_id'], rr.id, 'round robin placed it');
    // Every change of a conversation.
    const c = await call('POST', '/conversations', {
      inbox_id: inboxId,
      contact_id: contact.id,
      content: '<p>Hello</p>',
      assignee_id: t.admin.id,
    });
    await call('PUT', `/conversations/${c.uuid}/priority`, { priority: 'High' });
    await call('POST', `/conversations/${c.uuid}/tags`, { tags: ['vip'] });
    await call('PUT', `/conversations/${c.uuid}/assignee/team`, { assignee_id: teamId });
    await call('PUT', `/conversations/${c.uuid}/assignee/user`, { assignee_id: rr.id });
    // Assigned by another agent: Robin is notified (notification.created).
    assert.ok((await runDueJobs(t.deps, [FAN_OUT_JOB])) > 0);
    await call('PUT', `/conversations/${c.uuid}/assignee/user/remove`);
    await call('PUT', `/conversations/${c.uuid}/assignee/team/remove`);
    await call('PUT', `/conversations/${c.uuid}/status`, { status: 'Snoozed', snoozed_until: '1h' });
    clock.advance(2 * 3600_000);
    assert.equal(await wakeSnoozedConversations(t.deps), 1);
    await call('PUT', `/inboxes/${inboxId}`, { csat_enabled: true });
    await call('PUT', `/conversations/${c.uuid}/status`, { status: 'Resolved' });
    // The contact answers the survey the resolution sent.
    const survey = await t.deps.db.selectFrom('csat_surveys').where('conversation_id', '=', c.id).select('uuid').executeTakeFirstOrThrow();
    dataOf(
      await t.call({ method: 'POST', url: `/api/v1/csat/${survey.uuid}/response`, payload: { rating: 4, feedback: 'Quick' }, as: null }),
    );
    // Messages: a reply and its delivery, a private note.
    const reply = await call('POST', `/conversations/${c.uuid}/messages`, { message: 'On it' });
    await call('POST', `/conversations/${c.uuid}/messages`, { message: 'note', private: true });
    await deliverLivechatMessage(t.deps, { message_id: reply.id });
    // A macro runs the same changes; an agent who leaves has their conversations released set-based (by the job the deletion enqueues).
    const macro = await call('POST', '/macros', {
      name: 'Triage',
      actions: { set_status: 'Open', set_priority: 'Low', assign_user: rr.id },
    });
    await call('POST', `/conversations/${c.uuid}/macros/${macro.id}/apply`);
    await call('DELETE', `/agents/${rr.id}`);
    assert.equal(await runDueJobs(t.deps, ['conversations.release_agent']), 1);
    // An inbox changing (its widget sockets are checked again), then removed.
    const spare = (await call('POST', '/inboxes', { name: 'Spare chat', channel: 'livechat', config: {} })).id;
    await call('PUT', `/inboxes/${spare}/toggle`, { enabled: false });
    await call('DELETE', `/inboxes/${spare}`);
    // Blocking and unblocking a contact.
    await call('PUT', `/contacts/${contact.id}/block`, { enabled: false });
    await call('PUT', `/contacts/${contact.id}/block`, { enabled: true });
    // Changing the contact's email (an identity change: an activity line on each of its conversations).
    await call('PUT', `/contacts/${contact.id}`, { email: `changed-${contact.id}@example.com` });
    // The widget: a visitor reads its conversation, then signs in and is merged into the verified contact.
    const chat = await createWidgetInbox(t);
    const visitor = await startVisitor(t, chat.uuid);
    await widgetCall(t, {
      method: 'POST',
      url: `chat/conversations/${visitor.conversationUuid}/update-last-seen`,
      inbox: chat.uuid,
      token: visitor.token,
    });
    const verified = await verifiedSession(t, chat, {}, clock.now());
    const merged = await widgetCall(t, {
      url: 'chat/auth/me',
      inbox: chat.uuid,
      token: verified.session_token,
      headers: { 'x-service-visitor-token': visitor.token },
    });
    assert.equal(merged.headers['x-service-clear-visitor'], 'true');
    // Service levels: a warning, then a breach, each recorded by the periodic task.
    const policy = await call('POST', '/sla', { name: 'Gold', first_response_minutes: 30, warning_minutes: 10 });
    const late = await call('POST', '/conversations', {
      inbox_id: inboxId,
      contact_email: 'late@example.com',
      content: 'Hi',
      initiator: 'contact',
    });
    await call('PUT', `/conversations/${late.uuid}/sla`, { sla_policy_id: policy.id });
    clock.advance(25 * 60_000);
    assert.equal(await recordSlaAlerts(t.deps), 1, 'the warning');
    clock.advance(10 * 60_000);
    assert.equal(await recordSlaAlerts(t.deps), 1, 'the breach');

    // A webhook whose every attempt fails for a day is disabled by the dispatcher (here its
    // loopback address is refused: no WEBHOOK_ALLOW_HOSTS). The webhook engine's "now" is the
    // later of the database's and the app's clock: the clock moves to the present first.
    clock.set(new Date(Date.now() + 60_000));
    await insertWebhook(t, { url: 'http://127.0.0.1:9/hook', events: ['contact.created'] });
    await call('POST', '/contacts', { email: 'hooked-1@example.com', first_name: 'Hooked' });
    assert.deepEqual(
      (await dispatchOnce(t.deps)).map((r) => r.record.outcome),
      ['refused'],
    );
    clock.advance(25 * 3600_000);
    await call('POST', '/contacts', { email: 'hooked-2@example.com', first_name: 'Hooked' });
    assert.ok(
      (await dispatchOnce(t.deps)).some((r) => r.disabledWebhook),
      'the webhook was disabled',
    );

    const rows = await t.deps.db.selectFrom('domain_events').select(['type', 'payload']).orderBy('id').execute();
    const declared = new Set<string>(Object.keys(DOMAIN_EVENTS));
    for (const row of rows) {
      assert.ok(declared.has(row.type), `undeclared event type ${row.type}`);
      const schema = DOMAIN_EVENTS[row.type as DomainEventType];
      const errors = [...Value.Errors(schema, row.payload)].map((e) => `${e.instancePath} ${e.message}`);
      assert.deepEqual(errors, [], `${row.type} ${JSON.stringify(row.payload)}`);
    }
    assert.deepEqual([...new Set(rows.map((r) => r.type))].sort(), [...declared].sort(), 'every declared type was written and checked');
    const unassigned = rows.filter((r) => r.type === 'conversation.unassigned').map((r) => r.payload as Json);
    assert.ok(
      unassigned.some((p) => p['actor_id'] === null && p['previous_assignee_id'] === rr.id),
      'the set-based release wrote its event',
    );
  });
});
