// A site missing from the inbox's allowed sites (trusted_domains): the loader asks first and
// shows nothing (no launcher, no frame), saying why in one console line; a site on the list
// still gets the launcher and a working chat.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createWidgetInbox } from '../../server/test/widget.ts';
import { browserMissing, chatFrame, LAUNCHER, sitePage, startWorld, type World } from './harness.ts';

const skip = browserMissing();

describe('the loader on a site the inbox does or does not allow', { skip: skip ?? false, timeout: 120_000 }, () => {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(async () => {
    await world?.close();
  });

  it('stays hidden on a site left out of the list, with one console line naming it', async () => {
    const chat = await createWidgetInbox(world.t, { trusted_domains: ['shop.example.com'] });
    world.pages.set('/refused', sitePage(world, chat.uuid));
    const page = await world.browser.newPage();
    const lines: string[] = [];
    page.on('console', (message) => {
      if (message.text().startsWith('Parley')) lines.push(`${message.type()}: ${message.text()}`);
    });
    const settled = page.waitForResponse((res) => res.url().includes('/settings/launcher'));
    await page.goto(`${world.site}/refused`);
    assert.equal((await settled).status(), 403);
    // The loader logs once the refusal is read; a moment more for anything it would draw.
    await page.waitForTimeout(500);
    assert.deepEqual(lines, [`warning: Parley: this site (${world.site}) is not in the inbox's allowed sites; the chat stays hidden`]);
    assert.equal(await page.locator('parley-widget').count(), 0, 'nothing is added to the page');
    assert.equal(await page.locator('iframe').count(), 0, 'no frame');
    // The host API answers without drawing anything either.
    await page.evaluate(() => (window as unknown as { Parley: { show(): void } }).Parley.show());
    await page.waitForTimeout(300);
    assert.equal(await page.locator('parley-widget').count(), 0);
    await page.close();
  });

  it('shows the launcher and a working chat on a site of the list', async () => {
    const chat = await createWidgetInbox(world.t, { trusted_domains: ['shop.example.com', 'localhost'] });
    world.pages.set('/allowed', sitePage(world, chat.uuid));
    const page = await world.browser.newPage();
    const lines: string[] = [];
    page.on('console', (message) => {
      if (message.text().startsWith('Parley')) lines.push(message.text());
    });
    await page.goto(`${world.site}/allowed`);
    await page.locator(LAUNCHER).click();
    const frame = await chatFrame(page);
    await frame.getByRole('button', { name: 'Start a conversation' }).click();
    await frame.getByLabel('Message').fill('Hello from an allowed site');
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.locator('[role="log"]').getByText('Hello from an allowed site').waitFor();
    assert.deepEqual(lines, []);
    await page.close();
  });
});
