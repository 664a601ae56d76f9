// Who is viewing and replying, in two browsers (docs/web.md, "Presence"): Ana and Ben, two agents
// signed in in two browser contexts, open one conversation. Each sees the other in the header;
// Ben's typing marks him "replying…" for Ana, and the conversation's row in Ana's list carries his
// avatar; Ana sending a reply while Ben writes one is asked first; Ben closing his tab takes him
// off Ana's header. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { createConversation, createInbox } from '../factories.ts';
import type { Caller } from '../helpers.ts';
import {
  browserMissing,
  describeViolations,
  launchBrowser,
  newPage,
  seriousViolations,
  signIn,
  startWebServer,
  type WebServer,
} from './admin-harness.ts';

const skip = browserMissing() ?? false;
const PASSWORD = 'correct horse battery';

describe('who is viewing and replying', { skip }, () => {
  let server: WebServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let ana: Caller;
  let ben: Caller;
  let uuid: string;
  const contexts: BrowserContext[] = [];

  before(async () => {
    server = await startWebServer();
    ana = await server.t.makeAgent({ roles: ['Admin'], first_name: 'Ana', email: 'ana@example.com', password: PASSWORD });
    ben = await server.t.makeAgent({ roles: ['Admin'], first_name: 'Ben', email: 'ben@example.com', password: PASSWORD });
    const inbox = await createInbox(server.t, { name: 'Website chat' });
    uuid = (
      await createConversation(server.t, {
        inbox_id: inbox.id,
        assignee_id: ana.id,
        subject: 'Order 1042 never arrived',
        content: '<p>Hello, my lamp never arrived.</p>',
      })
    ).uuid;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = async (who: Caller): Promise<{ page: Page; errors: string[]; context: BrowserContext }> => {
    const opened = await newPage(browser, server.base);
    contexts.push(opened.context);
    await signIn(opened.page, who.email, PASSWORD, '/inbox/all');
    await opened.page.goto(`/inbox/all/c/${uuid}`);
    await opened.page.getByRole('log', { name: 'Messages' }).getByText('my lamp never arrived').waitFor();
    return opened;
  };
  const header = (page: Page) => page.getByRole('list', { name: 'Also viewing' });

  it('shows each agent the other, the reply being written, and asks before a second reply', async () => {
    const a = await open(ana);
    const b = await open(ben);
    await header(a.page).getByText('Ben Test').waitFor();
    await header(b.page).getByText('Ana Test').waitFor();
    assert.equal(await header(a.page).getByText('Ana Test').count(), 0, 'not oneself');
    // The list row of the conversation carries Ben's mark.
    await a.page.getByRole('img', { name: 'Ben Test is viewing' }).waitFor();

    // Ben writes a reply (and goes on writing while Ana sends hers).
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
      const anaEditor = a.page.getByRole('textbox', { name: 'Message editor' });
      await anaEditor.click();
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

    // Ben's tab goes: Ana's header drops him.
    await b.context.close();
    await header(a.page).waitFor({ state: 'detached' });
    assert.equal(await a.page.getByRole('img', { name: 'Ben Test is viewing' }).count(), 0);
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  });
});
