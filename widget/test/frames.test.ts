// The frame's guards for socket data (widget/src/frame/frames.ts): a message, a typing signal
// and a conversation update of the server's shape pass; a malformed one is refused, not thrown on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conversationUpdate, isChatMessage, typingData } from '../src/frame/frames.ts';
import { agentAuthor } from './fixtures.ts';

const author = agentAuthor;
const message = {
  uuid: '0b8a3c1e-1111-4222-8333-444455556666',
  status: 'sent',
  conversation_uuid: '0b8a3c1e-1111-4222-8333-444455556667',
  created_at: '2026-11-26T10:00:00.000Z',
  content: '<p>Hello</p>',
  text_content: 'Hello',
  author,
  attachments: [
    {
      name: 'a.png',
      size: 10,
      content: null,
      content_id: null,
      content_type: 'image/png',
      disposition: 'attachment',
      uuid: '0b8a3c1e-1111-4222-8333-444455556668',
      url: '/x',
      thumbnail_url: '',
    },
  ],
  meta: { away: true, away_until: null },
};
const assignee = {
  id: 3,
  first_name: 'Grace',
  last_name: 'Hopper',
  avatar_url: null,
  availability_status: 'busy',
  type: 'agent',
  active_at: null,
};

describe('socket frame guards', () => {
  it('accepts a message of the server’s shape', () => {
    assert.equal(isChatMessage(message), true);
    assert.equal(isChatMessage({ ...message, meta: {} }), true);
  });

  it('refuses a malformed message', () => {
    const bad: unknown[] = [
      null,
      'text',
      [],
      {},
      { ...message, author: undefined },
      { ...message, author: { ...author, first_name: 1 } },
      { ...message, author: { ...author, type: 'robot' } },
      { ...message, uuid: 5 },
      { ...message, conversation_uuid: undefined },
      { ...message, created_at: 'yesterday' },
      { ...message, text_content: null },
      { ...message, attachments: 'none' },
      { ...message, attachments: [{ name: 'x' }] },
      { ...message, meta: null },
      { ...message, meta: { away: 'yes' } },
    ];
    for (const value of bad) assert.equal(isChatMessage(value), false, JSON.stringify(value));
  });

  it('reads a typing signal, and refuses a malformed one', () => {
    assert.deepEqual(typingData({ conversation_uuid: 'c', is_typing: true, extra: 1 }), { conversation_uuid: 'c', is_typing: true });
    for (const value of [
      null,
      {},
      { conversation_uuid: 'c' },
      { conversation_uuid: 1, is_typing: true },
      { conversation_uuid: 'c', is_typing: 'yes' },
    ]) {
      assert.equal(typingData(value), null, JSON.stringify(value));
    }
  });

  it('reads a conversation update (status, assignee, or neither), and refuses a malformed one', () => {
    assert.deepEqual(conversationUpdate({ uuid: 'c', status: 'Resolved', status_category: 'resolved' }), { uuid: 'c', status: 'Resolved' });
    assert.deepEqual(conversationUpdate({ uuid: 'c', assignee }), { uuid: 'c', assignee });
    assert.deepEqual(conversationUpdate({ uuid: 'c', assignee: null }), { uuid: 'c', assignee: null });
    assert.deepEqual(conversationUpdate({ uuid: 'c', contact_last_seen_at: '2026-11-26T10:00:00Z' }), { uuid: 'c' });
    for (const value of [
      null,
      { status: 'Open' },
      { uuid: 'c', status: 3 },
      { uuid: 'c', assignee: { id: 'x' } },
      { uuid: 'c', assignee: 'Grace' },
    ]) {
      assert.equal(conversationUpdate(value), null, JSON.stringify(value));
    }
  });
});
