// Routing and what the walkthrough found missing, in a real browser: an inbox's default team and
// "assign to the agent who replies first" set on its admin screen and held by the API; a CSAT
// answer given through the public route shown on the open conversation without a reload; a live
// chat without subject titled by its first message in the list, the header, search and the tab.
// Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createInbox, createTeam } from '../factories.ts';
import { startVisitor } from '../widget.ts';
import { dataOf } from '../helpers.ts';
import { type AdminSession, adminSession, browserMissing, describeViolations, seriousViolations, type WebServer } from './admin-harness.ts';

const skip = browserMissing() ?? false;

type Json = Record<string, unknown>;

describe('routing, CSAT and titles', { skip }, () => {
  let session: AdminSession | undefined;
  let server: WebServer;
  let page: Page;
  let errors: string[];
  before(async () => {
    session = await adminSession();
    ({ server, page, errors } = session);
  });
  after(() => session?.close());

  it("sets an inbox's default team and first-reply assignment on its admin screen", async () => {
    const team = await createTeam(server.t, { name: 'Tier 1' });
    const inbox = await createInbox(server.t, { name: 'Routed chat' });
    const read = async () => dataOf<Json>(await server.t.call({ url: `/api/v1/inboxes/${inbox.id}` }));
    await page.goto(`/admin/inboxes/${inbox.id}`);
    const routing = page.getByRole('region', { name: 'Routing' });
    const teamSelect = routing.getByRole('combobox', { name: 'Default team' });
    await teamSelect.getByText('No team').waitFor();
    await teamSelect.click();
    await page.getByRole('option', { name: 'Tier 1' }).click();
    const firstReply = routing.getByRole('switch', { name: 'Assign to the agent who replies first' });
    assert.equal(await firstReply.getAttribute('aria-checked'), 'false');
    await firstReply.click();
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await page.getByText('Inbox saved', { exact: true }).waitFor();
    const saved = await read();
    assert.equal(saved['default_team_id'], team.id);
    assert.equal(saved['assign_on_first_reply'], true);

    // Shown as saved after a reload; cleared again through the same screen.
    await page.reload();
    await teamSelect.getByText('Tier 1').waitFor();
    assert.equal(await firstReply.getAttribute('aria-checked'), 'true');
    await teamSelect.click();
    await page.getByRole('option', { name: 'No team' }).click();
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await page.getByText('Inbox saved', { exact: true }).waitFor();
    assert.equal((await read())['default_team_id'], null);
    assert.deepEqual(errors, []);
  });

  it("shows the contact's CSAT rating and comment on the open conversation as the answer arrives", async () => {
    const inbox = await createInbox(server.t, { name: 'Rated chat', csat_enabled: true });
    const visitor = await startVisitor(server.t, inbox.uuid, 'My invoice is wrong');
    const resolved = dataOf<{ csat: { uuid: string } }>(
      await server.t.call({
        method: 'PUT',
        url: `/api/v1/conversations/${visitor.conversationUuid}/status`,
        payload: { status: 'Resolved' },
      }),
    );
    await page.goto(`/inbox/all/c/${visitor.conversationUuid}`);
    const details = page.getByRole('complementary', { name: 'Conversation details' });
    const satisfaction = details.getByRole('region', { name: 'Satisfaction' });
    await satisfaction.getByText(/Survey sent .*; no answer yet/).waitFor();
    // The contact answers through the public route; the open page follows without a reload.
    await page.evaluate('window.parleySameDocument = true');
    dataOf(
      await server.t.call({
        method: 'POST',
        url: `/api/v1/csat/${resolved.csat.uuid}/response`,
        payload: { rating: 4, feedback: 'Quick and kind <b>thanks</b>' },
        as: null,
      }),
    );
    await satisfaction.getByText('Rated 4 of 5').waitFor();
    await satisfaction.getByText('Quick and kind <b>thanks</b>', { exact: true }).waitFor();
    await satisfaction.getByText(/^Answered /).waitFor();
    assert.equal(await page.evaluate('window.parleySameDocument'), true, 'no reload');
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
    assert.deepEqual(errors, []);
  });

  it('titles a live chat without subject by its first message: list, header, search, browser tab', async () => {
    const inbox = await createInbox(server.t, { name: 'Titled chat' });
    const visitor = await startVisitor(server.t, inbox.uuid, 'My parcel never arrived, order 7731');
    dataOf(
      await server.t.call({
        method: 'POST',
        url: `/api/v1/conversations/${visitor.conversationUuid}/messages`,
        payload: { message: 'Let me check the carrier' },
      }),
    );
    const title = 'My parcel never arrived, order 7731';
    await page.goto(`/inbox/channel/${inbox.id}`);
    const row = page.getByRole('list', { name: 'Conversation list' }).getByRole('listitem').filter({ hasText: title });
    await row.waitFor();
    assert.equal(await row.getByText('(no subject)').count(), 0);
    await row.getByText('Let me check the carrier').waitFor();
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: title, level: 2 }).waitFor();
    await page.waitForFunction(`document.title === ${JSON.stringify(`${title} · Parley`)}`);
    await page.goto('/search?q=parcel');
    await page.getByRole('link', { name: title }).first().waitFor();
    assert.equal(await page.getByText('(no subject)').count(), 0);
    assert.deepEqual(errors, []);
  });
});
