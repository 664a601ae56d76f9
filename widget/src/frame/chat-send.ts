// What the visitor sends (chat.ts): a new conversation with its first message (and the pre-chat
// form), a message, a file. A start's answer is laid over with what arrived for the new
// conversation while it was on its way (an agent's reply, an assignment, typing), as a read's is.
import { ApiError, type ChatMessage } from './api.ts';
import type { ChatCore, FormValues } from './chat-core.ts';
import type { LiveEvents } from './chat-live.ts';
import { mergeRead } from './live-messages.ts';
import { refusal } from './outgoing.ts';
import { text } from './strings.ts';

export const failure = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

export function sending(core: ChatCore, live: LiveEvents, hooks: { connect(): void; visitorTyped(): void }) {
  const { api, arrivals, changes, store } = core;

  async function start(message: string, values: FormValues): Promise<boolean> {
    core.set({ busy: true, notice: null });
    // Its uuid is not known yet: what arrives for a conversation not listed now is kept for it.
    arrivals.expectNew(core.get().conversations.map((c) => c.uuid));
    const read = changes.begin();
    try {
      const result = await api.init(message, values);
      const laid = changes.end(read);
      if (result.session_token && result.user) {
        store.setSession(result.session_token, result.user);
        core.set({ user: result.user });
        hooks.connect();
      }
      const conversation = laid(result.conversation);
      const uuid = conversation.uuid;
      const messages = mergeRead([...result.messages].reverse(), [], arrivals.of(uuid));
      core.set({
        current: { conversation, messages },
        conversations: [conversation, ...core.get().conversations.filter((c) => c.uuid !== uuid)],
        view: { name: 'conversation', uuid },
        busy: false,
      });
      live.typingHeard(uuid);
      arrivals.clear();
      return true;
    } catch (error) {
      changes.end(read);
      arrivals.clear();
      core.set({ busy: false, notice: text('sendFailed', { reason: failure(error) }) });
      return false;
    }
  }

  async function send(message: string): Promise<boolean> {
    const state = core.get();
    const uuid = state.view.name === 'conversation' ? state.view.uuid : null;
    hooks.visitorTyped();
    if (uuid === null) return start(message, {});
    core.set({ busy: true, notice: null });
    try {
      const sent = await api.send(uuid, message);
      appendOwn(sent);
      return true;
    } catch (error) {
      core.set({ busy: false, notice: text('sendFailed', { reason: failure(error) }) });
      return false;
    }
  }

  function appendOwn(message: ChatMessage): void {
    const state = core.get();
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
    core.set({ busy: false, conversations, current: current && messages ? { ...current, messages } : current });
  }

  async function upload(file: File): Promise<void> {
    const state = core.get();
    const uuid = state.view.name === 'conversation' ? state.view.uuid : null;
    if (!uuid) return;
    const refused = refusal(file, state.settings);
    if (refused) return core.set({ notice: refused });
    core.set({ busy: true, notice: text('uploading', { name: file.name }) });
    try {
      appendOwn(await api.upload(uuid, file));
      core.set({ notice: null });
    } catch (error) {
      core.set({ busy: false, notice: text('sendFailed', { reason: failure(error) }) });
    }
  }

  return { start, send, upload };
}
