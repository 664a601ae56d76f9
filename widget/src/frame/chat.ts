// The chat's state and everything that changes it: the settings, the session, the
// conversations, the open conversation's messages, the socket's events, and what the loader on
// the host page asks (visibility, page visits, setUser, logout). Components read the state and
// call these actions; nothing else talks to the API or the socket.
import { ApiError, type Api, type ChatConversation, type ChatMessage, createApi, type Settings } from './api.ts';
import { conversationUpdate, isChatMessage, typingData } from './frames.ts';
import { Arrivals, ChangesDuringReads, mergeRead } from './live-messages.ts';
import { PageVisits, refusal, subjectOf, Typing } from './outgoing.ts';
import type { HostBridge } from './host.ts';
import { type SessionStore, sessionStore, type StoredUser } from './session.ts';
import { type ChatSocket, openSocket, type SendFrame, type SocketFrame } from './socket.ts';
import { text } from './strings.ts';

export type View = { name: 'home' } | { name: 'prechat' } | { name: 'conversation'; uuid: string | null };

export interface ChatState {
  settings: Settings | null;
  failed: boolean;
  user: StoredUser | null;
  conversations: ChatConversation[];
  view: View;
  /** The open conversation and its messages, oldest first. */
  current: { conversation: ChatConversation; messages: ChatMessage[] } | null;
  /** Who is typing in the open conversation (an agent's name, or '' when unknown); null: nobody. */
  typing: string | null;
  visible: boolean;
  connected: boolean;
  busy: boolean;
  notice: string | null;
  /** The web app's live preview (preview.ts): nothing can be sent. */
  preview?: boolean;
}

export type FormValues = Record<string, string | number | boolean>;

const TYPING_SHOWN_MS = 8000;

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
  let typingShown: ReturnType<typeof setTimeout> | undefined;
  let reportedUnread = -1;
  /** What arrives for the conversation being opened before its read lands (live-messages.ts). */
  const arrivals = new Arrivals();
  /** Status and assignee changes heard while a read is on its way, laid over its answer. */
  const changes = new ChangesDuringReads();

  const api: Api = createApi('', inbox, store, () => forget());

  function set(patch: Partial<ChatState>): void {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
    const unread = state.conversations.reduce((sum, c) => sum + c.unread_message_count, 0);
    if (unread !== reportedUnread) {
      reportedUnread = unread;
      host.send({ parley: 1, type: 'unread', data: { count: unread } });
    }
  }

  const failure = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

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
      onFrame,
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

  // ------------------------------------------------------------ socket events

  /** Frames whose data does not have the expected shape are ignored (frames.ts). */
  function onFrame(frame: SocketFrame): void {
    if (frame.type === 'new_message') {
      if (isChatMessage(frame.data)) receive(frame.data);
    } else if (frame.type === 'typing') {
      const data = typingData(frame.data);
      if (!data || state.current?.conversation.uuid !== data.conversation_uuid) return;
      clearTimeout(typingShown);
      if (data.is_typing) {
        const assignee = state.current?.conversation.assignee;
        set({ typing: assignee ? assignee.first_name : '' });
        typingShown = setTimeout(() => set({ typing: null }), TYPING_SHOWN_MS);
      } else set({ typing: null });
    } else if (frame.type === 'conversation_update') {
      const data = conversationUpdate(frame.data);
      if (!data) return;
      const patch: Partial<ChatConversation> = {};
      if (data.status !== undefined) patch.status = data.status;
      if (data.assignee !== undefined) patch.assignee = data.assignee;
      changes.note(data.uuid, patch);
      updateConversation(data.uuid, patch);
    }
  }

  function updateConversation(uuid: string, patch: Partial<ChatConversation>): void {
    const conversations = state.conversations.map((c) => (c.uuid === uuid ? { ...c, ...patch } : c));
    const current =
      state.current?.conversation.uuid === uuid
        ? { ...state.current, conversation: { ...state.current.conversation, ...patch } }
        : state.current;
    set({ conversations, current });
  }

  function receive(message: ChatMessage): void {
    const uuid = message.conversation_uuid;
    const reading = state.visible && state.view.name === 'conversation' && state.current?.conversation.uuid === uuid;
    let current = state.current;
    if (current && current.conversation.uuid === uuid && !current.messages.some((m) => m.uuid === message.uuid)) {
      current = { ...current, messages: [...current.messages, message] };
    } else arrivals.keep(message);
    const known = state.conversations.some((c) => c.uuid === uuid);
    const last = {
      content: message.text_content,
      created_at: message.created_at,
      author: {
        id: message.author.id,
        first_name: message.author.first_name,
        last_name: message.author.last_name,
        avatar_url: message.author.avatar_url,
        availability_status: message.author.availability_status,
        type: 'agent' as const,
        active_at: message.author.last_active_at,
      },
    };
    const conversations = state.conversations.map((c) => {
      if (c.uuid !== uuid) return c;
      // A re-read that raced this event already counted it (and shows it as the last message).
      const counted = c.last_message !== null && Date.parse(c.last_message.created_at) >= Date.parse(message.created_at);
      const unread = reading ? 0 : counted ? c.unread_message_count : Math.min(10, c.unread_message_count + 1);
      return { ...c, last_message: counted ? c.last_message : last, unread_message_count: unread };
    });
    set({ current, conversations, typing: current === state.current ? state.typing : null });
    if (!known) void loadConversations();
    if (reading) api.seen(uuid).catch(() => undefined);
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
      arrivals.clear();
      set({ current: { conversation: laid(data.conversation), messages } });
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
    updateConversation(uuid, { unread_message_count: 0 });
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

  // ------------------------------------------------------------ sending

  async function start(message: string, values: FormValues): Promise<boolean> {
    set({ busy: true, notice: null });
    try {
      const result = await api.init(message, values);
      if (result.session_token && result.user) {
        store.setSession(result.session_token, result.user);
        set({ user: result.user });
        connect();
      }
      const messages = [...result.messages].reverse();
      set({
        current: { conversation: result.conversation, messages },
        conversations: [result.conversation, ...state.conversations.filter((c) => c.uuid !== result.conversation.uuid)],
        view: { name: 'conversation', uuid: result.conversation.uuid },
        busy: false,
      });
      return true;
    } catch (error) {
      set({ busy: false, notice: text('sendFailed', { reason: failure(error) }) });
      return false;
    }
  }

  async function send(message: string): Promise<boolean> {
    const uuid = state.view.name === 'conversation' ? state.view.uuid : null;
    visitorTyping.stop();
    if (uuid === null) return start(message, {});
    set({ busy: true, notice: null });
    try {
      const sent = await api.send(uuid, message);
      appendOwn(sent);
      return true;
    } catch (error) {
      set({ busy: false, notice: text('sendFailed', { reason: failure(error) }) });
      return false;
    }
  }

  function appendOwn(message: ChatMessage): void {
    const current = state.current;
    const mine = current?.conversation.uuid === message.conversation_uuid;
    // Sent while the conversation's read was on its way: kept for it (openConversation merges it).
    if (!mine) arrivals.keep(message);
    const messages =
      current && mine && !current.messages.some((m) => m.uuid === message.uuid) ? [...current.messages, message] : current?.messages;
    const conversations = state.conversations.map((c) =>
      c.uuid === message.conversation_uuid
        ? {
            ...c,
            last_message: {
              content: message.text_content,
              created_at: message.created_at,
              author: { ...message.author, type: 'contact' as const, active_at: null },
            },
          }
        : c,
    );
    set({ busy: false, conversations, current: current && messages ? { ...current, messages } : current });
  }

  async function upload(file: File): Promise<void> {
    const uuid = state.view.name === 'conversation' ? state.view.uuid : null;
    if (!uuid) return;
    const refused = refusal(file, state.settings);
    if (refused) return set({ notice: refused });
    set({ busy: true, notice: text('uploading', { name: file.name }) });
    try {
      appendOwn(await api.upload(uuid, file));
      set({ notice: null });
    } catch (error) {
      set({ busy: false, notice: text('sendFailed', { reason: failure(error) }) });
    }
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
      set({ view: { name: 'home' }, current: null, notice: null, typing: null });
    },
    openConversation: (uuid: string) => openConversation(uuid),
    newConversation() {
      visitorTyping.stop();
      const view: View = prechatFields().length > 0 ? { name: 'prechat' } : { name: 'conversation', uuid: null };
      arrivals.clear();
      set({ view, current: null, notice: null, typing: null });
    },
    start,
    send,
    upload,
    typing: () => visitorTyping.keyPressed(),
    close: () => host.send({ parley: 1, type: 'close' }),
  };
}

export type Chat = ReturnType<typeof createChat>;
