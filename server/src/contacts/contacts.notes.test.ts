// /api/v1/contacts/{id}/notes: adding, listing, sanitising and deleting notes, and their permissions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contactCalls, ISO, NOTE_FIELDS, type Note } from '../../test/contacts.ts';
import { agentWith } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';

describe('contacts', () => {
  const clock = fakeClock();
  let t: TestApp;
  let agent: Caller;
  let otherAgent: Caller;
  let moderator: Caller;
  let noNotes: Caller;

  before(async () => {
    t = await buildTestApp({ clock });
    agent = await t.makeAgent();
    otherAgent = await t.makeAgent();
    moderator = await agentWith(t, ['contact_notes:delete', 'contact_notes:read', 'contacts:read_all']);
    noNotes = await agentWith(t, ['contacts:read']);
  });
  after(() => t.close());

  const { notes, addNote, deleteNote, newReadableContact: newContact } = contactCalls(() => t, clock);

  describe('notes', () => {
    it('adds notes (trimmed) with the author, and lists them newest first', async () => {
      const c = await newContact();
      assert.deepEqual(dataOf<Note[]>(await notes(c.id, agent)), []);
      const first = dataOf<Note>(await addNote(c.id, { note: '  first note  ' }, agent));
      assert.deepEqual(Object.keys(first).sort(), NOTE_FIELDS);
      assert.equal(first.note, 'first note');
      assert.equal(first.contact_id, c.id);
      assert.equal(first.user_id, agent.id);
      assert.match(first.first_name, /^Agent\d+$/);
      assert.equal(first.last_name, 'Test');
      assert.equal(first.avatar_url, null);
      assert.match(first.created_at, ISO);
      const second = dataOf<Note>(await addNote(c.id, { note: 'second' }, otherAgent));
      assert.equal(second.user_id, otherAgent.id);
      const listedNotes = dataOf<Note[]>(await notes(c.id, agent));
      assert.deepEqual(
        listedNotes.map((n) => n.id),
        [second.id, first.id],
      );
      assert.deepEqual(listedNotes[1], first);
      // a note of 10000 characters is accepted
      assert.equal(dataOf<Note>(await addNote(c.id, { note: 'n'.repeat(10000) })).note.length, 10000);
      // notes of another contact are not mixed in
      const other = await newContact();
      assert.deepEqual(dataOf<Note[]>(await notes(other.id)), []);
    });

    it('refuses empty, blank, too long or wrong-typed notes with 400', async () => {
      const c = await newContact();
      for (const payload of [{}, { note: '' }, { note: '   \n ' }, { note: 'n'.repeat(10001) }, { note: 42 }, { note: null }]) {
        assertError(await addNote(c.id, payload), 400, 'InputException');
      }
      assert.deepEqual(dataOf<Note[]>(await notes(c.id)), []);
    });

    it('notes are HTML sanitised like messages: scripts, handlers and javascript: links are gone, formatting stays', async () => {
      const c = await newContact();
      const raw =
        '<p onclick="steal()">VIP <b>since</b> <i>2019</i>, <a href="https://crm.example.com/42" onmouseover="x()">CRM</a></p>' +
        '<script>alert(document.cookie)</script><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">click</a>' +
        '<ul><li>prefers email</li></ul><iframe src="https://evil.example.com"></iframe><style>body{display:none}</style>';
      const added = dataOf<Note>(await addNote(c.id, { note: raw }, agent));
      const [listed] = dataOf<Note[]>(await notes(c.id, agent));
      assert.ok(listed);
      assert.equal(listed.note, added.note, 'the list answers what was stored');
      for (const stored of [added.note, listed.note]) {
        for (const banned of [/<script/i, /alert\(/, /onerror/i, /onclick/i, /onmouseover/i, /javascript:/i, /<iframe/i, /<style/i]) {
          assert.doesNotMatch(stored, banned);
        }
        assert.match(stored, /<p>VIP <b>since<\/b> <i>2019<\/i>, <a href="https:\/\/crm\.example\.com\/42"[^>]*>CRM<\/a><\/p>/);
        assert.match(stored, /<ul><li>prefers email<\/li><\/ul>/);
        assert.match(stored, /<a[^>]*>click<\/a>/, 'the text of a refused link stays');
      }
      // Plain text is read as HTML: markup characters come back escaped.
      assert.equal(dataOf<Note>(await addNote(c.id, { note: 'a < b & c' }, agent)).note, 'a &lt; b &amp; c');
    });

    it('refuses a note that sanitising empties, and one that grows past 10000 characters, storing nothing', async () => {
      const c = await newContact();
      for (const note of ['<script>alert(1)</script>', '<p onclick="x()"> </p>', '<style>p{}</style><iframe></iframe>']) {
        assertError(await addNote(c.id, { note }, agent), 400, 'InputException');
      }
      const grows = assertError(await addNote(c.id, { note: '<'.repeat(10000) }, agent), 400, 'InputException');
      assert.match(grows.message, /10000/);
      assert.deepEqual(dataOf<Note[]>(await notes(c.id)), []);
      // An image alone is content.
      assert.match(
        dataOf<Note>(await addNote(c.id, { note: '<img src="https://cdn.example.com/a.png" onerror="x()">' }, agent)).note,
        /^<img src="https:\/\/cdn\.example\.com\/a\.png" \/>$/,
      );
    });

    it('404 for unknown or agent ids; 401 anonymous; 403 without contact_notes permissions', async () => {
      const c = await newContact();
      assertError(await notes(987654), 404, 'NotFoundException');
      assertError(await notes(agent.id), 404, 'NotFoundException');
      assertError(await addNote(987654, { note: 'x' }), 404, 'NotFoundException');
      assertError(await addNote(agent.id, { note: 'x' }), 404, 'NotFoundException');
      assertError(await notes(c.id, null), 401, 'UnauthorizedException');
      assertError(await addNote(c.id, { note: 'x' }, null), 401, 'UnauthorizedException');
      assertError(await notes(c.id, noNotes), 403, 'PermissionException');
      assertError(await addNote(c.id, { note: 'x' }, noNotes), 403, 'PermissionException');
      assertError(await addNote(c.id, { note: 'x' }, moderator), 403, 'PermissionException');
      assert.deepEqual(dataOf<Note[]>(await notes(c.id)), []);
    });

    it('the author deletes their own note with contact_notes:write', async () => {
      const c = await newContact();
      const n = dataOf<Note>(await addNote(c.id, { note: 'mine' }, agent));
      assert.equal(dataOf<boolean>(await deleteNote(c.id, n.id, agent)), true);
      assert.deepEqual(dataOf<Note[]>(await notes(c.id)), []);
      assertError(await deleteNote(c.id, n.id, agent), 404, 'NotFoundException');
    });

    it("deleting another agent's note needs contact_notes:delete", async () => {
      const c = await newContact();
      const n = dataOf<Note>(await addNote(c.id, { note: 'theirs' }, agent));
      assertError(await deleteNote(c.id, n.id, otherAgent), 403, 'PermissionException');
      assertError(await deleteNote(c.id, n.id, noNotes), 403, 'PermissionException');
      assertError(await deleteNote(c.id, n.id, null), 401, 'UnauthorizedException');
      assert.equal(dataOf<Note[]>(await notes(c.id)).length, 1);
      assert.equal(dataOf<boolean>(await deleteNote(c.id, n.id, moderator)), true);
      const m = dataOf<Note>(await addNote(c.id, { note: 'by agent again' }, agent));
      assert.equal(dataOf<boolean>(await deleteNote(c.id, m.id)), true, 'Admin holds contact_notes:delete');
      assert.deepEqual(dataOf<Note[]>(await notes(c.id)), []);
    });

    it('404 for an unknown note, a note of another contact, or an unknown contact', async () => {
      const c = await newContact();
      const other = await newContact();
      const n = dataOf<Note>(await addNote(c.id, { note: 'here' }, agent));
      assertError(await deleteNote(c.id, 987654, agent), 404, 'NotFoundException');
      assertError(await deleteNote(other.id, n.id, agent), 404, 'NotFoundException');
      assertError(await deleteNote(987654, n.id, agent), 404, 'NotFoundException');
      assertError(await deleteNote(agent.id, n.id, agent), 404, 'NotFoundException');
      assertError(await deleteNote(c.id, 'abc', agent), 404, 'NotFoundException');
      assert.equal(dataOf<Note[]>(await notes(c.id)).length, 1);
    });
  });
});
