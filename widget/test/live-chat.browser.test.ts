// End to end, two pages: a visitor on a customer's site (another origin) opens the widget, fills
// the pre-chat form and writes; the agent's open web app shows the new conversation live; the
// agent replies from the web app and the visitor sees it live (the time from the agent's click
// on Send to the text in the visitor's frame is printed); the visitor's typing shows to the
// agent; a setUser JWT merges the visitor into the signed-in customer, which the agent's
// conversation shows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';
import { browserMissing, launchBrowser, newPage, pageErrors, startWebServer, type WebServer } from '../../server/test/browser.ts';
import { type Caller, dataOf } from '../../server/test/helpers.ts';
import { createWidgetInbox, signIdentity, type WidgetInboxFixture } from '../../server/test/widget.ts';
import { ensureWidgetBuilt } from './build.ts';
import { chatFrame, LAUNCHER, sitePage, startSite, watch, whenShown } from './harness.ts';

const PASSWORD = 'correct horse battery';
const PRECHAT = {
  enabled: true,
  title: 'Tell us who you are',
  fields: [
    { key: 'name', type: 'text', label: 'Name', required: true, enabled: true, order: 1, is_default: true },
    { key: 'email', type: 'email', label: 'Email', required: true, enabled: true, order: 2, is_default: true },
  ],
};

type Conversation = { uuid: string; contact: { id: number; email: string | null } };

describe(
  'live chat end to end: the widget on a customer site and the agent web app',
  { skip: browserMissing() ?? false, timeout: 240_000 },
  () => {
    let server: WebServer;
    let site: Awaited<ReturnType<typeof startSite>>;
    let browser: Browser;
    let chat: WidgetInboxFixture;
    let agent: Caller;
    let agentPage: Page;
    let visitorPage: Page;
    let frame: Frame;
    let problems: string[];
    let conversation: Conversation;
    const pages = new Map<string, string>();

    before(async () => {
      await ensureWidgetBuilt();
      server = await startWebServer();
      site = await startSite(pages);
      browser = await launchBrowser();
      chat = await createWidgetInbox(server.t, {
        brand_name: 'Acme Support',
        greeting_message: 'Hello from Acme!',
        prechat_form: PRECHAT,
        trusted_domains: ['localhost'],
      });
      pages.set('/', sitePage(server, chat.uuid));
      agent = await server.t.makeAgent({ roles: ['Admin'], first_name: 'Grace', email: 'grace@example.com', password: PASSWORD });
    });

    after(async () => {
      await browser?.close();
      await site?.close();
      await server?.close();
    });

    it('the agent, signed in on the unassigned view, sees the visitor’s new conversation arrive live', async () => {
      ({ page: agentPage } = await newPage(browser, server.base));
      await agentPage.goto('/login?next=/inbox/unassigned');
      await agentPage.getByLabel('Email').fill(agent.email);
      await agentPage.getByLabel('Password').fill(PASSWORD);
      await agentPage.getByRole('button', { name: 'Sign in' }).click();
      await agentPage.waitForURL(/\/inbox\/unassigned$/);
      const list = agentPage.getByRole('list', { name: 'Conversation list' });

      ({ page: visitorPage } = await newPage(browser, site.url));
      problems = watch(visitorPage);
      await visitorPage.goto(`${site.url}/`);
      await visitorPage.locator(LAUNCHER).click();
      frame = await chatFrame(visitorPage);
      await frame.getByText('Hello from Acme!').waitFor();
      await frame.getByRole('button', { name: 'Start a conversation' }).click();
      await frame.getByLabel('First name').fill('Ada');
      await frame.getByLabel('Last name').fill('Visitor');
      await frame.getByLabel('Email').fill('ada.visitor@example.com');
      await frame.getByLabel('How can we help?').fill('My parcel has not arrived');
      await frame.getByRole('button', { name: 'Start the conversation' }).click();
      await frame.locator('[role="log"]').getByText('My parcel has not arrived').waitFor();

      // No reload: the list follows the agent socket.
      await list.getByText('My parcel has not arrived').waitFor();
      const found = dataOf<{ results: Conversation[] }>(
        await server.t.call({ method: 'GET', url: `/api/v1/conversations/unassigned?inbox_id=${chat.inbox.id}`, as: agent }),
      ).results;
      assert.equal(found.length, 1);
      conversation = found[0] as Conversation;
    });

    it('the agent replies from the web app; the visitor sees it live; typing shows both ways', async () => {
      await agentPage.getByRole('list', { name: 'Conversation list' }).getByText('My parcel has not arrived').click();
      await agentPage.waitForURL(new RegExp(`/c/${conversation.uuid}$`));
      const thread = agentPage.getByRole('log', { name: 'Messages' });
      await thread.getByText('My parcel has not arrived').waitFor();

      // The visitor types: the agent sees it.
      await frame.getByRole('textbox').first().pressSequentially('Any news', { delay: 30 });
      await agentPage
        .getByText(/typing/i)
        .first()
        .waitFor();

      const editor = agentPage.getByRole('textbox', { name: 'Message editor' });
      await editor.click();
      await agentPage.keyboard.type('It left the depot this morning.');
      // The agent types: the visitor sees it (the frame shows an indicator while an agent types).
      const shown = whenShown(frame, 'It left the depot this morning.');
      const sentAt = Date.now();
      await agentPage.getByRole('button', { name: 'Send', exact: true }).click();
      const seenAt = await shown;
      process.stdout.write(`# live chat: agent's Send click → visitor sees the reply: ${seenAt - sentAt} ms\n`);
      await thread.getByText('It left the depot this morning.').waitFor();
      const messages = dataOf<{ results: Array<{ type: string; content: string }> }>(
        await server.t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}/messages`, as: agent }),
      ).results;
      assert.ok(
        messages.some((m) => m.type === 'outgoing' && m.content.includes('It left the depot this morning.')),
        'the reply is stored',
      );
    });

    it('a setUser JWT merges the visitor into the customer, and the agent’s conversation shows the customer', async () => {
      const jwt = await signIdentity(chat.secret, { external_user_id: 'customer-42', email: 'ada@example.com', first_name: 'Ada' });
      await visitorPage.evaluate((token) => (window as unknown as { Parley: { setUser(jwt: string): void } }).Parley.setUser(token), jwt);
      const deadline = Date.now() + 10_000;
      let moved = conversation;
      while (Date.now() < deadline && moved.contact.id === conversation.contact.id) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        moved = dataOf<Conversation>(await server.t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}`, as: agent }));
      }
      assert.notEqual(moved.contact.id, conversation.contact.id, 'the conversation moved to the verified contact');
      assert.equal(moved.contact.email, 'ada@example.com');
      await agentPage.reload();
      await agentPage.getByRole('complementary', { name: 'Conversation details' }).getByText('ada@example.com').waitFor();
      assert.deepEqual(problems, [], 'nothing went wrong in the visitor’s page');
      assert.deepEqual(pageErrors(agentPage), [], 'nothing went wrong in the agent’s page');
    });
  },
);
