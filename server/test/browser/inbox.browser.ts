// The conversation lists' filters and bulk actions in a real browser, as an admin on "All": filter
// by assignee (several agents, then no agent) and by several statuses, each list checked against
// the API's answer to the same filter and kept in the URL across a reload; bulk assign to an agent
// (at most four requests at once) and to a team, bulk add and remove a tag, each confirmed through
// the API; a partial failure reported as such; axe clean with the filters, a menu and the bulk bar
// on screen. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type Conversation, createConversation, createInbox, createTeam } from '../factories.ts';
import { type Caller, dataOf } from '../helpers.ts';
import { type AdminSession, adminSession, browserMissing, describeViolations, seriousViolations, type WebServer } from './admin-harness.ts';

const skip = browserMissing() ?? false;

describe('conversation list filters and bulk actions', { skip }, () => {
  let session: AdminSession | undefined;
  let server: WebServer;
  let page: Page;
  let errors: string[];
  let bea: Caller;
  let cal: Caller;
  let team: { id: number; name: string };
  const made: Record<string, Conversation> = {};

  before(async () => {
    session = await adminSession(async ({ t }) => {
      bea = await t.makeAgent({ first_name: 'Bea' });
      cal = await t.makeAgent({ first_name: 'Cal' });
      team = await createTeam(t, { name: 'Billing', members: [cal.id] });
      dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name: 'vip' } }));
      const inbox = await createInbox(t, { name: 'Support' });
      const seed: Array<[string, number | undefined, string]> = [
        ['bea-open', bea.id, 'Open'],
        ['bea-resolved', bea.id, 'Resolved'],
        ['cal-closed', cal.id, 'Closed'],
        ...[1, 2, 3, 4, 5].map((n): [string, undefined, string] => [`free-${n}`, undefined, 'Open']),
        ['free-resolved', undefined, 'Resolved'],
      ];
      for (const [subject, assignee_id, status] of seed) {
        const c = await createConversation(t, { inbox_id: inbox.id, subject, ...(assignee_id ? { assignee_id } : {}) });
        if (status !== 'Open') dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${c.uuid}/status`, payload: { status } }));
        made[subject] = c;
      }
    });
    ({ server, page, errors } = session);
  });
  after(() => session?.close());

  const get = async (uuid: string) => dataOf<Conversation>(await server.t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` }));
  /** The uuids a list answers, sorted. */
  const apiList = async (path: string) =>
    dataOf<{ results: Array<{ uuid: string }> }>(await server.t.call({ method: 'GET', url: `/api/v1/${path}` }))
      .results.map((c) => c.uuid)
      .sort();
  const uuidsOf = (...subjects: string[]) => subjects.map((s) => made[s]?.uuid ?? s).sort();
  /** The rows on screen, once they settle on `expected` (or after 10 s, whatever they are). */
  const rowsBecome = async (expected: string[], message: string) => {
    const shown = () =>
      page
        .locator('ul[aria-label="Conversation list"] li[data-uuid]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-uuid') ?? '').sort());
    const deadline = Date.now() + 10_000;
    while (JSON.stringify(await shown()) !== JSON.stringify(expected) && Date.now() < deadline) await page.waitForTimeout(100);
    assert.deepEqual(await shown(), expected, message);
  };
  const tick = async (filter: RegExp, ...items: string[]) => {
    await page.getByRole('button', { name: filter }).click();
    for (const item of items) await page.getByRole('menuitemcheckbox', { name: item, exact: true }).click();
    await page.keyboard.press('Escape');
  };
  const assertAccessible = async (screen: string, exclude: string[] = []) => {
    const violations = await seriousViolations(page, exclude);
    assert.deepEqual(violations, [], `${screen}:\n${describeViolations(violations)}`);
  };

  it('filters by assignee (several agents, then no agent), as the API does, kept in the URL', async () => {
    await page.goto('/inbox/all');
    await page.getByRole('list', { name: 'Conversation list' }).waitFor();
    await tick(/^Assignee: Anyone/, 'Bea Test');
    const beas = await apiList(`conversations/all?assignee_id=${bea.id}`);
    assert.deepEqual(beas, uuidsOf('bea-open', 'bea-resolved'), 'the API answers Bea’s two');
    await rowsBecome(beas, 'only Bea’s conversations are listed');
    assert.equal(new URL(page.url()).searchParams.getAll('assignee').join(), String(bea.id));

    await tick(/^Assignee: Bea Test/, 'Cal Test');
    await page.getByRole('button', { name: 'Assignee: Bea Test +1' }).waitFor();
    const both = await apiList(`conversations/all?assignee_id=${bea.id}&assignee_id=${cal.id}`);
    assert.deepEqual(both, uuidsOf('bea-open', 'bea-resolved', 'cal-closed'));
    await rowsBecome(both, 'Bea’s and Cal’s conversations');
    await page.reload();
    await rowsBecome(both, 'the filter survives a reload');

    await tick(/^Assignee:/, 'Unassigned');
    const free = await apiList('conversations/unassigned');
    assert.equal(free.length, 6);
    await rowsBecome(free, 'no agent: the unassigned conversations');
    await assertAccessible('list filtered by assignee');
  });

  it('filters by several statuses at once', async () => {
    await page.goto('/inbox/all');
    await page.getByRole('list', { name: 'Conversation list' }).waitFor();
    // The menu stays open while ticking: both are chosen in one visit.
    await page.getByRole('button', { name: /^Status: Any/ }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Resolved', exact: true }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Closed', exact: true }).click();
    // The open menu alone: a modal menu hides the page behind it (aria-hidden on #root, focus kept
    // in the menu), which axe reports for every open Radix menu of the app.
    await assertAccessible('status filter menu open', ['#root']);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Status: Resolved +1' }).waitFor();
    const done = await apiList('conversations/all?status=Resolved&status=Closed');
    assert.deepEqual(done, uuidsOf('bea-resolved', 'cal-closed', 'free-resolved'));
    await rowsBecome(done, 'resolved and closed conversations');
    assert.deepEqual(new URL(page.url()).searchParams.getAll('status'), ['Resolved', 'Closed']);
  });

  it('assigns the selection to an agent, a few requests at a time', async () => {
    await page.goto('/inbox/all?assignee=none&status=Open');
    const five = uuidsOf('free-1', 'free-2', 'free-3', 'free-4', 'free-5');
    await rowsBecome(five, 'the five open unassigned ones');
    let inFlight = 0;
    let most = 0;
    await page.route('**/api/v1/conversations/*/assignee/user', async (route) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
      inFlight--;
    });
    await page.getByRole('checkbox', { name: 'Select every conversation of this page' }).check();
    const bar = page.getByRole('toolbar', { name: '5 selected' });
    await assertAccessible('bulk bar');
    await bar.getByRole('button', { name: 'Assign to…' }).click();
    await page.getByRole('menuitem', { name: 'Cal Test' }).click();
    await page.getByText('Updated 5 conversations').first().waitFor();
    await page.unroute('**/api/v1/conversations/*/assignee/user');
    assert.ok(most >= 2 && most <= 4, `between 2 and 4 requests at once, not ${most}`);
    for (const uuid of five) assert.equal((await get(uuid)).assigned_user_id, cal.id, 'assigned to Cal');
    assert.equal((await get(uuidsOf('free-resolved')[0] ?? '')).assigned_user_id, null, 'an unselected one is untouched');
    await rowsBecome([], 'the list refreshed: none is unassigned any more');
  });

  it('assigns the selection to a team, adds and removes a tag, and reports a partial failure', async () => {
    await page.goto(`/inbox/all?assignee=${cal.id}&status=Open`);
    const five = uuidsOf('free-1', 'free-2', 'free-3', 'free-4', 'free-5');
    await rowsBecome(five, 'Cal’s open conversations');
    const bulk = async (menu: string, item: RegExp | string) => {
      await page.getByRole('checkbox', { name: 'Select every conversation of this page' }).check();
      const bar = page.getByRole('toolbar', { name: '5 selected' });
      await bar.getByRole('button', { name: menu }).click();
      await page.getByRole('menuitem', { name: item }).click();
      await bar.waitFor({ state: 'detached' });
    };

    await bulk('Assign to team…', /Billing/);
    for (const uuid of five) assert.equal((await get(uuid)).assigned_team_id, team.id, 'assigned to the team');

    await bulk('Add tag', 'vip');
    for (const uuid of five) assert.deepEqual((await get(uuid)).tags, ['vip'], 'tagged vip');

    // One of the five refuses: four are untagged, the toast says which part failed and why.
    const refused = five[0] ?? '';
    await page.route(`**/api/v1/conversations/${refused}/tags`, (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'error', message: 'Not allowed here', data: null, error_type: 'PermissionException' }),
      }),
    );
    await bulk('Remove tag', 'vip');
    await page.getByText('Updated 4 of 5 conversations; 1 failed: Not allowed here').first().waitFor();
    await page.unroute(`**/api/v1/conversations/${refused}/tags`);
    for (const uuid of five) assert.deepEqual((await get(uuid)).tags, uuid === refused ? ['vip'] : [], 'vip removed but where refused');
    assert.deepEqual(
      errors.filter((error) => !/status of 403/.test(error)),
      [],
      'no page errors beyond the refusal staged',
    );
  });
});
