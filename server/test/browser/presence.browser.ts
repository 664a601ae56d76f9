// Who is viewing and replying, in two browsers (docs/web.md, "Presence"): Ann and Ben, two agents
// signed in in two browser contexts, open one conversation. Each sees the other in the header;
// Ben's typing marks him "replying…" for Ann, and the conversation's row in Ann's list carries his
// avatar; Ann sending a reply while Ben writes one is asked first; Ben closing his tab takes him
// off Ann's header. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { browserMissing, describeViolations, newPage, seriousViolations } from '../browser.ts';
import { createConversation } from '../factories.ts';
import type { Caller } from '../helpers.ts';
import { signIn } from './admin-harness.ts';
import { AGENT_PASSWORD, type AgentDesk, agentDesk } from './agent-harness.ts';

describe('who is viewing and replying', { skip: browserMissing() ?? false }, () => {
  let desk: AgentDesk | undefined;
  let ben: Caller;
  let uuid: string;

  before(async () => {
    desk = await agentDesk();
    ben = await desk.server.t.makeAgent({ roles: ['Admin'], first_name: 'Ben', email: 'ben@example.com', password: AGENT_PASSWORD });
    uuid = (
      await createConversation(desk.server.t, {
        inbox_id: desk.inboxId,
        assignee_id: desk.ann.id,
        subject: 'Order 1042 never arrived',
        content: '<p>Hello, my lamp never arrived.</p>',
      })
    ).uuid;
  });
  after(() => desk?.close());

  /** Signs `who` in in a browser context of their own and opens the conversation from `view`. */
  const open = async (who: Caller, view: string): Promise<{ page: Page; errors: string[]; context: BrowserContext }> => {
    const d = desk as AgentDesk;
    const opened = await newPage(d.browser, d.server.base);
    await signIn(opened.page, who.email, AGENT_PASSWORD, `/inbox/${view}`);
    await opened.page.goto(`/inbox/${view}/c/${uuid}`);
    await opened.page.getByRole('log', { name: 'Messages' }).getByText('my lamp never arrived').waitFor();
    return opened;
  };
  const header = (page: Page) => page.getByRole('list', { name: 'Also viewing' });

  it('shows each agent the other, the reply being written, and asks before a second reply', async () => {
    // Ann (Agent role) has it in her own list; Ben (Admin) opens it from all conversations.
    const a = await open((desk as AgentDesk).ann, 'mine');
    const b = await open(ben, 'all');
    await header(a.page).getByText('Ben Test').waitFor();
    await header(b.page).getByText('Ann Test').waitFor();
    assert.equal(await header(a.page).getByText('Ann Test').count(), 0, 'not oneself');
    // The list row of the conversation carries Ben's mark.
    await a.page.getByRole('img', { name: 'Ben Test is viewing' }).waitFor();

    // Ben writes a reply (and goes on writing while Ann sends hers).
    const benEditor = b.page.getByRole('textbox', { name: 'Message editor' });
    await benEditor.click();
    await b.page.keyboard.type('We are looking');
    await header(a.page).getByText('replying…').waitFor();
    // The header's list and the row's mark (a labelled image) pass the accessibility audit.
    const violations = await seriousViolations(a.page, [], ['.viewers', '.row__viewers']);
    assert.deepEqual(violations, [], describeViolations(violations));
    let writing = true;
    const keepWriting = (async () => {
      while (writing) {
        await b.page.keyboard.type('.');
        await b.page.waitForTimeout(600);
      }
    })();
    try {
      const annEditor = a.page.getByRole('textbox', { name: 'Message editor' });
      await annEditor.click();
      await a.page.keyboard.type('Your parcel is on its way.');
      await a.page.getByRole('button', { name: 'Send', exact: true }).click();
      const dialog = a.page.getByRole('dialog', { name: 'A colleague is replying' });
      await dialog.getByText('Ben Test is writing a reply to this conversation right now. Send yours anyway?').waitFor();
      await dialog.getByRole('button', { name: 'Send anyway' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await a.page.getByRole('log', { name: 'Messages' }).getByText('Your parcel is on its way.').waitFor();
    } finally {
      writing = false;
      await keepWriting;
    }

    // Ben's tab goes: Ann's header drops him.
    await b.context.close();
    await header(a.page).waitFor({ state: 'detached' });
    assert.equal(await a.page.getByRole('img', { name: 'Ben Test is viewing' }).count(), 0);
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  });
});
