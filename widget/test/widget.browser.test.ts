// The widget in a real browser, on a customer's site of another origin: a visitor opens the
// launcher, fills the pre-chat form and writes; the agent (over the API) sees the conversation
// and replies; the visitor sees the reply live (the send→seen time is measured); a signed-in
// customer's setUser JWT merges the visitor; page visits reach the agents.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { dataOf } from '../../server/test/helpers.ts';
import { SOCKETS_PER_SESSION } from '../../server/src/realtime/widget-socket.ts';
import { nextFrame, openSocket, type TestSocket } from '../../server/test/sockets.ts';
import { createWidgetInbox, signIdentity, type WidgetInboxFixture } from '../../server/test/widget.ts';
import { PRECHAT_FORM } from './fixtures.ts';
import { browserMissing, chatFrame, LAUNCHER, sitePage, startWorld, storedSession, type World, watch, whenShown } from './harness.ts';

const skip = browserMissing();

type Conversation = { uuid: string; contact: { id: number; email: string | null }; custom_attributes: Record<string, unknown> };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Whether the frame may use its own localStorage (headless Chromium refuses a third-party frame any). */
function frameHasStorage(frame: Frame): Promise<boolean> {
  return frame.evaluate(() => {
    try {
      localStorage.getItem('x');
      return true;
    } catch {
      return false;
    }
  });
}

/** What the loader keeps of the session in the host page's storage. */
function hostKept(page: Page, inbox: string): Promise<Record<'token' | 'user' | 'visitor', string | null>> {
  return page.evaluate((prefix) => {
    const value = (name: string) => localStorage.getItem(`${prefix}${name}`);
    return { token: value('token'), user: value('user'), visitor: value('visitor') };
  }, `parley:${inbox}:frame:`);
}

describe('the widget on a customer site', { skip: skip ?? false, timeout: 120_000 }, () => {
  let world: World;
  let chat: WidgetInboxFixture;
  let page: Page;
  let frame: Frame;
  let problems: string[];
  let conversation: Conversation;
  /** Every text frame the page's sockets (the chat frame's included) received, in order. */
  const received: string[] = [];

  before(async () => {
    world = await startWorld();
    chat = await createWidgetInbox(world.t, {
      brand_name: 'Acme Support',
      greeting_message: 'Hello from Acme!',
      prechat_form: PRECHAT_FORM,
      trusted_domains: ['localhost'],
    });
    world.pages.set('/', sitePage(world, chat.uuid));
    page = await world.browser.newPage();
    problems = watch(page);
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => received.push(String(payload))));
  });
  after(async () => {
    await world?.close();
  });

  it('opens from the launcher; the visitor fills the pre-chat form and writes; the agent sees it', async () => {
    await page.goto(`${world.site}/`);
    await page.locator(LAUNCHER).click();
    frame = await chatFrame(page);
    await frame.getByText('Hello from Acme!').waitFor();
    assert.equal(await frame.locator('h1').textContent(), 'Acme Support');
    await frame.getByRole('button', { name: 'Start a conversation' }).click();
    await frame.getByLabel('First name').fill('Ada');
    await frame.getByLabel('Last name').fill('Visitor');
    await frame.getByLabel('Email').fill('ada.visitor@example.com');
    await frame.getByLabel('Order number').fill('A-1234');
    await frame.getByLabel('How can we help?').fill('My parcel has not arrived');
    await frame.getByRole('button', { name: 'Start the conversation' }).click();
    await frame.locator('[role="log"]').getByText('My parcel has not arrived').waitFor();

    const list = dataOf<{ results: Array<{ uuid: string }> }>(
      await world.t.call({ method: 'GET', url: `/api/v1/conversations/all?inbox_id=${chat.inbox.id}` }),
    ).results;
    assert.equal(list.length, 1, 'the agent sees the new conversation');
    const uuid = (list[0] as { uuid: string }).uuid;
    conversation = dataOf<Conversation>(await world.t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` }));
    assert.equal(conversation.custom_attributes['order_number'], 'A-1234', 'a custom pre-chat field lands on the conversation');
    const contact = dataOf<{ first_name: string; last_name: string; email: string }>(
      await world.t.call({ method: 'GET', url: `/api/v1/contacts/${conversation.contact.id}` }),
    );
    assert.deepEqual([contact.first_name, contact.last_name], ['Ada', 'Visitor'], 'the name is asked and stored in two parts');
    assert.equal(contact.email, 'ada.visitor@example.com');
    assert.deepEqual(problems, []);
  });

  it('shows agent replies live, with the agent name; the send→seen time is measured', async () => {
    const agent = await world.t.makeAgent({ first_name: 'Grace', roles: ['Admin'] });
    const latencies: number[] = [];
    for (let i = 1; i <= 10; i++) {
      const reply = `Reply number ${i} from Grace`;
      const shown = whenShown(frame, reply);
      const sentAt = Date.now();
      dataOf(
        await world.t.call({
          method: 'POST',
          url: `/api/v1/conversations/${conversation.uuid}/messages`,
          payload: { message: `<p>${reply}</p>` },
          as: agent,
        }),
      );
      latencies.push((await shown) - sentAt);
    }
    await frame.locator('.msg', { hasText: 'Reply number 10' }).getByText('Grace Test').waitFor();
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `widget send→seen (agent API call to text in the visitor's browser), ${sorted.length} replies: median ${percentile(sorted, 50)} ms, p90 ${percentile(sorted, 90)} ms, max ${sorted.at(-1)} ms`,
    );
    assert.ok(percentile(sorted, 50) < 2000, `replies arrive live (median ${percentile(sorted, 50)} ms)`);
  });

  it('reconnects after the socket drops and re-reads what it missed', async () => {
    const server = (world.t.app as unknown as { websocketServer: { clients: Set<{ terminate(): void }> } }).websocketServer;
    for (const client of server.clients) client.terminate();
    const shown = whenShown(frame, 'Sent while you were away');
    dataOf(
      await world.t.call({
        method: 'POST',
        url: `/api/v1/conversations/${conversation.uuid}/messages`,
        payload: { message: 'Sent while you were away' },
      }),
    );
    await shown;
    // The new socket carries live replies again.
    const live = whenShown(frame, 'And live again');
    await frame.page().waitForTimeout(200);
    dataOf(
      await world.t.call({
        method: 'POST',
        url: `/api/v1/conversations/${conversation.uuid}/messages`,
        payload: { message: 'And live again' },
      }),
    );
    await live;
  });

  it('joins again once a refused join passes (too many sockets for the session), not only after a reload', async () => {
    const token = (await storedSession(page, frame, chat.uuid)).token;
    assert.ok(token, 'a visitor session');
    const server = (world.t.app as unknown as { websocketServer: { clients: Set<{ terminate(): void }> } }).websocketServer;
    for (const client of server.clients) client.terminate();
    // Other tabs take every socket the session may hold before the frame reconnects (0.5 s at the soonest).
    const others: TestSocket[] = [];
    try {
      for (let i = 0; i < SOCKETS_PER_SESSION; i++) {
        const socket = await openSocket(`${world.base.replace(/^http/, 'ws')}/widget/ws`);
        others.push(socket);
        socket.send({ type: 'join', token, data: { inbox_id: chat.uuid } });
        assert.equal((await nextFrame(socket)).type, 'joined');
      }
      // The frame's reconnect is refused meanwhile (its first retry comes within 1 s).
      await page.waitForTimeout(2500);
      await others.pop()?.close();
      const shown = whenShown(frame, 'After the refusal');
      dataOf(
        await world.t.call({
          method: 'POST',
          url: `/api/v1/conversations/${conversation.uuid}/messages`,
          payload: { message: 'After the refusal' },
        }),
      );
      await shown;
    } finally {
      for (const socket of others) await socket.close();
    }
  });

  it('reports the page visits of the host page (history changes included) to the agents', async () => {
    await page.evaluate(() => {
      document.title = 'Checkout';
      history.pushState({}, '', '/checkout?step=2');
    });
    const deadline = Date.now() + 10_000;
    let visits: Array<{ url: string; title: string }> = [];
    while (Date.now() < deadline) {
      visits = dataOf(await world.t.call({ method: 'GET', url: `/api/v1/contacts/${conversation.contact.id}/page-visits` }));
      if (visits.some((v) => v.url.endsWith('/checkout?step=2'))) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const urls = visits.map((v) => v.url);
    assert.ok(urls.includes(`${world.site}/checkout?step=2`), `the history change is reported: ${urls.join(', ')}`);
    assert.ok(
      visits.some((v) => v.title === 'Checkout'),
      'with its title',
    );
  });

  it('merges the visitor into the signed-in customer on setUser(jwt)', async () => {
    const jwt = await signIdentity(chat.secret, { external_user_id: 'customer-42', email: 'ada@example.com', first_name: 'Ada' });
    await page.evaluate((token) => (window as unknown as { Parley: { setUser(jwt: string): void } }).Parley.setUser(token), jwt);
    const deadline = Date.now() + 10_000;
    let moved: Conversation = conversation;
    while (Date.now() < deadline) {
      moved = dataOf<Conversation>(await world.t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}` }));
      if (moved.contact.id !== conversation.contact.id) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.notEqual(moved.contact.id, conversation.contact.id, 'the conversation moved to the verified contact');
    const contact = dataOf<{ email: string; type: string }>(
      await world.t.call({ method: 'GET', url: `/api/v1/contacts/${moved.contact.id}` }),
    );
    assert.equal(contact.email, 'ada@example.com');
    const stored = await storedSession(page, frame, chat.uuid);
    assert.equal(stored.visitor, null, 'the visitor token is dropped once the server merged it');
    if (await frameHasStorage(frame)) {
      assert.ok(stored.token, 'the session of the verified contact is kept in the frame');
      assert.equal((JSON.parse(stored.user ?? '{}') as { is_visitor?: boolean }).is_visitor, false);
    } else {
      // Headless Chromium refuses the frame storage: the host page's copy must not hold it.
      const deadline2 = Date.now() + 5000;
      let kept = await hostKept(page, chat.uuid);
      while ((kept.token !== null || kept.user !== null) && Date.now() < deadline2) {
        await page.waitForTimeout(50);
        kept = await hostKept(page, chat.uuid);
      }
      assert.deepEqual(kept, { token: null, user: null, visitor: null }, 'a verified session never sits in the host page');
    }

    // The customer still sees the conversation, and replies still arrive live on the new session.
    await frame.getByRole('button', { name: 'Back to conversations' }).click();
    await frame.getByText('Your conversations').waitFor();
    await frame.locator('.conv').first().click();
    const shown = whenShown(frame, 'Welcome back, Ada');
    dataOf(
      await world.t.call({
        method: 'POST',
        url: `/api/v1/conversations/${conversation.uuid}/messages`,
        payload: { message: 'Welcome back, Ada' },
      }),
    );
    await shown;
    assert.deepEqual(problems, []);
  });

  it('keeps a reply and an assignment that arrive live while an older read of the conversation is on its way', async () => {
    const linus = await world.t.makeAgent({ first_name: 'Linus', roles: ['Admin'] });
    await frame.getByRole('button', { name: 'Back to conversations' }).click();
    await frame.getByText('Your conversations').waitFor();
    // The server answers the read at once (before the reply exists); the answer reaches the frame only when released.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let read = false;
    const url = `**/chat/conversations/${conversation.uuid}`;
    await page.route(url, async (route) => {
      const response = await route.fetch();
      read = true;
      await held;
      await route.fulfill({ response }).catch(() => undefined);
    });
    try {
      await frame.locator('.conv').first().click();
      const deadline = Date.now() + 10_000;
      while (!read && Date.now() < deadline) await page.waitForTimeout(20);
      assert.ok(read, 'the frame read the conversation');
      dataOf(
        await world.t.call({
          method: 'POST',
          url: `/api/v1/conversations/${conversation.uuid}/messages`,
          payload: { message: 'Arrived while you were reading' },
        }),
      );
      dataOf(
        await world.t.call({
          method: 'PUT',
          url: `/api/v1/conversations/${conversation.uuid}/assignee/user`,
          payload: { assignee_id: linus.id },
        }),
      );
      // The reply and the assignment reach the frame over its socket while the read is held.
      const heard = (text: string) => received.some((f) => f.includes(text));
      const until = Date.now() + 10_000;
      while (!(heard('Arrived while you were reading') && heard('Linus')) && Date.now() < until) await page.waitForTimeout(20);
      assert.ok(heard('Arrived while you were reading'), 'the reply came over the socket');
      assert.ok(heard('"conversation_update"') && heard('Linus'), 'the assignment came over the socket');
      const answered = page.waitForResponse((response) => response.url().endsWith(`/chat/conversations/${conversation.uuid}`));
      release();
      await answered;
      await frame.locator('[role="log"]').getByText('Arrived while you were reading').waitFor({ timeout: 10_000 });
      const log = frame.locator('[role="log"]');
      assert.equal(await log.getByText('Arrived while you were reading').count(), 1, 'the older read did not take the reply away');
      assert.equal(await log.getByText('Welcome back, Ada').count(), 1, 'and the read messages are there once');
      // The read's answer (no assignee yet) did not undo the assignment heard after it was made.
      await frame.getByText('You are chatting with Linus Test').waitFor({ timeout: 5_000 });
    } finally {
      release();
      await page.unroute(url);
    }
    assert.deepEqual(problems, []);
  });

  it('shows the conversation last opened when an earlier one answers late', async () => {
    // A second conversation, from the home screen.
    await frame.getByRole('button', { name: 'Back to conversations' }).click();
    await frame.getByRole('button', { name: 'Start a conversation' }).click();
    // A verified customer is asked only the custom field (optional).
    await frame.getByLabel('How can we help?').fill('A second question');
    await frame.getByRole('button', { name: 'Start the conversation' }).click();
    await frame.locator('[role="log"]').getByText('A second question').waitFor();
    await frame.getByRole('button', { name: 'Back to conversations' }).click();
    await frame.locator('.conv', { hasText: 'A second question' }).waitFor();

    // The first conversation answers slowly; the visitor goes on to the second meanwhile.
    let delayed = 0;
    await page.route(`**/chat/conversations/${conversation.uuid}`, async (route) => {
      delayed += 1;
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => undefined);
    });
    try {
      await frame.locator('.conv').filter({ hasNotText: 'A second question' }).first().click();
      await frame.getByRole('button', { name: 'Back to conversations' }).click();
      await frame.locator('.conv', { hasText: 'A second question' }).click();
      await frame.locator('[role="log"]').getByText('A second question').waitFor();
      await page.waitForTimeout(2500);
      assert.ok(delayed >= 1, 'the first conversation was asked for');
      const log = frame.locator('[role="log"]');
      assert.equal(await log.getByText('A second question').count(), 1, 'still the second conversation');
      assert.equal(await log.getByText('Welcome back, Ada').count(), 0, 'not the first one');
    } finally {
      await page.unroute(`**/chat/conversations/${conversation.uuid}`);
    }
    assert.deepEqual(problems, []);
  });
});
