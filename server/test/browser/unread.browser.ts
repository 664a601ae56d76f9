// Unread counts in the navigation, in a real browser: the agent's "Mine" link carries a badge
// with their unread conversations (in the link's accessible name), a message from the contact
// raises it live, opening the conversation lowers it, and a message arriving while it is open
// leaves it read (marked seen again). An agent who may read all but not the unassigned list
// opening a URL with the "no agent" filter gets the list, not a refusal. A conversation read in
// one tab is read in the agent's other tabs. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { dataOf } from '../helpers.ts';
import { createWidgetInbox, startVisitor, type Visitor, type WidgetInboxFixture, widgetCall } from '../widget.ts';
import {
  ADMIN_PASSWORD,
  type AdminSession,
  adminSession,
  browserMissing,
  describeViolations,
  newPage,
  seriousViolations,
  signIn,
  type WebServer,
} from './admin-harness.ts';

const skip = browserMissing() ?? false;

describe('unread counts in the navigation', { skip }, () => {
  let session: AdminSession | undefined;
  let server: WebServer;
  let page: Page;
  let errors: string[];
  let chat: WidgetInboxFixture;
  let visitor: Visitor;
  let waiting: Visitor;

  const contactWrites = async (message: string, from = visitor) =>
    dataOf(
      await widgetCall(server.t, {
        method: 'POST',
        url: `chat/conversations/${from.conversationUuid}/message`,
        inbox: chat.uuid,
        token: from.token,
        payload: { message },
      }),
    );
  const mineUnread = async () =>
    dataOf<{ mine: { unread: number } }>(await server.t.call({ method: 'GET', url: '/api/v1/conversations/counts' })).mine.unread;

  before(async () => {
    session = await adminSession(async ({ t }) => {
      chat = await createWidgetInbox(t);
      // Two conversations of the admin's: one unread, one they have read.
      waiting = await startVisitor(t, chat.uuid, 'Where is my refund?');
      visitor = await startVisitor(t, chat.uuid, 'My parcel never came');
      const assign = { assignee_id: t.admin.id };
      for (const { conversationUuid } of [waiting, visitor])
        dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversationUuid}/assignee/user`, payload: assign }));
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${visitor.conversationUuid}/last-seen` }));
    });
    ({ server, page, errors } = session);
  });
  after(() => session?.close());

  it('shows the unread badge, raises it live when the contact writes, lowers it when the conversation is opened', async () => {
    await page.goto('/inbox/all');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Mine, 1 unread' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Mine, 1 unread' }).getByTestId('unread-badge').textContent(), '1', 'the badge');
    const violations = await seriousViolations(page, [], ['nav']);
    assert.equal(violations.length, 0, describeViolations(violations));

    await contactWrites('Any news?');
    await nav.getByRole('link', { name: 'Mine, 2 unread' }).waitFor();

    await page.getByRole('list', { name: 'Conversation list' }).getByText('Any news?').click();
    await page.getByRole('log', { name: 'Messages' }).getByText('Any news?').waitFor();
    await nav.getByRole('link', { name: 'Mine, 1 unread' }).waitFor();
    assert.equal(await mineUnread(), 1);

    // On screen: a new message from the contact is read as it arrives.
    await contactWrites('Hello? Still there?');
    await page.getByRole('log', { name: 'Messages' }).getByText('Hello? Still there?').waitFor();
    const deadline = Date.now() + 5000;
    while ((await mineUnread()) > 1 && Date.now() < deadline) await page.waitForTimeout(100);
    assert.equal(await mineUnread(), 1, 'marked seen again while open');
    await page.waitForTimeout(800);
    await nav.getByRole('link', { name: 'Mine, 1 unread' }).waitFor();
    assert.deepEqual(errors, []);
  });

  it('ignores the "no agent" filter for an agent who may not read the unassigned list', async () => {
    const { t } = server;
    const role = 'Reads all, not the queue';
    const permissions = ['conversations:read', 'conversations:read_all', 'conversations:read_assigned'];
    dataOf(await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name: role, permissions } }));
    const agent = await t.makeAgent({ roles: [role], password: ADMIN_PASSWORD });
    const other = await newPage(session?.browser ?? assert.fail('no browser'), server.base);
    const refused: string[] = [];
    other.page.on('response', (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    });
    await signIn(other.page, agent.email, ADMIN_PASSWORD, '/inbox/all');
    await other.page.goto('/inbox/all?assignee=none');
    await other.page.getByRole('list', { name: 'Conversation list' }).getByText('Hello? Still there?').waitFor();
    assert.deepEqual(refused, []);
    await other.context.close();
  });

  it("lowers the badge in the agent's other tab when a conversation is read in one", async () => {
    const nav = (p: Page) => p.getByRole('navigation', { name: 'Main navigation' });
    await page.goto('/inbox/all');
    const second = await page.context().newPage();
    try {
      await second.goto('/inbox/all');
      await nav(second).getByRole('link', { name: 'Mine, 1 unread' }).waitFor();
      await contactWrites('One more thing');
      for (const tab of [page, second]) await nav(tab).getByRole('link', { name: 'Mine, 2 unread' }).waitFor();

      await page.getByRole('list', { name: 'Conversation list' }).getByText('One more thing').click();
      await nav(page).getByRole('link', { name: 'Mine, 1 unread' }).waitFor();
      // Nothing comes over the socket for a read: the other tab hears it from this one.
      await nav(second).getByRole('link', { name: 'Mine, 1 unread' }).waitFor({ timeout: 5000 });
    } finally {
      await second.close();
    }
  });
});
