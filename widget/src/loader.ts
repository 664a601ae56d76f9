// The loader, /widget.js: what a customer's page includes. It draws the launcher (in a closed
// Shadow DOM, so the page's styles and ours never meet), opens the chat frame (an iframe served
// by Parley) when needed, relays the page's visits and the host API to it with postMessage, and
// hears back the unread count. Sessions live in the frame's own storage; only when the browser
// refuses the frame any (third-party storage blocked) does the loader keep a visitor's session
// (never a verified contact's), in the host page's storage, and hand it back to Parley's frame alone.
// Kept free of any framework: every byte here is paid by every page view of the host site.

import { drawLauncher, type LauncherLook, type LauncherSettings, launcherLabel, launcherLook, setLauncherFace } from './launcher-look.ts';
import { BADGE_MAX, FRAME_PATH, type FromFrame, isMessage, MAX_STORED, STORED_NAMES, type ToFrame } from './protocol.ts';

interface Config {
  /** The live-chat inbox uuid. */
  inbox: string;
  /** Where Parley runs; default: where this script came from. */
  baseUrl?: string;
  /** A JWT signed by the site's server for a signed-in customer (as setUser). */
  user?: string;
  /** No launcher button: the page opens the chat with show() / toggle(). */
  hideLauncher?: boolean;
}

type UnreadListener = (count: number) => void;

interface ParleyApi {
  init(config: Config): void;
  setUser(jwt: string): void;
  show(): void;
  hide(): void;
  toggle(): void;
  logout(): void;
  onUnreadCountChange(listener: UnreadListener): () => void;
}

type Queued = [keyof ParleyApi, ArrayLike<unknown>];
type Stub = { q?: Queued[] } | undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const win = window as unknown as Window & { Parley?: ParleyApi | Stub };
const script = document.currentScript as HTMLScriptElement | null;
// Captured now: document.currentScript is only set while this file first runs.
const scriptBase = script?.dataset['baseUrl'] || (script?.src ?? '').replace(/\/widget\.js([?#].*)?$/, '');

let started = false;
let inbox = '';
let base = '';
let frameOrigin = '';
let hideLauncher = false;
let root: ShadowRoot | null = null;
let launcher: HTMLButtonElement | null = null;
let face: HTMLSpanElement | null = null;
let badge: HTMLSpanElement | null = null;
let panel: HTMLDivElement | null = null;
let frame: HTMLIFrameElement | null = null;
let look: LauncherLook | null = null;
let ready = false;
let open = false;
let unread = 0;
let page = '';
const outbox: ToFrame[] = [];
const listeners: UnreadListener[] = [];
const early: Array<() => void> = [];

/** Whether this browser has talked with the chat before (no token: a hint to load the frame early for unread counts). */
const flagKey = () => `parley:${inbox}:active`;
function storage(): Storage | null {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}

const keptKey = (name: string) => `parley:${inbox}:frame:${name}`;
/** The session values kept for the frame. */
function kept(): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of STORED_NAMES) {
    const value = storage()?.getItem(keptKey(name));
    if (value) values[name] = value;
  }
  return values;
}

function post(message: ToFrame): void {
  // Never '*': a setUser token must reach only Parley's frame.
  if (ready && frame?.contentWindow) frame.contentWindow.postMessage(message, frameOrigin);
  else outbox.push(message);
}

function ensureFrame(): void {
  if (frame || !panel) return;
  frame = document.createElement('iframe');
  frame.title = 'Chat';
  frame.src = `${base}${FRAME_PATH}?inbox_id=${encodeURIComponent(inbox)}&origin=${encodeURIComponent(location.origin)}`;
  panel.appendChild(frame);
}

function setUnread(count: number): void {
  if (count === unread) return;
  unread = count;
  if (badge) {
    badge.textContent = count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
    badge.hidden = count === 0 || open;
    launcher?.setAttribute('aria-label', launcherLabel(open, unread));
  }
  for (const listener of listeners) listener(count);
}

function setOpen(next: boolean): void {
  if (!panel || next === open) return;
  if (next) ensureFrame();
  open = next;
  panel.className = next ? 'p o' : 'p';
  if (launcher) {
    launcher.className = next ? 'l o' : 'l';
    if (face && look) setLauncherFace(face, look, next);
    launcher.setAttribute('aria-expanded', String(next));
    launcher.setAttribute('aria-label', launcherLabel(next, unread));
  }
  if (badge) badge.hidden = next || unread === 0;
  post({ parley: 1, type: 'visibility', data: { open: next } });
  if (next) frame?.focus();
  else if (root?.activeElement === frame) launcher?.focus();
}

function reportPage(): void {
  const url = location.href;
  if (url === page) return;
  page = url;
  post({ parley: 1, type: 'page', data: { url, title: document.title.slice(0, 256) } });
}

function trackPages(): void {
  // A single-page app changes pages through history; its title is set a moment later.
  const later = () => setTimeout(reportPage, 300);
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      const result = original.apply(this, args);
      later();
      return result;
    };
  }
  addEventListener('popstate', later);
  addEventListener('hashchange', later);
}

function onMessage(event: MessageEvent): void {
  if (!frame || event.source !== frame.contentWindow || event.origin !== frameOrigin) return;
  const message = event.data as FromFrame;
  if (!isMessage(message)) return;
  if (message.type === 'ready') {
    ready = true;
    if (message.data?.hostStorage) post({ parley: 1, type: 'restore', data: { values: kept() } });
    for (const queued of outbox.splice(0)) post(queued);
    post({ parley: 1, type: 'visibility', data: { open } });
  } else if (message.type === 'unread') setUnread(Math.max(0, Math.floor(Number(message.data.count)) || 0));
  else if (message.type === 'close') setOpen(false);
  else if (message.type === 'store') {
    const { name, value } = message.data ?? {};
    if (!(STORED_NAMES as readonly unknown[]).includes(name)) return;
    if (typeof value === 'string' && value.length <= MAX_STORED) storage()?.setItem(keptKey(name), value);
    else if (value === null) storage()?.removeItem(keptKey(name));
  } else if (message.type === 'session') {
    if (message.data.active) storage()?.setItem(flagKey(), '1');
    else storage()?.removeItem(flagKey());
  }
}

function draw(settings: LauncherSettings): void {
  look = launcherLook(settings);
  const { side, offset, bottom } = look;
  const host = document.createElement('parley-widget');
  // Inline and !important: the host page's own rules, however broad, cannot restyle or hide it.
  host.setAttribute('style', 'all:initial!important;display:block!important;position:static!important');
  // Open, not closed: the host page runs its own scripts anyway, and tests must reach in.
  root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = `:host{all:initial}*{box-sizing:border-box}
.p{display:none;position:fixed;${side}:${offset}px;bottom:${bottom + 68}px;z-index:2147483000;width:380px;height:min(640px,calc(100vh - ${bottom + 88}px));border-radius:14px;overflow:hidden;background:#fff;box-shadow:0 8px 30px rgba(0,0,0,.25)}
.p.o{display:block}.p iframe{display:block;border:0;width:100%;height:100%}
@media (max-width:480px){.p{inset:0;width:100%;height:100%;border-radius:0}.l.o{display:none}}`;
  root.appendChild(style);
  if (!hideLauncher) {
    // The button itself is drawn by the code the web app's preview draws it with (launcher-look.ts).
    ({ button: launcher, face, badge } = drawLauncher(root, look));
    launcher.onclick = () => setOpen(!open);
  }
  panel = document.createElement('div');
  panel.className = 'p';
  root.appendChild(panel);
  document.body.appendChild(host);
  addEventListener('message', onMessage);
  // A returning visitor's frame loads now (hidden), so unread replies show on the launcher.
  if (storage()?.getItem(flagKey())) ensureFrame();
  for (const run of early.splice(0)) run();
}

/** Runs now when the launcher is drawn, else once it is. */
function whenDrawn(run: () => void): void {
  if (panel) run();
  else early.push(run);
}

const api: ParleyApi = {
  init(config) {
    if (started) {
      console.warn('Parley: init() was already called; ignored');
      return;
    }
    const given = config && typeof config.inbox === 'string' ? config.inbox.trim() : '';
    if (!UUID.test(given)) {
      console.warn('Parley: init() needs { inbox: "<inbox uuid>" }');
      return;
    }
    started = true;
    inbox = given.toLowerCase();
    base = (config.baseUrl || scriptBase).replace(/\/+$/, '');
    try {
      frameOrigin = new URL(base).origin;
    } catch {
      console.warn('Parley: no base URL (set data-base-url or baseUrl)');
      return;
    }
    hideLauncher = config.hideLauncher === true;
    if (config.user) api.setUser(config.user);
    const go = () =>
      fetch(`${base}/api/v1/widget/chat/settings/launcher?inbox_id=${encodeURIComponent(inbox)}`)
        .then((res) => res.json())
        .then((body: { status?: string; data?: LauncherSettings; message?: string }) => {
          if (body.status !== 'success' || !body.data) throw new Error(body.message || 'launcher settings refused');
          draw(body.data);
          trackPages();
          reportPage();
        })
        // One line, e.g. "this site (https://x) is not in the inbox's allowed sites": nothing is drawn.
        .catch((error: unknown) => console.warn(`Parley: ${error instanceof Error ? error.message : error}; the chat stays hidden`));
    if (document.body) go();
    else addEventListener('DOMContentLoaded', go);
  },
  setUser(jwt) {
    if (typeof jwt !== 'string' || jwt === '') return;
    whenDrawn(() => {
      ensureFrame();
      post({ parley: 1, type: 'set_user', data: { jwt } });
    });
  },
  show: () => whenDrawn(() => setOpen(true)),
  hide: () => whenDrawn(() => setOpen(false)),
  toggle: () => whenDrawn(() => setOpen(!open)),
  logout() {
    whenDrawn(() => {
      // The session lives in the frame: it must be there to forget it.
      if (storage()?.getItem(flagKey()) || frame) {
        ensureFrame();
        post({ parley: 1, type: 'logout' });
      }
      storage()?.removeItem(flagKey());
      for (const name of STORED_NAMES) storage()?.removeItem(keptKey(name));
      setOpen(false);
      setUnread(0);
    });
  },
  onUnreadCountChange(listener) {
    if (typeof listener !== 'function') return () => {};
    listeners.push(listener);
    listener(unread);
    return () => {
      const at = listeners.indexOf(listener);
      if (at >= 0) listeners.splice(at, 1);
    };
  },
};

const stub = win.Parley as Stub;
const queued = stub && Array.isArray(stub.q) ? stub.q : [];
win.Parley = api;
const inboxAttribute = script?.dataset['inbox'];
if (inboxAttribute) api.init({ inbox: inboxAttribute });
for (const [name, args] of queued) {
  const method = api[name] as ((...values: unknown[]) => void) | undefined;
  if (typeof method === 'function') method(...Array.from(args));
}
