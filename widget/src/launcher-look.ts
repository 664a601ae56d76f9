// The launcher's look, shared by the loader (/widget.js, on the customer's page) and the web
// app's live preview of the widget (web/src/features/admin/inboxes/WidgetPreview.tsx): its
// colour, corner and spacing, its face (the chat icon or the inbox's launcher logo), its badge
// and its name. Both draw it with `drawLauncher` into a shadow root, so the preview shows the
// very button visitors get. Plain DOM, no framework: every byte here is paid by every page view.

/** What `GET /widget/chat/settings/launcher` answers (and the preview's `launcher`). */
export interface LauncherSettings {
  launcher: { spacing: { side: number; bottom: number }; logo_url: string; position: 'left' | 'right' | string; color: string };
  colors: { primary: string };
}

export interface LauncherLook {
  side: 'left' | 'right';
  /** Pixels from the side and from the bottom, 0..200. */
  offset: number;
  bottom: number;
  /** The button's colour (#rgb or #rrggbb). */
  fill: string;
  /** The launcher logo (http or https), or null for the chat icon. */
  logo: string | null;
}

export const CHAT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-5 4V6a2 2 0 0 1 1-2z"/></svg>';
export const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z"/></svg>';
const DEFAULT_COLOR = '#2563eb';
const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

const clamp = (value: unknown) => Math.max(0, Math.min(200, Math.round(Number(value)) || 0));

/** The look of these settings, every value checked (whatever the server or a draft sent). */
export function launcherLook(settings: LauncherSettings): LauncherLook {
  const { spacing, position, color, logo_url: logo } = settings.launcher;
  const primary = HEX.test(settings.colors.primary) ? settings.colors.primary : DEFAULT_COLOR;
  return {
    side: position === 'left' ? 'left' : 'right',
    offset: clamp(spacing?.side),
    bottom: clamp(spacing?.bottom),
    fill: HEX.test(color) ? color : primary,
    logo: typeof logo === 'string' && /^https?:\/\//i.test(logo) ? logo : null,
  };
}

/**
 * The launcher's styles (`.l` the button, `.i` its face, `.b` the badge). `placed` is `fixed` on
 * the customer's page and `absolute` inside the preview's stage.
 */
export function launcherCss(look: LauncherLook, placed: 'fixed' | 'absolute' = 'fixed'): string {
  const { side, offset, bottom, fill } = look;
  return `.l{all:initial;position:${placed};${side}:${offset}px;bottom:${bottom}px;z-index:2147483000;width:56px;height:56px;border-radius:50%;background:${fill};color:#fff;cursor:pointer;display:flex;align-items:center;justify-content:center;box-shadow:0 4px 14px rgba(0,0,0,.25)}
.l:focus-visible{outline:3px solid ${fill};outline-offset:3px}.i{display:flex}.l svg{width:28px;height:28px;fill:currentColor}.l img{width:36px;height:36px;border-radius:50%;object-fit:cover}
.b{position:absolute;top:-4px;${side === 'left' ? 'right' : 'left'}:-4px;min-width:20px;height:20px;padding:0 6px;border-radius:10px;background:#dc2626;color:#fff;font:600 12px/20px system-ui,sans-serif;text-align:center}.b[hidden]{display:none}`;
}

/** The launcher's name: what a click does, and the unread count while closed. */
export function launcherLabel(open: boolean, unread: number): string {
  if (open) return 'Close chat';
  return unread > 0 ? `Open chat, ${unread} unread` : 'Open chat';
}

/** What the button shows: the close icon while open, else the logo or the chat icon. */
export function setLauncherFace(face: HTMLElement, look: LauncherLook, open: boolean): void {
  face.textContent = '';
  if (open) face.innerHTML = CLOSE_ICON;
  else if (look.logo) {
    const img = document.createElement('img');
    img.src = look.logo;
    img.alt = '';
    face.appendChild(img);
  } else face.innerHTML = CHAT_ICON;
}

export interface DrawnLauncher {
  button: HTMLButtonElement;
  face: HTMLSpanElement;
  badge: HTMLSpanElement;
}

/** Adds the launcher (its style, button, face and hidden badge) to `root`. */
export function drawLauncher(root: ShadowRoot, look: LauncherLook, placed: 'fixed' | 'absolute' = 'fixed'): DrawnLauncher {
  const style = document.createElement('style');
  style.textContent = launcherCss(look, placed);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'l';
  const face = document.createElement('span');
  face.className = 'i';
  setLauncherFace(face, look, false);
  button.appendChild(face);
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-label', launcherLabel(false, 0));
  const badge = document.createElement('span');
  badge.className = 'b';
  badge.hidden = true;
  badge.setAttribute('aria-hidden', 'true');
  button.appendChild(badge);
  root.append(style, button);
  return { button, face, badge };
}
