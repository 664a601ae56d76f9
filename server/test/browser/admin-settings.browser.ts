// The rest of the administration through its screens, each change confirmed by the API: a status,
// a role with permissions, business hours (two intervals on a day, a yearly holiday), an SLA
// policy, the general settings, a single sign-on provider, the AI provider, a live chat created
// with its JWT secret shown once, and a contact edited, blocked and unblocked. Run by
// `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { createContact } from '../factories.ts';
import { dataOf } from '../helpers.ts';
import { browserMissing, type WebServer, type AdminSession, adminSession } from './admin-harness.ts';

const skip = browserMissing() ?? false;

describe('more administration screens', { skip }, () => {
  let session: AdminSession | undefined;
  let server: WebServer;
  let page: Page;
  before(async () => {
    session = await adminSession();
    ({ server, page } = session);
  });
  after(() => session?.close());

  const apiGet = async <T>(url: string): Promise<T> => dataOf<T>(await server.t.call({ method: 'GET', url }));
  const choose = async (scope: Page | Locator, combobox: string, option: string) => {
    await scope.getByRole('combobox', { name: combobox }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  const openNew = async (path: string, button: string, dialogName = button) => {
    await page.goto(path);
    await page.getByRole('button', { name: button }).first().click();
    return page.getByRole('dialog', { name: dialogName });
  };
  const save = async (dialog: Locator) => {
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
  };

  it('creates a waiting status and a role with chosen permissions', async () => {
    let dialog = await openNew('/admin/statuses', 'New status');
    await dialog.getByLabel('Name').fill('Waiting on customer');
    await choose(dialog, 'Category', 'Waiting');
    await save(dialog);
    const statuses = await apiGet<Array<{ name: string; category: string }>>('/api/v1/statuses');
    assert.equal(statuses.find((s) => s.name === 'Waiting on customer')?.category, 'waiting');

    dialog = await openNew('/admin/roles', 'New role');
    await dialog.getByLabel('Name', { exact: true }).fill('Reporter');
    await dialog.getByLabel('Description').fill('Reads the reports');
    await dialog.getByRole('checkbox', { name: 'See reports', exact: true }).check();
    await dialog.getByRole('checkbox', { name: 'See all conversations', exact: true }).check();
    await save(dialog);
    const roles = await apiGet<Array<{ name: string; permissions: string[] }>>('/api/v1/roles');
    assert.deepEqual([...(roles.find((r) => r.name === 'Reporter')?.permissions ?? [])].sort(), [
      'conversations:read_all',
      'reports:manage',
    ]);
  });

  it('creates business hours with a split day and a yearly holiday, an SLA policy, and the general settings', async () => {
    let dialog = await openNew('/admin/business-hours', 'New business hours');
    await dialog.getByLabel('Name', { exact: true }).fill('Berlin office');
    // The time zone is chosen from a searchable list: a text that is no zone does not stay.
    const zone = dialog.getByRole('combobox', { name: 'Time zone' });
    await zone.fill('Mars/Olympus');
    await dialog.getByLabel('Name', { exact: true }).click();
    assert.notEqual(await zone.inputValue(), 'Mars/Olympus');
    await zone.fill('new york');
    await page.getByRole('option', { name: 'America/New York' }).click();
    assert.equal(await zone.inputValue(), 'America/New_York');
    await dialog.getByLabel('Monday, hours 1: closes at').fill('12:00');
    await dialog.getByRole('button', { name: 'Add opening hours on Monday' }).click();
    await dialog.getByLabel('Monday, hours 2: opens at').fill('13:00');
    await dialog.getByLabel('Monday, hours 2: closes at').fill('17:00');
    await dialog.getByRole('button', { name: 'Add a holiday' }).click();
    await dialog.getByLabel('Holiday 1: date').fill('2026-12-25');
    await dialog.getByLabel('Holiday 1: name').fill('Christmas');
    await dialog.getByRole('checkbox', { name: 'Every year' }).check();
    await save(dialog);
    // The list sums the week up, days with the same hours joined.
    await page.getByText('Mon 09:00–12:00, 13:00–17:00; Tue–Fri 09:00–17:00', { exact: true }).waitFor();
    const hours = (
      await apiGet<Array<{ id: number; name: string; timezone: string; hours: Record<string, unknown>; holidays: unknown[] }>>(
        '/api/v1/business-hours',
      )
    ).find((h) => h.name === 'Berlin office');
    assert.ok(hours);
    assert.equal(hours.timezone, 'America/New_York');
    assert.deepEqual(hours.hours['monday'], [
      { open: '09:00', close: '12:00' },
      { open: '13:00', close: '17:00' },
    ]);
    assert.deepEqual(hours.hours['saturday'], []);
    assert.deepEqual(hours.holidays, [{ date: '2026-12-25', name: 'Christmas', yearly: true }]);

    dialog = await openNew('/admin/sla', 'New SLA policy');
    await dialog.getByLabel('Name').fill('Gold');
    await dialog.getByLabel('First response (minutes)').fill('30');
    await dialog.getByLabel('Resolution (minutes)').fill('');
    await dialog.getByLabel('Warn before (minutes)').fill('10');
    await save(dialog);
    const gold = (await apiGet<Array<Record<string, unknown>>>('/api/v1/sla')).find((p) => p['name'] === 'Gold');
    assert.equal(gold?.['first_response_minutes'], 30);
    assert.equal(gold?.['resolution_minutes'], null);
    assert.equal(gold?.['warning_minutes'], 10);

    await page.goto('/admin/general');
    await choose(page, 'Default business hours', 'Berlin office');
    const reports = page.getByRole('combobox', { name: 'Time zone of reports' });
    await reports.fill('lisb');
    await reports.press('ArrowDown');
    await reports.press('ArrowUp');
    await reports.press('Enter');
    assert.equal(await reports.inputValue(), 'Europe/Lisbon');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved', { exact: true }).waitFor();
    assert.deepEqual(await apiGet('/api/v1/settings/general'), { business_hours_id: hours.id, timezone: 'Europe/Lisbon' });
  });

  it('adds a single sign-on provider and the AI provider', async () => {
    const dialog = await openNew('/admin/sso', 'New provider');
    await dialog.getByLabel('Name', { exact: true }).fill('Company Keycloak');
    await dialog.getByLabel('Kind').fill('Keycloak');
    await dialog.getByLabel('Issuer URL').fill('http://keycloak.internal/realms/staff');
    await dialog.getByLabel('Client id').fill('parley');
    await dialog.getByLabel('Client secret').fill('a-client-secret');
    await save(dialog);
    const providers =
      await apiGet<Array<{ id: number; name: string; provider: string; client_secret: string; redirect_uri: string }>>('/api/v1/oidc');
    const keycloak = providers.find((p) => p.name === 'Company Keycloak');
    assert.equal(keycloak?.provider, 'Keycloak');
    assert.equal(keycloak?.client_secret, '••••••••••');
    // Editing shows the redirect URI to register, and saving without a new secret keeps it.
    await page.getByRole('button', { name: 'Edit Company Keycloak' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit provider' });
    assert.equal(
      await edit.getByRole('textbox', { name: 'Redirect URI to register at the provider' }).inputValue(),
      keycloak?.redirect_uri,
    );
    await edit.getByLabel('Kind').fill('Keycloak 26');
    await save(edit);
    assert.equal(
      (await apiGet<Array<{ name: string; provider: string }>>('/api/v1/oidc')).find((p) => p.name === 'Company Keycloak')?.provider,
      'Keycloak 26',
    );
    // Who configured it is shown; a provider nobody vouches for says it signs nobody in, until
    // the secret is entered again (docs/api.md, "Who a provider may sign in").
    const row = page.getByRole('row').filter({ hasText: 'Company Keycloak' });
    await row.getByText(session!.admin.name, { exact: true }).waitFor();
    await server.t.deps.db.updateTable('oidc_providers').set({ configured_by: null }).where('id', '=', keycloak!.id).execute();
    await page.reload();
    await row.getByText('Signs nobody in', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit Company Keycloak' }).click();
    await edit.getByText(/^Nobody: this provider signs nobody in/).waitFor();
    await edit.getByLabel('Client secret').fill('a-client-secret');
    await save(edit);
    await row.getByText(session!.admin.name, { exact: true }).waitFor();
    assert.equal(await row.getByText('Signs nobody in').count(), 0);
    const vouched = (await apiGet<Array<{ id: number; configured_by: { id: number } | null }>>('/api/v1/oidc')).find(
      (p) => p.id === keycloak!.id,
    );
    assert.equal(vouched?.configured_by?.id, session!.admin.id);

    await page.goto('/admin/ai');
    await page.getByLabel('API address').fill('http://localhost:11434/v1');
    await page.getByLabel('Model').fill('llama3.1');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('AI provider saved', { exact: true }).waitFor();
    const ai = await apiGet<{ base_url: string; model: string; has_api_key: boolean }>('/api/v1/ai/provider');
    assert.deepEqual([ai.base_url, ai.model, ai.has_api_key], ['http://localhost:11434/v1', 'llama3.1', false]);
  });

  it("creates a live chat and shows its JWT secret once, on the inbox's page", async () => {
    const dialog = await openNew('/admin/inboxes', 'New inbox');
    await dialog.getByLabel('Name', { exact: true }).fill('Shop chat');
    await dialog.getByRole('button', { name: 'Create inbox' }).click();
    await page.waitForURL(/\/admin\/inboxes\/\d+$/);
    const secret = await page.getByRole('textbox', { name: 'JWT secret' }).inputValue();
    assert.ok(secret.length >= 32 && secret !== '••••••••••', 'the generated secret is shown');
    await page.reload();
    await page.getByRole('tab', { name: 'Appearance' }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'JWT secret' }).count(), 0, 'and only once');
  });

  it('edits a contact, blocks and unblocks it', async () => {
    const contact = await createContact(server.t, { first_name: 'Ada', last_name: 'Byron' });
    await page.goto(`/contacts/${contact.id}`);
    await page.getByRole('button', { name: 'Edit contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit contact' });
    await dialog.getByLabel('Last name').fill('Lovelace');
    await dialog.getByLabel('Country').fill('GB');
    await dialog.getByLabel('Phone number').fill('+44 20 7946 0000');
    await save(dialog);
    await page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Block' }).click();
    await page.getByRole('dialog', { name: 'Block' }).getByRole('button', { name: 'Block' }).click();
    await page.getByRole('button', { name: 'Unblock' }).waitFor();
    let stored = await apiGet<{ last_name: string; phone_number_country_code: string; enabled: boolean }>(`/api/v1/contacts/${contact.id}`);
    assert.deepEqual([stored.last_name, stored.phone_number_country_code, stored.enabled], ['Lovelace', 'GB', false]);
    await page.getByRole('button', { name: 'Unblock' }).click();
    await page.getByRole('button', { name: 'Block' }).waitFor();
    stored = await apiGet(`/api/v1/contacts/${contact.id}`);
    assert.equal(stored.enabled, true);
  });
});
