// The messages the loader (on the customer's page) and the chat frame (on Parley's origin)
// exchange with postMessage. Each side checks the sender window and its origin before reading
// one; tokens never cross: the loader only passes the site's JWT down, once, to the frame's origin.

/** The frame's page, relative to Parley's base URL. */
export const FRAME_PATH = '/widget/frame/';
/** The launcher badge shows "9+" above this. */
export const BADGE_MAX = 9;

/** Loader → frame. */
export type ToFrame =
  | { parley: 1; type: 'page'; data: { url: string; title: string } }
  | { parley: 1; type: 'visibility'; data: { open: boolean } }
  | { parley: 1; type: 'set_user'; data: { jwt: string } }
  | { parley: 1; type: 'logout'; data?: undefined };

/** Frame → loader. */
export type FromFrame =
  | { parley: 1; type: 'ready'; data?: undefined }
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
