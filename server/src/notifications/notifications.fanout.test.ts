// Notifications made from domain events: each type and its recipients, never the actor's own,
// only agents who may read the conversation and are live, as their settings say, exactly once,
// and the `notification` frame on that agent's socket only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordSlaAlerts } from '../conversations/conversations.sla.ts';
import { agentWith, createConversation, createTeam } from '../../test/factories.ts';
import { buildTestApp, type Caller, dataOf, fakeClock, runDueJobs, type TestApp } from '../../test/helpers.ts';
import { listen, nextFrame, noFrame, openSocket } from '../../test/sockets.ts';
import { createWidgetInbox, startVisitor, widgetCall } from '../../test/widget.ts';
import { FAN_OUT_JOB, fanOutNotifications } from './notifications.fanout.ts';
import { PUSH_NOTIFICATION_JOB } from './notifications.schema.ts';
import { purgeOldNotifications } from './notifications.retention.ts';
import { SYSTEM_MAIL_JOB } from '../system-mail/system-mail.service.ts';

type Json = Record<string, unknown>;

describe('notifications from domain events', () => {
  const clock = fakeClock();
  let t: TestApp;
  let ana: Caller;
  let bob: Caller;

  const call = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json, as?: Caller) => {
    clock.advance(1000);
    return dataOf<Json & { id: number; uuid: string }>(
      await t.call({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}), ...(as ? { as } : {}) }),
    );
  };
  const fanOut = () => runDueJobs(t.deps, [FAN_OUT_JOB]);
  const notificationsOf = (agentId: number) =>
    t.deps.db.selectFrom('notifications').selectAll().where('agent_id', '=', agentId).orderBy('id').execute();
  const eventsFor = async (agentId: number) =>
    (await t.deps.db.selectFrom('domain_events').select('payload').where('type', '=', 'notification.created').orderBy('id').execute())
      .map((row) => row.payload as { agent_id: number; notification: Json })
      .filter((payload) => payload.agent_id === agentId);
  const settle = async (agentId: number, types: Json, extra: Json = {}) => {
    await t.deps.db
      .insertInto('notification_settings')
      .values({ agent_id: agentId, types: JSON.stringify(types) as never, updated_at: clock.now(), ...extra })
      .onConflict((oc) => oc.column('agent_id').doUpdateSet({ types: JSON.stringify(types) as never, ...extra }))
      .execute();
  };

  before(async () => {
    t = await buildTestApp({ clock });
    ana = await t.makeAgent({ first_name: 'Ana' });
    bob = await t.makeAgent({ first_name: 'Bob' });
    // Jobs left by the setup (none notify anyone) are out of the way.
    await fanOut();
  });
  after(() => t.close());

  it('assigned: the assignee, with who did it, once; never for assigning oneself', async () => {
    const c = await createConversation(t);
    await fanOut();
    await call('PUT', `/conversations/${c.uuid}/assignee/user`, { assignee_id: ana.id });
    assert.equal(await fanOut(), 1, 'one fan-out job for the assignment');
    const [mine, ...more] = await notificationsOf(ana.id);
    assert.equal(more.length, 0);
    assert.equal(mine?.type, 'assigned');
    assert.equal(mine?.actor_type, 'agent');
    assert.equal(mine?.actor_id, t.admin.id);
    assert.match(mine?.title ?? '', new RegExp(`assigned you #${c.reference_number} `));
    assert.equal(mine?.in_app, true);
    assert.equal(mine?.email_status, 'none', 'mail is on for assigned, but SMTP_URL is not set: no mail');
    assert.equal((await t.deps.db.selectFrom('jobs').select('id').where('kind', '=', SYSTEM_MAIL_JOB).execute()).length, 0);
    const [event] = await eventsFor(ana.id);
    assert.equal(event?.notification['id'], mine?.id);
    assert.equal(event?.notification['conversation_uuid'], c.uuid);
    const admin = await t.deps.db
      .selectFrom('users')
      .select(['first_name', 'last_name'])
      .where('id', '=', t.admin.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(event?.notification['actor'], { type: 'agent', id: t.admin.id, name: `${admin.first_name} ${admin.last_name}` });

    // The admin takes it: no notification for one's own action.
    await call('PUT', `/conversations/${c.uuid}/assignee/user`, { assignee_id: t.admin.id });
    assert.equal(await fanOut(), 1);
    assert.deepEqual(await notificationsOf(t.admin.id), []);
  });

  it('team_assigned: the members, only while nobody is assigned; never the actor', async () => {
    const team = await createTeam(t, { name: `Desk ${Date.now()}` });
    const carl = await t.makeAgent({ teams: [team.id], first_name: 'Carl' });
    const dina = await t.makeAgent({ teams: [team.id], first_name: 'Dina' });
    const c = await createConversation(t);
    await fanOut();
    await call('PUT', `/conversations/${c.uuid}/assignee/team`, { assignee_id: team.id }, dina);
    await fanOut();
    const [carls] = await notificationsOf(carl.id);
    assert.equal(carls?.type, 'team_assigned');
    assert.match(carls?.title ?? '', new RegExp(team.name));
    assert.deepEqual(await notificationsOf(dina.id), [], 'the actor is left out');

    // A conversation with an agent assigned: the team is not asked to pick it up.
    const taken = await createConversation(t, { assignee_id: dina.id });
    await fanOut();
    await call('PUT', `/conversations/${taken.uuid}/assignee/team`, { assignee_id: team.id });
    await fanOut();
    const teamOnes = (await notificationsOf(carl.id)).filter((n) => n.type === 'team_assigned');
    assert.equal(teamOnes.length, 1, 'still only the first one');
  });

  it('reply: the followers hear of a contact message, with its excerpt', async () => {
    const chat = await createWidgetInbox(t);
    const visitor = await startVisitor(t, chat.uuid);
    await fanOut();
    const conversation = await t.deps.db
      .selectFrom('conversations')
      .select(['id'])
      .where('uuid', '=', visitor.conversationUuid)
      .executeTakeFirstOrThrow();
    await t.deps.db
      .insertInto('conversation_followers')
      .values([ana.id, bob.id].map((agent_id) => ({ conversation_id: conversation.id, agent_id, created_at: clock.now() })))
      .execute();
    clock.advance(1000);
    const long = `Where is my order? ${'x'.repeat(400)}`;
    dataOf(
      await widgetCall(t, {
        method: 'POST',
        url: `chat/conversations/${visitor.conversationUuid}/message`,
        inbox: chat.uuid,
        token: visitor.token,
        payload: { message: long },
      }),
    );
    assert.equal(await fanOut(), 1);
    for (const agent of [ana, bob]) {
      const replies = (await notificationsOf(agent.id)).filter((n) => n.type === 'reply');
      assert.equal(replies.length, 1);
      assert.equal(replies[0]?.actor_type, 'contact');
      assert.ok(replies[0]?.excerpt.startsWith('Where is my order?'));
      assert.ok((replies[0]?.excerpt.length ?? 0) <= 200);
      assert.ok(replies[0]?.message_id);
    }
  });

  it('mentioned: only agents who may read it, never the writer; disabled and deleted agents get nothing', async () => {
    const c = await createConversation(t);
    await fanOut();
    const blind = await agentWith(t, ['conversations:read', 'conversations:read_assigned'], { first_name: 'Blind' });
    const gone = await t.makeAgent({ first_name: 'Gone' });
    const off = await t.makeAgent({ first_name: 'Off' });
    const note = await call('POST', `/conversations/${c.uuid}/messages`, { message: 'Look at this', private: true });
    await t.deps.db
      .insertInto('conversation_mentions')
      .values(
        [ana.id, blind.id, t.admin.id, gone.id, off.id].map((agent_id) => ({
          conversation_id: c.id,
          message_id: note.id,
          agent_id,
          created_at: clock.now(),
        })),
      )
      .execute();
    await call('DELETE', `/agents/${gone.id}`);
    await call('PUT', `/agents/${off.id}`, { enabled: false });
    await fanOut();
    const [mention] = (await notificationsOf(ana.id)).filter((n) => n.type === 'mentioned');
    assert.equal(mention?.excerpt, 'Look at this');
    assert.equal(mention?.actor_id, t.admin.id);
    for (const agent of [blind, t.admin, gone, off]) assert.deepEqual(await notificationsOf(agent.id), [], `nothing for ${agent.id}`);
  });

  it('sla_warning and sla_breached: the assignee', async () => {
    const policy = await call('POST', '/sla', { name: `Gold ${Date.now()}`, first_response_minutes: 30, warning_minutes: 10 });
    const c = await createConversation(t, { assignee_id: ana.id });
    await call('PUT', `/conversations/${c.uuid}/sla`, { sla_policy_id: policy.id });
    await fanOut();
    clock.advance(25 * 60_000);
    assert.equal(await recordSlaAlerts(t.deps), 1);
    clock.advance(10 * 60_000);
    assert.equal(await recordSlaAlerts(t.deps), 1);
    await fanOut();
    const alerts = (await notificationsOf(ana.id)).filter((n) => n.conversation_id === c.id && n.type.startsWith('sla_'));
    assert.deepEqual(
      alerts.map((n) => [n.type, n.actor_type]),
      [
        ['sla_warning', 'system'],
        ['sla_breached', 'system'],
      ],
    );
    assert.match(alerts[1]?.title ?? '', /first response target/);
  });

  it('sla alerts with nobody assigned: the team’s members, in a batch with the team’s assignment or alone', async () => {
    const team = await createTeam(t, { name: `Night ${Date.now()}` });
    const eve = await t.makeAgent({ teams: [team.id], first_name: 'Eve' });
    const policy = await call('POST', '/sla', { name: `Silver ${Date.now()}`, first_response_minutes: 30, warning_minutes: 10 });
    const c = await createConversation(t);
    const warmUps = [await createConversation(t), await createConversation(t)];
    await fanOut();
    await call('PUT', `/conversations/${c.uuid}/sla`, { sla_policy_id: policy.id });
    // Two causes first (two batches may run at once), then the team's assignment and the warning together.
    for (const w of warmUps) await call('PUT', `/conversations/${w.uuid}/assignee/user`, { assignee_id: ana.id });
    await call('PUT', `/conversations/${c.uuid}/assignee/team`, { assignee_id: team.id });
    clock.advance(25 * 60_000);
    assert.equal(await recordSlaAlerts(t.deps), 1);
    const pending = () =>
      t.deps.db
        .selectFrom('jobs')
        .select('payload')
        .where('kind', '=', FAN_OUT_JOB)
        .where('completed_at', 'is', null)
        .orderBy('id')
        .execute();
    const context = { id: '1', attempts: 1, maxAttempts: 8, signal: new AbortController().signal };
    const jobs = await pending();
    assert.equal(jobs.length, 4);
    await Promise.all(jobs.map((job) => fanOutNotifications(t.deps, job.payload, context)));
    assert.deepEqual(
      (await notificationsOf(eve.id)).filter((n) => n.conversation_id === c.id).map((n) => n.type),
      ['team_assigned', 'sla_warning'],
    );
    // The breach alone in its batch: the members are read in a second round.
    clock.advance(10 * 60_000);
    assert.equal(await recordSlaAlerts(t.deps), 1);
    await fanOut();
    assert.deepEqual(
      (await notificationsOf(eve.id)).filter((n) => n.conversation_id === c.id).map((n) => n.type),
      ['team_assigned', 'sla_warning', 'sla_breached'],
    );
  });

  it('settings: nothing when every channel is off; a mail-only or push-only notification is not shown in the app', async () => {
    const cara = await t.makeAgent({ first_name: 'Cara' });
    await settle(cara.id, { assigned: { in_app: false, email: false, push: false } });
    const first = await createConversation(t);
    await call('PUT', `/conversations/${first.uuid}/assignee/user`, { assignee_id: cara.id });
    await fanOut();
    assert.deepEqual(await notificationsOf(cara.id), []);

    await settle(cara.id, { assigned: { in_app: false, push: true } });
    const second = await createConversation(t);
    await call('PUT', `/conversations/${second.uuid}/assignee/user`, { assignee_id: cara.id });
    await fanOut();
    const [row] = await notificationsOf(cara.id);
    assert.equal(row?.in_app, false);
    assert.equal(row?.email_status, 'none', 'no mail without SMTP_URL');
    assert.deepEqual(await eventsFor(cara.id), [], 'no frame for a notification not shown in the app');
    const pushes = await t.deps.db.selectFrom('jobs').select('payload').where('kind', '=', PUSH_NOTIFICATION_JOB).execute();
    assert.deepEqual(
      pushes.map((job) => job.payload),
      [{ notification_id: row?.id }],
    );
  });

  it('exactly once: the same job run again, or the cause fanned out twice, makes nothing more', async () => {
    const c = await createConversation(t);
    await fanOut();
    await call('PUT', `/conversations/${c.uuid}/assignee/user`, { assignee_id: bob.id });
    const [job] = await t.deps.db
      .selectFrom('jobs')
      .select(['payload'])
      .where('kind', '=', FAN_OUT_JOB)
      .where('completed_at', 'is', null)
      .execute();
    assert.ok(job);
    const context = { id: '1', attempts: 1, maxAttempts: 8, signal: new AbortController().signal };
    await fanOutNotifications(t.deps, job.payload, context);
    await fanOutNotifications(t.deps, job.payload, context);
    await fanOut();
    const rows = (await notificationsOf(bob.id)).filter((n) => n.conversation_id === c.id);
    assert.equal(rows.length, 1);
    const events = (await eventsFor(bob.id)).filter((e) => e.notification['conversation_uuid'] === c.uuid);
    assert.equal(events.length, 1);
  });

  it('a burst fanned out together: each cause its own notifications and frames, ids filled in; a malformed job fails alone', async () => {
    const c1 = await createConversation(t);
    const c2 = await createConversation(t);
    const more = [await createConversation(t), await createConversation(t)];
    await fanOut();
    // Two batches may run at once: five causes make a batch of several after the first two.
    for (const c of more) await call('PUT', `/conversations/${c.uuid}/assignee/user`, { assignee_id: bob.id });
    await call('PUT', `/conversations/${c1.uuid}/assignee/user`, { assignee_id: ana.id }, bob);
    await call('PUT', `/conversations/${c2.uuid}/assignee/user`, { assignee_id: bob.id }, ana);
    await call('POST', `/conversations/${c1.uuid}/messages`, {
      message: `<p>For <span data-mention-agent-id="${ana.id}">@Ana</span></p>`,
      private: true,
    });
    const jobs = await t.deps.db
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('kind', '=', FAN_OUT_JOB)
      .where('completed_at', 'is', null)
      .orderBy('id')
      .execute();
    assert.equal(jobs.length, 5);
    const context = { id: '1', attempts: 1, maxAttempts: 8, signal: new AbortController().signal };
    // All at once, as a runner's concurrent jobs: one batch (and a malformed one beside them).
    // A cause the database refuses (a conversation id past int4) fails its batch: each cause is
    // then made again alone, and only that one fails.
    const refused: Json = { ...(jobs[4]?.payload as Json), event_id: 9_000_000_000 };
    refused['payload'] = { ...(refused['payload'] as Json), conversation_id: 2 ** 40 };
    const outcomes = await Promise.allSettled([
      ...jobs.map((job) => fanOutNotifications(t.deps, job.payload, context)),
      fanOutNotifications(t.deps, refused, context),
      fanOutNotifications(t.deps, { event_id: 'x' }, context),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected'],
    );
    const ofConversation = async (agentId: number, conversationId: number) =>
      (await notificationsOf(agentId)).filter((n) => n.conversation_id === conversationId).map((n) => n.type);
    assert.deepEqual(await ofConversation(ana.id, c1.id), ['assigned', 'mentioned']);
    assert.deepEqual(await ofConversation(bob.id, c2.id), ['assigned']);
    assert.deepEqual(await ofConversation(bob.id, c1.id), [], 'not the actor');
    for (const c of more) assert.deepEqual(await ofConversation(bob.id, c.id), ['assigned']);
    // Each frame carries its own row's id and its own conversation.
    for (const agent of [ana, bob]) {
      const rows = (await notificationsOf(agent.id)).filter((n) => n.conversation_id === c1.id || n.conversation_id === c2.id);
      const events = (await eventsFor(agent.id)).filter((e) => [c1.uuid, c2.uuid].includes(String(e.notification['conversation_uuid'])));
      assert.deepEqual(events.map((e) => [e.notification['id'], e.notification['type']]).sort(), rows.map((n) => [n.id, n.type]).sort());
    }
  });

  it('retention: notifications older than 90 days are deleted', async () => {
    const c = await createConversation(t);
    const day = 24 * 3600_000;
    const row = (daysAgo: number, cause: number) => ({
      agent_id: bob.id,
      type: 'reply' as const,
      cause_event_id: cause,
      conversation_id: c.id,
      title: `${daysAgo} days old`,
      created_at: new Date(clock.now().getTime() - daysAgo * day),
    });
    await t.deps.db
      .insertInto('notifications')
      .values([row(91, 900_001), row(89, 900_002)])
      .execute();
    assert.equal(await purgeOldNotifications(t.deps), 1);
    const left = (await notificationsOf(bob.id)).map((n) => n.title).filter((title) => title.endsWith('days old'));
    assert.deepEqual(left, ['89 days old']);
  });

  it('the `notification` frame reaches that agent’s socket only', async () => {
    const base = await listen(t.app);
    const anaSocket = await openSocket(`${base}/ws`, ana.headers);
    const bobSocket = await openSocket(`${base}/ws`, bob.headers);
    try {
      const c = await createConversation(t);
      await fanOut();
      await call('PUT', `/conversations/${c.uuid}/assignee/user`, { assignee_id: ana.id });
      await fanOut();
      const frame = await nextFrame(anaSocket, (f) => f.type === 'notification', 15_000);
      const data = frame.data as Json;
      assert.equal(data['type'], 'assigned');
      assert.equal(data['conversation_uuid'], c.uuid);
      assert.equal(data['read_at'], null);
      await noFrame(bobSocket, (f) => f.type === 'notification');
    } finally {
      await anaSocket.close();
      await bobSocket.close();
    }
  });
});
