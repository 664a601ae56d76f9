// The widget session of this browser, per inbox, in the frame's own storage (Parley's origin;
// browsers that partition third-party storage keep one per customer site, which is the right
// scope). Three things are kept: the session token, the user it belongs to, and, after setUser,
// the earlier visitor token until the server says the visitor was merged.
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
}

/** localStorage when the browser allows it in a frame; memory otherwise (the session then lasts one page). */
export function sessionStore(inbox: string): SessionStore {
  const memory = new Map<string, string>();
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
    storage.getItem('parley');
  } catch {
    storage = null;
  }
  const key = (name: string) => `parley:${inbox}:${name}`;
  const get = (name: string) => (storage ? storage.getItem(key(name)) : (memory.get(key(name)) ?? null));
  const set = (name: string, value: string | null) => {
    if (value === null) {
      storage?.removeItem(key(name));
      memory.delete(key(name));
    } else if (storage) storage.setItem(key(name), value);
    else memory.set(key(name), value);
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
      set('token', token);
      set('user', JSON.stringify(user));
    },
    setVisitorToken: (token) => set('visitor', token),
    clear() {
      set('token', null);
      set('user', null);
      set('visitor', null);
    },
  };
}
