// Notifications in a real browser: a notification made for the agent while the page is open
// raises the bell's badge (and the tab's title) live and shows in the panel; opening it goes to
// its conversation and reads it; marking all read, one unread again, deleting; the account
// page's preferences save and come back after a reload. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createConversation } from '../factories.ts';
import { dataOf } from '../helpers.ts';
import { insertNotification } from '../notifications.ts';
import { AGENT_PASSWORD, agentDesk, type AgentDesk } from './agent-harness.ts';
import { browserMissing, describeViolations, newPage, seriousViolations, signIn } from './admin-harness.ts';

const skip = browserMissing() ?? false;

describe('notifications in the web app', { skip }, () => {
  let desk: AgentDesk;
  let page: Page;
  let errors: string[];
  let conversation: string;

  const unreadCount = async () =>
    dataOf<{ count: number }>(await desk.server.t.call({ method: 'GET', url: '/api/v1/notifications/unread-count', as: desk.ann })).count;
  const notify = (title: string, extra: Partial<Parameters<typeof insertNotification>[1]> = {}) =>
    insertNotification(desk.server.t, {
      agentId: desk.ann.id,
      conversationUuid: conversation,
      type: 'mentioned',
      actor: { type: 'agent', id: desk.server.t.admin.id, name: 'Admin Test' },
      title,
      excerpt: 'Could you take a look at this one?',
      ...extra,
    });
  const bell = (name: string) => page.getByRole('banner').getByRole('button', { name, exact: true });

  before(async () => {
    desk = await agentDesk();
    // Unassigned: Ann may read it (read_unassigned), and nobody is notified of it by itself.
    conversation = (await createConversation(desk.server.t, { inbox_id: desk.inboxId, subject: 'Broken checkout' })).uuid;
    ({ page, errors } = await newPage(desk.browser, desk.server.base));
    // Counts the chime's notes (the Web Audio oscillators the page starts).
    await page.addInitScript(`
      window.__chimes = 0;
      const create = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function () { window.__chimes += 1; return create.call(this); };
    `);
    await signIn(page, desk.ann.email, AGENT_PASSWORD);
  });
  after(() => desk?.close());

  it('a new notification raises the badge live; opening it goes to the conversation and reads it', async () => {
    await bell('Notifications').waitFor();
    await notify('Admin mentioned you in “Broken checkout”');
    await bell('Notifications, 1 unread').waitFor();
    assert.equal(await page.getByTestId('notification-badge').textContent(), '1');
    await page.waitForFunction("document.title.startsWith('(1) ')");
    assert.ok(Number(await page.evaluate('window.__chimes')) > 0, 'the chime played');

    await bell('Notifications, 1 unread').click();
    const list = page.getByRole('list', { name: 'Notifications' });
    await list.getByText('Admin mentioned you in “Broken checkout”').waitFor();
    const violations = await seriousViolations(page, [], ['.notifications']);
    assert.equal(violations.length, 0, describeViolations(violations));

    await list.getByText('Admin mentioned you in “Broken checkout”').click();
    await page.waitForURL((url) => url.pathname.endsWith(`/c/${conversation}`));
    await bell('Notifications').waitFor();
    assert.equal(await unreadCount(), 0);
    await page.waitForFunction("!document.title.startsWith('(')");
  });

  it('mark all read, one unread again, delete; the unread filter and all', async () => {
    await notify('First of two');
    await notify('Second of two');
    await bell('Notifications, 2 unread').waitFor();
    await bell('Notifications, 2 unread').click();
    const list = page.getByRole('list', { name: 'Notifications' });
    await list.getByText('Second of two').waitFor();
    // Unread first: the one read before is not listed (once the list is read again).
    await list.getByText('Admin mentioned you in “Broken checkout”').waitFor({ state: 'detached' });
    assert.equal(await list.getByRole('listitem').count(), 2);
    // A second tab of the same browser follows the first one's marks.
    const other = await page.context().newPage();
    await other.goto('/inbox/mine');
    await other.getByRole('banner').getByRole('button', { name: 'Notifications, 2 unread', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await bell('Notifications').waitFor();
    assert.equal(await unreadCount(), 0);
    await other.getByRole('banner').getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await other.close();

    await page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'All' }).click();
    await list.getByText('Admin mentioned you in “Broken checkout”').waitFor();
    assert.equal(await list.getByRole('listitem').count(), 3);
    const first = list.getByRole('listitem').filter({ hasText: 'First of two' });
    await first.getByRole('button', { name: 'Mark as unread' }).click();
    await bell('Notifications, 1 unread').waitFor();
    assert.equal(await unreadCount(), 1);
    await first.getByRole('button', { name: 'Mark as read' }).waitFor();

    await list.getByRole('listitem').filter({ hasText: 'Second of two' }).getByRole('button', { name: 'Delete notification' }).click();
    await list.getByText('Second of two').waitFor({ state: 'detached' });
    const left = dataOf<{ total: number }>(await desk.server.t.call({ method: 'GET', url: '/api/v1/notifications', as: desk.ann }));
    assert.equal(left.total, 2);
    await page.keyboard.press('Escape');
    assert.deepEqual(errors, []);
  });

  it('the account page saves the preferences, and they come back after a reload', async () => {
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Notifications' });
    await section.getByRole('checkbox', { name: 'Mentioned you: Push' }).check();
    await section.getByRole('checkbox', { name: 'New reply: Email' }).check();
    await section.getByRole('radio', { name: 'One digest every 15 minutes' }).check();
    await section.getByRole('switch', { name: 'Show the unread count in the browser tab’s title' }).click();
    await section.getByRole('switch', { name: 'Play a sound on a new notification' }).click();
    await section.getByRole('button', { name: 'Save notification settings' }).click();
    await page.getByText('Notification settings saved', { exact: true }).waitFor();
    const violations = await seriousViolations(page, [], ['#account-notifications']);
    assert.equal(violations.length, 0, describeViolations(violations));
    // One unread: the title counts it no more.
    await page.waitForFunction("!document.title.startsWith('(')");

    await page.reload();
    await section.getByRole('checkbox', { name: 'Mentioned you: Push' }).waitFor();
    assert.equal(await section.getByRole('checkbox', { name: 'Mentioned you: Push' }).isChecked(), true);
    assert.equal(await section.getByRole('checkbox', { name: 'New reply: Email' }).isChecked(), true);
    assert.equal(await section.getByRole('checkbox', { name: 'Assigned to you: Email' }).isChecked(), true);
    assert.equal(await section.getByRole('radio', { name: 'One digest every 15 minutes' }).isChecked(), true);
    const stored = dataOf<{
      types: Record<string, { push: boolean; email: boolean }>;
      email_digest: boolean;
      title_count: boolean;
      sound: boolean;
    }>(await desk.server.t.call({ method: 'GET', url: '/api/v1/agents/me/notification-settings', as: desk.ann }));
    assert.equal(stored.types['mentioned']?.push, true);
    assert.equal(stored.types['reply']?.email, true);
    assert.equal(stored.email_digest, true);
    assert.equal(stored.title_count, false);
    assert.equal(stored.sound, false);

    // Sound and title count off: a new notification raises the badge, with no chime and no count in the title.
    const chimes = Number(await page.evaluate('window.__chimes'));
    await notify('Quiet one');
    await bell('Notifications, 2 unread').waitFor();
    assert.equal(Number(await page.evaluate('window.__chimes')), chimes, 'no chime');
    assert.ok(!(await page.title()).startsWith('('), await page.title());
    assert.deepEqual(errors, []);
  });
});
