// The frame in preview mode (/widget/frame/?preview=1), as the web app embeds it: on a page of
// Parley's own origin, it renders the settings the page sends (the answer of
// POST /inboxes/{id}/widget-preview), follows each new message, shows a sample conversation with
// the composer disabled, and opens no socket, calls no API and creates no visitor.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { dataOf } from '../../server/test/helpers.ts';
import { createWidgetInbox, type WidgetInboxFixture } from '../../server/test/widget.ts';
import { browserMissing, startWorld, type World, watch } from './harness.ts';

const skip = browserMissing();

/** A page of Parley's origin (the web app's place) embedding the preview frame; it relays what the test asks. */
const HOST = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Preview host</title></head><body>
<iframe id="preview" title="Chat preview" src="/widget/frame/?preview=1" style="width:380px;height:600px;border:0"></iframe>
<script>
window.ready = false;
addEventListener('message', function (event) {
  var frame = document.getElementById('preview');
  if (event.source === frame.contentWindow && event.origin === location.origin && event.data && event.data.type === 'ready') window.ready = true;
});
window.sendPreview = function (data) {
  document.getElementById('preview').contentWindow.postMessage({ parley: 1, type: 'preview', data: data }, location.origin);
};
</script></body></html>`;

describe('the widget frame in preview mode', { skip: skip ?? false, timeout: 120_000 }, () => {
  let world: World;
  let chat: WidgetInboxFixture;
  let page: Page;
  let frame: Frame;
  let problems: string[];
  const requests: string[] = [];
  const sockets: string[] = [];

  const previewOf = async (draft: Record<string, unknown>) =>
    dataOf<{ settings: Record<string, unknown> }>(
      await world.t.call({ method: 'POST', url: `/api/v1/inboxes/${chat.inbox.id}/widget-preview`, payload: draft }),
    ).settings;
  const send = (data: unknown) => page.evaluate((d) => (window as unknown as { sendPreview(d: unknown): void }).sendPreview(d), data);
  /** Contacts and visitors are rows of `users`; their sessions of `widget_sessions`. */
  const contactCount = async () => {
    const db = world.t.deps.db;
    const users = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const sessions = await db
      .selectFrom('widget_sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return `${users.n} users, ${sessions.n} widget sessions`;
  };

  before(async () => {
    world = await startWorld();
    chat = await createWidgetInbox(world.t);
    page = await world.browser.newPage({ viewport: { width: 1000, height: 800 } });
    problems = watch(page);
    page.on('request', (request) => requests.push(request.url()));
    page.on('websocket', (socket) => sockets.push(socket.url()));
    // The host page is answered as if Parley served it: same origin as the frame, like the web app.
    await page.route(`${world.base}/preview-host`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: HOST }));
  });
  after(async () => {
    await world?.close();
  });

  it('renders the settings it is sent, and each change', async () => {
    const contactsBefore = await contactCount();
    await page.goto(`${world.base}/preview-host`);
    await page.waitForFunction(() => (window as unknown as { ready: boolean }).ready === true);
    const found = page.frames().find((f) => f.url().includes('/widget/frame/?preview=1'));
    assert.ok(found, 'the preview frame');
    frame = found;

    const settings = await previewOf({
      brand_name: 'Acme help',
      greeting_message: 'Ahoy from the draft',
      colors: { primary: '#0f766e' },
      notice_banner: { enabled: true, text: 'Closed on Friday' },
    });
    await send({ settings });
    await frame.getByRole('heading', { name: 'Acme help' }).waitFor();
    await frame.getByText('Ahoy from the draft').waitFor();
    await frame.getByText('Closed on Friday').waitFor();
    const primary = await frame.evaluate(() => document.documentElement.style.getPropertyValue('--primary'));
    assert.equal(primary, '#0f766e');
    const button = await frame.getByRole('button', { name: 'Start a conversation' }).evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(button, 'rgb(15, 118, 110)', 'the start button in the primary colour');

    await send({ settings: await previewOf({ greeting_message: 'Changed greeting', colors: { primary: '#b91c1c' } }) });
    await frame.getByText('Changed greeting').waitFor();
    assert.equal(await frame.evaluate(() => document.documentElement.style.getPropertyValue('--primary')), '#b91c1c');
    assert.equal(await frame.getByText('Closed on Friday').count(), 0);

    assert.deepEqual(sockets, [], 'no socket');
    const api = requests.filter((url) => url.includes('/api/') || url.includes('/widget/ws'));
    assert.deepEqual(api, [], 'no API call');
    assert.equal(await contactCount(), contactsBefore, 'no visitor created');
    assert.deepEqual(await frame.evaluate(() => Object.keys(localStorage)), [], 'no session stored');
  });

  it('shows a sample conversation with the composer disabled, and the pre-chat form', async () => {
    const settings = await previewOf({
      prechat_form: {
        enabled: true,
        title: 'Who are you?',
        fields: [
          { key: 'name', type: 'text', label: 'Your name', placeholder: '', required: true, enabled: true, order: 1, is_default: true },
        ],
      },
    });
    await send({ settings, view: 'conversation' });
    await frame.getByRole('log').getByText('How can we help you today?').waitFor();
    assert.equal(await frame.getByLabel('Message').isDisabled(), true, 'the composer is disabled');
    assert.equal(await frame.getByRole('button', { name: 'Send' }).isDisabled(), true);

    await send({ settings, view: 'prechat' });
    await frame.getByRole('heading', { name: 'Who are you?' }).waitFor();
    // The name field is asked in two parts, under the inbox's own label.
    await frame.getByRole('group', { name: 'Your name' }).getByLabel('First name').waitFor();
    await frame.getByRole('group', { name: 'Your name' }).getByLabel('Last name').waitFor();

    await frame.getByRole('button', { name: 'Back to conversations' }).click();
    await frame.getByRole('button', { name: 'Start a conversation' }).click();
    await frame.getByRole('heading', { name: 'Who are you?' }).waitFor();
    assert.deepEqual(sockets, [], 'no socket');
    assert.deepEqual(
      requests.filter((url) => url.includes('/api/')),
      [],
      'no API call',
    );
  });

  it('ignores malformed settings and messages from other windows', async () => {
    const before = await frame.locator('h1').textContent();
    await send({ settings: { brand_name: 'Broken', colors: { primary: 'red' } } });
    await send({ settings: 'nonsense' });
    // A message from the frame's own window (not its parent) is not heard either.
    await frame.evaluate(() =>
      window.postMessage({ parley: 1, type: 'preview', data: { settings: { brand_name: 'Self' } } }, location.origin),
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await frame.locator('h1').textContent(), before);
    assert.deepEqual(
      problems.filter((p) => !p.includes('favicon')),
      [],
    );
  });
});
