// The chat's state and what its parts share (chat.ts composes them): the state's shape, and the
// core each part reads and changes it through, with the API, the session and what is kept while
// reads are on their way (live-messages.ts).
import type { Api, ChatConversation, ChatMessage, Settings } from './api.ts';
import type { Arrivals, ChangesDuringReads } from './live-messages.ts';
import type { SessionStore, StoredUser } from './session.ts';

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

export interface ChatCore {
  get(): ChatState;
  set(patch: Partial<ChatState>): void;
  readonly api: Api;
  readonly store: SessionStore;
  /** What arrives for the conversation being opened or started before its read lands. */
  readonly arrivals: Arrivals;
  /** Status and assignee changes heard while a read is on its way, laid over its answer. */
  readonly changes: ChangesDuringReads;
}
