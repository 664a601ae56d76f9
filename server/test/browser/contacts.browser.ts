// A contact's identity in the web app, in a real browser: an agent without
// `contacts:write_identity` (the Agent role) edits a contact's name but sees its email read-only,
// and the save leaves the email as it was; the admin changes the email. A contact the agent may
// not read (only in a conversation assigned to someone else) shows the app's "does not exist or
// you may not read it" state. Run by `npm run test:browser`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createContact, createConversation, createInbox } from '../factories.ts';
import { dataOf } from '../helpers.ts';
import { type AdminSession, adminSession, browserMissing, newPage, signIn } from './admin-harness.ts';

const skip = browserMissing() ?? false;
const PASSWORD = 'correct horse battery';

describe('contact identity in the web app', { skip }, () => {
  let session: AdminSession | undefined;
  let agentPage: Page;
  let agentErrors: string[];
  let readable: { id: number; email: string | null };
  let hidden: { id: number };

  before(async () => {
    session = await adminSession(async ({ t }) => {
      await t.makeAgent({ roles: ['Agent'], first_name: 'Ann', email: 'ann@example.com', password: PASSWORD });
      const inbox = await createInbox(t, { name: 'Website chat' });
      readable = await createContact(t, { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
      // Unassigned: the Agent role reads it (conversations:read_unassigned), and so the contact.
      await createConversation(t, { inbox_id: inbox.id, contact_id: readable.id });
      hidden = await createContact(t, { first_name: 'Hidden', email: 'hidden@example.com' });
      await createConversation(t, { inbox_id: inbox.id, contact_id: hidden.id, assignee_id: t.admin.id });
    });
    ({ page: agentPage, errors: agentErrors } = await newPage(session.browser, session.server.base));
    await signIn(agentPage, 'ann@example.com', PASSWORD);
  });
  after(async () => {
    await session?.close();
  });

  const contactOf = async (id: number) =>
    dataOf<{ first_name: string; email: string | null }>(await session!.server.t.call({ method: 'GET', url: `/api/v1/contacts/${id}` }));

  it('an agent without contacts:write_identity sees the email read-only; the save keeps it', async () => {
    await agentPage.goto(`/contacts/${readable.id}`);
    await agentPage.getByRole('button', { name: 'Edit contact' }).click();
    const dialog = agentPage.getByRole('dialog', { name: 'Edit contact' });
    const email = dialog.getByLabel('Email');
    assert.equal(await email.inputValue(), 'grace@example.com');
    assert.equal(await email.getAttribute('readonly'), '');
    await dialog.getByText('only an agent allowed to change contact identities may change it').waitFor();
    await dialog.getByLabel('First name').fill('Amazing Grace');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = await contactOf(readable.id);
    assert.equal(saved.first_name, 'Amazing Grace');
    assert.equal(saved.email, 'grace@example.com');
    assert.deepEqual(agentErrors, []);
  });

  it('a contact the agent may not read shows the not-found state', async () => {
    await agentPage.goto(`/contacts/${hidden.id}`);
    await agentPage.getByRole('heading', { name: 'This contact does not exist or you may not read it' }).first().waitFor();
    assert.equal(await agentPage.getByRole('button', { name: 'Edit contact' }).count(), 0);
  });

  it('the admin changes the email', async () => {
    const page = session!.page;
    await page.goto(`/contacts/${readable.id}`);
    await page.getByRole('button', { name: 'Edit contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit contact' });
    const email = dialog.getByLabel('Email');
    assert.equal(await email.getAttribute('readonly'), null);
    await email.fill('grace.hopper@example.com');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await contactOf(readable.id)).email, 'grace.hopper@example.com');
    assert.deepEqual(session!.errors, []);
  });
});
