// Parsing client frames (docs/api.md, "Realtime"): JSON text `{type, data}`, checked field by
// field; anything else is answered with an `error` frame and the socket stays open.

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The frame's type and the rest of it, or why it is not a frame. */
export function parseFrame(data: Buffer, isBinary: boolean): Parsed<{ type: string; frame: Record<string, unknown> }> {
  if (isBinary) return { ok: false, message: 'frames must be JSON text' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    return { ok: false, message: 'frame is not valid JSON' };
  }
  if (!isObject(parsed)) return { ok: false, message: 'frame must be a JSON object' };
  const type = parsed['type'];
  if (typeof type !== 'string' || type.length === 0) return { ok: false, message: 'frame.type must be a non-empty string' };
  return { ok: true, value: { type, frame: parsed } };
}

/** `data` of a frame: an object (an absent data is an empty object). */
export function dataOf(frame: Record<string, unknown>): Record<string, unknown> | null {
  const data = frame['data'] ?? {};
  return isObject(data) ? data : null;
}

export function errorFrame(message: string, code?: string): string {
  return JSON.stringify({ type: 'error', data: code ? { message, code } : { message } });
}

/** Typing is forwarded when it changes, or again after this long (it is a hint, coalesced). */
export const TYPING_REPEAT_MS = 2_000;

/** Whether a typing frame should go on: a change of state, or the same state after TYPING_REPEAT_MS. */
export function typingThrottle(): (key: string, isTyping: boolean, nowMs: number) => boolean {
  const last = new Map<string, { at: number; typing: boolean }>();
  return (key, isTyping, nowMs) => {
    const previous = last.get(key);
    if (previous && previous.typing === isTyping && nowMs - previous.at < TYPING_REPEAT_MS) return false;
    if (last.size > 100) last.clear();
    last.set(key, { at: nowMs, typing: isTyping });
    return true;
  };
}

/**
 * Runs a socket's frame handler one frame at a time, in arrival order (a `subscribe` and the
 * `unsubscribe` right after it, or `typing` true then false, must not overtake each other).
 */
export function inOrder(handle: (data: Buffer, isBinary: boolean) => Promise<void>): (data: Buffer, isBinary: boolean) => void {
  let chain: Promise<void> = Promise.resolve();
  return (data, isBinary) => {
    chain = chain.then(() => handle(data, isBinary));
  };
}

/** Frames a client may send per second on average, and in a burst; past them the socket is closed. */
export const FRAMES_PER_SECOND = 20;
const FRAME_BURST = 60;

/** A token bucket per socket: false when the client sends faster than FRAMES_PER_SECOND allows. */
export function frameBudget(nowMs: () => number): () => boolean {
  let tokens = FRAME_BURST;
  let at = nowMs();
  return () => {
    const now = nowMs();
    tokens = Math.min(FRAME_BURST, tokens + ((now - at) / 1000) * FRAMES_PER_SECOND);
    at = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/** Control characters (U+0000–U+001F, U+007F) that no URL or title of a page visit carries. */
export function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** A page URL as agents see it: without user name, password or fragment. */
export function cleanPageUrl(raw: string): string | null {
  if (raw.length > 2048 || hasControlCharacters(raw) || !/^https?:\/\//i.test(raw) || !URL.canParse(raw)) return null;
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.username = '';
  url.password = '';
  url.hash = '';
  const clean = url.toString();
  return clean.length > 2048 ? null : clean;
}
