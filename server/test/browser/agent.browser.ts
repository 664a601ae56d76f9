// An agent's day in a real browser: signs in, sees the assigned list, opens a conversation,
// replies with an attachment and a macro, snoozes and closes it, each change confirmed through
// the API; works the list from the keyboard (j/k/o, Enter, e, a, / and Ctrl+K); no serious or
// critical accessibility violation on the sign-in, list and conversation screens; no error in the
// page (a CSP refusal would be one). With PARLEY_SCREENSHOTS=1 it also saves the agent screens'
// pictures in docs/screenshots/ (npm run screenshots; screenshots.browser.ts saves the others).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createConversation, type Conversation as ConversationRecord } from '../factories.ts';
import { type Caller, dataOf } from '../helpers.ts';
import { browserMissing, describeViolations, newPage, pageErrors, seriousViolations, type WebServer } from '../browser.ts';
import { shot, SCREENSHOTS, signIn } from './admin-harness.ts';
import { AGENT_PASSWORD, type AgentDesk, agentDesk } from './agent-harness.ts';

type Conversation = { uuid: string; status: string; priority: string | null; tags: string[]; snoozed_until: string | null };
type Message = { type: string; private: boolean; content: string; attachments: Array<{ name: string }> };

async function assertAccessible(page: Page, screen: string): Promise<void> {
  const violations = await seriousViolations(page);
  assert.equal(violations.length, 0, `${screen}: serious or critical accessibility violations:\n${describeViolations(violations)}`);
}

describe('the agent web app in a browser', { skip: browserMissing() ?? false, timeout: 240_000 }, () => {
  let desk: AgentDesk | undefined;
  let server: WebServer;
  let browser: Browser;
  let ann: Caller;
  let first: ConversationRecord;
  let second: ConversationRecord;
  let inboxId: number;
  const timings: Record<string, number> = {};

  before(async () => {
    desk = await agentDesk();
    ({ server, browser, ann, inboxId } = desk);
    const { t } = server;
    dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'shipping' } }));
    dataOf(
      await t.call({
        method: 'POST',
        url: '/api/v1/macros',
        payload: {
          name: 'Shipping delay',
          visibility: 'global',
          actions: { set_priority: 'High', add_tags: ['shipping'] },
          message_content: '<p>Sorry for the wait: your parcel is delayed at the depot.</p>',
        },
      }),
    );
    first = await createConversation(t, {
      inbox_id: inboxId,
      assignee_id: ann.id,
      subject: 'Order 1042 never arrived',
      content: '<p>Hello, I ordered a lamp two weeks ago and it never arrived.</p>',
      contact_email: 'maria@example.com',
    });
    second = await createConversation(t, {
      inbox_id: inboxId,
      assignee_id: ann.id,
      subject: 'Invoice address',
      content: '<p>Could you change the address on my invoice?</p>',
      contact_email: 'li@example.com',
    });
    await createConversation(t, { inbox_id: inboxId, subject: 'Nobody has this one yet', contact_email: 'sam@example.com' });
  });

  after(async () => {
    await desk?.close();
    if (Object.keys(timings).length) process.stdout.write(`# browser timings: ${JSON.stringify(timings)}\n`);
  });

  it('signs in, lists, opens, replies with an attachment and a macro, snoozes and closes', async () => {
    const { page, context } = await newPage(browser, server.base);
    try {
      await page.goto('/');
      await page.waitForURL(/\/login\?next=/);
      await page.getByLabel('Email').fill(ann.email);
      await page.getByLabel('Password').fill(AGENT_PASSWORD);
      await assertAccessible(page, 'sign-in');
      await shot(page, 'sign-in');

      const started = performance.now();
      await page.getByRole('button', { name: 'Sign in' }).click();
      const list = page.getByRole('list', { name: 'Conversation list' });
      await list.getByText('Order 1042 never arrived').waitFor();
      timings['signInToListMs'] = Math.round(performance.now() - started);
      assert.match(page.url(), /\/inbox\/mine$/);
      await list.getByText('Invoice address').waitFor();
      assert.equal(await list.getByText('Nobody has this one yet').count(), 0, 'the unassigned one is not in "Mine"');
      await assertAccessible(page, 'conversation list');
      await shot(page, 'inbox');

      // Bulk: select the page, set a priority on both.
      await page.getByRole('checkbox', { name: 'Select every conversation of this page' }).check();
      await page.getByRole('toolbar', { name: '2 selected' }).getByRole('button', { name: 'Set priority' }).click();
      await page.getByRole('menuitem', { name: 'Urgent' }).click();
      await page.getByText('Updated 2 conversations').first().waitFor();
      for (const { uuid } of [first, second]) {
        const bulk = dataOf<Conversation>(await server.t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}`, as: ann }));
        assert.equal(bulk.priority, 'Urgent', 'the bulk action reached both');
      }

      // Open it with the keyboard: the newest is first, so j, k, j lands on the second row; o opens it.
      await page.keyboard.press('j');
      await page.keyboard.press('k');
      await page.keyboard.press('j');
      await page.keyboard.press('o');
      await page.waitForURL(new RegExp(`/inbox/mine/c/${first.uuid}$`));
      const thread = page.getByRole('log', { name: 'Messages' });
      await thread.getByText('I ordered a lamp two weeks ago').waitFor();
      await page.getByRole('textbox', { name: 'Message editor' }).waitFor();
      await assertAccessible(page, 'conversation');

      // An attachment, then a macro, then a line of one's own.
      await page
        .locator('input[type=file]')
        .setInputFiles({ name: 'tracking.txt', mimeType: 'text/plain', buffer: Buffer.from('Parcel DE-55 at depot\n') });
      await page.getByText('tracking.txt').waitFor();
      await page.getByRole('button', { name: 'Macros' }).click();
      await page.getByRole('menuitem', { name: 'Shipping delay' }).click();
      const dialog = page.getByRole('dialog', { name: 'Apply macro: Shipping delay' });
      await dialog.getByText('set the priority to High').waitFor();
      await dialog.getByRole('button', { name: 'Apply' }).click();
      const editor = page.getByRole('textbox', { name: 'Message editor' });
      await editor.getByText('your parcel is delayed').waitFor();
      await editor.click();
      await page.keyboard.press('End');
      await page.keyboard.type(' It leaves tomorrow.');
      // The macro's own changes have reached the thread (the picture shows them beside the sidebar's).
      await thread.getByText('set the priority to High').waitFor();
      await shot(page, 'conversation');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await thread.getByText('It leaves tomorrow.').waitFor();
      await editor.getByText('your parcel is delayed').waitFor({ state: 'detached' });

      const messages = dataOf<{ results: Message[] }>(
        await server.t.call({ method: 'GET', url: `/api/v1/conversations/${first.uuid}/messages`, as: ann }),
      );
      const reply = messages.results.find((m) => m.type === 'outgoing' && !m.private);
      assert.ok(reply, 'the reply is stored');
      assert.match(reply.content, /your parcel is delayed at the depot\..*It leaves tomorrow\./s);
      assert.deepEqual(
        reply.attachments.map((a) => a.name),
        ['tracking.txt'],
      );
      let stored = dataOf<Conversation>(await server.t.call({ method: 'GET', url: `/api/v1/conversations/${first.uuid}`, as: ann }));
      assert.equal(stored.priority, 'High', 'the macro set the priority');
      assert.deepEqual(stored.tags, ['shipping'], 'the macro added the tag');
      // The sidebar shows what the macro changed, without a reload.
      await page.getByRole('complementary', { name: 'Conversation details' }).getByText('shipping', { exact: true }).waitFor();

      // Snooze for a day, then close.
      await page.getByRole('button', { name: 'Snooze', exact: true }).click();
      await page.getByRole('button', { name: 'Until tomorrow' }).click();
      await page.getByText(/Snoozed until/).waitFor();
      stored = dataOf<Conversation>(await server.t.call({ method: 'GET', url: `/api/v1/conversations/${first.uuid}`, as: ann }));
      assert.equal(stored.status, 'Snoozed');
      const until = new Date(stored.snoozed_until ?? 0).getTime() - Date.now();
      assert.ok(until > 23 * 3600_000 && until <= 24 * 3600_000, `snoozed for a day: ${stored.snoozed_until}`);
      // The activity line says when in the agent's locale and zone (the page's en-GB, Europe/Berlin), not as ISO.
      const local = new Date(stored.snoozed_until ?? 0).toLocaleString('en-GB', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'Europe/Berlin',
      });
      const activity = page.getByRole('log', { name: 'Messages' }).getByText(/snoozed the conversation until/);
      await activity.waitFor();
      assert.match((await activity.textContent()) ?? '', new RegExp(`until ${local.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));

      const details = page.getByRole('complementary', { name: 'Conversation details' });
      await details.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Closed' }).click();
      await details.getByRole('combobox', { name: 'Status' }).getByText('Closed').waitFor();
      stored = dataOf<Conversation>(await server.t.call({ method: 'GET', url: `/api/v1/conversations/${first.uuid}`, as: ann }));
      assert.equal(stored.status, 'Closed');
      assert.equal(stored.snoozed_until, null);

      // Live: a message from the contact appears without a reload.
      await page.goto(`/inbox/mine/c/${second.uuid}`);
      await thread.getByText('change the address').waitFor();
      dataOf(
        await server.t.call({
          method: 'POST',
          url: `/api/v1/conversations/${second.uuid}/messages`,
          payload: { message: '<p>A note from a colleague: billing is on it.</p>', private: true },
        }),
      );
      await thread.getByText('billing is on it').waitFor();
      // …and so does a change made elsewhere: the sidebar follows a conversation_update frame.
      dataOf(await server.t.call({ method: 'PUT', url: `/api/v1/conversations/${second.uuid}/priority`, payload: { priority: 'Low' } }));
      await page
        .getByRole('complementary', { name: 'Conversation details' })
        .getByRole('combobox', { name: 'Priority' })
        .getByText('Low')
        .waitFor();

      // The command palette: Ctrl+K, type, Enter.
      await page.keyboard.press('Control+k');
      await page.getByRole('combobox', { name: 'Type a command or search…' }).fill('go to unass');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/inbox\/unassigned$/);

      assert.deepEqual(pageErrors(page), [], 'no error in the page');
    } finally {
      await context.close();
    }
  });

  it('works the list from the keyboard: Enter opens, e resolves, a assigns to me, / searches', async () => {
    const { t } = server;
    const wrongSize = await createConversation(t, {
      inbox_id: inboxId,
      subject: 'Wrong size delivered',
      content: '<p>The shoes are a size too small.</p>',
      contact_email: 'keiko@example.com',
    });
    const refund = await createConversation(t, {
      inbox_id: inboxId,
      subject: 'Where is my refund',
      content: '<p>Still waiting for the refund.</p>',
      contact_email: 'omar@example.com',
    });
    const read = async (uuid: string) =>
      dataOf<Conversation & { assigned_user_id: number | null }>(await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` }));
    /** Reads the conversation until `done` holds (the shortcut's request is on its way), or fails. */
    const until = async (uuid: string, done: (c: Conversation & { assigned_user_id: number | null }) => boolean, what: string) => {
      for (let i = 0; i < 50; i++) {
        if (done(await read(uuid))) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const c = await read(uuid);
      assert.fail(`${what}: status ${c.status}, assignee ${c.assigned_user_id}`);
    };
    const { page, context } = await newPage(browser, server.base);
    try {
      await signIn(page, ann.email, AGENT_PASSWORD, '/inbox/unassigned');
      const list = page.getByRole('list', { name: 'Conversation list' });
      const links = list.locator('[data-conversation-link]');
      /** A fresh list, the row showing `subject` selected with j and k (the first row is selected on arrival). */
      const select = async (subject: string) => {
        await page.goto('/inbox/unassigned');
        await list.getByText(subject).waitFor();
        const subjects = await links.locator('.row__subject').allTextContents();
        const index = subjects.indexOf(subject);
        assert.ok(index >= 0 && subjects.length > 1, `${subject} in ${subjects.join(', ')}`);
        await page.keyboard.press('j');
        await page.keyboard.press('k');
        for (let i = 0; i < index; i++) await page.keyboard.press('j');
        assert.ok(await links.nth(index).evaluate((link) => link === link.ownerDocument.activeElement), `${subject} is selected`);
      };

      // Enter on arrival opens the first row, the newest (the list's own shortcut: no row has the focus yet).
      await list.getByText('Where is my refund').waitFor();
      assert.equal(await links.first().locator('.row__subject').textContent(), 'Where is my refund');
      await page.keyboard.press('Enter');
      await page.waitForURL(new RegExp(`/inbox/unassigned/c/${refund.uuid}$`));
      await page.getByRole('log', { name: 'Messages' }).getByText('Still waiting for the refund.').waitFor();

      // e resolves the selected row.
      await select('Wrong size delivered');
      await page.keyboard.press('e');
      await until(wrongSize.uuid, (c) => c.status === 'Resolved', 'e resolved it');
      assert.equal((await read(refund.uuid)).status, 'Open', 'only the selected row');

      // a assigns the selected row to me.
      await select('Where is my refund');
      await page.keyboard.press('a');
      await until(refund.uuid, (c) => c.assigned_user_id === ann.id, 'a assigned it to Ann');
      assert.equal((await read(wrongSize.uuid)).assigned_user_id, null, 'only the selected row');
      await page.getByText('Updated the conversation').first().waitFor();

      // / opens the search (the command palette), its box taking what is typed next.
      await page.keyboard.press('/');
      const search = page.getByRole('combobox', { name: 'Type a command or search…' });
      await search.waitFor();
      await page.keyboard.type('wrong size');
      assert.equal(await search.inputValue(), 'wrong size', 'the search box has the focus');
      await page.getByRole('option', { name: /Wrong size delivered/ }).waitFor();
      await page.keyboard.press('Enter');
      await page.getByRole('log', { name: 'Messages' }).getByText('The shoes are a size too small.').waitFor();
      assert.deepEqual(pageErrors(page), [], 'no error in the page');
    } finally {
      await context.close();
    }
  });

  it('sets availability from the account menu, goes away when idle and back when active, signs out', async () => {
    const { page, context } = await newPage(browser, server.base);
    const availability = async () =>
      dataOf<{ availability_status: string }>(await server.t.call({ method: 'GET', url: '/api/v1/agents/me', as: ann }))
        .availability_status;
    try {
      // The page's timers run on a clock the test can move forward.
      await page.clock.install();
      await signIn(page, ann.email, AGENT_PASSWORD);
      await page.getByRole('list', { name: 'Conversation list' }).waitFor();

      await page.getByRole('button', { name: /Ann Test/ }).click();
      await page.getByRole('menuitemcheckbox', { name: 'Busy' }).click();
      await page.getByRole('button', { name: /Ann Test.*Busy/ }).waitFor();
      assert.equal(await availability(), 'busy');
      // Idle never overrides a status the agent chose.
      await page.clock.fastForward('11:00');
      await page.waitForTimeout(300);
      assert.equal(await availability(), 'busy');

      await page.getByRole('button', { name: /Ann Test/ }).click();
      await page.getByRole('menuitemcheckbox', { name: 'Available' }).click();
      await page.getByRole('button', { name: /Ann Test.*Available/ }).waitFor();
      assert.equal(await availability(), 'available');
      await page.clock.fastForward('11:00');
      await page.getByRole('button', { name: /Ann Test.*Away/ }).waitFor();
      assert.equal(await availability(), 'away', 'idle for ten minutes: away (source idle)');
      await page.mouse.move(200, 300);
      await page.mouse.move(220, 320);
      await page.getByRole('button', { name: /Ann Test.*Available/ }).waitFor();
      assert.equal(await availability(), 'available', 'active again: available');

      await page.getByRole('button', { name: /Ann Test/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(/\/login$/);
      const me = await page.request.get('/api/v1/agents/me');
      assert.equal(me.status(), 401, 'the session is over');
      assert.deepEqual(pageErrors(page), []);
    } finally {
      await context.close();
    }
  });

  it('signs out from an open conversation with no error in the page', async () => {
    const { page, context } = await newPage(browser, server.base);
    try {
      await signIn(page, ann.email, AGENT_PASSWORD, `/inbox/mine/c/${first.uuid}`);
      await page.getByRole('textbox', { name: 'Message editor' }).waitFor();
      await page.getByRole('button', { name: /Ann Test/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(/\/login$/);
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await page.waitForTimeout(500);
      assert.deepEqual(pageErrors(page), []);
    } finally {
      await context.close();
    }
  });

  it('is usable at a phone width and in dark mode', async () => {
    const { page, context } = await newPage(browser, server.base, { width: 390, height: 844, colorScheme: 'dark' });
    try {
      await signIn(page, ann.email, AGENT_PASSWORD);
      await page.getByRole('list', { name: 'Conversation list' }).getByText('Invoice address').waitFor();
      await assertAccessible(page, 'list, phone, dark');
      await shot(page, 'inbox-phone-dark');
      await page.getByRole('button', { name: 'Open the navigation' }).click();
      await page
        .getByRole('dialog')
        .getByRole('link', { name: /Unassigned/ })
        .click();
      await page.waitForURL(/\/inbox\/unassigned/);
      await page.getByText('Nobody has this one yet').click();
      await page.getByRole('log', { name: 'Messages' }).waitFor();
      await assertAccessible(page, 'conversation, phone, dark');

      // The details panel, over the thread at this width: its toggle stays uncovered, it has a
      // close button, and Escape closes it too.
      const toggle = page.getByRole('button', { name: 'Conversation details' });
      const details = page.getByRole('complementary', { name: 'Conversation details' });
      const covered = () =>
        toggle.evaluate((button) => {
          const box = button.getBoundingClientRect();
          const top = button.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return !(top && button.contains(top));
        });
      await toggle.click();
      await details.waitFor();
      assert.equal(await covered(), false, 'the toggle is not under the panel');
      await assertAccessible(page, 'conversation details, phone, dark');
      await details.getByRole('button', { name: 'Close the details' }).click();
      await details.waitFor({ state: 'hidden' });
      await toggle.click();
      await details.waitFor();
      assert.ok(
        await details
          .getByRole('button', { name: 'Close the details' })
          .evaluate((button) => button === button.ownerDocument.activeElement),
        'the close button has the focus',
      );
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'hidden' });
      assert.ok(await toggle.evaluate((button) => button === button.ownerDocument.activeElement), 'the focus is back on the toggle');
      assert.deepEqual(pageErrors(page), [], 'no error in the page');
    } finally {
      await context.close();
    }
  });

  it('has a dark mode on the wide screens too', { skip: SCREENSHOTS ? false : 'screenshots only' }, async () => {
    const { page, context } = await newPage(browser, server.base, { colorScheme: 'dark' });
    try {
      await signIn(page, ann.email, AGENT_PASSWORD);
      await page.getByRole('list', { name: 'Conversation list' }).getByText('Invoice address').click();
      await page.getByRole('log', { name: 'Messages' }).getByText('billing is on it').waitFor();
      await assertAccessible(page, 'conversation, dark');
      await shot(page, 'conversation-dark');
    } finally {
      await context.close();
    }
  });
});
