// Reply drafts, one per agent and conversation, kept by the server (docs/api.md, "Working
// together") so that a half-written reply follows the agent to another tab or device, and
// colleagues see that someone is writing. The composer saves about a second after the last
// change (debounced), at once when it goes (another conversation, a closed tab), and the server
// deletes the draft when the message is sent.
//
// sessionStorage keeps the tab's own copy: the composer opens with it at once, without waiting
// for the network, and a save that failed (offline) is not lost. A copy not saved yet
// (`pending`) wins over the server's and is saved again; otherwise the server's draft wins (the
// agent may have written on another device since, or sent it there).
import { useEffect, useRef, useState } from 'react';
import { api, type Message, unwrap } from '../../api/client';
import { t } from '../../i18n/t';

export type Mode = 'reply' | 'note';
/** What the composer shows of an attachment (a draft restored elsewhere knows only its uuid and, from this tab, its name). */
export type Attachment = Pick<Message['attachments'][number], 'uuid' | 'name'>;
export interface Draft {
  html: string;
  mode: Mode;
  files: Attachment[];
}
interface LocalCopy extends Draft {
  pending: boolean;
}

/** How long after the last change a draft is saved. */
export const SAVE_DELAY_MS = 1000;

const EMPTY: Draft = { html: '', mode: 'reply', files: [] };
const storageKey = (uuid: string) => `parley.draft.${uuid}`;
const isEmpty = (draft: Draft) => draft.html === '' && draft.files.length === 0;
const same = (a: Draft, b: Draft) => JSON.stringify([a.html, a.mode, a.files]) === JSON.stringify([b.html, b.mode, b.files]);

const isAttachment = (value: unknown): value is Attachment =>
  typeof value === 'object' && value !== null && 'uuid' in value && typeof value.uuid === 'string' && 'name' in value;

function readLocal(uuid: string): LocalCopy | null {
  try {
    const raw = sessionStorage.getItem(storageKey(uuid));
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const html = 'html' in value && typeof value.html === 'string' ? value.html : '';
    const mode: Mode = 'mode' in value && value.mode === 'note' ? 'note' : 'reply';
    const files = 'files' in value && Array.isArray(value.files) ? value.files.filter(isAttachment) : [];
    return { html, mode, files, pending: 'pending' in value && value.pending === true };
  } catch {
    return null;
  }
}

function writeLocal(uuid: string, draft: Draft, pending: boolean): void {
  try {
    if (isEmpty(draft) && draft.mode === 'reply' && !pending) sessionStorage.removeItem(storageKey(uuid));
    else sessionStorage.setItem(storageKey(uuid), JSON.stringify({ ...draft, pending }));
  } catch {
    // Storage full or refused (private mode): the server's copy is the only one.
  }
}

function clearLocal(uuid: string): void {
  try {
    sessionStorage.removeItem(storageKey(uuid));
  } catch {
    // As above.
  }
}

const path = (uuid: string) => ({ params: { path: { cuuid: uuid } } });

/** Browsers refuse a keepalive request whose body passes 64 KiB (all such requests of the page together). */
const KEEPALIVE_MAX_BYTES = 60 * 1024;

/**
 * Saves the draft (an empty one is deleted by the server). `keepalive`: the page may be going
 * away. A draft too large for keepalive goes as a plain request: it completes when the agent
 * only moves to another conversation, and may not when the tab closes (this tab's copy stays).
 */
async function putDraft(uuid: string, draft: Draft, keepalive = false): Promise<void> {
  const body = { content: draft.html, private: draft.mode === 'note', attachments: draft.files.map((f) => f.uuid) };
  const small = new TextEncoder().encode(JSON.stringify(body)).length <= KEEPALIVE_MAX_BYTES;
  await unwrap(api.PUT('/api/v1/conversations/{cuuid}/draft', { ...path(uuid), body, keepalive: keepalive && small }));
}

/**
 * The composer's side of drafts: `initial` to open with (this tab's copy), `change` on every
 * edit, `sent` once the message went. `apply` receives the server's draft when it differs from
 * what the composer opened with and the agent has not typed since.
 */
export function useDraftSync(uuid: string, apply: (draft: Draft) => void) {
  const [initial] = useState(() => readLocal(uuid));
  const state = useRef({
    latest: null as Draft | null,
    saved: initial && !initial.pending ? (initial as Draft) : EMPTY,
    touched: false,
    /** The composer's first report is what it opened with, as its editor writes it: no change. */
    opened: false,
    timer: 0,
    saving: null as Promise<void> | null,
    /** Saves started, and whether one may reach the server after the message being sent. */
    puts: 0,
    putsAtSend: 0,
    savingAtSend: false,
  });
  const applyRef = useRef(apply);
  applyRef.current = apply;

  const flush = useRef((keepalive = false) => {
    const s = state.current;
    window.clearTimeout(s.timer);
    const draft = s.latest;
    if (!draft) return;
    s.latest = null;
    s.puts += 1;
    const saving = putDraft(uuid, draft, keepalive).then(
      () => {
        s.saved = draft;
        // Saved, unless the agent changed it again meanwhile (that change is pending).
        if (s.latest === null) writeLocal(uuid, draft, false);
      },
      () => {
        // Offline or refused: the tab's copy stays pending and is saved on the next change or opening.
      },
    );
    s.saving = saving;
    void saving.finally(() => {
      if (s.saving === saving) s.saving = null;
    });
  });

  // On opening: the server's draft, unless this tab holds one it could not save (saved now).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per conversation opened; `initial` is that opening's tab copy
  useEffect(() => {
    let live = true;
    const s = state.current;
    void unwrap(api.GET('/api/v1/conversations/{cuuid}/draft', path(uuid))).then(
      (server) => {
        if (!live || s.touched) return;
        const local = readLocal(uuid);
        if (local?.pending) {
          s.latest = local;
          flush.current();
          return;
        }
        const names = new Map((local?.files ?? []).map((f) => [f.uuid, f.name]));
        const restored: Draft = server
          ? {
              html: server.content,
              mode: server.private ? 'note' : 'reply',
              files: server.attachments.map((u) => ({ uuid: u, name: names.get(u) ?? t('drafts.attachment') })),
            }
          : EMPTY;
        s.saved = restored;
        writeLocal(uuid, restored, false);
        if (!same(restored, initial ?? EMPTY)) applyRef.current(restored);
      },
      () => {
        // Offline: the tab's copy is what there is.
      },
    );
    const leave = () => flush.current(true);
    window.addEventListener('pagehide', leave);
    return () => {
      live = false;
      window.removeEventListener('pagehide', leave);
      // Leaving the conversation: what is not saved yet goes now.
      flush.current(true);
    };
  }, [uuid]);

  return useRef({
    initial: initial as Draft | null,
    /** Every change of the composer: kept in the tab at once, saved on the server a moment later. */
    change(draft: Draft) {
      const s = state.current;
      if (!s.opened) {
        s.opened = true;
        if (!initial?.pending) s.saved = draft;
        return;
      }
      if (same(draft, s.latest ?? s.saved)) return;
      s.touched = true;
      s.latest = draft;
      writeLocal(uuid, draft, true);
      window.clearTimeout(s.timer);
      s.timer = window.setTimeout(() => flush.current(), SAVE_DELAY_MS);
    },
    /** Sending starts: no save waits for its delay (the server deletes the draft with the message). */
    sending() {
      const s = state.current;
      window.clearTimeout(s.timer);
      s.latest = null;
      s.putsAtSend = s.puts;
      s.savingAtSend = s.saving !== null;
    },
    /** The message went and the server deleted the draft; a save that may have landed after it is undone. */
    sent() {
      const s = state.current;
      window.clearTimeout(s.timer);
      s.latest = null;
      s.saved = EMPTY;
      s.touched = true;
      clearLocal(uuid);
      if (!s.savingAtSend && s.puts === s.putsAtSend) return;
      void Promise.resolve(s.saving)
        .then(() => unwrap(api.DELETE('/api/v1/conversations/{cuuid}/draft', path(uuid))))
        .catch(() => {});
    },
  }).current;
}
