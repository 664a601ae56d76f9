// The inbox editor and the secrets shown once, in a real browser: a live chat's appearance edited
// with the preview (the real chat frame and launcher) following before saving, the API then holding the new settings; the embed
// snippet names the inbox; an email inbox's new server without its password shows the API's field
// error on the right tab, and its Test connection shows a closed port on a private address as unreachable; a webhook's generated secret and an agent's API secret are shown once and
// work. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createInbox } from '../factories.ts';
import { basicHeader, dataOf } from '../helpers.ts';
import { freePort } from '../process-helpers.ts';
import { createWidgetInbox, startVisitor, widgetCall } from '../widget.ts';
import { browserMissing, describeViolations, seriousViolations, type WebServer, type AdminSession, adminSession } from './admin-harness.ts';

const skip = browserMissing() ?? false;

/** Reads until `read` answers `expected` (10 s at most), then asserts it. */
async function until<T>(read: () => Promise<T>, expected: T, label: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  assert.deepEqual(last, expected, label);
}

describe('inbox settings and secrets', { skip }, () => {
  let session: AdminSession | undefined;
  let server: WebServer;
  let page: Page;
  before(async () => {
    session = await adminSession(undefined, { env: { EMAIL_TIMEOUT_SECONDS: '2' } });
    ({ server, page } = session);
  });
  after(() => session?.close());

  it("edits a live chat's appearance with a live preview, and saves it", async () => {
    const inbox = await createInbox(server.t, { name: 'Website chat' });
    await page.goto(`/admin/inboxes/${inbox.id}`);
    await page.getByRole('tab', { name: 'Appearance' }).click();
    const preview = page.getByRole('figure', { name: 'Preview of the chat widget' });
    // The preview is the real chat frame (preview mode) and the loader's own launcher.
    const frame = preview.frameLocator('iframe');
    await frame.getByRole('heading', { name: 'Support' }).waitFor();
    await frame.getByText('Hi there! How can we help?').waitFor();
    const frameHeader = () =>
      frame.locator('header.top').evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor);
    assert.equal(await frameHeader(), 'rgb(37, 99, 235)', 'the default colour');
    await page.getByLabel('Brand name').fill('Acme Help');
    await page.getByLabel('Main colour', { exact: true }).fill('#ff5500');
    // White text on it is hard to read: the form says so.
    await page.getByText(/White text on this colour is hard to read/).waitFor();
    await page.getByLabel('Greeting').fill('Hello from Acme!');
    await page.getByRole('combobox', { name: 'Corner' }).click();
    await page.getByRole('option', { name: 'Bottom left' }).click();
    // The preview follows the draft before anything is saved.
    await frame.getByRole('heading', { name: 'Acme Help' }).waitFor();
    await frame.getByText('Hello from Acme!').waitFor();
    await until(frameHeader, 'rgb(255, 85, 0)', "the frame's header in the new colour");
    const launcher = preview.locator('[data-testid="preview-launcher"] button');
    // In the left corner: within the left half of the preview's stage.
    const stage = preview.locator('.widget-preview__box');
    const onTheLeft = async () => {
      const [button, box] = [await launcher.boundingBox(), await stage.boundingBox()];
      return button !== null && box !== null && button.x + button.width - box.x < box.width / 2;
    };
    await until(onTheLeft, true, 'the launcher moved to the left corner');
    const look = await launcher.evaluate((el) => ({
      background: el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor,
      label: el.getAttribute('aria-label'),
    }));
    assert.deepEqual(look, { background: 'rgb(255, 85, 0)', label: 'Close chat' });
    // A half-typed colour is refused by the server: the last good preview stays, with a note.
    await page.getByLabel('Main colour', { exact: true }).fill('#ff55');
    await preview.getByText(/Some settings are not valid yet/).waitFor();
    assert.equal(await frameHeader(), 'rgb(255, 85, 0)');
    await page.getByLabel('Main colour', { exact: true }).fill('#ff5500');
    await preview.getByText(/Some settings are not valid yet/).waitFor({ state: 'detached' });
    // The sample conversation, the composer disabled.
    await page.getByRole('button', { name: 'Conversation', exact: true }).click();
    await frame.getByRole('log').getByText('How can we help you today?').waitFor();
    assert.equal(await frame.getByLabel('Message').isDisabled(), true);
    // The launcher closes and opens the preview's chat, as on a site.
    await launcher.click();
    await preview.locator('iframe').waitFor({ state: 'hidden' });
    await launcher.click();
    await preview.locator('iframe').waitFor({ state: 'visible' });

    // The preview is the customer's widget in the customer's colours (axe would judge their
    // choice, which the form already warns about): audit the rest of the screen.
    const violations = await seriousViolations(page, ['.widget-preview__box']);
    assert.deepEqual(violations, [], describeViolations(violations));
    const visitors = await server.t.deps.db
      .selectFrom('widget_sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(visitors.n), 0, 'the preview created no visitor');

    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await page.getByText('Inbox saved', { exact: true }).waitFor();
    const saved = dataOf<{
      config: { brand_name: string; greeting_message: string; colors: { primary: string }; launcher: { position: string }; secret: string };
    }>(await server.t.call({ method: 'GET', url: `/api/v1/inboxes/${inbox.id}` }));
    assert.equal(saved.config.brand_name, 'Acme Help');
    assert.equal(saved.config.greeting_message, 'Hello from Acme!');
    assert.equal(saved.config.colors.primary, '#ff5500');
    assert.equal(saved.config.launcher.position, 'left');
    assert.equal(saved.config.secret, '••••••••••', 'the secret stays masked, and stored');

    await page.getByRole('tab', { name: 'Install' }).click();
    const snippet = await page.getByRole('textbox', { name: 'Embed snippet' }).inputValue();
    assert.equal(snippet, `<script src="${server.base}/widget.js" data-inbox="${inbox.uuid}" async></script>`);
  });

  it('checks on the Install tab whether a site may embed the chat, by the allowed sites as edited', async () => {
    const inbox = await createInbox(server.t, { name: 'Shop chat', config: { trusted_domains: ['shop.example.com'] } });
    await page.goto(`/admin/inboxes/${inbox.id}`);
    await page.getByRole('tab', { name: 'Install' }).click();
    const site = page.getByRole('textbox', { name: 'Check a site' });
    const check = page.getByRole('button', { name: 'Check', exact: true });
    await site.fill('https://shop.example.com/cart');
    await check.click();
    await page.getByText('https://shop.example.com may embed the chat.').waitFor();
    await site.fill('blog.example.net');
    await site.press('Enter');
    await page.getByText('https://blog.example.net is not in the allowed sites', { exact: false }).waitFor();
    assert.equal(await page.getByText('Not allowed', { exact: true }).count(), 1);
    // The list as edited counts, before it is saved.
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByLabel('Sites allowed to embed the chat').fill('shop.example.com\nblog.example.net');
    await page.getByRole('tab', { name: 'Install' }).click();
    await site.fill('https://blog.example.net');
    await check.click();
    await page.getByText('https://blog.example.net may embed the chat.').waitFor();
    await site.fill('ftp://blog.example.net');
    await check.click();
    await page.getByText('url: must be an http or https address').waitFor();
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
  });

  it("shows the API's field error on the mail servers' tab", async () => {
    const inbox = await createInbox(server.t, { channel: 'email' });
    await page.goto(`/admin/inboxes/${inbox.id}`);
    await page.getByRole('tab', { name: 'Mail servers' }).click();
    // A new server with the masked password kept: the API refuses (a kept password only goes to its own server).
    await page.getByRole('textbox', { name: 'Server' }).first().fill('imap.other.example.com');
    await page.getByRole('tab', { name: 'General' }).click();
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await page.getByRole('tab', { name: 'Mail servers', selected: true }).waitFor();
    const fieldError = page.getByRole('tabpanel').getByRole('alert').first();
    await fieldError.waitFor();
    assert.ok(((await fieldError.textContent()) ?? '').length > 0);
    const stored = dataOf<{ config: { imap: { host: string } } }>(
      await server.t.call({ method: 'GET', url: `/api/v1/inboxes/${inbox.id}` }),
    );
    assert.equal(stored.config.imap.host, 'imap.example.com', 'nothing was stored');
  });

  it("tests the mail servers' settings and shows each failure", async () => {
    const port = await freePort();
    const closed = { host: '127.0.0.1', port, username: 'support', password: 'pw-not-shown', tls: 'none' };
    const inbox = await createInbox(server.t, { channel: 'email', config: { imap: closed, smtp: closed } });
    await page.goto(`/admin/inboxes/${inbox.id}`);
    await page.getByRole('tab', { name: 'Mail servers' }).click();
    await page.getByRole('button', { name: 'Test connection' }).click();
    const results = page.getByRole('tabpanel').locator('dl.details');
    // A private address: one generic answer, at the test's deadline (EMAIL_TIMEOUT_SECONDS, 2 s here).
    await results.getByText('Could not reach an SMTP server').waitFor();
    const text = (await results.textContent()) ?? '';
    assert.match(text, /Incoming mail \(IMAP\)Failed\s*Could not reach an IMAP server at 127\.0\.0\.1:\d+ \(a private address/);
    assert.match(text, /Outgoing mail \(SMTP\)Failed\s*Could not reach an SMTP server at 127\.0\.0\.1:\d+/);
    assert.ok(!text.includes('pw-not-shown'));
  });

  it("rotates a live chat's secret and ends its chat sessions with it", async () => {
    const chat = await createWidgetInbox(server.t);
    const visitor = await startVisitor(server.t, chat.uuid);
    await page.goto(`/admin/inboxes/${chat.inbox.id}`);
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('switch', { name: 'End every chat session of this inbox too' }).click();
    await page.getByRole('button', { name: 'Rotate the secret' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await dialog.getByText('end every chat session of this inbox').waitFor();
    await dialog.getByRole('button', { name: 'Rotate the secret' }).click();
    await page.getByText('1 chat session ended').waitFor();
    const secret = await page.getByRole('textbox', { name: 'JWT secret' }).inputValue();
    assert.ok(secret.length >= 32 && secret !== chat.secret);
    const me = await widgetCall(server.t, { url: 'chat/auth/me', inbox: chat.uuid, token: visitor.token });
    assert.equal(me.statusCode, 401, "the visitor's session ended");
  });

  it("shows a webhook's generated secret once", async () => {
    await page.goto('/admin/webhooks');
    await page.getByRole('button', { name: 'New webhook' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByLabel('Name', { exact: true }).fill('CRM');
    await dialog.getByLabel('Address').fill('https://crm.example.com/hooks/parley');
    await dialog.getByRole('checkbox', { name: 'message.created' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = await secretDialog.getByLabel('Signing secret', { exact: true }).inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    await secretDialog.getByRole('button', { name: 'I have copied it' }).click();
    const hooks = dataOf<Array<{ name: string; events: string[]; secret: string }>>(
      await server.t.call({ method: 'GET', url: '/api/v1/webhooks' }),
    );
    const hook = hooks.find((h) => h.name === 'CRM');
    assert.deepEqual(hook?.events, ['conversation.created', 'message.created']);
    assert.equal(hook?.secret, '••••••••••', 'never answered again');
  });

  it("shows an agent's new API secret once, and it works", async () => {
    const agent = await server.t.makeAgent({ first_name: 'Keyholder' });
    await page.goto('/admin/agents');
    await page.getByRole('button', { name: 'Edit Keyholder Test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit agent' });
    await dialog.getByRole('button', { name: 'Replace the key' }).click();
    await page.getByRole('dialog', { name: 'Replace the key' }).getByRole('button', { name: 'Replace the key' }).click();
    const key = await dialog.getByRole('textbox', { name: 'API key', exact: true }).inputValue();
    const secret = await dialog.getByRole('textbox', { name: 'API secret', exact: true }).inputValue();
    const me = await server.t.call({
      method: 'GET',
      url: '/api/v1/agents/me',
      as: null,
      headers: { authorization: basicHeader(key, secret) },
    });
    assert.equal(dataOf<{ id: number }>(me).id, agent.id);
    const old = await server.t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent });
    assert.equal(old.statusCode, 401, 'the replaced key no longer works');
  });
});
