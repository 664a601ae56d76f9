// The widget session of this browser, per inbox, in the frame's own storage (Parley's origin;
// browsers that partition third-party storage keep one per customer site, which is the right
// scope). Three things are kept: the session token, the user it belongs to, and, after setUser,
// the earlier visitor token until the server says the visitor was merged. A browser that refuses
// the frame any storage (third-party storage blocked, as in private windows) leaves the frame
// with memory only: the values of a visitor's session are then mirrored to the loader, which
// keeps them in the host page's storage and hands them back when the frame loads again
// (`restore`). Every script of the customer's page can read that storage, so a verified
// contact's session (long-lived, it reads their whole history) is never mirrored: it stays in
// the frame's memory, and the host page's setUser(jwt) on each page load exchanges it again.
import type { StoredName } from '../protocol.ts';
import type { WidgetUser } from './api.ts';

export interface StoredUser extends WidgetUser {
  /** The external_user_id of the JWT the session came from (verified contacts only). */
  subject?: string;
}

export interface SessionStore {
  token(): string | null;
  user(): StoredUser | null;
  visitorToken(): string | null;
  setSession(token: string, user: StoredUser): void;
  setVisitorToken(token: string | null): void;
  clear(): void;
  /** True when the frame has no storage of its own and needs the loader's. */
  readonly needsHost: boolean;
  /** The values the loader kept (frames without storage). */
  restore(values: Partial<Record<StoredName, string>>): void;
}

/** localStorage when the browser allows it in a frame; otherwise memory, mirrored through `mirror` to the host page. */
export function sessionStore(inbox: string, mirror: (name: StoredName, value: string | null) => void): SessionStore {
  const memory = new Map<string, string>();
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
    storage.getItem('parley');
  } catch {
    storage = null;
  }
  const key = (name: string) => `parley:${inbox}:${name}`;
  const get = (name: StoredName) => (storage ? storage.getItem(key(name)) : (memory.get(key(name)) ?? null));
  /** `hostMay`: whether the host page may keep the value (false: it forgets any copy it has). */
  const set = (name: StoredName, value: string | null, hostMay = true) => {
    if (storage) {
      if (value === null) storage.removeItem(key(name));
      else storage.setItem(key(name), value);
      return;
    }
    if (value === null) memory.delete(key(name));
    else memory.set(key(name), value);
    mirror(name, hostMay ? value : null);
  };
  return {
    token: () => get('token'),
    user() {
      const raw = get('user');
      if (!raw) return null;
      try {
        const parsed = JSON.parse(raw) as StoredUser;
        return typeof parsed.user_id === 'number' ? parsed : null;
      } catch {
        return null;
      }
    },
    visitorToken: () => get('visitor'),
    setSession(token, user) {
      const visitor = user.is_visitor === true;
      set('token', token, visitor);
      set('user', JSON.stringify(user), visitor);
    },
    setVisitorToken: (token) => set('visitor', token),
    clear() {
      set('token', null);
      set('user', null);
      set('visitor', null);
    },
    needsHost: storage === null,
    restore(values) {
      // A copy kept before verified sessions stopped being mirrored is not taken back.
      let visitor = false;
      try {
        visitor = (JSON.parse(values.user ?? 'null') as { is_visitor?: unknown } | null)?.is_visitor === true;
      } catch {
        visitor = false;
      }
      for (const [name, value] of Object.entries(values)) {
        if (!value) continue;
        if ((name === 'token' || name === 'user') && !visitor) mirror(name, null);
        else memory.set(key(name), value);
      }
    },
  };
}
