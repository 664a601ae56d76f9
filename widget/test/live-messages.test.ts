// What the chat frame keeps while a conversation's read is on its way (widget/src/frame/live-messages.ts):
// messages that arrive meanwhile are collected for that conversation only, and merged with the
// read so that none is lost, none is shown twice, and the thread stays in the server's order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatConversation, ChatMessage } from '../src/frame/api.ts';
import { Arrivals, ChangesDuringReads, mergeRead } from '../src/frame/live-messages.ts';
import { agentAuthor } from './fixtures.ts';

const A = '0b8a3c1e-1111-4222-8333-00000000000a';
const B = '0b8a3c1e-1111-4222-8333-00000000000b';

function message(uuid: string, minute: number, conversation = A): ChatMessage {
  return {
    uuid,
    status: 'sent',
    conversation_uuid: conversation,
    created_at: new Date(Date.UTC(2026, 10, 27, 10, minute)).toISOString(),
    content: uuid,
    text_content: uuid,
    author: agentAuthor,
    attachments: [],
    meta: {},
  } as ChatMessage;
}

const uuids = (messages: readonly ChatMessage[]) => messages.map((m) => m.uuid);

describe('the messages that arrive while a conversation is read', () => {
  it('are kept for the conversation being opened only, once each, until cleared', () => {
    const arrivals = new Arrivals();
    assert.equal(arrivals.keep(message('m1', 1)), false, 'nothing is opened yet');
    arrivals.expect(A);
    assert.equal(arrivals.keep(message('m1', 1)), true);
    assert.equal(arrivals.keep(message('m1', 1)), true, 'a frame seen twice');
    assert.equal(arrivals.keep(message('x1', 2, B)), false, "another conversation's message");
    assert.deepEqual(uuids(arrivals.of(A)), ['m1']);
    assert.deepEqual(uuids(arrivals.of(B)), []);
    arrivals.expect(A);
    assert.deepEqual(uuids(arrivals.of(A)), ['m1'], 'a second open of the same conversation keeps them');
    arrivals.expect(B);
    assert.deepEqual(uuids(arrivals.of(A)), [], 'opening another starts afresh');
    arrivals.keep(message('x1', 2, B));
    arrivals.clear();
    assert.deepEqual(uuids(arrivals.of(B)), []);
    assert.equal(arrivals.keep(message('x2', 3, B)), false, 'nothing is collected once cleared');
  });

  it('while a conversation is started, are kept for any conversation not listed before, each returned for its own', () => {
    const arrivals = new Arrivals();
    arrivals.expectNew([A]);
    assert.equal(arrivals.keep(message('a1', 1, A)), false, 'a listed conversation is not the new one');
    assert.equal(arrivals.keep(message('b1', 2, B)), true);
    assert.equal(arrivals.keep(message('b1', 2, B)), true, 'a frame seen twice');
    assert.deepEqual(uuids(arrivals.of(B)), ['b1']);
    assert.deepEqual(uuids(arrivals.of(A)), []);
    arrivals.expect(B);
    assert.deepEqual(uuids(arrivals.of(B)), [], 'opening a conversation starts afresh');
  });

  it('keep the last typing heard for the conversation being opened or started, with its time', () => {
    const arrivals = new Arrivals();
    assert.equal(arrivals.typing(A, true, 1), false, 'nothing is opened yet');
    arrivals.expect(A);
    assert.equal(arrivals.typing(B, true, 2), false, "another conversation's");
    assert.equal(arrivals.typing(A, true, 3), true);
    assert.deepEqual(arrivals.typingOf(A), { on: true, at: 3 });
    arrivals.typing(A, false, 4);
    assert.deepEqual(arrivals.typingOf(A), { on: false, at: 4 }, 'the last one heard');
    assert.equal(arrivals.typingOf(B), null);
    arrivals.expectNew([A]);
    assert.equal(arrivals.typingOf(A), null, 'starting another forgets it');
    arrivals.typing(B, true, 5);
    assert.deepEqual(arrivals.typingOf(B), { on: true, at: 5 });
    arrivals.clear();
    assert.equal(arrivals.typingOf(B), null);
  });

  it('merge with a read: what the read lacks is added in order, what it holds is not doubled', () => {
    const read = [message('r1', 1), message('r2', 5)];
    // Arrived while the read was on its way: one the read already holds, one newer, and one written
    // earlier than the read's newest but committed after it was answered.
    const arrived = [message('r2', 5), message('late', 4), message('new', 6)];
    assert.deepEqual(uuids(mergeRead(read, [], arrived)), ['r1', 'late', 'r2', 'new']);
  });

  it('keep what is shown and newer than the read, and leave out what is older than its window', () => {
    const read = [message('r5', 5), message('r6', 6)];
    const shown = [message('old', 1), message('r5', 5), message('live', 7)];
    assert.deepEqual(uuids(mergeRead(read, shown, [])), ['r5', 'r6', 'live']);
  });

  it('order messages of the same time by uuid, and leave a read alone when nothing arrived', () => {
    assert.deepEqual(uuids(mergeRead([message('b', 2)], [], [message('a', 2)])), ['a', 'b']);
    const read = [message('r1', 1)];
    const merged = mergeRead(read, [], []);
    assert.deepEqual(uuids(merged), ['r1']);
    assert.notEqual(merged, read, 'a copy, never the read itself');
  });
});

describe('the status and assignee changes heard while reads are on their way', () => {
  type Assignee = NonNullable<ChatConversation['assignee']>;
  const grace: Assignee = {
    id: 7,
    first_name: 'Grace',
    last_name: 'Hopper',
    avatar_url: null,
    availability_status: 'available',
    type: 'agent',
    active_at: null,
  };
  const conversation = (uuid: string) => ({ uuid, status: 'Open', assignee: null as Assignee | null });

  it('are laid over the answer of a read that began before them, for that conversation only', () => {
    const changes = new ChangesDuringReads();
    changes.note(A, { status: 'Snoozed' });
    const read = changes.begin();
    changes.note(A, { assignee: grace });
    changes.note(B, { status: 'Resolved' });
    const laid = changes.end(read);
    assert.deepEqual(
      laid(conversation(A)),
      { uuid: A, status: 'Open', assignee: grace },
      'the snooze heard before the read began is in its answer',
    );
    assert.deepEqual(laid(conversation(B)), { uuid: B, status: 'Resolved', assignee: null });
  });

  it('in the order heard, the last one winning', () => {
    const changes = new ChangesDuringReads();
    const read = changes.begin();
    changes.note(A, { assignee: grace });
    changes.note(A, { assignee: null });
    assert.deepEqual(changes.end(read)(conversation(A)).assignee, null);
  });

  it('are kept while any read is on its way, and forgotten once none is', () => {
    const changes = new ChangesDuringReads();
    const first = changes.begin();
    changes.note(A, { status: 'Snoozed' });
    const second = changes.begin();
    changes.note(A, { assignee: grace });
    assert.deepEqual(changes.end(second)(conversation(A)), { uuid: A, status: 'Open', assignee: grace });
    assert.deepEqual(changes.end(first)(conversation(A)), { uuid: A, status: 'Snoozed', assignee: grace });
    changes.note(A, { status: 'Closed' });
    const later = changes.begin();
    assert.deepEqual(changes.end(later)(conversation(A)), conversation(A), 'nothing heard since it began');
  });
});
