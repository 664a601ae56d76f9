// Web Push in a real browser (docs/api.md, "Web Push"): the account section turns push on for
// this browser (permission, the service worker at /sw.js, the subscription recorded), lists the
// device, and a notification then reaches the loopback push service (server/test/push-service.ts)
// encrypted for that browser's keys, which the service decrypts.
//
// Headless Chromium cannot reach a real push service (it has no vendor push endpoint), so an
// init script stands in for PushManager.subscribe/getSubscription only: it answers a
// subscription whose endpoint is the loopback push service and whose keys this test made (so the
// service can decrypt). Everything else is the real app and browser: the permission request (the
// permission granted to the context), the service worker's registration, the VAPID key passed to
// subscribe, the POST, the listing, turning off and removing.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { enqueueJob } from '../../src/jobs/jobs.service.ts';
import { PUSH_NOTIFICATION_JOB } from '../../src/notifications/notifications.schema.ts';
import { browserMissing, launchBrowser, newPage, startWebServer, type WebServer } from '../browser.ts';
import { createConversation } from '../factories.ts';
import { type Caller, dataOf } from '../helpers.ts';
import { type PushService, startPushService, type Subscriber } from '../push-service.ts';
import { signIn } from './admin-harness.ts';

const PASSWORD = 'correct horse battery';

/** Runs in the page before the app (browser JavaScript): PushManager answers the test's subscription (see above). */
function fakePushManager(subscriber: { endpoint: string; keys: { p256dh: string; auth: string } }): string {
  return `(() => {
    const subscriber = ${JSON.stringify(subscriber)};
    const STATE = 'parley-test-push-subscribed';
    const bytes = (text) => {
      const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '='));
      return Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer;
    };
    const toBase64Url = (buffer) =>
      btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    const make = (serverKey) => ({
      endpoint: subscriber.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: serverKey },
      getKey: (name) => bytes(subscriber.keys[name]),
      toJSON: () => ({ endpoint: subscriber.endpoint, expirationTime: null, keys: subscriber.keys }),
      unsubscribe: async () => {
        localStorage.removeItem(STATE);
        return true;
      },
    });
    PushManager.prototype.subscribe = async function (options) {
      const key = options && options.applicationServerKey;
      const buffer = key instanceof ArrayBuffer ? key : key && typeof key !== 'string' ? key.buffer.slice(key.byteOffset, key.byteOffset + key.byteLength) : null;
      if (!options || !options.userVisibleOnly || !buffer) throw new DOMException('userVisibleOnly and applicationServerKey are required', 'NotAllowedError');
      localStorage.setItem(STATE, toBase64Url(buffer));
      return make(buffer);
    };
    PushManager.prototype.getSubscription = async function () {
      const key = localStorage.getItem(STATE);
      return key === null ? null : make(bytes(key));
    };
  })();`;
}

describe('Web Push in a browser', { skip: browserMissing() ?? false, timeout: 240_000 }, () => {
  let server: WebServer;
  let service: PushService;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let ann: Caller;
  let subscriber: Subscriber;

  before(async () => {
    service = await startPushService();
    server = await startWebServer({ PUSH_ALLOW_HOSTS: '127.0.0.1' });
    browser = await launchBrowser();
    ann = await server.t.makeAgent({ roles: ['Agent'], first_name: 'Ann', email: 'ann@example.com', password: PASSWORD });
    subscriber = service.subscriber();
    ({ context, page, errors } = await newPage(browser, server.base));
    await context.grantPermissions(['notifications'], { origin: server.base });
    await context.addInitScript({ content: fakePushManager({ endpoint: subscriber.endpoint, keys: subscriber.keys }) });
    await signIn(page, ann.email, PASSWORD, '/account');
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
    await service?.close();
  });

  const section = () => page.locator('#account-push');
  const devices = () => page.getByRole('list', { name: 'Devices that receive your push notifications' });
  const rows = () => server.t.deps.db.selectFrom('push_subscriptions').selectAll().where('agent_id', '=', ann.id).execute();

  it('serves the service worker at the root as JavaScript, never cached stale', async () => {
    const answer = await page.request.get('/sw.js');
    assert.equal(answer.status(), 200);
    assert.match(answer.headers()['content-type'] ?? '', /javascript/);
    assert.equal(answer.headers()['cache-control'], 'no-cache');
    assert.match(await answer.text(), /addEventListener\('push'/);
  });

  it('turns push on: permission, service worker, the VAPID key to subscribe, the subscription recorded and listed', async () => {
    await section().getByText('Off for this browser.').waitFor();
    await page.getByText('No device receives your push notifications.').waitFor();
    await section().getByRole('button', { name: 'Turn on for this browser' }).click();
    await page.getByText('Push notifications are on for this browser').first().waitFor();
    await section().getByText('On for this browser.').waitFor();
    const item = devices().getByRole('listitem');
    await item.filter({ hasText: 'This device' }).waitFor();
    assert.match(await item.innerText(), /Chrome on Linux/);
    assert.match(await item.innerText(), /127\.0\.0\.1:\d+ · added/);

    const worker = await page.evaluate(
      "navigator.serviceWorker.getRegistration('/').then((r) => (r && r.active ? r.active.scriptURL : null))",
    );
    assert.equal(worker, `${server.base}/sw.js`, 'the service worker is registered at the root');
    const usedKey = await page.evaluate("localStorage.getItem('parley-test-push-subscribed')");
    const vapid = await page.request.get('/api/v1/push/vapid-public-key');
    assert.equal(usedKey, ((await vapid.json()) as { data: { public_key: string } }).data.public_key, 'subscribed with the VAPID key');
    const stored = await rows();
    assert.equal(stored.length, 1);
    assert.equal(stored[0]?.endpoint, subscriber.endpoint);
    assert.equal(stored[0]?.p256dh, subscriber.keys.p256dh);
    await section().screenshot({ path: join(tmpdir(), 'parley-push-account.png') });
  });

  it('a notification of the agent reaches the push service, decrypted to its title and link', async () => {
    const conversation = await createConversation(server.t);
    const db = server.t.deps.db;
    const { id: conversationId } = await db
      .selectFrom('conversations')
      .select('id')
      .where('uuid', '=', conversation.uuid)
      .executeTakeFirstOrThrow();
    const now = server.t.deps.clock.now();
    // Turning the device on turned push on for the usual types (it was off for all of them).
    const settings = dataOf<{ types: Record<string, { push: boolean }> }>(
      await server.t.call({ method: 'GET', url: '/api/v1/agents/me/notification-settings', as: ann }),
    );
    assert.deepEqual(
      Object.entries(settings.types)
        .filter(([, choice]) => choice.push)
        .map(([type]) => type),
      ['assigned', 'mentioned', 'sla_breached'],
    );
    const { id } = await db
      .insertInto('notifications')
      .values({
        agent_id: ann.id,
        type: 'mentioned',
        cause_event_id: 1,
        conversation_id: conversationId,
        title: 'Bob mentioned you',
        excerpt: '@Ann can you look?',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The running workers (startWebServer) deliver it.
    await enqueueJob(server.t.deps, db, { kind: PUSH_NOTIFICATION_JOB, payload: { notification_id: Number(id) } });
    while (service.received.length === 0 && service.rejected.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(service.rejected, []);
    assert.deepEqual(service.received[0]?.payload, {
      title: 'Bob mentioned you',
      body: '@Ann can you look?',
      url: `/conversations/${conversation.uuid}`,
      tag: `parley-conversation-${conversation.uuid}`,
    });
    await page.reload();
    await devices()
      .getByText(/last push/)
      .waitFor();
  });

  it('turns push off for this browser, then on again and removes the device from the list', async () => {
    await section().getByRole('button', { name: 'Turn off for this browser' }).click();
    await section().getByText('Off for this browser.').waitFor();
    await page.getByText('No device receives your push notifications.').waitFor();
    assert.equal((await rows()).length, 0);
    assert.equal(await page.evaluate("localStorage.getItem('parley-test-push-subscribed')"), null, 'unsubscribed in the browser');

    await section().getByRole('button', { name: 'Turn on for this browser' }).click();
    await devices().getByRole('listitem').waitFor();
    await devices().getByRole('button', { name: 'Remove Chrome on Linux' }).click();
    await page.getByText('No device receives your push notifications.').waitFor();
    assert.equal((await rows()).length, 0);
    assert.deepEqual(errors, []);
  });
  it("signing out ends this browser's subscription and removes it from the server", async () => {
    await section().getByRole('button', { name: 'Turn on for this browser' }).click();
    await devices().getByRole('listitem').filter({ hasText: 'This device' }).waitFor();
    assert.equal((await rows()).length, 1);
    await page.getByTitle(/^Account menu for/).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    assert.equal((await rows()).length, 0, 'removed on the server');
    assert.equal(await page.evaluate("localStorage.getItem('parley-test-push-subscribed')"), null, 'unsubscribed in the browser');
    assert.deepEqual(errors, []);
  });
});
