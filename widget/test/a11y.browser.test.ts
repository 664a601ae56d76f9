// The widget's visitor-facing screens pass axe (no serious or critical violation): the launcher
// on the host page (its own element alone, not the customer's page), the chat frame's home, the
// pre-chat form, a conversation with the visitor's messages and an agent's reply (name and
// avatar), the CSAT rating prompt, and the home again with the conversation listed. With
// PARLEY_SCREENSHOTS=1 it also saves the widget's screenshots of docs/screenshots/ (npm run screenshots).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { createInbox, type Inbox } from '../../server/test/factories.ts';
import { type Caller, dataOf } from '../../server/test/helpers.ts';
import { PRECHAT_FORM } from './fixtures.ts';
import {
  browserMissing,
  chatFrame,
  describeViolations,
  LAUNCHER,
  seriousViolations,
  sitePage,
  startWorld,
  type World,
  watch,
  whenShown,
} from './harness.ts';

const skip = browserMissing();
const SCREENSHOTS = process.env['PARLEY_SCREENSHOTS'] === '1' ? resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots') : null;

/** The loader's element on the host page, alone: its shadow root holds the launcher (and the chat panel, once opened). */
const LAUNCHER_ONLY = ['parley-widget'];

/** A shop's page (its content left of where the chat opens), so that the screenshots show the widget where it lives. */
const SHOP = {
  heading: null,
  head: `<style>
body{margin:0;font:16px/1.5 "Liberation Sans",Arial,sans-serif;color:#1f2937;background:#fafaf9}
header{display:flex;align-items:center;gap:40px;padding:18px 48px;background:#fff;border-bottom:1px solid #e7e5e4}
header b{font-size:22px;letter-spacing:.5px}nav a{margin-right:24px;color:#44403c;text-decoration:none}
main{display:grid;grid-template-columns:340px 1fr;gap:40px;padding:48px;max-width:820px}
h1{font-size:32px;line-height:1.2;margin:0 0 12px}.art{height:340px;border-radius:16px;background:linear-gradient(135deg,#fde68a,#fca5a5 60%,#c4b5fd)}
.price{font-size:26px;font-weight:700;margin:16px 0}.buy{padding:12px 28px;border:0;border-radius:10px;background:#1f2937;color:#fff;font-size:16px}
</style>`,
  body: `<header><b>Lumen &amp; Co.</b><nav><a href="#">Lamps</a><a href="#">Shades</a><a href="#">Bulbs</a><a href="#">My orders</a></nav></header>
<main><div class="art" role="img" aria-label="The Aurora table lamp"></div><div><h1>Aurora table lamp</h1>
<p>Hand-blown glass shade on a brushed brass base. Warm, dimmable light for reading corners and bedside tables.</p>
<p class="price">€149</p><button class="buy" type="button">Add to basket</button></div></main>`,
};

/** The agent's picture: initials on a coloured disc, as a customer's avatar service would serve one. */
const AVATAR = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#0f766e"/>
<text x="32" y="41" font-family="Liberation Sans,Arial,sans-serif" font-size="26" font-weight="700" fill="#fff" text-anchor="middle">GH</text></svg>`;

async function assertAccessible(target: Page | Frame, screen: string, include?: readonly string[]): Promise<void> {
  const violations = await seriousViolations(target, [], include);
  assert.deepEqual(violations, [], `${screen}: serious or critical accessibility violations:\n${describeViolations(violations)}`);
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

describe('the widget passes axe on the visitor’s screens', { skip: skip ?? false, timeout: 120_000 }, () => {
  let world: World;
  let inbox: Inbox;
  let agent: Caller;
  let page: Page;
  let frame: Frame;
  let problems: string[];
  let conversation: string;

  before(async () => {
    world = await startWorld();
    world.pages.set('/grace.svg', AVATAR);
    agent = await world.t.makeAgent({ first_name: 'Grace', roles: ['Admin'] });
    dataOf(
      await world.t.call({
        method: 'PUT',
        url: `/api/v1/agents/${agent.id}`,
        payload: { last_name: 'Hopper', avatar_url: `${world.site}/grace.svg` },
      }),
    );
    inbox = await createInbox(world.t, {
      channel: 'livechat',
      csat_enabled: true,
      config: {
        brand_name: 'Lumen & Co. Support',
        greeting_message: 'Hi there! How can we help?',
        introduction_message: 'Questions about an order, a delivery or a lamp? Write to us.',
        chat_reply_expectation_message: 'We usually answer within a few minutes.',
        prechat_form: PRECHAT_FORM,
      },
    });
    world.pages.set('/', sitePage(world, inbox.uuid, SHOP));
    page = await world.browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    problems = watch(page);
  });
  after(async () => {
    await world?.close();
  });

  it('the launcher, closed and open', async () => {
    await page.goto(`${world.site}/`);
    await page.locator(LAUNCHER).waitFor();
    await assertAccessible(page, 'the launcher', LAUNCHER_ONLY);
    await page.locator(LAUNCHER).click();
    frame = await chatFrame(page);
    await page.getByRole('button', { name: 'Close chat' }).waitFor();
    await assertAccessible(page, 'the launcher of the open chat', LAUNCHER_ONLY);
  });

  it('the home screen', async () => {
    await frame.getByText('Hi there! How can we help?').waitFor();
    await assertAccessible(frame, 'the home screen');
  });

  it('the pre-chat form', async () => {
    await frame.getByRole('button', { name: 'Start a conversation' }).click();
    await frame.getByRole('form', { name: 'Tell us who you are' }).waitFor();
    await assertAccessible(frame, 'the pre-chat form');
    await frame.getByLabel('First name').fill('Maria');
    await frame.getByLabel('Last name').fill('Lopez');
    await frame.getByLabel('Email').fill('maria.lopez@example.com');
    await frame.getByLabel('Order number').fill('A-1042');
    await frame.getByLabel('How can we help?').fill('Hello, my Aurora lamp was due on Monday and has not arrived yet.');
    await assertAccessible(frame, 'the filled pre-chat form');
    await shot(page, 'widget-prechat');
  });

  it('a conversation with the visitor’s messages and an agent’s reply', async () => {
    await frame.getByRole('button', { name: 'Start the conversation' }).click();
    await frame.locator('[role="log"]').getByText('has not arrived yet').waitFor();
    const [found] = dataOf<{ results: Array<{ uuid: string }> }>(
      await world.t.call({ method: 'GET', url: `/api/v1/conversations/all?inbox_id=${inbox.id}` }),
    ).results;
    conversation = (found as { uuid: string }).uuid;
    dataOf(
      await world.t.call({
        method: 'PUT',
        url: `/api/v1/conversations/${conversation}/assignee/user`,
        payload: { assignee_id: agent.id },
      }),
    );
    const reply = 'Your parcel is at the Berlin depot';
    const shown = whenShown(frame, reply);
    dataOf(
      await world.t.call({
        method: 'POST',
        url: `/api/v1/conversations/${conversation}/messages`,
        payload: {
          message: `<p>Hi Maria, sorry for the wait! ${reply} and leaves for delivery tomorrow morning: you will get a tracking link by email.</p>`,
        },
        as: agent,
      }),
    );
    await shown;
    await frame.locator('.msg', { hasText: reply }).getByText('Grace Hopper').waitFor();
    await frame.getByText('Chatting with Grace Hopper').waitFor();
    await frame.getByLabel('Message').fill('Great, thank you! Will I need to sign for it?');
    await frame.getByLabel('Message').press('Enter');
    await frame.locator('[role="log"]').getByText('Will I need to sign for it?').waitFor();
    const answer = whenShown(frame, 'No signature needed');
    dataOf(
      await world.t.call({
        method: 'POST',
        url: `/api/v1/conversations/${conversation}/messages`,
        payload: { message: '<p>No signature needed: if you are out, the courier leaves it with a neighbour.</p>' },
        as: agent,
      }),
    );
    await answer;
    // The agent's pictures have loaded (the screenshot shows them).
    await frame.locator('img.avatar').evaluateAll((images: HTMLImageElement[]) => Promise.all(images.map((img) => img.decode())));
    await assertAccessible(frame, 'the conversation');
    await shot(page, 'widget-conversation');
  });

  it('the CSAT rating prompt', async () => {
    dataOf(await world.t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation}/status`, payload: { status: 'Resolved' } }));
    await frame.getByRole('group', { name: 'How did we do?' }).waitFor();
    await assertAccessible(frame, 'the rating prompt');
    await frame.getByRole('button', { name: '4 out of 5' }).click();
    await assertAccessible(frame, 'the rating prompt with a rating chosen');
    await frame.getByRole('button', { name: 'Send rating' }).click();
    await frame.getByText('Thank you for your rating!').waitFor();
    await assertAccessible(frame, 'the rating sent');
  });

  it('the home screen listing the conversation', async () => {
    await frame.getByRole('button', { name: 'Back to conversations' }).click();
    await frame.getByText('Your conversations').waitFor();
    await assertAccessible(frame, 'the home screen with a conversation');
    assert.deepEqual(problems, []);
  });
});
