// Messages that reach the frame while a conversation's read is on its way (chat.ts): agents'
// replies over the socket and the visitor's own sends. A read answers what the server held when
// it read, so what came after it is kept and merged in: nothing shown vanishes when an older
// answer lands, and nothing that arrived before the thread was there is lost.
import type { ChatConversation, ChatMessage } from './api.ts';

/**
 * The conversation being opened (or started) and what arrived for it before its read (or its
 * start's answer) landed: messages, and whether an agent was typing.
 */
export class Arrivals {
  #uuid: string | null = null;
  /** While a conversation is being started (its uuid unknown): the conversations listed before. */
  #before: ReadonlySet<string> | null = null;
  #messages: ChatMessage[] = [];
  #typing: { uuid: string; on: boolean; at: number } | null = null;

  /** Collects for `uuid` from now on; a second open of the same conversation keeps what was collected. */
  expect(uuid: string): void {
    if (this.#uuid === uuid && this.#before === null) return;
    this.#start(uuid, null);
  }

  /** Collects for a conversation being started: any conversation not in `known` is the new one. */
  expectNew(known: Iterable<string>): void {
    this.#start(null, new Set(known));
  }

  #start(uuid: string | null, before: ReadonlySet<string> | null): void {
    this.#uuid = uuid;
    this.#before = before;
    this.#messages = [];
    this.#typing = null;
  }

  #collects(uuid: string): boolean {
    return this.#before !== null ? !this.#before.has(uuid) : this.#uuid === uuid;
  }

  /** Keeps a message of the conversation being opened (once); false when it belongs to another. */
  keep(message: ChatMessage): boolean {
    if (!this.#collects(message.conversation_uuid)) return false;
    if (!this.#messages.some((m) => m.uuid === message.uuid)) this.#messages.push(message);
    return true;
  }

  /** Notes an agent typing (or stopping) in the conversation being opened; false when it is another's. */
  typing(uuid: string, on: boolean, at = Date.now()): boolean {
    if (!this.#collects(uuid)) return false;
    this.#typing = { uuid, on, at };
    return true;
  }

  /** The last typing heard for `uuid` while it was being opened, and when; null when none. */
  typingOf(uuid: string): { on: boolean; at: number } | null {
    return this.#typing !== null && this.#typing.uuid === uuid && this.#collects(uuid)
      ? { on: this.#typing.on, at: this.#typing.at }
      : null;
  }

  /** What arrived for `uuid`: empty for any other conversation. */
  of(uuid: string): readonly ChatMessage[] {
    return this.#collects(uuid) ? this.#messages.filter((m) => m.conversation_uuid === uuid) : [];
  }

  clear(): void {
    this.#start(null, null);
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

type Change = Partial<Pick<ChatConversation, 'status' | 'assignee'>>;

/**
 * Changes to conversations (status, assignee) heard over the socket while reads are on their way.
 * A read answers what the server held when it read; a change heard meanwhile may be newer, so it
 * is laid over the answer rather than lost under it. Changes are applied in the order heard, and
 * the socket delivers them in the order made, so the last one heard wins.
 */
export class ChangesDuringReads {
  #heard = 0;
  #log: Array<{ at: number; uuid: string; change: Change }> = [];
  #reads = new Set<{ from: number }>();

  /** Starts a read: what is heard from now on is laid over its answer. */
  begin(): { from: number } {
    const read = { from: this.#heard };
    this.#reads.add(read);
    return read;
  }

  /** Notes a change heard; kept only while a read is on its way. */
  note(uuid: string, change: Change): void {
    this.#heard += 1;
    if (this.#reads.size > 0) this.#log.push({ at: this.#heard, uuid, change });
  }

  /** Ends a read (answered or failed): lays what was heard since it began over a conversation of its answer. */
  end(read: { from: number }): <C extends { uuid: string }>(conversation: C) => C {
    this.#reads.delete(read);
    const heard = this.#log.filter((entry) => entry.at > read.from);
    const oldest = Math.min(...[...this.#reads].map((r) => r.from));
    this.#log = this.#log.filter((entry) => entry.at > oldest);
    return <C extends { uuid: string }>(conversation: C): C => {
      let laid = conversation;
      for (const entry of heard) if (entry.uuid === conversation.uuid) laid = { ...laid, ...entry.change };
      return laid;
    };
  }
}
