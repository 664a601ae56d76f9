// Reply drafts, one per conversation, in sessionStorage (this tab, until it closes): switching
// to another conversation and back, or reloading, finds a half-written reply where it was left,
// and never in another conversation's composer.
import type { Message } from '../../api/client';

export type Mode = 'reply' | 'note';
export type Attachment = Message['attachments'][number];
export interface Draft {
  html: string;
  mode: Mode;
  files: Attachment[];
}

const storageKey = (uuid: string) => `parley.draft.${uuid}`;

const isAttachment = (value: unknown): value is Attachment =>
  typeof value === 'object' && value !== null && 'uuid' in value && typeof value.uuid === 'string' && 'name' in value;

/** The saved draft of a conversation, or null (none, or unreadable). */
export function readDraft(uuid: string): Draft | null {
  try {
    const raw = sessionStorage.getItem(storageKey(uuid));
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const html = 'html' in value && typeof value.html === 'string' ? value.html : '';
    const mode: Mode = 'mode' in value && value.mode === 'note' ? 'note' : 'reply';
    const files = 'files' in value && Array.isArray(value.files) ? value.files.filter(isAttachment) : [];
    return { html, mode, files };
  } catch {
    return null;
  }
}

/** Saves a conversation's draft; an empty one is removed. */
export function saveDraft(uuid: string, draft: Draft): void {
  try {
    if (draft.html === '' && draft.files.length === 0 && draft.mode === 'reply') sessionStorage.removeItem(storageKey(uuid));
    else sessionStorage.setItem(storageKey(uuid), JSON.stringify(draft));
  } catch {
    // Storage full or refused (private mode): the draft lives as long as the composer, as before.
  }
}

export function clearDraft(uuid: string): void {
  try {
    sessionStorage.removeItem(storageKey(uuid));
  } catch {
    // As above.
  }
}
