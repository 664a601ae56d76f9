// The audit log screen in a real browser: an admin finds a change just made, opens it on its
// before/after (a secret masked), filters by action and by date, and downloads the CSV of what
// the filters select; an agent without audit:read is offered no such screen.
//
// The screen's details are tested on entries written with recordAudit on the server the browser
// talks to (a role change with a secret, a team created with an API key), and the whole loop on a
// role the admin creates in the Roles screen. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type AuditActor, recordAudit } from '../../src/audit/audit.service.ts';
import { csvRecords } from '../csv.ts';
import { agentWith } from '../factories.ts';
import {
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

describe('the audit log screen', { skip }, () => {
  let session: AdminSession | undefined;
  let server: WebServer;
  let page: Page;

  before(async () => {
    session = await adminSession(async (started) => {
      const db = started.t.deps.db;
      const me: AuditActor = {
        type: 'agent',
        id: started.t.admin.id,
        name: 'Audit Admin',
        ip: '198.51.100.23',
        userAgent: 'Mozilla/5.0 (test)',
        requestId: 'req-browser-1',
      };
      const now = started.t.deps.clock.now();
      await recordAudit(
        db,
        me,
        {
          action: 'role.updated',
          resource: { type: 'role', id: 41, name: 'Escalation leads' },
          changes: {
            permissions: [['conversations:read'], ['conversations:read', 'reports:manage']],
            api_secret: ['old-secret-value', 'new-secret-value'],
          },
        },
        now,
      );
      await recordAudit(
        db,
        { ...me, type: 'api_key', requestId: 'req-browser-2' },
        { action: 'team.created', resource: { type: 'team', id: 7, name: 'Night shift' }, changes: { name: [null, 'Night shift'] } },
        new Date(now.getTime() + 1000),
      );
    });
    ({ server, page } = session);
  });
  after(() => session?.close());

  it('shows the change just made, and opens it on what changed', async () => {
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/audit-log');
    const table = page.getByRole('table', { name: 'Audit log entries' });
    const row = table.getByRole('row').filter({ hasText: 'Escalation leads' });
    await row.getByText('Role updated').waitFor();
    await row.getByText('Audit Admin').waitFor();
    await row.getByText('198.51.100.23').waitFor();
    await table.getByRole('row').filter({ hasText: 'Night shift' }).getByText('API key').waitFor();

    await row.getByRole('button', { name: 'Show the details of this entry' }).click();
    const changes = page.getByRole('table', { name: 'Changes' });
    await changes.getByRole('rowheader', { name: 'permissions' }).waitFor();
    assert.match((await changes.getByRole('row').filter({ hasText: 'permissions' }).textContent()) ?? '', /reports:manage/);
    assert.match((await changes.getByRole('row').filter({ hasText: 'api_secret' }).textContent()) ?? '', /\[redacted\]/);
    assert.doesNotMatch((await page.content()) ?? '', /old-secret-value|new-secret-value/);
    await page.getByText('req-browser-1').waitFor();
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], describeViolations(violations));
    await row.getByRole('button', { name: 'Hide the details of this entry' }).click();
    await changes.waitFor({ state: 'detached' });
  });

  it('shows a role just created in the Roles screen', async () => {
    await page.goto('/admin/roles');
    await page.getByRole('button', { name: 'New role' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New role' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Audited shift leads');
    await dialog.getByRole('checkbox', { name: 'Assign to agents' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.goto('/admin/audit-log');
    const row = page.getByRole('table', { name: 'Audit log entries' }).getByRole('row').filter({ hasText: 'Audited shift leads' });
    await row.getByText('Role created').waitFor();
    await row.getByRole('button', { name: 'Show the details of this entry' }).click();
    const changes = page.getByRole('table', { name: 'Changes' });
    assert.match(
      (await changes.getByRole('row').filter({ hasText: 'permissions' }).textContent()) ?? '',
      /conversations:update_user_assignee/,
    );
    await row.getByRole('button', { name: 'Hide the details of this entry' }).click();
  });

  it('filters by action and by date, and exports what the filters select', async () => {
    await page.goto('/admin/audit-log');
    const table = page.getByRole('table', { name: 'Audit log entries' });
    await table.getByRole('row').filter({ hasText: 'Escalation leads' }).waitFor();
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Team created' }).click();
    await page.waitForURL((url) => url.searchParams.get('action') === 'team.created');
    await table.getByRole('row').filter({ hasText: 'Escalation leads' }).waitFor({ state: 'detached' });
    await table.getByRole('row').filter({ hasText: 'Night shift' }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    assert.match(download.suggestedFilename(), /^audit-log-\d{4}-\d\d-\d\d\.csv$/);
    const path = await download.path();
    const rows = csvRecords(await readFile(path, 'utf8'));
    assert.deepEqual(
      rows.map((entry) => [entry['action'], entry['resource_name'], entry['actor_type']]),
      [['team.created', 'Night shift', 'api_key']],
    );

    // A range starting tomorrow holds nothing yet.
    const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await page.getByLabel('From').fill(day);
    await page.getByText('No entries').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await table.getByRole('row').filter({ hasText: 'Escalation leads' }).waitFor();
    assert.deepEqual(session?.errors ?? [], []);
  });

  it('fits a 375 px wide phone, an entry opened', async () => {
    assert.ok(session);
    const phone = await newPage(session.browser, server.base, { width: 375, height: 812 });
    try {
      await signIn(phone.page, server.t.admin.email, undefined, '/admin/audit-log');
      const row = phone.page.getByRole('row').filter({ hasText: 'Escalation leads' });
      await row.getByRole('button', { name: 'Show the details of this entry' }).click();
      await phone.page.getByRole('table', { name: 'Changes' }).waitFor();
      await phone.page.waitForLoadState('networkidle');
      const overflow = await phone.page.locator('.page').evaluate((scroller) => scroller.scrollWidth - scroller.clientWidth);
      assert.ok(overflow === 0, `the audit log scrolls sideways by ${overflow} px`);
    } finally {
      await phone.context.close();
    }
  });

  it('is not offered to an agent without audit:read', async () => {
    const manager = await agentWith(server.t, ['users:manage']);
    const password = 'manager-password-123';
    const email = manager.email;
    await server.t.call({ method: 'PUT', url: `/api/v1/agents/${manager.id}`, payload: { password } });
    assert.ok(session);
    const { page: other, context } = await newPage(session.browser, server.base);
    try {
      await signIn(other, email, password, '/admin');
      await other.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Agents' }).waitFor();
      assert.equal(await other.getByRole('link', { name: 'Audit log' }).count(), 0);
      await other.goto('/admin/audit-log');
      await other.getByText('You may not manage this').waitFor();
    } finally {
      await context.close();
    }
  });
});
