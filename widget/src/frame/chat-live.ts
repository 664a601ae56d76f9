// What the widget socket tells the chat (chat.ts): an agent's message, an agent typing, a
// conversation's status or assignee changing. What belongs to a conversation whose read (or
// start) is on its way is kept for it (live-messages.ts), so the older answer does not hide it.
import type { ChatConversation, ChatMessage } from './api.ts';
import type { ChatCore } from './chat-core.ts';
import { conversationUpdate, isChatMessage, typingData } from './frames.ts';
import type { SocketFrame } from './socket.ts';

const TYPING_SHOWN_MS = 8000;

export function liveEvents(core: ChatCore, reload: () => Promise<void>) {
  let typingShown: ReturnType<typeof setTimeout> | undefined;

  /** Shows (or stops showing) an agent typing in the open conversation, for up to 8 s from `since`. */
  function showTyping(on: boolean, since = Date.now()): void {
    clearTimeout(typingShown);
    const left = TYPING_SHOWN_MS - (Date.now() - since);
    if (!on || left <= 0) {
      core.set({ typing: null });
      return;
    }
    const assignee = core.get().current?.conversation.assignee;
    core.set({ typing: assignee ? assignee.first_name : '' });
    typingShown = setTimeout(() => core.set({ typing: null }), left);
  }

  function updateConversation(uuid: string, patch: Partial<ChatConversation>): void {
    const state = core.get();
    const conversations = state.conversations.map((c) => (c.uuid === uuid ? { ...c, ...patch } : c));
    const current =
      state.current?.conversation.uuid === uuid
        ? { ...state.current, conversation: { ...state.current.conversation, ...patch } }
        : state.current;
    core.set({ conversations, current });
  }

  function receive(message: ChatMessage): void {
    const state = core.get();
    const uuid = message.conversation_uuid;
    const reading = state.visible && state.view.name === 'conversation' && state.current?.conversation.uuid === uuid;
    let current = state.current;
    if (current && current.conversation.uuid === uuid && !current.messages.some((m) => m.uuid === message.uuid)) {
      current = { ...current, messages: [...current.messages, message] };
    } else core.arrivals.keep(message);
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
    core.set({ current, conversations, typing: current === state.current ? state.typing : null });
    if (!known) void reload();
    if (reading) core.api.seen(uuid).catch(() => undefined);
  }

  /** Frames whose data does not have the expected shape are ignored (frames.ts). */
  function onFrame(frame: SocketFrame): void {
    if (frame.type === 'new_message') {
      if (isChatMessage(frame.data)) receive(frame.data);
    } else if (frame.type === 'typing') {
      const data = typingData(frame.data);
      if (!data) return;
      // Heard for the conversation being opened or started: shown once its read lands.
      if (core.get().current?.conversation.uuid !== data.conversation_uuid) core.arrivals.typing(data.conversation_uuid, data.is_typing);
      else showTyping(data.is_typing);
    } else if (frame.type === 'conversation_update') {
      const data = conversationUpdate(frame.data);
      if (!data) return;
      const patch: Partial<ChatConversation> = {};
      if (data.status !== undefined) patch.status = data.status;
      if (data.assignee !== undefined) patch.assignee = data.assignee;
      core.changes.note(data.uuid, patch);
      updateConversation(data.uuid, patch);
    }
  }

  /** Once a read (or a start) of `uuid` landed: the typing heard for it meanwhile, if any. */
  function typingHeard(uuid: string): void {
    const heard = core.arrivals.typingOf(uuid);
    if (heard) showTyping(heard.on, heard.at);
  }

  return { onFrame, updateConversation, typingHeard, stopTyping: () => clearTimeout(typingShown) };
}

export type LiveEvents = ReturnType<typeof liveEvents>;
