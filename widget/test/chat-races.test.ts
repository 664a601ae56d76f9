// The chat frame's state (widget/src/frame/chat.ts) against a scripted server: the API answers
// (fetch) and the socket's frames (WebSocket) are played by the test, so that a read or a start
// can be held while the socket delivers what happens meanwhile. What arrives for a conversation
// while its start or its read is on its way (an agent's reply, an assignment, a status, typing)
// is shown once the answer lands, not hidden under the older answer. And setUser(jwt), called on
// each page load, exchanges a token only when the customer changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChatConversation, ChatMessage } from '../src/frame/api.ts';
import { type Chat, createChat } from '../src/frame/chat.ts';
import type { HostBridge } from '../src/frame/host.ts';
import type { ToFrame } from '../src/protocol.ts';
import { agentAuthor } from './fixtures.ts';

const INBOX = '0b8a3c1e-1111-4222-8333-000000000001';
const C1 = '0b8a3c1e-1111-4222-8333-0000000000c1';
const C2 = '0b8a3c1e-1111-4222-8333-0000000000c2';
const CHAT = '/api/v1/widget/chat';

const grace = {
  id: 3,
  first_name: 'Grace',
  last_name: 'Hopper',
  avatar_url: null,
  availability_status: 'available',
  type: 'agent',
  active_at: null,
};

function message(uuid: string, conversation: string, minute: number, agent = false): ChatMessage {
  return {
    uuid,
    status: 'sent',
    conversation_uuid: conversation,
    created_at: new Date(Date.UTC(2026, 10, 29, 10, minute)).toISOString(),
    content: uuid,
    text_content: uuid,
    author: agent ? agentAuthor : { ...agentAuthor, id: 1, first_name: 'Visitor', type: 'contact' },
    attachments: [],
    meta: {},
  } as ChatMessage;
}

function conversation(uuid: string): ChatConversation {
  return {
    uuid,
    created_at: new Date(Date.UTC(2026, 10, 29, 10, 0)).toISOString(),
    status: 'Open',
    last_message: null,
    unread_message_count: 0,
    assignee: null,
  } as ChatConversation;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** The API: `METHOD path` → the data of its success envelope (or a promise of it). */
const routes = new Map<string, () => unknown>();

class FakeSocket {
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static last: FakeSocket | null = null;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor() {
    FakeSocket.last = this;
    queueMicrotask(() => {
      this.readyState = FakeSocket.OPEN;
      this.onopen?.();
    });
  }
  send(): void {}
  close(): void {
    this.readyState = FakeSocket.CLOSED;
  }
  deliver(type: string, data?: unknown): void {
    this.onmessage?.({ data: JSON.stringify({ type, data }) });
  }
}

describe('the chat while a start or a read is on its way', () => {
  const saved: Record<string, unknown> = {};
  const globals = globalThis as unknown as Record<string, unknown>;
  let chat: Chat;
  let fromHost: ((message: ToFrame) => void) | null = null;
  const socket = () => FakeSocket.last as FakeSocket;

  before(async () => {
    for (const name of ['fetch', 'WebSocket', 'location', 'addEventListener', 'removeEventListener']) saved[name] = globals[name];
    globals['WebSocket'] = FakeSocket;
    globals['location'] = { protocol: 'http:', host: 'parley.test' };
    globals['addEventListener'] = () => undefined;
    globals['removeEventListener'] = () => undefined;
    globals['fetch'] = async (url: string, init: { method: string }) => {
      const route = routes.get(`${init.method} ${url}`);
      if (!route) return new Response(JSON.stringify({ status: 'error', message: `no route ${url}` }), { status: 404 });
      return new Response(JSON.stringify({ status: 'success', data: await route() }), { status: 200 });
    };
    routes.set(`GET ${CHAT}/settings`, () => ({ prechat_form: { enabled: false, fields: [] }, direct_to_conversation: false }));
    routes.set(`POST ${CHAT}/conversations/${C1}/update-last-seen`, () => true);
    routes.set(`POST ${CHAT}/conversations/${C2}/update-last-seen`, () => true);
    const host: HostBridge = {
      embedded: false,
      origin: null,
      send: () => undefined,
      listen: (handler) => {
        fromHost = handler;
      },
    };
    chat = createChat(INBOX, host);
    await chat.boot();
    // A first conversation: the visitor's session and a joined socket.
    routes.set(`POST ${CHAT}/conversations/init`, () => ({
      conversation: conversation(C1),
      messages: [message('v1', C1, 1)],
      session_token: 'session-token',
      user: { user_id: 1, is_visitor: true, first_name: 'Visitor', last_name: '' },
    }));
    routes.set(`GET ${CHAT}/conversations`, () => [conversation(C1)]);
    routes.set(`GET ${CHAT}/conversations/${C1}`, () => ({ conversation: conversation(C1), messages: [message('v1', C1, 1)] }));
    assert.equal(await chat.start('v1', {}), true);
    await settle();
    socket().deliver('joined');
    await settle();
    assert.equal(chat.get().connected, true);
  });

  it('setUser(jwt) exchanges once per customer: called again for the same one (each page load), it sends nothing', async () => {
    const jwt = (subject: string) => `h.${Buffer.from(JSON.stringify({ external_user_id: subject })).toString('base64url')}.s`;
    const exchanged: string[] = [];
    routes.set(`POST ${CHAT}/auth/exchange`, () => {
      exchanged.push('exchange');
      return {
        session_token: `contact-token-${exchanged.length}`,
        user: { user_id: 10 + exchanged.length, is_visitor: false, first_name: 'Ada', last_name: '' },
      };
    });
    routes.set(`GET ${CHAT}/auth/me`, () => ({ user_id: 11, is_visitor: false, first_name: 'Ada', last_name: '' }));
    const setUser = async (token: string) => {
      fromHost?.({ parley: 1, type: 'set_user', data: { jwt: token } });
      await settle();
    };
    await setUser(jwt('u-42'));
    assert.deepEqual(exchanged, ['exchange']);
    assert.equal(chat.get().user?.is_visitor, false);
    await setUser(jwt('u-42'));
    await setUser(jwt('u-42'));
    assert.deepEqual(exchanged, ['exchange'], 'the same customer again: nothing sent');
    await setUser(jwt('u-43'));
    assert.deepEqual(exchanged, ['exchange', 'exchange'], 'another customer: exchanged');
  });

  after(() => {
    fromHost?.({ parley: 1, type: 'logout' });
    for (const [name, value] of Object.entries(saved)) globals[name] = value;
  });

  it("start(): the agent's reply, assignment and typing heard before init answers are shown with the new conversation", async () => {
    chat.home();
    chat.newConversation();
    const init = deferred<unknown>();
    routes.set(`POST ${CHAT}/conversations/init`, () => init.promise);
    const started = chat.start('v2', {});
    // The reply names a conversation not listed yet: the list is read again meanwhile.
    routes.set(`GET ${CHAT}/conversations`, () => [conversation(C2), conversation(C1)]);
    socket().deliver('new_message', message('a2', C2, 3, true));
    socket().deliver('conversation_update', { uuid: C2, assignee: grace });
    socket().deliver('typing', { conversation_uuid: C2, is_typing: true });
    // Another conversation's typing is not this one's.
    socket().deliver('typing', { conversation_uuid: C1, is_typing: false });
    await settle();
    init.resolve({ conversation: conversation(C2), messages: [message('v2', C2, 2)] });
    assert.equal(await started, true);
    const state = chat.get();
    assert.deepEqual(
      state.current?.messages.map((m) => m.uuid),
      ['v2', 'a2'],
      "the reply that arrived before init's answer is in the thread",
    );
    assert.equal(state.current?.conversation.assignee?.first_name, 'Grace', 'the assignment heard meanwhile is kept');
    assert.equal(state.conversations.find((c) => c.uuid === C2)?.assignee?.first_name, 'Grace');
    assert.equal(state.conversations.filter((c) => c.uuid === C2).length, 1);
    assert.equal(state.typing, 'Grace', 'the agent typing meanwhile is shown');
    socket().deliver('typing', { conversation_uuid: C2, is_typing: false });
    assert.equal(chat.get().typing, null);
  });

  it('openConversation(): a status and typing heard while its read is held are laid over the older answer', async () => {
    chat.home();
    const read = deferred<unknown>();
    routes.set(`GET ${CHAT}/conversations/${C1}`, () => read.promise);
    const opened = chat.openConversation(C1);
    await settle();
    socket().deliver('typing', { conversation_uuid: C1, is_typing: true });
    socket().deliver('conversation_update', { uuid: C1, status: 'Resolved' });
    socket().deliver('new_message', message('a1', C1, 4, true));
    read.resolve({ conversation: conversation(C1), messages: [message('v1', C1, 1)] });
    await opened;
    const state = chat.get();
    assert.equal(state.current?.conversation.status, 'Resolved');
    assert.deepEqual(
      state.current?.messages.map((m) => m.uuid),
      ['v1', 'a1'],
    );
    // The reply came after the typing: the reply ends it. Typing again, then a held read.
    chat.home();
    const again = deferred<unknown>();
    routes.set(`GET ${CHAT}/conversations/${C1}`, () => again.promise);
    const reopened = chat.openConversation(C1);
    await settle();
    socket().deliver('typing', { conversation_uuid: C1, is_typing: true });
    again.resolve({ conversation: { ...conversation(C1), assignee: grace }, messages: [message('v1', C1, 1), message('a1', C1, 4, true)] });
    await reopened;
    assert.equal(chat.get().typing, 'Grace', 'an agent typing while the read was held is shown once it lands');
    socket().deliver('typing', { conversation_uuid: C1, is_typing: false });
    assert.equal(chat.get().typing, null);
  });
});
