// Every event a webhook may subscribe to that the API can produce reaches a subscribed
// webhook, in the same transaction as its cause, with a body that matches the schema the
// OpenAPI document shows for it; and the data of each is built set-based for a batch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Value } from 'typebox/value';
import { createContact, createInbox, createTeam } from '../../test/factories.ts';
import { dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { insertWebhook, type Receiver } from '../../test/receiver.ts';
import { closeWebhookApp, startWebhookApp } from '../../test/webhooks.ts';
import { createWidgetInbox, startVisitor, verifiedSession, widgetCall } from '../../test/widget.ts';
import { recordSlaAlerts } from '../conversations/conversations.sla.ts';
import { deliverLivechatMessage } from '../messages/messages.delivery.ts';
import { dispatchOnce } from './webhooks.dispatcher.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhooks.events.ts';
import { webhookBodySchema } from './webhooks.payloads.ts';

type Json = Record<string, unknown>;
type Body = { type: WebhookEvent; timestamp: string; data: Json };

describe('webhook payloads', { timeout: 180_000 }, () => {
  const clock = fakeClock(new Date(Date.now() + 60_000));
  let t: TestApp;
  let receiver: Receiver;

  before(async () => {
    ({ t, receiver } = await startWebhookApp(clock));
  });
  after(() => closeWebhookApp(t, receiver));

  const call = async (method: 'POST' | 'PUT', url: string, payload?: Json) =>
    dataOf<Json & { id: number; uuid: string }>(await t.call({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) }));

  it('delivers every event the API produces, each body matching its schema, with the records it names', async () => {
    const subscribable = WEBHOOK_EVENTS.filter((e) => e !== 'webhook.test');
    const hook = await insertWebhook(t, { url: receiver.url, events: subscribable });
    // Another webhook subscribed to one event only gets that one.
    const narrow = await insertWebhook(t, { url: `${receiver.url}/narrow`, events: ['contact.enabled_changed'] });

    const inbox = await createInbox(t);
    const team = await createTeam(t);
    const contact = await createContact(t, { first_name: 'Grace' });
    dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'billing' } }));
    const c = await call('POST', '/conversations', { inbox_id: inbox.id, contact_id: contact.id, content: '<p>Hi</p>' });
    await call('PUT', `/conversations/${c.uuid}/status`, { status: 'Snoozed', snoozed_until: '2h' });
    await call('PUT', `/conversations/${c.uuid}/priority`, { priority: 'Urgent' });
    await call('POST', `/conversations/${c.uuid}/tags`, { tags: ['billing'] });
    await call('PUT', `/conversations/${c.uuid}/assignee/user`, { assignee_id: t.admin.id });
    await call('PUT', `/conversations/${c.uuid}/assignee/team`, { assignee_id: team.id });
    await call('PUT', `/conversations/${c.uuid}/assignee/user/remove`);
    const reply = await call('POST', `/conversations/${c.uuid}/messages`, { message: '<p>On it</p>' });
    await call('POST', `/conversations/${c.uuid}/messages`, { message: 'a note', private: true });
    await deliverLivechatMessage(t.deps, { message_id: reply.id });
    await call('PUT', `/contacts/${contact.id}/block`, { enabled: false });
    // A widget visitor merged into a verified contact.
    const chat = await createWidgetInbox(t);
    const visitor = await startVisitor(t, chat.uuid);
    const verified = await verifiedSession(t, chat, {}, clock.now());
    await widgetCall(t, {
      url: 'chat/auth/me',
      inbox: chat.uuid,
      token: verified.session_token,
      headers: { 'x-service-visitor-token': visitor.token },
    });
    // Service levels: a warning, then a breach, recorded by the periodic task.
    const policy = await call('POST', '/sla', { name: 'Webhook SLA', resolution_minutes: 30, warning_minutes: 10 });
    const other = await createContact(t, { first_name: 'Ada' });
    const late = await call('POST', '/conversations', { inbox_id: inbox.id, contact_id: other.id, content: '<p>Hi</p>' });
    await call('PUT', `/conversations/${late.uuid}/sla`, { sla_policy_id: policy.id });
    clock.advance(25 * 60_000);
    assert.equal(await recordSlaAlerts(t.deps), 1);
    clock.advance(10 * 60_000);
    assert.equal(await recordSlaAlerts(t.deps), 1);

    // One claim per batch of due deliveries, until none is left.
    for (let round = 0; round < 20 && (await dispatchOnce(t.deps, { perWebhook: 64 })).length > 0; round++);
    const bodies = receiver.requests.filter((r) => r.path === '/hook').map((r) => JSON.parse(r.body) as Body);
    const produced = new Set(bodies.map((b) => b.type));
    assert.deepEqual([...produced].sort(), [...subscribable].sort(), 'every event the API can produce was delivered');

    for (const body of bodies) {
      const errors = [...Value.Errors(webhookBodySchema(body.type), body)].map((e) => `${e.instancePath} ${e.message}`);
      assert.deepEqual(errors, [], `${body.type}: ${JSON.stringify(body).slice(0, 400)}`);
      if (body.type.startsWith('conversation.')) {
        const conversation = body.data['conversation'] as Json;
        assert.equal(conversation['uuid'], body.data['conversation_uuid'], `${body.type} carries its conversation record`);
      }
      if (body.type.startsWith('message.')) {
        const message = body.data['message'] as Json;
        assert.equal(message['uuid'], body.data['message_uuid'], `${body.type} carries its message record`);
        assert.ok(Array.isArray(message['attachments']));
      }
    }
    const created = bodies.find((b) => b.type === 'contact.created' && b.data['id'] === contact.id);
    assert.equal(created?.data['first_name'], 'Grace', 'contact.created: the contact record');
    const blocked = bodies.find((b) => b.type === 'contact.enabled_changed');
    assert.deepEqual(blocked?.data, { contact_id: contact.id, enabled: false });
    const note = bodies.find((b) => b.type === 'message.created' && b.data['private'] === true);
    assert.equal((note?.data['message'] as Json | undefined)?.['text_content'], 'a note', 'private notes reach webhooks too');
    const sent = bodies.find((b) => b.type === 'message.updated' && b.data['message_id'] === reply.id);
    assert.equal(sent?.data['status'], 'sent');

    // Each event once per subscribed webhook, in the order of the events.
    const rows = await t.deps.db.selectFrom('webhook_deliveries').select(['webhook_id', 'event_id', 'status']).orderBy('id').execute();
    const mine = rows.filter((r) => r.webhook_id === hook.id);
    assert.equal(new Set(mine.map((r) => r.event_id)).size, mine.length);
    assert.ok(mine.every((r) => r.status === 'succeeded'));
    assert.equal(mine.length, bodies.length);
    const narrowRows = rows.filter((r) => r.webhook_id === narrow.id);
    assert.equal(narrowRows.length, 1);
    assert.deepEqual(
      receiver.requests.filter((r) => r.path === '/hook/narrow').map((r) => (JSON.parse(r.body) as Body).type),
      ['contact.enabled_changed'],
    );
  });

  it('a delivery exists only if its cause committed', async () => {
    const hook = await insertWebhook(t, { url: receiver.url, events: ['contact.created'] });
    const count = async () =>
      (await t.deps.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', hook.id).execute()).length;
    await assert.rejects(
      t.deps.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('domain_events')
          .values({ type: 'contact.created', payload: JSON.stringify({ id: 1 }), created_at: clock.now() })
          .execute();
        assert.equal(
          await trx
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('webhook_id', '=', hook.id)
            .execute()
            .then((r) => r.length),
          1,
        );
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.equal(await count(), 0);
    await createContact(t);
    assert.equal(await count(), 1);
  });
});
