// The webhook screens in a real browser, against a real receiver on loopback: an admin creates a
// webhook, copies the secret Parley shows once, watches a delivery fail in the log (the answer's
// status and body shown), retries it by hand once the receiver is fixed, and the receiver gets
// the same message again, signed with that secret. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { createConversation, createInbox } from '../factories.ts';
import { WEBHOOK_EVENTS } from '../../src/webhooks/webhooks.events.ts';
import { dataOf } from '../helpers.ts';
import { type Receiver, startReceiver } from '../receiver.ts';
import { type AdminSession, adminSession, browserMissing, describeViolations, seriousViolations, type WebServer } from './admin-harness.ts';

describe('webhook screens', { skip: browserMissing() ?? false }, () => {
  let session: AdminSession | undefined;
  let receiver: Receiver | undefined;
  let server: WebServer;
  let page: Page;

  before(async () => {
    receiver = await startReceiver();
    session = await adminSession(undefined, { env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
    ({ server, page } = session);
  });
  after(async () => {
    await session?.close();
    await receiver?.close();
  });

  it('logs a failed delivery with its answer, and a manual retry delivers the same signed message', async () => {
    const hook = receiver as Receiver;
    hook.answer({ status: 500, body: 'receiver is down for maintenance' });

    await page.goto('/admin/webhooks');
    await page.getByRole('button', { name: 'New webhook' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByLabel('Name').fill('CRM sync');
    await dialog.getByLabel('Address').fill(hook.url);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The secret, once: what the receiver verifies signatures with.
    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = await secretDialog.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    assert.match(secret, /^whsec_/);
    await secretDialog.getByRole('button', { name: 'I have copied it' }).click();
    const [webhook] = dataOf<Array<{ id: number; events: string[]; secret: string }>>(await server.t.call({ url: '/api/v1/webhooks' }));
    assert.ok(webhook);
    assert.deepEqual(webhook.events, ['conversation.created'], 'the form subscribes to new conversations by default');
    assert.notEqual(webhook.secret, secret, 'the API never shows the secret again');

    // A subscribed event happens; the receiver refuses it.
    const inbox = await createInbox(server.t);
    const conversation = await createConversation(server.t, { inbox_id: inbox.id, subject: 'Hooked', content: '<p>Hello</p>' });
    const [first] = await hook.waitFor(1, 20_000);
    assert.ok(first);

    await page.getByRole('link', { name: 'CRM sync' }).click();
    const log = page.getByRole('table', { name: 'Deliveries' });
    // The log re-reads itself every 10 s; the page shows the failure without a reload.
    await log.getByText('Failed, will retry').waitFor({ timeout: 20_000 });
    await log.getByText('HTTP 500').waitFor();
    await log.getByRole('button', { name: 'conversation.created' }).click();
    const detail = page.getByRole('dialog', { name: 'Delivery' });
    await detail.getByText('receiver is down for maintenance').waitFor();
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));

    // The receiver is fixed; the admin does not wait for the back-off.
    hook.answer({});
    await detail.getByRole('button', { name: 'Retry now' }).click();
    await detail.getByText('Delivered').first().waitFor();
    await detail.getByText('Manual').waitFor();
    const [, again] = await hook.waitFor(2, 10_000);
    assert.ok(again);
    assert.equal(hook.requests.length, 2, 'the retry is one more request, not a second delivery');
    assert.equal(again.headers['webhook-id'], first.headers['webhook-id'], 'the same message, so the receiver can tell it apart');
    assert.equal(again.body, first.body);
    assert.equal(again.path, new URL(hook.url).pathname, 'to the address the admin typed');
    const payload = new Webhook(secret).verify(again.body, {
      'webhook-id': String(again.headers['webhook-id']),
      'webhook-timestamp': String(again.headers['webhook-timestamp']),
      'webhook-signature': String(again.headers['webhook-signature']),
    }) as { type?: string; data?: { conversation?: { uuid?: string } } };
    assert.equal(payload.type, 'conversation.created');
    assert.equal(payload.data?.conversation?.uuid, conversation.uuid);

    await detail.getByRole('button', { name: 'Close' }).click();
    await log.getByText('Delivered').waitFor();
    assert.deepEqual(session?.errors.filter((e) => !/status of 500/.test(e)) ?? [], []);
  });
  it('subscribes a webhook to every listed event, webhook.test included', async () => {
    await page.goto('/admin/webhooks');
    await page.getByRole('button', { name: 'New webhook' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByLabel('Name').fill('Everything');
    await dialog.getByLabel('Address').fill('https://hooks.example.com/all');
    for (const event of WEBHOOK_EVENTS) await dialog.getByRole('checkbox', { name: event, exact: true }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('dialog', { name: 'Signing secret' }).getByRole('button', { name: 'I have copied it' }).click();
    const hooks = dataOf<Array<{ name: string; events: string[] }>>(await server.t.call({ url: '/api/v1/webhooks' }));
    assert.deepEqual([...(hooks.find((h) => h.name === 'Everything')?.events ?? [])].sort(), [...WEBHOOK_EVENTS].sort());
  });
});
