// The frame's side of the postMessage protocol (../protocol.ts) with the loader on the
// customer's page. The page's origin is the one the loader named in the frame's URL, checked
// against what the browser reports of the embedding page (location.ancestorOrigins, where it
// exists). Only the parent window at that origin is heard, and everything sent goes to that
// origin only. Which sites may embed the frame at all is the server's CSP (frame-ancestors).
import { type FromFrame, isMessage, MAX_STORED, PREVIEW_VIEWS, STORED_NAMES, type ToFrame } from '../protocol.ts';

export interface HostBridge {
  /** Whether the frame runs inside a page that can hear it. */
  embedded: boolean;
  /** The embedding page's origin (null: not embedded). */
  origin: string | null;
  send(message: FromFrame): void;
  listen(handler: (message: ToFrame) => void): void;
}

function hostOrigin(named: string | null): string | null {
  if (window.parent === window) return null;
  const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  const actual = ancestors && ancestors.length > 0 ? ancestors[0] : null;
  if (actual) return actual;
  try {
    return named ? new URL(named).origin : null;
  } catch {
    return null;
  }
}

export function hostBridge(namedOrigin: string | null): HostBridge {
  const origin = hostOrigin(namedOrigin);
  return {
    embedded: origin !== null,
    origin,
    send(message) {
      if (origin) window.parent.postMessage(message, origin);
    },
    listen(handler) {
      addEventListener('message', (event) => {
        if (!origin || event.source !== window.parent || event.origin !== origin) return;
        const message = event.data as ToFrame;
        if (!isMessage(message)) return;
        if (message.type === 'page') {
          const { url, title } = (message.data ?? {}) as { url?: unknown; title?: unknown };
          if (typeof url === 'string' && typeof title === 'string') handler({ parley: 1, type: 'page', data: { url, title } });
        } else if (message.type === 'visibility') handler({ parley: 1, type: 'visibility', data: { open: message.data?.open === true } });
        else if (message.type === 'set_user') {
          const jwt = message.data?.jwt;
          if (typeof jwt === 'string' && jwt.length > 0 && jwt.length <= 8192) handler({ parley: 1, type: 'set_user', data: { jwt } });
        } else if (message.type === 'logout') handler({ parley: 1, type: 'logout' });
        else if (message.type === 'restore') {
          const given = (message.data?.values ?? {}) as Record<string, unknown>;
          const values: Record<string, string> = {};
          for (const name of STORED_NAMES) {
            const value = given[name];
            if (typeof value === 'string' && value.length <= MAX_STORED) values[name] = value;
          }
          handler({ parley: 1, type: 'restore', data: { values } });
        } else if (message.type === 'preview') {
          const view = PREVIEW_VIEWS.find((name) => name === message.data?.view);
          handler({ parley: 1, type: 'preview', data: { settings: message.data?.settings, ...(view ? { view } : {}) } });
        }
      });
    },
  };
}
