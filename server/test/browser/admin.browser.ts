// The administration screens in a real browser: an admin creates a tag, a team (round robin, with
// a member) and a macro (with actions and a placeholder) through the screens, and the API confirms
// each; a duplicate name shows the API's refusal in the form; the screens pass axe's serious and
// critical checks. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { dataOf } from '../helpers.ts';
import { browserMissing, describeViolations, seriousViolations, type WebServer, type AdminSession, adminSession } from './admin-harness.ts';

const skip = browserMissing() ?? false;

describe('administration screens', { skip }, () => {
  let session: AdminSession | undefined;
  let server: WebServer;
  let page: Page;
  let errors: string[];
  let adminName: string;
  before(async () => {
    session = await adminSession();
    ({ server, page, errors } = session);
    adminName = session.admin.name;
  });
  after(() => session?.close());

  const apiGet = async <T>(url: string): Promise<T> => dataOf<T>(await server.t.call({ method: 'GET', url }));

  it('creates a tag, and shows the API refusing the same name again', async () => {
    await page.goto('/admin/tags');
    await page.getByRole('button', { name: 'New tag' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New tag' });
    await dialog.getByLabel('Name').fill('vip-e2e');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'vip-e2e', exact: true }).waitFor();
    const tags = await apiGet<Array<{ name: string }>>('/api/v1/tags');
    assert.ok(
      tags.some((tag) => tag.name === 'vip-e2e'),
      'the API lists the new tag',
    );

    await page.getByRole('button', { name: 'New tag' }).first().click();
    await dialog.getByLabel('Name').fill('VIP-E2E');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // 409 from the API (names are unique case-insensitively): shown in the dialog, which stays open.
    await dialog.getByRole('alert').waitFor();
    assert.match((await dialog.getByRole('alert').textContent()) ?? '', /exist|taken|already/i);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await apiGet<Array<{ name: string }>>('/api/v1/tags')).filter((tag) => tag.name.toLowerCase() === 'vip-e2e').length, 1);
  });

  it('creates a round-robin team with a member', async () => {
    await page.goto('/admin/teams');
    await page.getByRole('button', { name: 'New team' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New team' });
    await dialog.getByLabel('Name', { exact: true }).fill('Escalations');
    await dialog.getByLabel('Emoji').fill('🚨');
    await dialog.getByRole('combobox', { name: 'Assignment' }).click();
    await page.getByRole('option', { name: 'Round robin' }).click();
    await dialog.getByLabel('Most open conversations per agent').fill('5');
    await dialog.getByRole('checkbox', { name: adminName }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'Escalations', exact: true }).waitFor();

    const teams =
      await apiGet<
        Array<{ id: number; name: string; emoji: string; conversation_assignment_type: string; max_auto_assigned_conversations: number }>
      >('/api/v1/teams');
    const team = teams.find((candidate) => candidate.name === 'Escalations');
    assert.ok(team, 'the API lists the new team');
    assert.equal(team.conversation_assignment_type, 'round_robin');
    assert.equal(team.max_auto_assigned_conversations, 5);
    assert.equal(team.emoji, '🚨');
    const members = await apiGet<Array<{ id: number }>>(`/api/v1/teams/${team.id}/members`);
    assert.deepEqual(
      members.map((m) => m.id),
      [server.t.admin.id],
    );
  });

  it('creates a macro with actions and a placeholder in its reply', async () => {
    await page.goto('/admin/macros');
    await page.getByRole('button', { name: 'New macro' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New macro' });
    await dialog.getByLabel('Name', { exact: true }).fill('Escalate to the team');
    await dialog.getByRole('combobox', { name: 'Add an action…' }).click();
    await page.getByRole('option', { name: 'Assign team' }).click();
    await dialog.getByRole('combobox', { name: 'Value of Assign team' }).click();
    await page.getByRole('option', { name: 'Escalations' }).click();
    await dialog.getByRole('combobox', { name: 'Add an action…' }).click();
    await page.getByRole('option', { name: 'Add tags' }).click();
    await dialog.getByRole('combobox', { name: 'Value of Add tags' }).click();
    await page.getByRole('option', { name: 'vip-e2e' }).click();
    await dialog.getByRole('checkbox', { name: 'Resolved' }).uncheck();
    await dialog.getByLabel('Reply').fill('<p>Hello ');
    await dialog.getByRole('button', { name: '{{contact.first_name}}' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'Escalate to the team', exact: true }).waitFor();

    const team = (await apiGet<Array<{ id: number; name: string }>>('/api/v1/teams')).find((candidate) => candidate.name === 'Escalations');
    const macros =
      await apiGet<Array<{ name: string; actions: Record<string, unknown>; visible_when: string[]; message_content: string }>>(
        '/api/v1/macros',
      );
    const macro = macros.find((candidate) => candidate.name === 'Escalate to the team');
    assert.ok(macro, 'the API lists the new macro');
    assert.deepEqual(macro.actions, { assign_team: team?.id, add_tags: ['vip-e2e'] });
    assert.deepEqual([...macro.visible_when].sort(), ['conversation_open', 'conversation_waiting']);
    assert.match(macro.message_content, /Hello \{\{contact\.first_name\}\}/);
  });

  it("shows the team's emoji before its name in the navigation, the list and the pickers, drawn by the app's emoji font", async () => {
    await page.goto('/admin/teams');
    const link = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /Escalations/ });
    await link.waitFor();
    assert.equal(await link.locator('.nav__emoji').textContent(), '🚨');
    await page
      .getByRole('cell')
      .filter({ hasText: /🚨\s*Escalations/ })
      .waitFor();
    // Debian's Chromium has no emoji font of its own: the app's is the one that draws it.
    const faces = await page.evaluate(`document.fonts.load('16px "Noto Color Emoji"', '🚨').then((found) => found.length)`);
    assert.ok(Number(faces) > 0, 'the emoji font is loaded for the emoji');
    await page.goto('/admin/macros');
    await page.getByRole('button', { name: 'New macro' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New macro' });
    await dialog.getByRole('combobox', { name: 'Add an action…' }).click();
    await page.getByRole('option', { name: 'Assign team' }).click();
    await dialog.getByRole('combobox', { name: 'Value of Assign team' }).click();
    await page.getByRole('option', { name: '🚨 Escalations' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it("words the API's validation errors for people: no validator text, no request part", async () => {
    await page.goto('/admin/teams');
    await page.getByRole('button', { name: 'New team' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New team' });
    const refused = page.waitForResponse((response) => response.url().endsWith('/api/v1/teams') && response.status() === 400);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const body = (await (await refused).json()) as { data: { errors: Array<{ reason: string }> } };
    assert.match(body.data.errors[0]?.reason ?? '', /must NOT have fewer than 1 characters/, 'the API answered in its own words');
    await dialog.getByText('Must not be empty').waitFor();
    const text = (await dialog.textContent()) ?? '';
    assert.doesNotMatch(text, /must NOT|Invalid body|body\/|\/api\//);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('passes axe on the teams list and the team dialog', async () => {
    await page.goto('/admin/teams');
    await page.getByRole('cell', { name: 'Escalations', exact: true }).waitFor();
    const list = await seriousViolations(page);
    assert.deepEqual(list, [], describeViolations(list));
    await page.getByRole('button', { name: 'Edit Escalations' }).click();
    await page.getByRole('dialog', { name: 'Edit team' }).getByRole('checkbox', { name: adminName }).waitFor();
    const dialog = await seriousViolations(page);
    assert.deepEqual(dialog, [], describeViolations(dialog));
    await page.keyboard.press('Escape');
  });

  it('names each permission in the role dialog, with a description, in columns that do not overlap; counts in the singular', async () => {
    dataOf(await server.t.call({ method: 'POST', url: '/api/v1/roles', payload: { name: 'Readers', permissions: ['messages:read'] } }));
    await page.goto('/admin/roles');
    await page.getByRole('row').filter({ hasText: 'Readers' }).getByRole('cell', { name: '1 permission', exact: true }).waitFor();
    await page.getByRole('button', { name: 'New role' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New role' });
    const all = await apiGet<string[]>('/api/v1/permissions');
    const boxes = dialog.getByRole('checkbox');
    await boxes.first().waitFor();
    assert.equal(await boxes.count(), all.length, 'one checkbox per permission');
    const labels = await boxes.evaluateAll((inputs) =>
      inputs.map((input) => ({
        name: input.closest('label')?.querySelector('.check-row__text > span:first-child')?.textContent ?? '',
        description: input.getAttribute('aria-describedby')
          ? (input.ownerDocument.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? '')
          : '',
      })),
    );
    for (const { name, description } of labels) {
      assert.doesNotMatch(name, /:/, `a human label, not a key: ${name}`);
      assert.ok(description.length > 0, `${name} has a description`);
    }
    await dialog.getByRole('checkbox', { name: 'Assign to agents' }).check();
    // No row runs into the next: each keeps its text inside its own box, and no two boxes meet.
    const rows = await dialog.locator('.check-row').evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return {
          overflow: element.scrollWidth > element.clientWidth + 1,
          left: box.left,
          right: box.right,
          top: box.top,
          bottom: box.bottom,
        };
      }),
    );
    assert.equal(rows.filter((row) => row.overflow).length, 0, 'no label wider than its column');
    for (const [i, a] of rows.entries()) {
      for (const b of rows.slice(i + 1)) {
        const meet = a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
        assert.equal(meet, false, 'two permissions overlap');
      }
    }
    const axe = await seriousViolations(page);
    assert.deepEqual(axe, [], describeViolations(axe));
    await page.keyboard.press('Escape');
  });

  it('logged no page errors beyond the expected refusals (the signed-out probe, the duplicate tag, the empty team name)', () => {
    assert.deepEqual(
      errors.filter((error) => !/status of (400|401|409)/.test(error)),
      [],
    );
  });
});
