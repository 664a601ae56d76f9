// The loader on a customer's page: it neither restyles the page nor is restyled by it; calls
// made before it loads are queued; show, hide, toggle, Escape, onUnreadCountChange and logout;
// a returning visitor's frame loads at once so unread replies reach the badge; typing both ways.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { dataOf } from '../../server/test/helpers.ts';
import { nextFrame, openSocket, type TestSocket } from '../../server/test/sockets.ts';
import { createWidgetInbox, type WidgetInboxFixture } from '../../server/test/widget.ts';
import { browserMissing, chatFrame, LAUNCHER, sitePage, startWorld, storedSession, type World, watch } from './harness.ts';

const skip = browserMissing();

/** Rules a careless site might have: every one would hit the launcher if it were in the page's DOM. */
const HOSTILE_CSS = `<style>
* { font-family: "Comic Sans MS", cursive !important; color: rgb(255, 0, 0) !important; box-sizing: content-box !important; }
button { width: 300px !important; height: 12px !important; background: rgb(0, 255, 0) !important; border: 7px solid red !important; border-radius: 0 !important; }
div, span, iframe, parley-widget { display: none !important; opacity: 0 !important; }
parley-widget { position: absolute !important; top: 0 !important; }
</style>`;

const STUB = (inbox: string, base: string) => `<script>
window.Parley = { q: [] };
['init', 'setUser', 'show', 'hide', 'toggle', 'logout', 'onUnreadCountChange'].forEach(function (m) {
  Parley[m] = function () { Parley.q.push([m, arguments]); };
});
window.unreadCounts = [];
Parley.onUnreadCountChange(function (n) { window.unreadCounts.push(n); });
Parley.init({ inbox: '${inbox}', baseUrl: '${base}' });
</script>`;

const HOST_ELEMENTS = '<button id="host-button">Host button</button><div id="host-div"><span>Host text</span></div>';

function hostStyles(page: Page) {
  return page.evaluate(() => {
    const pick = (el: Element | null) => {
      if (!el) return null;
      const style = getComputedStyle(el);
      return [style.display, style.color, style.fontFamily, style.width, style.height, style.background, style.position, style.zIndex].join(
        '|',
      );
    };
    return {
      button: pick(document.getElementById('host-button')),
      div: pick(document.getElementById('host-div')),
      body: pick(document.body),
      html: pick(document.documentElement),
      head: document.head.children.length,
    };
  });
}

/** Adds the loader to the page now, as an async script tag arriving late would. */
function loadWidget(page: Page, base: string) {
  return page.evaluate((src) => {
    const script = document.createElement('script');
    script.src = src;
    document.body.appendChild(script);
  }, `${base}/widget.js`);
}

const panelOpen = (page: Page) => page.locator('parley-widget .p.o').isVisible();
const unreadCounts = (page: Page) => page.evaluate(() => (window as unknown as { unreadCounts: number[] }).unreadCounts);

describe('the loader on a customer page', { skip: skip ?? false, timeout: 120_000 }, () => {
  let world: World;
  let chat: WidgetInboxFixture;
  let page: Page;
  let problems: string[];

  before(async () => {
    world = await startWorld();
    chat = await createWidgetInbox(world.t, { launcher: { color: '#ff6600', position: 'right', spacing: { side: 24, bottom: 30 } } });
    world.pages.set('/', sitePage(world, chat.uuid, { head: HOSTILE_CSS, body: HOST_ELEMENTS, script: STUB(chat.uuid, world.base) }));
    page = await world.browser.newPage({ viewport: { width: 1200, height: 800 } });
    problems = watch(page);
  });
  after(async () => {
    await world?.close();
  });

  it('draws the launcher from the inbox settings whatever the page styles, and changes none of them', async () => {
    await page.goto(`${world.site}/`);
    const before = await hostStyles(page);
    // The stub queued init(); the loader arrives later, as an async script would.
    await loadWidget(page, world.base);
    const launcher = page.locator(LAUNCHER);
    await launcher.waitFor();
    const box = await launcher.boundingBox();
    assert.deepEqual(box && { width: box.width, height: box.height, right: 1200 - box.x - box.width, bottom: 800 - box.y - box.height }, {
      width: 56,
      height: 56,
      right: 24,
      bottom: 30,
    });
    const look = await launcher.evaluate((el) => {
      const style = getComputedStyle(el);
      return { background: style.backgroundColor, opacity: style.opacity, display: style.display, border: style.borderTopWidth };
    });
    assert.deepEqual(look, { background: 'rgb(255, 102, 0)', opacity: '1', display: 'flex', border: '0px' });
    assert.equal(await launcher.getAttribute('aria-label'), 'Open chat');
    assert.deepEqual(await hostStyles(page), before, 'the page looks the same: no style of the widget reaches it');
    const added = await page.evaluate(() => [...document.body.children].filter((el) => el.tagName !== 'SCRIPT').map((el) => el.tagName));
    assert.deepEqual(added, ['H1', 'BUTTON', 'DIV', 'PARLEY-WIDGET'], 'one element is added, at the end of the body');
    assert.equal(await page.locator('parley-widget iframe').count(), 0, 'no frame before it is needed');
  });

  it('show, hide, toggle and Escape open and close the chat; onUnreadCountChange and the badge follow agent replies', async () => {
    const call = (name: string) =>
      page.evaluate((method) => (window as unknown as Record<string, Record<string, () => void>>)['Parley']?.[method]?.(), name);
    await call('show');
    const frame = await chatFrame(page);
    assert.equal(await panelOpen(page), true);
    assert.equal(await page.locator(LAUNCHER).getAttribute('aria-expanded'), 'true');
    await call('hide');
    assert.equal(await panelOpen(page), false);
    await call('toggle');
    assert.equal(await panelOpen(page), true);
    await frame.getByRole('button', { name: 'Start a conversation' }).click();
    await frame.getByLabel('Message').fill('Do you ship to Norway?');
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.locator('[role="log"]').getByText('Do you ship to Norway?').waitFor();
    await frame.locator('body').press('Escape');
    await page.waitForFunction(() => !document.querySelector('parley-widget')?.shadowRoot?.querySelector('.p.o'));

    const [conversation] = dataOf<{ results: Array<{ uuid: string }> }>(
      await world.t.call({ method: 'GET', url: `/api/v1/conversations/all?inbox_id=${chat.inbox.id}` }),
    ).results;
    const uuid = (conversation as { uuid: string }).uuid;
    dataOf(await world.t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload: { message: 'Yes, we do!' } }));
    await page.waitForFunction(() => (window as unknown as { unreadCounts: number[] }).unreadCounts.at(-1) === 1);
    assert.equal(await page.locator('parley-widget .b').textContent(), '1');
    assert.equal(await page.locator(LAUNCHER).getAttribute('aria-label'), 'Open chat, 1 unread');

    await page.locator(LAUNCHER).click();
    await frame.locator('[role="log"]').getByText('Yes, we do!').waitFor();
    await page.waitForFunction(() => (window as unknown as { unreadCounts: number[] }).unreadCounts.at(-1) === 0);
    assert.equal(await page.locator('parley-widget .b').isVisible(), false);
    assert.equal(await page.locator(LAUNCHER).getAttribute('aria-label'), 'Close chat', 'the count read while open keeps the name');
    assert.deepEqual(problems, []);
  });

  it('carries typing both ways between the visitor and the agent', async () => {
    const frame = await chatFrame(page);
    const [conversation] = dataOf<{ results: Array<{ uuid: string }> }>(
      await world.t.call({ method: 'GET', url: `/api/v1/conversations/all?inbox_id=${chat.inbox.id}` }),
    ).results;
    const uuid = (conversation as { uuid: string }).uuid;
    let agent: TestSocket | null = null;
    try {
      agent = await openSocket(`${world.base.replace('http', 'ws')}/ws`, world.t.admin.headers);
      agent.send({ type: 'subscribe', data: { conversation_uuid: uuid } });
      await nextFrame(agent, (f) => f.type === 'subscribed');
      await frame.getByLabel('Message').pressSequentially('Also', { delay: 20 });
      const typing = await nextFrame(agent, (f) => f.type === 'typing');
      assert.deepEqual((typing.data as { is_typing: boolean; conversation_uuid: string }).is_typing, true);
      agent.send({ type: 'typing', data: { conversation_uuid: uuid, is_typing: true } });
      await frame.getByText('An agent is typing…').waitFor();
    } finally {
      await agent?.close();
    }
  });

  it('loads a returning visitor’s frame at once, so replies reach the badge; logout forgets the session', async () => {
    await page.reload();
    await loadWidget(page, world.base);
    await chatFrame(page);
    assert.equal(await panelOpen(page), false, 'loaded, but closed');
    const [conversation] = dataOf<{ results: Array<{ uuid: string }> }>(
      await world.t.call({ method: 'GET', url: `/api/v1/conversations/all?inbox_id=${chat.inbox.id}` }),
    ).results;
    const uuid = (conversation as { uuid: string }).uuid;
    // Sent while the reloaded frame may still be joining: live, or read again once joined.
    dataOf(await world.t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload: { message: 'Anything else?' } }));
    await page.waitForFunction(() => (window as unknown as { unreadCounts: number[] }).unreadCounts.at(-1) === 1, undefined, {
      timeout: 10_000,
    });

    const frame = await chatFrame(page);
    assert.ok((await storedSession(page, frame, chat.uuid)).token, 'a session before logout');
    await page.evaluate(() => (window as unknown as { Parley: { logout(): void } }).Parley.logout());
    await page.waitForFunction(() => (window as unknown as { unreadCounts: number[] }).unreadCounts.at(-1) === 0);
    const deadline = Date.now() + 5000;
    let stored = await storedSession(page, frame, chat.uuid);
    while (stored.token !== null && Date.now() < deadline) {
      await page.waitForTimeout(50);
      stored = await storedSession(page, frame, chat.uuid);
    }
    assert.deepEqual(stored, { token: null, user: null, visitor: null }, 'the session is forgotten');
    await page.reload();
    await loadWidget(page, world.base);
    await page.locator(LAUNCHER).waitFor();
    await page.waitForTimeout(800);
    assert.equal(await page.locator('parley-widget iframe').count(), 0, 'a visitor without a session gets no frame until the chat opens');
    assert.deepEqual(await unreadCounts(page), [0], 'a listener hears the count at once');
  });
});
