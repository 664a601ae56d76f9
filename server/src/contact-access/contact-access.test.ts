// The contact access rule (docs/api.md, "Permissions and access"): a contact is readable with
// `contacts:read_all`, or when the caller may read one of its conversations. Every route of one
// contact applies it (unknown → 404, not readable → 403), and so do search and the agent
// socket's contact_update frames.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Contact, contactCalls } from '../../test/contacts.ts';
import { agentWith, createConversation, createInbox, createTeam, type Inbox, uniqueNumber } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { listen, nextFrame, noFrame, openSocket, type TestSocket } from '../../test/sockets.ts';
import { issueWidgetSession } from '../widget/widget.sessions.ts';

describe('contact access', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inbox: Inbox;
  let agentA: Caller;
  let agentB: Caller;
  let readsAll: Caller;
  let blockerA: Caller;
  /** A contact whose only conversation is team B's, assigned to agentB. */
  let contact: Contact;
  let name: string;
  let teamBId: number;

  before(async () => {
    t = await buildTestApp({ clock });
    const teamA = await createTeam(t);
    const teamB = await createTeam(t);
    teamBId = teamB.id;
    agentA = await t.makeAgent({ teams: [teamA.id] });
    agentB = await t.makeAgent({ teams: [teamB.id] });
    readsAll = await agentWith(t, ['contacts:read', 'contacts:read_all', 'contact_notes:read']);
    blockerA = await agentWith(t, ['contacts:block', 'conversations:read', 'conversations:read_team_inbox'], { teams: [teamA.id] });
    inbox = await createInbox(t);
    name = `Victim${uniqueNumber()}`;
    contact = await newContact({ first_name: name });
    await createConversation(t, { inbox_id: inbox.id, contact_id: contact.id, team_id: teamB.id, assignee_id: agentB.id });
  });
  after(() => t.close());

  const { get, update, block, notes, addNote, newContact } = contactCalls(() => t, clock);
  const pageVisits = (id: number, as: Caller) => t.call({ method: 'GET', url: `/api/v1/contacts/${id}/page-visits`, as });

  it("an agent of team A cannot read a contact only in team B's conversations: 403 on every route of the contact", async () => {
    assertError(await get(contact.id, agentA), 403, 'PermissionException');
    assertError(await notes(contact.id, agentA), 403, 'PermissionException');
    assertError(await addNote(contact.id, { note: 'hello' }, agentA), 403, 'PermissionException');
    assertError(await pageVisits(contact.id, agentA), 403, 'PermissionException');
    assertError(await update(contact.id, { first_name: 'Hijacked' }, agentA), 403, 'PermissionException');
    assertError(await block(contact.id, { enabled: false }, blockerA), 403, 'PermissionException');
    const unchanged = dataOf<Contact>(await get(contact.id));
    assert.equal(unchanged.first_name, name);
    assert.equal(unchanged.enabled, true);
    assert.deepEqual(dataOf(await notes(contact.id)), []);
  });

  it('unknown contacts are 404 on every route, whoever asks', async () => {
    for (const as of [agentA, t.admin]) {
      assertError(await get(999999, as), 404, 'NotFoundException');
      assertError(await notes(999999, as), 404, 'NotFoundException');
      assertError(await pageVisits(999999, as), 404, 'NotFoundException');
      assertError(await update(999999, { first_name: 'X' }, as), 404, 'NotFoundException');
    }
    assertError(await block(999999, { enabled: false }, blockerA), 404, 'NotFoundException');
  });

  it('the agent who may read one of its conversations, and a holder of contacts:read_all, may read it', async () => {
    assert.equal(dataOf<Contact>(await get(contact.id, agentB)).id, contact.id);
    assert.deepEqual(dataOf(await notes(contact.id, agentB)), []);
    assert.deepEqual(dataOf(await pageVisits(contact.id, agentB)), []);
    assert.equal(dataOf<Contact>(await update(contact.id, { last_name: 'Changed' }, agentB)).last_name, 'Changed');
    assert.equal(dataOf<Contact>(await get(contact.id, readsAll)).id, contact.id);
    assert.deepEqual(dataOf(await notes(contact.id, readsAll)), []);
    // The list (contacts:read_all) holds it.
    const listed = dataOf<{ results: Contact[] }>(await t.call({ method: 'GET', url: `/api/v1/contacts?q=${name}`, as: readsAll }));
    assert.deepEqual(
      listed.results.map((c) => c.id),
      [contact.id],
    );
  });

  describe('starting a conversation with an existing contact (POST /conversations)', () => {
    const start = (as: Caller, payload: Record<string, unknown>) =>
      t.call({ method: 'POST', url: '/api/v1/conversations', payload: { inbox_id: inbox.id, content: 'Hello', ...payload }, as });
    const counts = async (contactEmail: string) => ({
      conversations: Number(
        (
          await t.deps.db
            .selectFrom('conversations')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      contacts: Number(
        (
          await t.deps.db
            .selectFrom('users')
            .where('email', '=', contactEmail)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    });

    it("an agent of team A is refused a contact only in team B's conversations, by id and by email: 403, nothing created, nothing of it told", async () => {
      const secretEmail = `secret${uniqueNumber()}@example.com`;
      const secret = await newContact({ first_name: 'Secret', email: secretEmail });
      await createConversation(t, { inbox_id: inbox.id, contact_id: secret.id, team_id: teamBId, assignee_id: agentB.id });
      const before = await counts(secretEmail);
      for (const initiator of ['contact', 'agent']) {
        for (const payload of [
          { contact_id: secret.id, initiator },
          { contact_id: secret.id, initiator, assignee_id: agentA.id },
          { contact_email: secretEmail.toUpperCase(), initiator },
        ]) {
          const res = await start(agentA, payload);
          assertError(res, 403, 'PermissionException');
          assert.doesNotMatch(res.body, /Secret|secret\d/);
        }
      }
      assert.deepEqual(await counts(secretEmail), before);
      // An unknown id is a 404, as on the /contacts routes.
      assertError(await start(agentA, { contact_id: 999999 }), 404, 'NotFoundException');
      // The holder of contacts:read_all (the admin) may start one, by id and by email.
      for (const payload of [{ contact_id: secret.id }, { contact_email: secretEmail }]) {
        const res = await start(t.admin, payload);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(dataOf<{ contact: { id: number } }>(res).contact.id, secret.id);
      }
      assert.equal((await counts(secretEmail)).contacts, 1);
    });

    it("an agent who may read one of the contact's conversations may start another, by id and by email; a new email makes a new contact", async () => {
      const mineEmail = `mine${uniqueNumber()}@example.com`;
      const mine = await newContact({ first_name: 'Mine', email: mineEmail });
      await createConversation(t, { inbox_id: inbox.id, contact_id: mine.id, assignee_id: agentA.id });
      for (const payload of [{ contact_id: mine.id }, { contact_email: mineEmail }]) {
        const res = await start(agentA, payload);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(dataOf<{ contact: { id: number } }>(res).contact.id, mine.id);
      }
      const fresh = await start(agentA, { contact_email: `fresh${uniqueNumber()}@example.com`, assignee_id: agentA.id });
      assert.equal(fresh.statusCode, 200, fresh.body);
    });
  });

  it('search shows the contact only to those who may read it', async () => {
    const search = async (as: Caller) =>
      dataOf<{ contacts: Array<{ id: number }> }>(await t.call({ method: 'GET', url: `/api/v1/search?q=${name}`, as })).contacts.map(
        (c) => c.id,
      );
    assert.deepEqual(await search(agentA), []);
    assert.deepEqual(await search(agentB), [contact.id]);
    assert.deepEqual(await search(readsAll), [contact.id]);
  });

  describe('contact_update frames on the agent socket', () => {
    const open: TestSocket[] = [];
    after(async () => {
      for (const socket of open) await socket.close();
    });

    it('go to the agents who may read the contact, and to them only', async () => {
      const base = await listen(t.app);
      const socketOf = async (caller: Caller) => {
        const socket = await openSocket(`${base}/ws`, caller.headers);
        open.push(socket);
        return socket;
      };
      const [a, b, all] = [await socketOf(agentA), await socketOf(agentB), await socketOf(readsAll)];
      const token = await issueWidgetSession(
        t.deps.db,
        { userId: contact.id, inboxId: inbox.id, isVisitor: false, lifetimeMs: 3600_000 },
        t.deps.clock.now(),
      );
      const widget = await openSocket(`${base}/widget/ws`);
      open.push(widget);
      widget.send({ type: 'join', token, data: { inbox_id: inbox.uuid } });
      assert.equal((await nextFrame(widget)).type, 'joined');
      const online = (f: { type: string; data?: unknown }) =>
        f.type === 'contact_update' && (f.data as { contact_id?: number }).contact_id === contact.id;
      assert.deepEqual((await nextFrame(b, online)).data, { contact_id: contact.id, presence: 'online' });
      assert.deepEqual((await nextFrame(all, online)).data, { contact_id: contact.id, presence: 'online' });
      await noFrame(a, online, 300);
    });
  });
});
