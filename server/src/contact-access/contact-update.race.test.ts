// A contact's identity change racing an inbound mail of the same contact (PostgreSQL: two
// sessions). Email ingest locks the conversation, then writes the contact's row (its last
// activity); the identity change locks the contact's conversations and the contact's row. Were
// the change to take the contact's row first, each would wait for the other: a deadlock, one
// of the two rolled back. Both take the conversation first, so the later waits for the earlier.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation, uniqueEmail } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { noteContactActive } from '../contacts/contacts.service.ts';
import { lockConversationForChannel } from '../conversations/conversations.append.ts';

const onPostgres = process.env['DATABASE_URL'] ? false : 'needs DATABASE_URL (two sessions at once)';

describe('a contact update and an inbound mail of the contact at the same time', { skip: onPostgres }, () => {
  const clock = fakeClock(new Date('2026-11-02T09:00:00Z'));
  let t: TestApp;

  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t?.close());

  /** True once some session waits for a lock. */
  const someoneWaits = async (): Promise<boolean> => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`.execute(t.deps.db);
    return (rows[0]?.n ?? 0) > 0;
  };

  it('both go through, one after the other, with no deadlock', async () => {
    const c = await createConversation(t, { contact_email: uniqueEmail('racer') });
    const contactId = dataOf<{ contact: { id: number } }>(await t.call({ url: `/api/v1/conversations/${c.uuid}` })).contact.id;

    // The ingest's order (email.thread.ts, email.ingest.take.ts): the conversation locked, held open…
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let lockedYet = () => {};
    const locked = new Promise<void>((resolve) => {
      lockedYet = resolve;
    });
    const ingest = t.deps.db.transaction().execute(async (trx) => {
      assert.ok(await lockConversationForChannel(trx, c.uuid));
      lockedYet();
      await held;
      // …then the contact's row.
      await noteContactActive(trx, contactId, clock.now());
    });
    await locked;

    // The identity change arrives meanwhile and waits behind the ingest.
    let updated = false;
    const update = t
      .call({ method: 'PUT', url: `/api/v1/contacts/${contactId}`, payload: { email: uniqueEmail('changed') } })
      .finally(() => {
        updated = true;
      });
    const deadline = Date.now() + 10_000;
    while (!updated && !(await someoneWaits()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    release();
    const [ingested, answer] = await Promise.allSettled([ingest, update]);
    assert.equal(ingested.status, 'fulfilled', ingested.status === 'rejected' ? String(ingested.reason) : '');
    assert.equal(answer.status === 'fulfilled' ? answer.value.statusCode : answer.reason, 200);
  });
});
