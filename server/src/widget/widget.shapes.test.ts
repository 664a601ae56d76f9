// The widget's shapes: only public incoming and outgoing messages, newest first; the
// conversation's last message, assignee and unread count (capped).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConversation } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { chatConversationFor, chatMessageFor, loadChatConversations, loadChatMessages } from './widget.shapes.ts';

describe('widget shapes', () => {
  const clock = fakeClock();
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t.close());

  async function send(uuid: string, message: string, isPrivate = false) {
    clock.advance(1000);
    return dataOf<{ uuid: string }>(
      await t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload: { message, private: isPrivate } }),
    );
  }

  it('loads public messages newest first, never notes or activities; chatMessageFor refuses notes', async () => {
    const conversation = await createConversation(t);
    await send(conversation.uuid, '<p>Reply one</p>');
    const note = await send(conversation.uuid, 'Secret note', true);
    await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/status`, payload: { status: 'Resolved' } });
    const reply = await send(conversation.uuid, '<p>Reply two</p>');
    const row = await t.deps.db
      .selectFrom('conversations')
      .select(['id', 'contact_id', 'inbox_id'])
      .where('uuid', '=', conversation.uuid)
      .executeTakeFirstOrThrow();
    const messages = await loadChatMessages(t.deps, row.id);
    assert.deepEqual(
      messages.map((m) => m.text_content),
      ['Reply two', 'Reply one', 'Hello'],
    );
    const first = messages[0]!;
    assert.equal(first.author.email, null);
    assert.equal(first.author.type, 'agent');
    assert.equal(first.conversation_uuid, conversation.uuid);
    assert.deepEqual(first.attachments, []);
    assert.equal(messages[2]!.author.type, 'contact');
    assert.equal((await loadChatMessages(t.deps, row.id, { limit: 1 })).length, 1);

    const noteRow = await t.deps.db.selectFrom('messages').select('id').where('uuid', '=', note.uuid).executeTakeFirstOrThrow();
    assert.equal(await chatMessageFor(t.deps, noteRow.id), null);
    const replyRow = await t.deps.db.selectFrom('messages').select('id').where('uuid', '=', reply.uuid).executeTakeFirstOrThrow();
    assert.equal((await chatMessageFor(t.deps, replyRow.id))?.uuid, reply.uuid);
    const activity = await t.deps.db.selectFrom('messages').select('id').where('type', '=', 'activity').executeTakeFirstOrThrow();
    assert.equal(await chatMessageFor(t.deps, activity.id), null);
    assert.equal(await chatMessageFor(t.deps, 2_000_000_000), null);

    const chat = await chatConversationFor(t.deps, row.id);
    assert.equal(chat?.uuid, conversation.uuid);
    assert.equal(chat?.last_message?.content, 'Reply two');
    assert.equal(chat?.last_message?.author.type, 'agent');
    assert.equal(chat?.unread_message_count, 2);
    assert.equal(chat?.assignee, null);
    const list = await loadChatConversations(t.deps, row.contact_id, row.inbox_id);
    assert.deepEqual(
      list.map((c) => c.uuid),
      [conversation.uuid],
    );
  });

  it('caps the unread count at 10', async () => {
    const conversation = await createConversation(t);
    for (let i = 0; i < 12; i += 1) await send(conversation.uuid, `Reply ${i}`);
    const row = await t.deps.db.selectFrom('conversations').select('id').where('uuid', '=', conversation.uuid).executeTakeFirstOrThrow();
    assert.equal((await chatConversationFor(t.deps, row.id))?.unread_message_count, 10);
  });
});
