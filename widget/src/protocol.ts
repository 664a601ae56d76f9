// The messages the loader (on the customer's page) and the chat frame (on Parley's origin)
// exchange with postMessage. Each side checks the sender window and its origin before reading
// one. The loader passes the site's JWT down, once, to the frame's origin. One token crosses
// the other way: a frame the browser refuses storage of its own (third-party storage blocked)
// has the loader keep a visitor's session token in the host page's storage (`store`), where
// the page's scripts can read it; a verified contact's session never crosses (session.ts).

/** The frame's page, relative to Parley's base URL. */
export const FRAME_PATH = '/widget/frame/';
/** The launcher badge shows "9+" above this. */
export const BADGE_MAX = 9;

/** What a frame without storage of its own asks the loader to keep. */
export const STORED_NAMES = ['token', 'user', 'visitor'] as const;
export type StoredName = (typeof STORED_NAMES)[number];
/** The longest value the loader keeps. */
export const MAX_STORED = 4096;

/** Loader → frame. */
export type ToFrame =
  | { parley: 1; type: 'page'; data: { url: string; title: string } }
  | { parley: 1; type: 'visibility'; data: { open: boolean } }
  | { parley: 1; type: 'set_user'; data: { jwt: string } }
  | { parley: 1; type: 'logout'; data?: undefined }
  /** The session the loader keeps for a frame that has no storage of its own (answer to `ready` asking for it). */
  | { parley: 1; type: 'restore'; data: { values: Record<string, string> } }
  /**
   * Only to a frame in preview mode (`?preview=1`), from Parley's own web app: the widget
   * settings to show (as `POST /api/v1/inboxes/{id}/widget-preview` answers them) and, optionally,
   * the view to show. The frame checks their shape (frame/preview.ts) before using them.
   */
  | { parley: 1; type: 'preview'; data: { settings: unknown; view?: PreviewView } };

/** What a preview frame shows: the home screen, the pre-chat form or a sample conversation. */
export const PREVIEW_VIEWS = ['home', 'prechat', 'conversation'] as const;
export type PreviewView = (typeof PREVIEW_VIEWS)[number];

/** Frame → loader. */
export type FromFrame =
  /** `hostStorage`: the browser refuses the frame storage of its own (third-party storage blocked); the loader keeps the session instead. */
  | { parley: 1; type: 'ready'; data: { hostStorage: boolean } }
  /** Keep (or, with null, forget) one value of the session in the host page's storage. */
  | { parley: 1; type: 'store'; data: { name: StoredName; value: string | null } }
  | { parley: 1; type: 'unread'; data: { count: number } }
  | { parley: 1; type: 'close'; data?: undefined }
  | { parley: 1; type: 'session'; data: { active: boolean } };

/** Whether `value` has the shape of a protocol message (its fields are checked where they are read). */
export function isMessage(value: unknown): value is { parley: 1; type: string; data?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { parley?: unknown }).parley === 1 &&
    typeof (value as { type?: unknown }).type === 'string'
  );
}
