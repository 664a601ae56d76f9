// The conversation thread in a real browser: a long thread is virtualised (only what is on screen
// is in the page) and loads older pages on demand; each message shows who wrote it, with their
// picture when they have one, initials otherwise.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createConversation } from '../factories.ts';
import { type Caller, dataOf } from '../helpers.ts';
import { browserMissing, newPage, pageErrors, type WebServer } from '../browser.ts';
import { type AgentDesk, agentDesk } from './agent-harness.ts';

describe('the conversation thread in a browser', { skip: browserMissing() ?? false, timeout: 180_000 }, () => {
  let desk: AgentDesk | undefined;
  let server: WebServer;
  let browser: Browser;
  let ann: Caller;
  let inboxId: number;

  before(async () => {
    desk = await agentDesk();
    ({ server, browser, ann, inboxId } = desk);
  });
  after(() => desk?.close());

  /** A page signed in as Ann. */
  async function signedIn() {
    const opened = await newPage(browser, server.base);
    await desk?.signedIn(opened.page);
    return opened;
  }

  it('virtualises a long thread and loads older pages on demand', async () => {
    const { t } = server;
    const long = await createConversation(t, {
      inbox_id: inboxId,
      assignee_id: ann.id,
      subject: 'A long one',
      content: '<p>Message 0</p>',
      contact_email: 'noah@example.com',
    });
    for (let i = 1; i <= 149; i++) {
      dataOf(
        await t.call({
          method: 'POST',
          url: `/api/v1/conversations/${long.uuid}/messages`,
          payload: { message: `<p>Message ${i}</p>`, private: true },
        }),
      );
    }
    const { page, context } = await signedIn();
    try {
      await page.goto(`/inbox/mine/c/${long.uuid}`);
      const thread = page.getByRole('log', { name: 'Messages' });
      await thread.getByText('Message 149', { exact: true }).waitFor();
      const rendered = await thread.locator('article').count();
      assert.ok(rendered > 0 && rendered < 40, `only what is on screen is in the page: ${rendered} of 100 loaded`);
      // The first page holds the newest 100; the oldest arrive with "Load older messages".
      await thread.getByRole('button', { name: 'Load older messages' }).click();
      await thread.getByRole('button', { name: 'Load older messages' }).waitFor({ state: 'detached' });
      // Scrolled to the top with the keyboard (the thread takes focus). Rows are measured as they
      // appear, which can stop a long scroll short of the top: Home again, as a person would.
      await thread.focus();
      const oldest = thread.getByText('Message 0', { exact: true });
      for (let i = 0; i < 5 && !(await oldest.isVisible()); i++) {
        await page.keyboard.press('Home');
        await page.waitForTimeout(400);
      }
      await thread.getByText('Message 0', { exact: true }).waitFor();
      assert.ok((await thread.locator('article').count()) < 40, 'still virtualised with every page loaded');
      assert.deepEqual(pageErrors(page), []);
    } finally {
      await context.close();
    }
  });

  it('shows the picture of each author who has one, and initials for one who has none', async () => {
    const { t } = server;
    // Pictures served by Parley itself (the web app's CSP takes images from its own origin and https).
    const picture = `${server.base}/favicon.svg`;
    const grace = await t.makeAgent({ roles: ['Admin'], first_name: 'Grace' });
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${grace.id}`, payload: { avatar_url: picture } }));
    const conversation = await createConversation(t, {
      inbox_id: inboxId,
      assignee_id: ann.id,
      subject: 'Pictures',
      content: '<p>The contact writes</p>',
      contact_email: 'olga@example.com',
    });
    dataOf(
      await t.call({
        method: 'POST',
        url: `/api/v1/conversations/${conversation.uuid}/messages`,
        payload: { message: '<p>Grace answers</p>' },
        as: grace,
      }),
    );
    dataOf(
      await t.call({
        method: 'POST',
        url: `/api/v1/conversations/${conversation.uuid}/messages`,
        payload: { message: '<p>Ann answers</p>' },
        as: ann,
      }),
    );
    const { page, context } = await signedIn();
    try {
      await page.goto(`/inbox/mine/c/${conversation.uuid}`);
      const thread = page.getByRole('log', { name: 'Messages' });
      const byText = (text: string) => thread.locator('article', { hasText: text });
      await byText('Ann answers').waitFor();
      const image = byText('Grace answers').locator('img');
      await image.waitFor();
      assert.equal(await image.getAttribute('src'), picture, "Grace's picture");
      assert.ok(
        await image.evaluate((img) => {
          const loaded = img as unknown as { complete: boolean; naturalWidth: number };
          return loaded.complete && loaded.naturalWidth > 0;
        }),
        'the picture loaded',
      );
      for (const text of ['Ann answers', 'The contact writes'])
        assert.equal(await byText(text).locator('img').count(), 0, `${text}: no picture`);
      assert.equal((await byText('Ann answers').locator('.ui-avatar__fallback').textContent())?.trim(), 'AT', 'her initials instead');
      assert.deepEqual(pageErrors(page), []);
    } finally {
      await context.close();
    }
  });
});
