// The chat: its state and everything that changes it. This file holds the session and the
// socket, the reads, the views and what the loader on the host page asks (visibility, page
// visits, setUser, logout); the socket's events are in chat-live.ts, what the visitor sends in
// chat-send.ts, the state's shape in chat-core.ts. Components read the state and call these
// actions; nothing else talks to the API or the socket.
import { ApiError, createApi } from './api.ts';
import type { ChatCore, ChatState, View } from './chat-core.ts';
import { liveEvents } from './chat-live.ts';
import { failure, sending } from './chat-send.ts';
import type { HostBridge } from './host.ts';
import { Arrivals, ChangesDuringReads, mergeRead } from './live-messages.ts';
import { PageVisits, subjectOf, Typing } from './outgoing.ts';
import { type SessionStore, sessionStore } from './session.ts';
import { type ChatSocket, openSocket, type SendFrame } from './socket.ts';

export type { ChatState, FormValues, View } from './chat-core.ts';

export function createChat(inbox: string, host: HostBridge) {
  const store: SessionStore = sessionStore(inbox, (name, value) => host.send({ parley: 1, type: 'store', data: { name, value } }));
  let restored: (() => void) | null = null;
  let state: ChatState = {
    settings: null,
    failed: false,
    user: store.user(),
    conversations: [],
    view: { name: 'home' },
    current: null,
    typing: null,
    visible: !host.embedded,
    connected: false,
    busy: false,
    notice: null,
  };
  const listeners = new Set<() => void>();
  let socket: ChatSocket | null = null;
  const sendFrame: SendFrame = (type, data) => socket?.send(type, data) ?? false;
  const pageVisits = new PageVisits(sendFrame);
  const visitorTyping = new Typing(sendFrame, () => (state.view.name === 'conversation' ? state.view.uuid : null));
  let reportedUnread = -1;

  function set(patch: Partial<ChatState>): void {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
    const unread = state.conversations.reduce((sum, c) => sum + c.unread_message_count, 0);
    if (unread !== reportedUnread) {
      reportedUnread = unread;
      host.send({ parley: 1, type: 'unread', data: { count: unread } });
    }
  }

  const core: ChatCore = {
    get: () => state,
    set,
    api: createApi('', inbox, store, () => forget()),
    store,
    arrivals: new Arrivals(),
    changes: new ChangesDuringReads(),
  };
  const { api, arrivals, changes } = core;
  const live = liveEvents(core, () => loadConversations());
  const outgoing = sending(core, live, { connect, visitorTyped: () => visitorTyping.stop() });

  // ------------------------------------------------------------ session and socket

  function connect(): void {
    socket?.close();
    socket = null;
    const token = store.token();
    host.send({ parley: 1, type: 'session', data: { active: token !== null } });
    if (!token) {
      set({ connected: false });
      return;
    }
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/widget/ws`;
    socket = openSocket(url, token, inbox, {
      onFrame: live.onFrame,
      // Every join re-reads: what happened between the last read and the join (or while
      // disconnected) is not replayed by the server.
      onJoined() {
        pageVisits.flush();
        void resync();
      },
      onJoinFailed() {
        // Maybe the session ended: the API says for sure (a 401 forgets it, and stops for good).
        // Otherwise the refusal may pass (too many sockets for the session, a server restarting):
        // try again, with the socket's growing delay.
        return api.me().then(
          () => true,
          (error: unknown) => !(error instanceof ApiError && error.status === 401),
        );
      },
      onStatus: (connected) => set({ connected }),
    });
  }

  /** The session was refused: start again as a new visitor. */
  function forget(): void {
    store.clear();
    arrivals.clear();
    live.stopTyping();
    socket?.close();
    socket = null;
    host.send({ parley: 1, type: 'session', data: { active: false } });
    set({ user: null, conversations: [], current: null, view: { name: 'home' }, connected: false, typing: null });
  }

  async function resync(): Promise<void> {
    await loadConversations();
    const current = state.current;
    if (current && state.view.name === 'conversation') await openConversation(current.conversation.uuid, false);
  }

  async function loadConversations(): Promise<void> {
    if (!store.token()) return;
    const read = changes.begin();
    try {
      const conversations = await api.conversations();
      set({ conversations: conversations.map(changes.end(read)) });
    } catch {
      changes.end(read);
      // Shown as it was; the next event or reconnect tries again.
    }
  }

  // ------------------------------------------------------------ views

  async function openConversation(uuid: string, focus = true): Promise<void> {
    if (focus) set({ view: { name: 'conversation', uuid }, notice: null, typing: null });
    // A slow answer for A must not land once the view moved to B: send() posts to the view's uuid.
    const stillShown = () => state.view.name === 'conversation' && state.view.uuid === uuid;
    if (state.current?.conversation.uuid !== uuid) arrivals.expect(uuid);
    const read = changes.begin();
    try {
      const data = await api.conversation(uuid);
      const laid = changes.end(read);
      if (!stillShown()) return;
      const shown = state.current?.conversation.uuid === uuid ? state.current.messages : [];
      const messages = mergeRead([...data.messages].reverse(), shown, arrivals.of(uuid));
      set({ current: { conversation: laid(data.conversation), messages } });
      live.typingHeard(uuid);
      arrivals.clear();
      if (state.visible) markSeen(uuid);
    } catch (error) {
      changes.end(read);
      if (stillShown()) {
        arrivals.clear();
        set({ notice: failure(error) });
      }
    }
  }

  function markSeen(uuid: string): void {
    const entry = state.conversations.find((c) => c.uuid === uuid);
    if (entry && entry.unread_message_count === 0) return;
    live.updateConversation(uuid, { unread_message_count: 0 });
    api.seen(uuid).catch(() => undefined);
  }

  /** Fields the pre-chat form asks: all enabled ones for a new visitor; a known user only the custom ones. */
  function prechatFields() {
    const form = state.settings?.prechat_form;
    if (!form?.enabled) return [];
    return form.fields
      .filter((f) => f.enabled !== false && (!store.token() || !f.is_default))
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  }

  // ------------------------------------------------------------ the host page

  async function setUser(jwt: string): Promise<void> {
    const subject = subjectOf(jwt);
    const before = store.user();
    if (before && !before.is_visitor && subject !== undefined && before.subject === subject && store.token()) return;
    const visitor = before?.is_visitor ? store.token() : store.visitorToken();
    try {
      const session = await api.exchange(jwt);
      store.setSession(session.session_token, { ...session.user, ...(subject ? { subject } : {}) });
      store.setVisitorToken(visitor);
      set({ user: store.user() });
      // The first request with both tokens merges the visitor's conversations into the contact.
      if (visitor) await api.me().catch(() => undefined);
      await loadConversations();
      connect();
      if (state.view.name === 'conversation' && state.view.uuid) await openConversation(state.view.uuid, false);
    } catch (error) {
      console.warn('Parley: setUser failed:', failure(error));
    }
  }

  function onHost(message: Parameters<Parameters<HostBridge['listen']>[0]>[0]): void {
    if (message.type === 'page') {
      pageVisits.visit(message.data);
    } else if (message.type === 'visibility') {
      set({ visible: message.data.open });
      const uuid = state.view.name === 'conversation' ? state.view.uuid : null;
      if (message.data.open && uuid) markSeen(uuid);
    } else if (message.type === 'set_user') void setUser(message.data.jwt);
    else if (message.type === 'logout') forget();
    else if (message.type === 'restore' && restored) {
      store.restore(message.data.values);
      restored();
    }
  }

  // ------------------------------------------------------------ start

  async function boot(): Promise<void> {
    host.listen(onHost);
    const hostStorage = store.needsHost && host.embedded;
    // Without storage of its own, the frame waits (briefly) for the session the loader kept.
    const waiting = hostStorage
      ? new Promise<void>((resolve) => {
          restored = resolve;
          setTimeout(resolve, 2000);
        })
      : null;
    host.send({ parley: 1, type: 'ready', data: { hostStorage } });
    if (waiting) {
      await waiting;
      restored = null;
      set({ user: store.user() });
    }
    try {
      const settings = await api.settings();
      set({ settings });
    } catch {
      return set({ failed: true });
    }
    if (store.token()) {
      await loadConversations();
      connect();
      if (state.settings?.direct_to_conversation && state.conversations[0]) await openConversation(state.conversations[0].uuid);
    } else host.send({ parley: 1, type: 'session', data: { active: false } });
  }

  return {
    get: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    api,
    boot,
    prechatFields,
    home() {
      arrivals.clear();
      live.stopTyping();
      set({ view: { name: 'home' }, current: null, notice: null, typing: null });
    },
    openConversation: (uuid: string) => openConversation(uuid),
    newConversation() {
      visitorTyping.stop();
      const view: View = prechatFields().length > 0 ? { name: 'prechat' } : { name: 'conversation', uuid: null };
      arrivals.clear();
      live.stopTyping();
      set({ view, current: null, notice: null, typing: null });
    },
    start: outgoing.start,
    send: outgoing.send,
    upload: outgoing.upload,
    typing: () => visitorTyping.keyPressed(),
    close: () => host.send({ parley: 1, type: 'close' }),
  };
}

export type Chat = ReturnType<typeof createChat>;
