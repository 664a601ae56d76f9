// A contact's `load_remote_images` (issue 33: remote images in inbound mail are held back in the
// web app unless the contact is trusted): on the contact record and the conversation's embedded
// contact, set through PUT /contacts/{id} with `contacts:write` under the contact access rule.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Contact, contactCalls } from '../../test/contacts.ts';
import { agentWith, createConversation, createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

describe('contact load_remote_images', () => {
  const clock = fakeClock();
  let t: TestApp;
  /** Writes contacts, but reads only its team's conversations (so not `contact`). */
  let outsider: Caller;
  /** Reads every contact, writes none. */
  let reader: Caller;
  let contact: Contact;
  let conversationUuid: string;

  before(async () => {
    t = await buildTestApp({ clock });
    const teamA = await createTeam(t);
    const teamB = await createTeam(t);
    outsider = await agentWith(t, ['contacts:read', 'contacts:write', 'conversations:read', 'conversations:read_team_inbox'], {
      teams: [teamA.id],
    });
    reader = await agentWith(t, ['contacts:read', 'contacts:read_all']);
    contact = await newContact({ first_name: 'Pixel' });
    conversationUuid = (await createConversation(t, { contact_id: contact.id, team_id: teamB.id })).uuid;
  });
  after(() => t.close());

  const { get, update, newContact } = contactCalls(() => t, clock);
  const conversationContact = async () =>
    dataOf<{ contact: Contact }>(await t.call({ method: 'GET', url: `/api/v1/conversations/${conversationUuid}` })).contact;

  it('is false by default, on the contact and on the conversation that embeds it', async () => {
    assert.equal(dataOf<Contact>(await get(contact.id)).load_remote_images, false);
    assert.equal((await conversationContact()).load_remote_images, false);
  });

  it('is set and cleared through PUT /contacts/{id}, and read back everywhere', async () => {
    const on = dataOf<Contact>(await update(contact.id, { load_remote_images: true }));
    assert.equal(on.load_remote_images, true);
    assert.equal(on.first_name, 'Pixel');
    assert.equal(on.updated_at, clock.now().toISOString());
    assert.equal(dataOf<Contact>(await get(contact.id)).load_remote_images, true);
    assert.equal((await conversationContact()).load_remote_images, true);
    // Other edits keep it.
    assert.equal(dataOf<Contact>(await update(contact.id, { last_name: 'Tracker' })).load_remote_images, true);
    assert.equal(dataOf<Contact>(await update(contact.id, { load_remote_images: false })).load_remote_images, false);
    assert.equal((await conversationContact()).load_remote_images, false);
  });

  it('a PUT of the record as GET returned it, with the flag changed, applies the flag', async () => {
    const record = dataOf<Contact>(await get(contact.id));
    const saved = dataOf<Contact>(await update(contact.id, { ...record, load_remote_images: true }));
    assert.equal(saved.load_remote_images, true);
    assert.equal(dataOf<Contact>(await update(contact.id, { ...saved, load_remote_images: false })).load_remote_images, false);
  });

  it('refuses a value that is not a boolean with 400, and changes nothing', async () => {
    const before = dataOf<Contact>(await get(contact.id));
    for (const value of ['true', 1, null, {}]) {
      const body = assertError(await update(contact.id, { load_remote_images: value }), 400, 'InputException', JSON.stringify(value));
      assert.match(body.message, /load_remote_images/);
    }
    assert.deepEqual(dataOf<Contact>(await get(contact.id)), before);
  });

  it('needs contacts:write (403) and read access to the contact (403; unknown id 404), and changes nothing', async () => {
    const before = dataOf<Contact>(await get(contact.id));
    assertError(await update(contact.id, { load_remote_images: true }, reader), 403, 'PermissionException');
    assertError(await update(contact.id, { load_remote_images: true }, outsider), 403, 'PermissionException');
    assertError(await update(999999, { load_remote_images: true }, outsider), 404, 'NotFoundException');
    assertError(await update(contact.id, { load_remote_images: true }, null), 401, 'UnauthorizedException');
    assert.deepEqual(dataOf<Contact>(await get(contact.id)), before);
  });
});
