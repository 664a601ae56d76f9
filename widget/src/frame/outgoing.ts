// What the frame sends of its own accord, and the checks made before sending: the host page's
// visits (each page once, at most one per 1.1 s), the visitor's typing (a start at most every 2 s
// while typing, a stop after 3 s without a key), a file against the inbox's limits, and the
// subject of a setUser JWT.
import type { Settings } from './api.ts';
import type { SendFrame } from './socket.ts';
import { text } from './strings.ts';

const PAGE_VISIT_GAP_MS = 1100;
const TYPING_REPEAT_MS = 2000;
const TYPING_IDLE_MS = 3000;

/** Reports the host page's visits: the latest page, once, spaced out, http(s) only. */
export class PageVisits {
  #page: { url: string; title: string } | null = null;
  #sent = '';
  #sentAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  private readonly send: SendFrame;

  constructor(send: SendFrame) {
    this.send = send;
  }

  /** The host page moved to `page`. */
  visit(page: { url: string; title: string }): void {
    this.#page = page;
    this.flush();
  }

  /** Sends the latest page if it was not sent yet (a socket just joined calls it too). */
  flush(): void {
    const page = this.#page;
    if (!page || page.url === this.#sent || !/^https?:/i.test(page.url)) return;
    const wait = this.#sentAt + PAGE_VISIT_GAP_MS - Date.now();
    clearTimeout(this.#timer);
    if (wait > 0) {
      this.#timer = setTimeout(() => this.flush(), wait);
      return;
    }
    if (this.send('page_visit', { url: page.url.slice(0, 2048), title: page.title.slice(0, 256) })) {
      this.#sent = page.url;
      this.#sentAt = Date.now();
    }
  }
}

/** The visitor's typing in a conversation: started when a key is pressed, stopped when idle or sent. */
export class Typing {
  #sentAt = 0;
  #idle: ReturnType<typeof setTimeout> | undefined;

  private readonly send: SendFrame;
  /** The uuid of the conversation being written in, or null. */
  private readonly conversation: () => string | null;

  constructor(send: SendFrame, conversation: () => string | null) {
    this.send = send;
    this.conversation = conversation;
  }

  keyPressed(): void {
    const uuid = this.conversation();
    if (!uuid) return;
    const now = Date.now();
    if (now - this.#sentAt > TYPING_REPEAT_MS && this.send('typing', { conversation_uuid: uuid, is_typing: true })) this.#sentAt = now;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.stop(), TYPING_IDLE_MS);
  }

  stop(): void {
    clearTimeout(this.#idle);
    const uuid = this.conversation();
    if (this.#sentAt === 0 || !uuid) return;
    this.#sentAt = 0;
    this.send('typing', { conversation_uuid: uuid, is_typing: false });
  }
}

/** Why a file may not be sent under the inbox's limits (the server checks again), or null. */
export function refusal(file: File, settings: Settings | null): string | null {
  const limits = settings?.file_upload;
  if (!limits?.enabled) return text('uploadDisabled');
  if (file.size === 0) return text('fileEmpty', { name: file.name });
  if (file.size > limits.max_size_mb * 1024 * 1024) return text('fileTooLarge', { name: file.name, max: limits.max_size_mb });
  const dot = file.name.lastIndexOf('.');
  const extension = dot >= 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  const allowed = limits.allowed_extensions.map((e) => e.replace(/^\./, '').toLowerCase());
  if (!allowed.includes('*') && !allowed.includes(extension)) return text('fileTypeRefused', { name: file.name });
  return null;
}

/** The JWT's external_user_id, read (not verified: the server does that) to skip exchanging the same user twice. */
export function subjectOf(jwt: string): string | undefined {
  try {
    const payload = JSON.parse(atob((jwt.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as { external_user_id?: unknown };
    return typeof payload.external_user_id === 'string' ? payload.external_user_id : undefined;
  } catch {
    return undefined;
  }
}
