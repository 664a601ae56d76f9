// Working together in a real browser: `@` in a private note lists agents and teams, the one picked
// is stored as the mention markup, the mentioned agent finds the conversation in the Mentions
// view (a second browser context signed in as them), and the followers panel follows and
// unfollows. End to end with the workers: a mention raises the mentioned agent's bell live (the
// fan-out job, the notification frame) and the notification opens the conversation. Pictures for a look go to $MENTIONS_SHOTS when it is set.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, describeViolations, newPage, pageErrors, seriousViolations, type WebServer } from '../browser.ts';
import { createConversation, createTeam } from '../factories.ts';
import { type Caller, dataOf } from '../helpers.ts';
import { signIn } from './admin-harness.ts';
import { AGENT_PASSWORD, type AgentDesk, agentDesk } from './agent-harness.ts';

const SHOTS = process.env['MENTIONS_SHOTS'] ?? null;

async function look(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

describe('mentions and followers', { skip: browserMissing() ?? false, timeout: 240_000 }, () => {
  let desk: AgentDesk | undefined;
  let server: WebServer;
  let browser: Browser;
  let ann: Caller;
  let bea: Caller;
  let inboxId: number;

  before(async () => {
    desk = await agentDesk();
    ({ server, browser, ann, inboxId } = desk);
    bea = await server.t.makeAgent({ roles: ['Agent'], first_name: 'Bea', email: 'bea@example.com', password: AGENT_PASSWORD });
    await createTeam(server.t, { name: 'Billing' });
  });
  after(() => desk?.close());

  it('mentions an agent from a note; they find it under Mentions and can unfollow and follow again', async () => {
    // Unassigned: Ann and Bea (the Agent role) may both read it.
    const c = await createConversation(server.t, { inbox_id: inboxId, subject: 'Refund question', content: '<p>Where is my refund?</p>' });
    const first = await newPage(browser, server.base);
    const second = await newPage(browser, server.base);
    try {
      const page = first.page;
      await signIn(page, ann.email, AGENT_PASSWORD);
      await page.goto(`/inbox/unassigned/c/${c.uuid}`);
      const editor = page.getByRole('textbox', { name: 'Message editor' });
      await editor.waitFor();
      // In a reply, `@` is only a character.
      await editor.click();
      await page.keyboard.type('Mail me @B');
      assert.equal(await page.getByRole('listbox', { name: 'People and teams to mention' }).count(), 0, 'no list in a reply');
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('Backspace');

      await page.getByRole('tab', { name: 'Private note' }).click();
      await editor.click();
      await page.keyboard.type('Please look @');
      const list = page.getByRole('listbox', { name: 'People and teams to mention' });
      await list.waitFor();
      await list.getByRole('option', { name: 'Billing' }).waitFor();
      await page.keyboard.type('Be');
      await list.getByRole('option', { name: 'Bea Test' }).waitFor();
      assert.equal(await list.getByRole('option', { name: 'Billing' }).count(), 0, 'narrowed by what was typed');
      assert.equal(await list.getByRole('option', { selected: true, name: 'Bea Test' }).count(), 1, 'the first match is the active option');
      await look(page, 'mention-list');
      const listViolations = await seriousViolations(page, [], ['.mention-list']);
      assert.deepEqual(listViolations, [], describeViolations(listViolations));
      await page.keyboard.press('Enter');
      await list.waitFor({ state: 'detached' });
      await page.keyboard.type('thanks');
      await editor.locator('span[data-mention-agent-id]').waitFor();
      await page.getByRole('button', { name: 'Add note', exact: true }).click();
      const thread = page.getByRole('log', { name: 'Messages' });
      const chip = thread.locator(`span[data-mention-agent-id="${bea.id}"]`);
      await chip.waitFor();
      assert.equal(await chip.innerText(), '@Bea Test');
      // Ann wrote in it and Bea was mentioned: both follow, and Ann's open panel shows it without a reload.
      const annFollowers = page.getByRole('list', { name: 'Followers' });
      await annFollowers.getByText('Ann Test (you)').waitFor();
      await annFollowers.getByText('Bea Test').waitFor();
      await look(page, 'mention-sent');
      const notes = dataOf<{ results: Array<{ content: string; private: boolean }> }>(
        await server.t.call({ method: 'GET', url: `/api/v1/conversations/${c.uuid}/messages`, as: ann }),
      ).results.filter((m) => m.private);
      assert.deepEqual(
        notes.map((m) => m.content),
        [`<p>Please look <span data-mention-agent-id="${bea.id}">@Bea Test</span> thanks</p>`],
      );

      // Bea, in her own browser.
      const other = second.page;
      await signIn(other, bea.email, AGENT_PASSWORD);
      await other.getByRole('link', { name: 'Mentions' }).click();
      await other.waitForURL(/\/inbox\/mentioned$/);
      const rows = other.getByRole('list', { name: 'Conversation list' });
      await rows.getByText('Refund question', { exact: true }).click();
      await other.waitForURL(new RegExp(`/inbox/mentioned/c/${c.uuid}$`));
      const details = other.getByRole('complementary');
      const followers = other.getByRole('list', { name: 'Followers' });
      await other
        .getByRole('button', { name: /details/i })
        .first()
        .click();
      await other.getByRole('log', { name: 'Messages' }).getByText('Please look').waitFor();
      const toggle = other.getByRole('button', { name: 'Conversation details' });
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
      await followers.getByText('Bea Test (you)').waitFor();
      await followers.getByText('Ann Test').waitFor();
      await look(other, 'followers-panel');
      const panelViolations = await seriousViolations(other, [], ['.details']);
      assert.deepEqual(panelViolations, [], describeViolations(panelViolations));
      await details.getByRole('button', { name: 'Unfollow' }).click();
      await followers.getByText('Bea Test (you)').waitFor({ state: 'detached' });
      const ids = async () =>
        dataOf<Array<{ id: number }>>(await server.t.call({ method: 'GET', url: `/api/v1/conversations/${c.uuid}/followers` })).map(
          (f) => f.id,
        );
      assert.deepEqual(await ids(), [ann.id]);
      await details.getByRole('button', { name: 'Follow', exact: true }).click();
      await followers.getByText('Bea Test (you)').waitFor();
      assert.deepEqual(await ids(), [ann.id, bea.id]);
      // The Agent role may change others' follows: Bea removes Ann.
      await details.getByRole('button', { name: 'Stop Ann Test following' }).click();
      await followers.getByText('Ann Test').waitFor({ state: 'detached' });
      assert.deepEqual(await ids(), [bea.id]);
      assert.deepEqual(pageErrors(page), []);
      assert.deepEqual(pageErrors(other), []);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
  it('a note mentioning Bea raises her bell live; the notification opens the conversation', async () => {
    const c = await createConversation(server.t, { inbox_id: inboxId, subject: 'Invoice copy', content: '<p>Can I get a copy?</p>' });
    const { page, context } = await newPage(browser, server.base);
    try {
      await signIn(page, bea.email, AGENT_PASSWORD);
      const bell = (name: string) => page.getByRole('banner').getByRole('button', { name, exact: true });
      // Bea's mention of the test above is unread still: the badge counts from there.
      const unread = dataOf<{ count: number }>(
        await server.t.call({ method: 'GET', url: '/api/v1/notifications/unread-count', as: bea }),
      ).count;
      const label = (n: number) => (n === 0 ? 'Notifications' : `Notifications, ${n} unread`);
      await bell(label(unread)).waitFor();
      // Ann's note, written while Bea's app is open on her inbox.
      await server.t.call({
        method: 'POST',
        url: `/api/v1/conversations/${c.uuid}/messages`,
        as: ann,
        body: {
          message: `<p>Over to you <span data-mention-agent-id="${bea.id}">@Bea Test</span></p>`,
          private: true,
          content_type: 'html',
        },
      });
      await bell(label(unread + 1)).click();
      const item = page.getByRole('list', { name: 'Notifications' }).getByText(/mentioned you in #\d+ Invoice copy/);
      await item.waitFor();
      await item.click();
      await page.waitForURL((url) => url.pathname.endsWith(`/c/${c.uuid}`));
      await page.getByRole('log', { name: 'Messages' }).getByText('Over to you').waitFor();
      await bell(label(unread)).waitFor();
      assert.deepEqual(pageErrors(page), []);
    } finally {
      await context.close();
    }
  });
});
