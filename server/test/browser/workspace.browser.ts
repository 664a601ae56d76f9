// Contacts, search and reports in a real browser, on seeded data: the contacts list → a contact →
// a note added (the API has it); a search finds a conversation by a word of its subject and opens
// it; the reports overview shows what is open now and the tags; the service report shows the
// API's figures, filtered by team too; each screen (the contacts list, a contact, the search
// results, both reports) passes axe's serious and critical checks and fits a 375 px wide phone; a
// conversation's SLA panel says due, none owed, or paused while it waits. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createContact, createConversation, createInbox, createTeam } from '../factories.ts';
import { dataOf } from '../helpers.ts';
import {
  browserMissing,
  describeViolations,
  newPage,
  seriousViolations,
  signIn,
  type WebServer,
  type AdminSession,
  adminSession,
} from './admin-harness.ts';

const skip = browserMissing() ?? false;

interface ServiceReport {
  conversations: { created: number; resolved: number };
  by_team: Array<{ name: string; created: number; resolved: number }>;
}

describe('contacts, search and reports', { skip }, () => {
  let session: AdminSession | undefined;
  let server: WebServer;
  let browser: Browser;
  let page: Page;
  let contactId: number;
  let zeppelinUuid: string;
  let teamId: number;

  const seed = async ({ t }: WebServer) => {
    const inbox = await createInbox(t, { name: 'Website chat' });
    const team = await createTeam(t, { name: 'Billing' });
    teamId = team.id;
    dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'refund' } }));
    const grace = await createContact(t, { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
    contactId = grace.id;
    for (let i = 0; i < 3; i++) await createContact(t, { first_name: `Other${i}`, last_name: 'Person' });
    // Five conversations: two in the team, three resolved (one of them in the team).
    for (let i = 0; i < 5; i++) {
      const subject = i === 0 ? 'Zeppelin tickets refund' : `Question ${i}`;
      const conversation = await createConversation(t, { inbox_id: inbox.id, contact_id: grace.id, subject, content: `Message ${i}` });
      if (i === 0) zeppelinUuid = conversation.uuid;
      if (i < 2)
        dataOf(
          await t.call({
            method: 'PUT',
            url: `/api/v1/conversations/${conversation.uuid}/assignee/team`,
            payload: { assignee_id: team.id },
          }),
        );
      dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${conversation.uuid}/messages`, payload: { message: 'On it' } }));
      // Two tagged, for the overview's tag bars.
      if (i >= 3)
        dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${conversation.uuid}/tags`, payload: { tags: ['refund'] } }));
      if (i % 2 === 1 || i === 0)
        dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/status`, payload: { status: 'Resolved' } }));
    }
  };
  before(async () => {
    session = await adminSession(seed);
    ({ server, browser, page } = session);
  });
  after(() => session?.close());

  it('goes from the contacts list to a contact and adds a note', async () => {
    await page.goto('/contacts');
    await page.getByRole('link', { name: /Grace Hopper/ }).waitFor();
    const list = await seriousViolations(page);
    assert.deepEqual(list, [], `the contacts list: ${describeViolations(list)}`);
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('hopper');
    // The list follows the box (debounced) and the URL keeps the query.
    await page.waitForURL(/q=hopper/);
    await page.getByRole('link', { name: /Grace Hopper/ }).click();
    await page.waitForURL(`**/contacts/${contactId}`);
    await page.getByRole('heading', { name: 'Grace Hopper', level: 1 }).waitFor();
    await page.getByRole('link', { name: /Zeppelin tickets refund/ }).waitFor();

    await page.getByLabel('Add a note').fill('Prefers email.\nCall only if urgent.');
    await page.getByRole('button', { name: 'Add a note' }).click();
    await page.getByText('Call only if urgent.').waitFor();
    const notes = dataOf<Array<{ note: string; user_id: number }>>(
      await server.t.call({ method: 'GET', url: `/api/v1/contacts/${contactId}/notes` }),
    );
    assert.equal(notes.length, 1);
    // Typed as plain text, stored as HTML: escaped, the line break kept.
    assert.match(notes[0]?.note ?? '', /^<p>Prefers email\.<br ?\/?>Call only if urgent\.<\/p>$/);
    assert.equal(notes[0]?.user_id, server.t.admin.id);

    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
  });

  it('finds a conversation by a word of its subject and opens it', async () => {
    await page.goto('/search');
    await page.getByRole('searchbox', { name: 'Search conversations, messages and contacts' }).fill('zeppelin');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?q=zeppelin/);
    const hit = page.getByRole('link', { name: /Zeppelin tickets refund/ });
    await hit.waitFor();
    // The matched word is marked.
    assert.equal(await hit.locator('mark').first().textContent(), 'Zeppelin');
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], `the search results: ${describeViolations(violations)}`);
    await hit.click();
    await page.waitForURL(new RegExp(zeppelinUuid));
  });

  it('shows the reports overview: what is open now, the agents by availability, the tags', async () => {
    await page.goto('/reports');
    const figure = (label: string) => page.locator('.stat', { has: page.getByText(label, { exact: true }) }).locator('.stat__value');
    // Two of the five are still open (the seed resolved the first, second and fourth).
    await figure('Open').filter({ hasText: /^2$/ }).waitFor();
    await page.getByRole('list', { name: 'The most used tags' }).getByText('refund').waitFor();
    await page.waitForLoadState('networkidle');
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], `the reports overview: ${describeViolations(violations)}`);
  });

  it('shows the service report the API computes, and the same filtered by team', async () => {
    const report = async (query: string) =>
      dataOf<ServiceReport>(await server.t.call({ method: 'GET', url: `/api/v1/reports/service${query}` }));
    const all = await report('');
    assert.equal(all.conversations.created, 5, 'the seed created five conversations');
    const figure = (label: string) => page.locator('.stat', { has: page.getByText(label, { exact: true }) }).locator('.stat__value');

    await page.goto('/reports/service');
    await figure('Created').waitFor();
    assert.equal(await figure('Created').textContent(), String(all.conversations.created));
    assert.equal(await figure('Resolved').textContent(), String(all.conversations.resolved));
    const billing = all.by_team.find((row) => row.name === 'Billing');
    assert.ok(billing);
    const teamRow = page.getByRole('table', { name: 'Per team' }).getByRole('row', { name: /Billing/ });
    assert.deepEqual(await teamRow.getByRole('cell').allTextContents(), ['Billing', String(billing.created), String(billing.resolved)]);

    await page.getByRole('combobox', { name: 'Team' }).click();
    await page.getByRole('option', { name: 'Billing' }).click();
    await page.waitForURL(new RegExp(`team_id=${teamId}`));
    const filtered = await report(`?team_id=${teamId}`);
    assert.equal(filtered.conversations.created, 2);
    // The figures change once the filtered report has arrived.
    await figure('Created')
      .filter({ hasText: new RegExp(`^${filtered.conversations.created}$`) })
      .waitFor();
    assert.equal(await figure('Resolved').textContent(), String(filtered.conversations.resolved));

    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
  });

  it('fits a 375 px wide phone', async () => {
    const phone = await newPage(browser, server.base, { width: 375, height: 812 });
    try {
      await signIn(phone.page, server.t.admin.email);
      for (const path of [
        '/contacts',
        `/contacts/${contactId}`,
        '/search?q=zeppelin',
        '/reports',
        '/reports/service',
        '/admin',
        '/admin/inboxes',
      ]) {
        await phone.page.goto(path);
        await phone.page.locator('.page__title').waitFor();
        await phone.page.waitForLoadState('networkidle');
        const overflow = await phone.page.locator('.page').evaluate((scroller) => scroller.scrollWidth - scroller.clientWidth);
        assert.ok(overflow === 0, `${path} scrolls sideways by ${overflow} px`);
      }
    } finally {
      await phone.context.close();
    }
  });
  // Last: it adds a conversation, which the reports above do not count.
  it('shows a conversation’s SLA: a deadline due, a next response none owed, both paused while it waits', async () => {
    const { t } = server;
    const policy = dataOf<{ id: number }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/sla',
        payload: { name: 'Panel', first_response_minutes: 30, next_response_minutes: 60 },
      }),
    );
    const inbox = await createInbox(t);
    const c = await createConversation(t, { inbox_id: inbox.id, contact_id: contactId, subject: 'SLA panel', initiator: 'contact' });
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${c.uuid}/sla`, payload: { sla_policy_id: policy.id } }));
    await page.goto(`/inbox/all/c/${c.uuid}`);
    const panel = page.locator('section[aria-labelledby="details-sla"]');
    await panel.getByText(/SLA due in/).waitFor();
    await panel.getByText('none owed now').waitFor();
    // Snoozed elsewhere: the panel follows live.
    dataOf(
      await t.call({ method: 'PUT', url: `/api/v1/conversations/${c.uuid}/status`, payload: { status: 'Snoozed', snoozed_until: '1d' } }),
    );
    // The status and the SLA's deadlines are two queries: wait until both have caught up.
    await panel.getByText('paused while waiting').nth(1).waitFor();
    assert.equal(
      await panel.getByText('paused while waiting').count(),
      2,
      'the first response frozen, the next response none owed while waiting',
    );
  });
});
