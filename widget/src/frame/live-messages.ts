// Messages that reach the frame while a conversation's read is on its way (chat.ts): agents'
// replies over the socket and the visitor's own sends. A read answers what the server held when
// it read, so what came after it is kept and merged in: nothing shown vanishes when an older
// answer lands, and nothing that arrived before the thread was there is lost.
import type { ChatMessage } from './api.ts';

/** The conversation being opened and the messages that arrived for it before its read landed. */
export class Arrivals {
  #uuid: string | null = null;
  #messages: ChatMessage[] = [];

  /** Collects for `uuid` from now on; a second open of the same conversation keeps what was collected. */
  expect(uuid: string): void {
    if (this.#uuid === uuid) return;
    this.#uuid = uuid;
    this.#messages = [];
  }

  /** Keeps a message of the conversation being opened (once); false when it belongs to another. */
  keep(message: ChatMessage): boolean {
    if (this.#uuid === null || message.conversation_uuid !== this.#uuid) return false;
    if (!this.#messages.some((m) => m.uuid === message.uuid)) this.#messages.push(message);
    return true;
  }

  /** What arrived for `uuid`: empty for any other conversation. */
  of(uuid: string): readonly ChatMessage[] {
    return this.#uuid === uuid ? this.#messages : [];
  }

  clear(): void {
    this.#uuid = null;
    this.#messages = [];
  }
}

const byCreation = (a: ChatMessage, b: ChatMessage) =>
  Date.parse(a.created_at) - Date.parse(b.created_at) || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);

/**
 * A conversation's thread once a read lands (`read` oldest first): the read, every message that
 * arrived while it was on its way and is not in it, and those already shown that are not in it
 * and not older than its newest (an older one is outside the window of newest messages a read
 * holds). Oldest first, as the server orders them; ties by uuid.
 */
export function mergeRead(read: readonly ChatMessage[], shown: readonly ChatMessage[], arrived: readonly ChatMessage[]): ChatMessage[] {
  const known = new Set(read.map((m) => m.uuid));
  const newest = read.reduce((at, m) => Math.max(at, Date.parse(m.created_at)), Number.NEGATIVE_INFINITY);
  const extra: ChatMessage[] = [];
  const add = (m: ChatMessage) => {
    if (known.has(m.uuid)) return;
    known.add(m.uuid);
    extra.push(m);
  };
  for (const m of arrived) add(m);
  for (const m of shown) if (Date.parse(m.created_at) >= newest) add(m);
  return extra.length === 0 ? [...read] : [...read, ...extra].sort(byCreation);
}
