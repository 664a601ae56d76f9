// The admin routes of an email inbox's reader: its status and the skipped-mail list, with
// their unhappy paths (no credentials, no permission, unknown or non-email inboxes, bad ids
// and pages).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createInbox } from '../../test/factories.ts';
import { assertError, buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { advanceCursor, recordSkipped } from './email.cursor.ts';
import { claimLeases, recordReaderState } from './email.reader-state.ts';

type Page = { results: Array<Record<string, unknown>>; total: number; per_page: number; total_pages: number; page: number };

describe('email reader routes', () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  it('answers a reader that never ran as stopped, without a cursor', async () => {
    const inbox = await createInbox(t, { channel: 'email' });
    const status = dataOf(await t.call({ method: 'GET', url: `/api/v1/inboxes/${inbox.id}/email/status` }));
    assert.deepEqual(status, {
      state: 'stopped',
      holder: null,
      connected_at: null,
      last_checked_at: null,
      last_error: null,
      last_error_at: null,
      cursor: null,
    });
  });

  it("answers the holder's state and the cursor, and a lease that ran out as stopped", async () => {
    const inbox = await createInbox(t, { channel: 'email' });
    const now = t.deps.clock.now();
    await claimLeases(t.deps.db, { holder: 'host-a:42:email:beef', inboxIds: [inbox.id], leaseMs: 30_000, clockNow: now });
    await recordReaderState(t.deps.db, inbox.id, 'host-a:42:email:beef', { state: 'failing', error: 'Connection refused' }, now);
    await recordReaderState(t.deps.db, inbox.id, 'host-a:42:email:beef', { state: 'idle', connectedAt: now, checkedAt: now }, now);
    // Another instance without the lease writes nothing.
    assert.equal(await recordReaderState(t.deps.db, inbox.id, 'host-b:7:email:cafe', { state: 'failing', error: 'x' }, now), false);
    await advanceCursor(t.deps.db, inbox.id, { mailbox: 'INBOX', uidvalidity: 1795659432, uid: 17 }, now);

    const status = dataOf<Record<string, unknown>>(await t.call({ method: 'GET', url: `/api/v1/inboxes/${inbox.id}/email/status` }));
    assert.equal(status['state'], 'idle');
    assert.equal(status['holder'], 'host-a:42:email:beef');
    assert.equal(status['last_error'], 'Connection refused');
    assert.equal(typeof status['last_error_at'], 'string');
    assert.equal(status['connected_at'], now.toISOString());
    assert.deepEqual(status['cursor'], { mailbox: 'INBOX', uidvalidity: 1795659432, last_uid: 17 });

    await t.deps.db
      .updateTable('email_readers')
      .set({ lease_until: new Date(now.getTime() - 1000) })
      .where('inbox_id', '=', inbox.id)
      .execute();
    const expired = dataOf<Record<string, unknown>>(await t.call({ method: 'GET', url: `/api/v1/inboxes/${inbox.id}/email/status` }));
    assert.equal(expired['state'], 'stopped');
    assert.equal(expired['holder'], null);
    assert.equal(expired['last_error'], 'Connection refused', 'the last error stays visible');
  });

  it('lists skipped mails newest first, paged', async () => {
    const inbox = await createInbox(t, { channel: 'email' });
    const other = await createInbox(t, { channel: 'email' });
    const start = t.deps.clock.now().getTime();
    for (let i = 1; i <= 12; i += 1) {
      await recordSkipped(
        t.deps.db,
        inbox.id,
        {
          source: { mailbox: 'INBOX', uidvalidity: 7, uid: i },
          headerId: `m${i}@example.org`,
          sender: `Sender ${i} <s${i}@example.org>`,
          subject: `Big ${i}`,
          size: 30_000_000 + i,
          reason: 'larger than the 25 MB limit',
        },
        new Date(start + i * 1000),
      );
    }
    await recordSkipped(
      t.deps.db,
      other.id,
      { source: null, headerId: null, sender: null, subject: null, size: null, reason: 'other' },
      new Date(),
    );

    const first = dataOf<Page>(await t.call({ method: 'GET', url: `/api/v1/inboxes/${inbox.id}/email/skipped?page_size=5` }));
    assert.equal(first.total, 12);
    assert.equal(first.total_pages, 3);
    assert.equal(first.per_page, 5);
    assert.deepEqual(
      first.results.map((r) => r['uid']),
      [12, 11, 10, 9, 8],
    );
    assert.deepEqual(Object.keys(first.results[0] ?? {}).sort(), [
      'created_at',
      'id',
      'message_id',
      'reason',
      'sender',
      'size',
      'subject',
      'uid',
      'uidvalidity',
    ]);
    assert.equal(first.results[0]?.['message_id'], 'm12@example.org');
    assert.equal(first.results[0]?.['size'], 30_000_012);
    const last = dataOf<Page>(await t.call({ method: 'GET', url: `/api/v1/inboxes/${inbox.id}/email/skipped?page=3&page_size=5` }));
    assert.deepEqual(
      last.results.map((r) => r['uid']),
      [2, 1],
    );
    const beyond = dataOf<Page>(await t.call({ method: 'GET', url: `/api/v1/inboxes/${inbox.id}/email/skipped?page=9` }));
    assert.deepEqual(beyond.results, []);
    const none = dataOf<Page>(await t.call({ method: 'GET', url: `/api/v1/inboxes/${other.id}/email/skipped` }));
    assert.equal(none.total, 1);
    assert.equal(none.results[0]?.['uid'], null);
  });

  it('refuses without credentials or inboxes:manage, and answers 404 for unknown, malformed and non-email inboxes; 400 for bad pages', async () => {
    const email = await createInbox(t, { channel: 'email' });
    const chat = await createInbox(t);
    const agent = await agentWith(t, ['conversations:read_all']);
    const deleted = await createInbox(t, { channel: 'email' });
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/inboxes/${deleted.id}` }));
    for (const path of ['status', 'skipped']) {
      const url = `/api/v1/inboxes/${email.id}/email/${path}`;
      assertError(await t.call({ method: 'GET', url, as: null }), 401, 'UnauthorizedException', url);
      assertError(await t.call({ method: 'GET', url, as: agent }), 403, 'PermissionException', url);
      // A malformed id is answered like an unknown one (docs/api.md, Envelope and errors).
      for (const id of [chat.id, deleted.id, 2147483647, 'abc', '0', '-1', '2147483648', '1.5']) {
        assertError(await t.call({ method: 'GET', url: `/api/v1/inboxes/${id}/email/${path}` }), 404, 'NotFoundException', `${path} ${id}`);
      }
    }
    const chatError = assertError(
      await t.call({ method: 'GET', url: `/api/v1/inboxes/${chat.id}/email/status` }),
      404,
      'NotFoundException',
    );
    assert.match(chatError.message, /not an email inbox/i);
    for (const query of ['page=abc', 'page_size=x', 'page=1.5']) {
      assertError(await t.call({ method: 'GET', url: `/api/v1/inboxes/${email.id}/email/skipped?${query}` }), 400, 'InputException', query);
    }
  });
});
