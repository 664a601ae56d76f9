// A contact's identity (docs/api.md, "Permissions and access"): its email decides where replies
// go and its external id whose widget session it is. Changing the email, or giving a first
// external id, needs `contacts:write_identity` (the Agent role does not hold it); a set external
// id belongs to the widget's identity token and is never changed through the API; a change is
// written on each of the contact's conversations and recorded as `contact.identity_changed`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Contact, contactCalls } from '../../test/contacts.ts';
import { agentWith, createConversation, uniqueEmail, uniqueNumber } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

describe('contact identity', () => {
  const clock = fakeClock();
  let t: TestApp;
  let agent: Caller;
  let identityWriter: Caller;

  before(async () => {
    t = await buildTestApp({ clock });
    agent = await t.makeAgent();
    identityWriter = await agentWith(t, ['contacts:read', 'contacts:read_all', 'contacts:write', 'contacts:write_identity']);
  });
  after(() => t.close());

  const { get, update, newContact, newReadableContact } = contactCalls(() => t, clock);

  const activities = async (contactId: number) =>
    t.deps.db
      .selectFrom('messages as m')
      .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
      .where('c.contact_id', '=', contactId)
      .where('m.type', '=', 'activity')
      .select(['c.uuid', 'm.text_content', 'm.private'])
      .orderBy('m.id')
      .execute();
  const identityEvents = async (contactId: number) =>
    (await t.deps.db.selectFrom('domain_events').where('type', '=', 'contact.identity_changed').select('payload').execute())
      .map((row) => row.payload as { contact_id: number; changes: unknown[]; conversation_ids: number[]; actor_id: number | null })
      .filter((payload) => payload.contact_id === contactId);

  it('the seeded Agent role does not hold contacts:write_identity; Admin does', async () => {
    const me = async (as: Caller) => dataOf<{ permissions: string[] }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as }));
    const agentPermissions = (await me(agent)).permissions;
    assert.ok(agentPermissions.includes('contacts:write'));
    assert.ok(!agentPermissions.includes('contacts:write_identity'));
    assert.ok((await me(t.admin)).permissions.includes('contacts:write_identity'));
    const catalogue = dataOf<string[]>(await t.call({ method: 'GET', url: '/api/v1/permissions' }));
    assert.ok(catalogue.includes('contacts:write_identity'));
  });

  it("an agent with contacts:write but not contacts:write_identity cannot change a contact's email: 403, nothing changes", async () => {
    const c = await newReadableContact();
    const res = await update(c.id, { email: uniqueEmail('attacker'), first_name: 'Renamed' }, agent);
    assert.match(assertError(res, 403, 'PermissionException').message, /contacts:write_identity/);
    assert.deepEqual(dataOf<Contact>(await get(c.id)), c);
    assertError(await update(c.id, { email: null }, agent), 403, 'PermissionException');
    assert.deepEqual(await activities(c.id), []);
    assert.deepEqual(await identityEvents(c.id), []);
    // Sending the email back as GET returned it (any case) is no change.
    const same = dataOf<Contact>(await update(c.id, { email: c.email?.toUpperCase(), first_name: 'Renamed' }, agent));
    assert.equal(same.email, c.email);
    assert.equal(same.first_name, 'Renamed');
  });

  it('nobody changes a set external_user_id through PUT (422); sending it back unchanged works', async () => {
    const external = `ext-${uniqueNumber()}`;
    const c = await newContact({ external_user_id: external });
    await createConversation(t, { contact_id: c.id });
    for (const as of [t.admin, identityWriter, agent]) {
      assertError(await update(c.id, { external_user_id: `${external}-other` }, as), 422, 'DataException');
      assertError(await update(c.id, { external_user_id: null }, as), 422, 'DataException');
    }
    const row = await t.deps.db.selectFrom('users').where('id', '=', c.id).select('external_user_id').executeTakeFirstOrThrow();
    assert.equal(row.external_user_id, external);
    assert.equal(dataOf<Contact>(await update(c.id, { external_user_id: external, last_name: 'Same' }, agent)).last_name, 'Same');
  });

  it('creating a contact with an external_user_id needs contacts:write_identity too', async () => {
    const external = `ext-${uniqueNumber()}`;
    const res = await t.call({
      method: 'POST',
      url: '/api/v1/contacts',
      payload: { first_name: 'Claimed', external_user_id: external },
      as: agent,
    });
    assert.match(assertError(res, 403, 'PermissionException').message, /contacts:write_identity/);
    const rows = await t.deps.db.selectFrom('users').where('external_user_id', '=', external).select('id').execute();
    assert.deepEqual(rows, []);
    const created = await t.call({
      method: 'POST',
      url: '/api/v1/contacts',
      payload: { first_name: 'Claimed', external_user_id: external },
      as: identityWriter,
    });
    assert.equal(dataOf<Contact>(created).first_name, 'Claimed');
    // Without an external id, contacts:write is enough.
    dataOf(
      await t.call({ method: 'POST', url: '/api/v1/contacts', payload: { first_name: 'Plain', email: uniqueEmail('plain') }, as: agent }),
    );
  });

  it('a first external_user_id needs contacts:write_identity too', async () => {
    const c = await newReadableContact();
    assertError(await update(c.id, { external_user_id: `ext-${uniqueNumber()}` }, agent), 403, 'PermissionException');
    const external = `ext-${uniqueNumber()}`;
    dataOf(await update(c.id, { external_user_id: external }, identityWriter));
    const row = await t.deps.db.selectFrom('users').where('id', '=', c.id).select('external_user_id').executeTakeFirstOrThrow();
    assert.equal(row.external_user_id, external);
    assert.match((await activities(c.id))[0]?.text_content ?? '', new RegExp(`set the contact's external user id to ${external}`));
  });

  it('with the permission, the email changes and each of the contact conversations gets an activity line and the event is recorded', async () => {
    const c = await newReadableContact();
    const second = await createConversation(t, { contact_id: c.id });
    const email = uniqueEmail('moved');
    const changed = dataOf<Contact>(await update(c.id, { email }, identityWriter));
    assert.equal(changed.email, email);
    const lines = await activities(c.id);
    assert.equal(lines.length, 2);
    assert.ok(lines.some((line) => line.uuid === second.uuid));
    for (const line of lines) {
      assert.equal(line.private, true);
      assert.match(line.text_content ?? '', new RegExp(`changed the contact's email from ${c.email} to ${email}`));
    }
    const [event, ...more] = await identityEvents(c.id);
    assert.equal(more.length, 0);
    assert.equal(event?.actor_id, identityWriter.id);
    assert.deepEqual(event?.changes, [{ field: 'email', from: c.email, to: email }]);
    assert.equal(event?.conversation_ids.length, 2);
    // The admin holds the permission too.
    const again = uniqueEmail('again');
    assert.equal(dataOf<Contact>(await update(c.id, { email: again })).email, again);
  });
});
