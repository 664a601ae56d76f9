// Live updates across a lost socket, in a real browser: with the conversation list and a
// conversation open, the agent socket is cut from the server's side and its reconnects held;
// meanwhile a note is written in the open conversation, a new conversation is assigned to the
// agent and the open one is resolved, all through the API. Once the socket is let through again,
// the page shows all three without a reload: nothing is replayed, so the web app reads what it
// holds again over HTTP after a reconnect (realtime/socket.ts `onResync`). Run by
// `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type Conversation, createConversation, createInbox } from '../factories.ts';
import { dataOf } from '../helpers.ts';
import { type AdminSession, adminSession, browserMissing, newPage, signIn, socketSwitch, type WebServer } from './admin-harness.ts';

const skip = browserMissing() ?? false;

describe('live updates after a lost socket', { skip }, () => {
  let session: AdminSession | undefined;
  let server: WebServer;
  let page: Page;
  let errors: string[];
  let inboxId: number;
  let open: Conversation;

  before(async () => {
    session = await adminSession(async ({ t }) => {
      inboxId = (await createInbox(t, { name: 'Website chat' })).id;
      const assignee_id = t.admin.id;
      open = await createConversation(t, {
        inbox_id: inboxId,
        assignee_id,
        subject: 'Order 1042 never arrived',
        content: '<p>Hello, I ordered a lamp two weeks ago and it never arrived.</p>',
      });
      await createConversation(t, { inbox_id: inboxId, assignee_id, subject: 'Invoice address' });
    });
    ({ server, page, errors } = session);
  });
  after(() => session?.close());

  it('shows what changed while the socket was down once it is back, without a reload', async () => {
    const { t } = server;
    const socket = await socketSwitch(page);
    await page.goto(`/inbox/mine/c/${open.uuid}`);
    const list = page.getByRole('list', { name: 'Conversation list' });
    const thread = page.getByRole('log', { name: 'Messages' });
    const status = page.getByRole('complementary', { name: 'Conversation details' }).getByRole('combobox', { name: 'Status' });
    const offline = page.getByText('Live updates paused: reconnecting…');
    await list.getByText('Invoice address').waitFor();
    await thread.getByText('I ordered a lamp two weeks ago').waitFor();
    await status.getByText('Open').waitFor();
    // Marks this document: a reload would lose it.
    await page.evaluate('window.parleySameDocument = true');

    // Live to begin with: a note arrives through the socket, and the list is read again after it
    // (so that this read cannot land during the cut and bring what the cut should hold back).
    const note = async (text: string) =>
      dataOf(
        await t.call({
          method: 'POST',
          url: `/api/v1/conversations/${open.uuid}/messages`,
          payload: { message: `<p>${text}</p>`, private: true },
        }),
      );
    const listRead = page.waitForResponse((response) => /\/api\/v1\/conversations\/assigned\?.*page_size=30/.test(response.url()));
    await note('Checking with the depot.');
    await thread.getByText('Checking with the depot.').waitFor();
    await listRead;
    assert.equal(socket.connected, 1);

    await socket.cut();
    await offline.waitFor();
    await note('The depot found the parcel.');
    await createConversation(t, { inbox_id: inboxId, assignee_id: t.admin.id, subject: 'Gift wrapping' });
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${open.uuid}/status`, payload: { status: 'Resolved' } }));
    // Nothing can reach the page while it is cut off.
    await page.waitForTimeout(500);
    assert.equal(await thread.getByText('The depot found the parcel.').count(), 0);
    assert.equal(await list.getByText('Gift wrapping').count(), 0);

    socket.restore();
    await offline.waitFor({ state: 'hidden' });
    await thread.getByText('The depot found the parcel.').waitFor();
    await list.getByText('Gift wrapping').waitFor();
    await status.getByText('Resolved').waitFor();
    await list.getByRole('listitem').filter({ hasText: 'Order 1042 never arrived' }).getByText('Resolved', { exact: true }).waitFor();
    assert.equal(socket.connected, 2, 'one reconnect');
    assert.equal(await page.evaluate('window.parleySameDocument'), true, 'the same document: no reload');

    // Live again after the reconnect.
    await note('Back on the socket.');
    await thread.getByText('Back on the socket.').waitFor();
    assert.deepEqual(errors, []);
  });

  it('says live updates need BASE_URL when the app is opened at another address, and links there', async () => {
    // BASE_URL is http://127.0.0.1:<port>: the same server at localhost is another origin, whose
    // session the socket refuses (server/src/realtime/agent-socket.ts).
    const elsewhere = server.base.replace('127.0.0.1', 'localhost');
    assert.notEqual(elsewhere, server.base);
    const notice = (p: Page) => p.getByText(/Live updates unavailable here/);

    const other = await newPage(session!.browser, elsewhere);
    try {
      await signIn(other.page, session!.admin.email);
      await notice(other.page).waitFor();
      const link = other.page.getByRole('link', { name: `Open Parley at ${server.base}` });
      assert.equal(await link.getAttribute('href'), `${server.base}/inbox/mine`, 'the same screen at BASE_URL');
      // What it warns of: the socket is refused here, so a note written elsewhere does not come.
      const refused = await other.page.evaluate(
        `new Promise((resolve) => { const s = new WebSocket(location.origin.replace('http', 'ws') + '/ws'); s.onopen = () => resolve('open'); s.onclose = () => resolve('refused'); })`,
      );
      assert.equal(refused, 'refused');
    } finally {
      await other.context.close();
    }

    // At BASE_URL: no notice once the shell and the server's answer are there.
    const setup = page.waitForResponse((response) => response.url().endsWith('/api/v1/setup'));
    await page.goto('/inbox/mine');
    await setup;
    await page.getByRole('list', { name: 'Conversation list' }).waitFor();
    assert.equal(await notice(page).count(), 0);
    assert.deepEqual(errors, []);
  });
});
