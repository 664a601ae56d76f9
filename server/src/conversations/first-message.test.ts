// A conversation's first message (`first_message`): the title of a conversation without subject,
// set by its first public message and kept, answered by the record, the lists and search; the
// migration that added it filled it for the conversations that existed (fillFirstMessages).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { fillFirstMessages } from '../db/migrations/2026_11_29_0502_routing_first_message.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, startVisitor, widgetCall } from '../../test/widget.ts';

type Json = Record<string, unknown>;

describe("a conversation's first message", () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('is the first public message, shortened to one line, kept as others come; the record, the lists and search answer it', async () => {
    const chat = await createWidgetInbox(t);
    const visitor = await startVisitor(t, chat.uuid, '  My parcel\n\nnever   arrived  ');
    const uuid = visitor.conversationUuid;
    dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload: { message: 'A note', private: true } }));
    dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload: { message: 'Looking into it' } }));
    dataOf(
      await widgetCall(t, {
        method: 'POST',
        url: `chat/conversations/${uuid}/message`,
        inbox: chat.uuid,
        token: visitor.token,
        payload: { message: 'Any news?' },
      }),
    );
    const record = dataOf<Json>(await t.call({ url: `/api/v1/conversations/${uuid}` }));
    assert.equal(record['subject'], '');
    assert.equal(record['first_message'], 'My parcel never arrived');
    assert.equal(record['last_message'], 'Any news?');
    const list = dataOf<{ results: Json[] }>(await t.call({ url: `/api/v1/conversations/all?inbox_id=${chat.inbox.id}` }));
    assert.equal(list.results.find((c) => c['uuid'] === uuid)?.['first_message'], 'My parcel never arrived');
    const found = dataOf<{ messages: Json[] }>(await t.call({ url: '/api/v1/search?q=parcel' }));
    assert.equal(found.messages[0]?.['conversation_first_message'], 'My parcel never arrived');

    // An agent who starts a conversation writes its first message; a long one is cut at 200 characters.
    const long = 'x'.repeat(250);
    const started = dataOf<Json>(
      await t.call({
        method: 'POST',
        url: '/api/v1/conversations',
        payload: { inbox_id: chat.inbox.id, contact_email: 'first@example.com', content: `<p>${long}</p>` },
      }),
    );
    assert.equal(started['first_message'], 'x'.repeat(200));
  });

  it('the migration fills it from the first public message of each conversation', async () => {
    const chat = await createWidgetInbox(t);
    const visitor = await startVisitor(t, chat.uuid, 'Hello\tthere');
    const empty = await t.deps.db
      .insertInto('conversations')
      .values({
        inbox_id: chat.inbox.id,
        contact_id: visitor.userId,
        status_id: sql<number>`(select id from conversation_statuses where name = 'Open')`,
        custom_attributes: '{}',
        meta: '{}',
        created_at: new Date(),
        updated_at: new Date(),
      })
      .returning('uuid')
      .executeTakeFirstOrThrow();
    await t.deps.db.updateTable('conversations').set({ first_message: null }).execute();
    // The migration's own statement, run as the migrator runs it (an untyped Kysely).
    await fillFirstMessages(t.deps.db as unknown as Kysely<unknown>);
    const rows = await t.deps.db
      .selectFrom('conversations')
      .where('uuid', 'in', [visitor.conversationUuid, empty.uuid])
      .select(['uuid', 'first_message'])
      .execute();
    assert.deepEqual(Object.fromEntries(rows.map((r) => [r.uuid, r.first_message])), {
      [visitor.conversationUuid]: 'Hello there',
      [empty.uuid]: null,
    });
  });
});
