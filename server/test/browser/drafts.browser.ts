// Drafts in a real browser: a reply typed in one browser (a laptop) is in the composer of
// another browser of the same agent (a phone) when it opens the conversation; a colleague sees
// that the agent has a draft, never its content; sending clears it everywhere.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { browserMissing, newPage, pageErrors, type WebServer } from '../browser.ts';
import type { Browser, Page } from 'playwright-core';
import { createConversation } from '../factories.ts';
import { type Caller, dataOf } from '../helpers.ts';
import { AGENT_PASSWORD, type AgentDesk, agentDesk } from './agent-harness.ts';
import { signIn } from './admin-harness.ts';

describe('drafts across browsers and agents', { skip: browserMissing() ?? false, timeout: 240_000 }, () => {
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

  const draftOf = async (uuid: string, as: Caller) =>
    dataOf<{ content: string } | null>(await server.t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}/draft`, as }));

  /** Polls the server until Ann's draft holds `text` (the composer saves about a second after the last key). */
  async function savedDraft(uuid: string, text: string): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if ((await draftOf(uuid, ann))?.content.includes(text)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`the draft with "${text}" never reached the server`);
  }

  async function opened(page: Page, uuid: string, email: string, view = 'mine') {
    await signIn(page, email, AGENT_PASSWORD);
    await page.goto(`/inbox/${view}/c/${uuid}`);
    await page.getByRole('log', { name: 'Messages' }).getByText('About the refund').waitFor();
  }

  it('follows the agent to another browser, shows colleagues who writes, and goes when sent', async () => {
    const bob = await server.t.makeAgent({
      roles: ['Admin'],
      first_name: 'Bob',
      email: 'bob.drafts@example.com',
      password: AGENT_PASSWORD,
    });
    const c = await createConversation(server.t, {
      inbox_id: inboxId,
      assignee_id: ann.id,
      subject: 'Refund',
      content: '<p>About the refund</p>',
    });
    const laptop = await newPage(browser, server.base);
    const phone = await newPage(browser, server.base);
    const colleague = await newPage(browser, server.base);
    try {
      await opened(laptop.page, c.uuid, ann.email);
      const laptopEditor = laptop.page.getByRole('textbox', { name: 'Message editor' });
      await laptopEditor.click();
      await laptop.page.keyboard.type('Half a reply from the laptop');
      await savedDraft(c.uuid, 'Half a reply from the laptop');

      // Another browser of Ann's (no sessionStorage of the first): the server's draft is restored.
      await opened(phone.page, c.uuid, ann.email);
      const phoneEditor = phone.page.getByRole('textbox', { name: 'Message editor' });
      await phoneEditor.getByText('Half a reply from the laptop').waitFor();
      assert.equal(await phone.page.getByRole('list', { name: 'Colleagues’ drafts' }).count(), 0, 'one’s own draft is no colleague’s');

      // Bob sees that Ann has a draft, not what it says.
      await opened(colleague.page, c.uuid, bob.email, 'all');
      const drafts = colleague.page.getByRole('list', { name: 'Colleagues’ drafts' });
      await drafts.getByText(/^Ann Test has a draft \((just now|\d+ min ago)\)$/).waitFor();
      assert.equal(await colleague.page.getByText('Half a reply from the laptop').count(), 0, 'no content shown to Bob');
      await colleague.page.screenshot({ path: join(tmpdir(), 'parley-drafts-colleague.png') });
      await phone.page.screenshot({ path: join(tmpdir(), 'parley-drafts-phone.png') });

      // Ann sends from the phone: the draft is gone on the server, for Bob, and on the next opening anywhere.
      await phoneEditor.click();
      await phone.page.keyboard.press('End');
      await phone.page.keyboard.type(', finished on the phone');
      await phone.page.getByRole('button', { name: 'Send', exact: true }).click();
      await phone.page.getByRole('log', { name: 'Messages' }).getByText('finished on the phone').waitFor();
      await phoneEditor.getByText('finished on the phone').waitFor({ state: 'detached' });
      await drafts.waitFor({ state: 'detached' });
      assert.equal(await draftOf(c.uuid, ann), null, 'no draft left on the server');
      await laptop.page.reload();
      await laptop.page.getByRole('log', { name: 'Messages' }).getByText('finished on the phone').waitFor();
      await laptopEditor.waitFor();
      // The laptop's tab held the saved draft; the server says it was sent: the composer is empty.
      await laptopEditor.getByText('Half a reply').waitFor({ state: 'detached' });
      assert.equal((await laptopEditor.innerText()).trim(), '');
      assert.equal(await draftOf(c.uuid, ann), null, 'reopening saved nothing back');
      for (const [name, p] of Object.entries({ laptop: laptop.page, phone: phone.page, colleague: colleague.page }))
        assert.deepEqual(pageErrors(p), [], name);
    } finally {
      await laptop.context.close();
      await phone.context.close();
      await colleague.context.close();
    }
  });

  it('saves a draft past the 64 KiB a keepalive request may carry when the agent moves to another conversation', async () => {
    const subject = (n: number) => `Long letter ${n}`;
    const [first, second] = [
      await createConversation(server.t, {
        inbox_id: inboxId,
        assignee_id: ann.id,
        subject: subject(1),
        content: '<p>About the refund</p>',
      }),
      await createConversation(server.t, { inbox_id: inboxId, assignee_id: ann.id, subject: subject(2), content: '<p>Another</p>' }),
    ];
    const laptop = await newPage(browser, server.base);
    try {
      await opened(laptop.page, first.uuid, ann.email);
      const editor = laptop.page.getByRole('textbox', { name: 'Message editor' });
      await editor.click();
      // 70,000 characters in one input (typing them would take minutes), then away at once: no debounce has run.
      const long = `${'A long reply. '.repeat(5000)}the end`;
      await laptop.page.keyboard.insertText(long);
      await laptop.page.getByRole('list', { name: 'Conversation list' }).getByText(subject(2)).click();
      await laptop.page.getByRole('log', { name: 'Messages' }).getByText('Another').waitFor();
      await savedDraft(first.uuid, 'the end');
      assert.ok(((await draftOf(first.uuid, ann))?.content.length ?? 0) > 64 * 1024);
      assert.equal(await draftOf(second.uuid, ann), null);
      assert.deepEqual(pageErrors(laptop.page), []);
    } finally {
      await laptop.context.close();
    }
  });
});
