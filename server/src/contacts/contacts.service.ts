// The rules of contacts and their notes.
import type { Static } from 'typebox';
import type { Principal } from '../auth/credential-cache.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { requirePermission } from '../auth/permissions.ts';
import { ConflictError, DataError, InputError, NotFoundError, PermissionError } from '../errors.ts';
import { recordEvent } from '../events/events.service.ts';
import type { PageRequest } from '../http/schemas.ts';
import { hasContent, prepareContent } from '../messages/messages.content.ts';
import * as q from './contacts.queries.ts';
import {
  type ContactListQuery,
  type CreateContactBody,
  NOTE_MAX_LENGTH,
  type NoteBody,
  type UpdateContactBody,
} from './contacts.schema.ts';

export type ContactRecord = q.ContactRecord;

// The lookups other domains use (conversations, macros, the channels).
export {
  contactReadability,
  findContactFields,
  findLiveContact,
  findLiveContactByEmail,
  type ReadableContacts,
} from './contacts.queries.ts';
export type CreateContactInput = Static<typeof CreateContactBody>;
export type UpdateContactInput = Static<typeof UpdateContactBody>;

const normaliseEmail = (email: string | null | undefined) => (email == null ? email : email.trim().toLowerCase());
const normaliseText = (value: string | null | undefined) => (value == null ? value : value.trim() || null);
const normaliseCountry = (value: string | null | undefined) => (value == null ? value : value.toUpperCase());

/** The columns an input sets; undefined means "keep". */
function columnsOf(input: UpdateContactInput) {
  const email = normaliseEmail(input.email);
  const externalUserId = input.external_user_id == null ? input.external_user_id : input.external_user_id.trim();
  return {
    email,
    externalUserId,
    values: {
      ...(email !== undefined ? { email } : {}),
      ...(externalUserId !== undefined ? { external_user_id: externalUserId } : {}),
      ...(input.first_name !== undefined ? { first_name: input.first_name.trim() } : {}),
      ...(input.last_name !== undefined ? { last_name: input.last_name.trim() } : {}),
      ...(input.phone_number !== undefined ? { phone_number: normaliseText(input.phone_number) ?? null } : {}),
      ...(input.phone_number_country_code !== undefined
        ? { phone_number_country_code: normaliseCountry(input.phone_number_country_code) ?? null }
        : {}),
      ...(input.custom_attributes !== undefined ? { custom_attributes: JSON.stringify(input.custom_attributes) } : {}),
      ...(input.load_remote_images !== undefined ? { load_remote_images: input.load_remote_images } : {}),
    },
  };
}

/** The columns a new contact starts without (a contact has no password or API key). */
const BLANK_CONTACT_FIELDS = {
  phone_number: null,
  phone_number_country_code: null,
  custom_attributes: JSON.stringify({}),
  password_hash: null,
  avatar_url: null,
  api_key: null,
  api_secret_hash: null,
} as const;

/** Mirrors the partial unique indexes, so a clash gets a message that names the field. */
async function assertIdentityFree(db: DB, email: string | null, externalUserId: string | null, exceptId: number | null): Promise<void> {
  if (externalUserId !== null) {
    if (await q.contactExternalIdTaken(db, externalUserId, exceptId))
      throw new ConflictError('A contact with this external_user_id already exists');
  } else if (email !== null && (await q.contactEmailTaken(db, email, exceptId))) {
    throw new ConflictError(`A contact with email ${email} already exists`);
  }
}

/** The page visits kept per contact (the newest; the widget socket's `page_visit` frames). */
export const PAGE_VISITS_KEPT = 20;

/** How often a contact's `last_active_at` is written at most: it says "active in the last minute". */
export const LAST_ACTIVE_EVERY_MS = 60_000;

/**
 * The contact is active now (a widget request or socket, a page visit): its `last_active_at`
 * is written at most once a minute. `known`, the value the caller has already read, spares the
 * statement when it is recent.
 */
export async function noteContactActive(db: DB, contactId: number, now: Date, known?: Date | null): Promise<void> {
  const staleBefore = new Date(now.getTime() - LAST_ACTIVE_EVERY_MS);
  if (known && known >= staleBefore) return;
  await q.touchLastActive(db, contactId, now, staleBefore);
}

export async function getContact(deps: AppDeps, id: number): Promise<ContactRecord> {
  const contact = await q.findContactRecord(deps.db, id);
  if (!contact) throw new NotFoundError('Contact not found');
  return contact;
}

/** Many contact records at once (webhook payloads); unknown or deleted ids are left out. */
export async function contactRecordsByIds(deps: AppDeps, ids: readonly number[]): Promise<ContactRecord[]> {
  return q.findContactRecords(deps.db, ids);
}

/** The page of contacts `readable` allows (the contact access rule, conversations/contacts.access.ts). */
export async function listContacts(
  deps: AppDeps,
  readable: q.ReadableContacts,
  page: PageRequest,
  filter: Static<typeof ContactListQuery>,
) {
  const search = filter.q?.trim();
  return q.listContactRecords(deps.db, readable, {
    ...(search ? { q: search } : {}),
    orderBy: filter.order_by ?? 'created_at',
    order: filter.order ?? 'desc',
    limit: page.pageSize,
    offset: page.offset,
  });
}

export async function createContact(deps: AppDeps, input: CreateContactInput): Promise<ContactRecord> {
  const { email, externalUserId, values } = columnsOf(input);
  if (!email && !externalUserId) throw InputError.field('email', 'email or external_user_id is required');
  return deps.db.transaction().execute(async (trx) => {
    await assertIdentityFree(trx, email ?? null, externalUserId ?? null, null);
    const now = deps.clock.now();
    const id = await q.insertContact(trx, {
      type: 'contact',
      email: email ?? null,
      external_user_id: externalUserId ?? null,
      first_name: input.first_name.trim(),
      last_name: input.last_name?.trim() ?? '',
      ...BLANK_CONTACT_FIELDS,
      ...values,
      created_at: now,
      updated_at: now,
    });
    const contact = await q.findContactRecord(trx, id);
    if (!contact) throw new Error(`contact ${id} vanished inside its own transaction`);
    await recordEvent(trx, 'contact.created', { ...contact, type: 'contact', external_user_id: externalUserId ?? null }, now);
    return contact;
  });
}

/**
 * For a channel (email): the live contact with this email (case-insensitive), or a new one
 * created in the caller's transaction with `contact.created`. Two transactions creating the
 * same address at once end with one contact: the second waits on the unique key, then finds it.
 */
export async function findOrCreateContactByEmail(
  trx: DB,
  input: { email: string; name: string },
  now: Date,
): Promise<{ id: number; enabled: boolean; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  const existing = await q.findLiveContactByEmail(trx, email);
  if (existing) return { ...existing, created: false };
  const words = input.name
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  const firstName = [...(words.length > 1 ? words.slice(0, -1).join(' ') : (words[0] ?? email.split('@')[0] ?? email))]
    .slice(0, 128)
    .join('');
  const lastName = words.length > 1 ? [...(words[words.length - 1] as string)].slice(0, 128).join('') : '';
  const id = await q.insertContactUnlessEmailTaken(trx, {
    type: 'contact',
    email,
    external_user_id: null,
    first_name: firstName,
    last_name: lastName,
    ...BLANK_CONTACT_FIELDS,
    created_at: now,
    updated_at: now,
  });
  if (id === undefined) {
    const raced = await q.findLiveContactByEmail(trx, email);
    if (!raced) throw new Error(`the contact ${email} is neither insertable nor found`);
    return { ...raced, created: false };
  }
  const contact = await q.findContactRecord(trx, id);
  if (!contact) throw new Error(`contact ${id} vanished inside its own transaction`);
  await recordEvent(trx, 'contact.created', { ...contact, type: 'contact', external_user_id: null }, now);
  return { id, enabled: contact.enabled, created: true };
}

/** An identity field's change: the email (needs `contacts:write_identity`) or a first external id (the same). */
export interface IdentityChange {
  field: 'email' | 'external_user_id';
  from: string | null;
  to: string | null;
}

/**
 * Updates a contact in the caller's transaction (its row locked) and answers what of its
 * identity changed. A contact's identity decides where replies go (email) and whose widget
 * session it is (external id), so: changing the email, or giving a contact its first external
 * id, needs `contacts:write_identity` (403, nothing written); a set external id belongs to the
 * widget's identity token (the JWT exchange) and is never changed here (422). Sending back the
 * values the contact has is no change.
 */
export async function updateContactIn(
  trx: DB,
  actor: Principal,
  id: number,
  input: UpdateContactInput,
  now: Date,
): Promise<IdentityChange[]> {
  const { email, externalUserId, values } = columnsOf(input);
  const current = await q.lockContact(trx, id);
  if (!current) throw new NotFoundError('Contact not found');
  const changes: IdentityChange[] = [];
  const currentEmail = current.email === null ? null : current.email.toLowerCase();
  if (email !== undefined && email !== currentEmail) changes.push({ field: 'email', from: current.email, to: email });
  if (externalUserId !== undefined && externalUserId !== current.external_user_id) {
    if (current.external_user_id !== null) {
      throw new DataError(
        "external_user_id: set by the live-chat widget's identity token (the JWT exchange), it cannot be changed through the API once set",
      );
    }
    changes.push({ field: 'external_user_id', from: null, to: externalUserId });
  }
  if (changes.length > 0)
    requirePermission(actor, 'contacts:write_identity', `changing a contact's ${changes.map((c) => c.field).join(' and ')}`);
  const nextEmail = email === undefined ? current.email : email;
  const nextExternal = externalUserId === undefined ? current.external_user_id : externalUserId;
  if (changes.length > 0 && !nextEmail && !nextExternal) throw InputError.field('email', 'a contact needs an email or an external_user_id');
  if (changes.length > 0) await assertIdentityFree(trx, nextEmail, nextExternal, id);
  await q.updateContact(trx, id, { ...values, updated_at: now });
  return changes;
}

/** `enabled` false blocks the contact, true unblocks it (spec: Enabled flags). */
export async function setContactEnabled(deps: AppDeps, id: number, enabled: boolean): Promise<ContactRecord> {
  await deps.db.transaction().execute(async (trx) => {
    if (!(await q.lockContact(trx, id))) throw new NotFoundError('Contact not found');
    const now = deps.clock.now();
    await q.updateContact(trx, id, { enabled, updated_at: now });
    await recordEvent(trx, 'contact.enabled_changed', { contact_id: id, enabled }, now);
  });
  return getContact(deps, id);
}

// Notes

export async function listNotes(deps: AppDeps, contactId: number) {
  if (!(await q.contactExists(deps.db, contactId))) throw new NotFoundError('Contact not found');
  return q.listNotes(deps.db, contactId);
}

/**
 * A note is HTML that the agent web app renders: it is sanitised exactly as message content
 * is (the same allow-list) and stored in that form, so no reader ever meets a script.
 */
function sanitiseNote(raw: string): string {
  const prepared = prepareContent(raw, 'html', 'note');
  const { content } = prepared;
  if (!hasContent(prepared, 0)) throw InputError.field('note', 'must not be empty (once sanitised, nothing was left to show)');
  if ([...content].length > NOTE_MAX_LENGTH) throw InputError.field('note', `must be at most ${NOTE_MAX_LENGTH} characters once sanitised`);
  return content;
}

export async function addNote(deps: AppDeps, author: Principal, contactId: number, body: Static<typeof NoteBody>) {
  const note = sanitiseNote(body.note);
  return deps.db.transaction().execute(async (trx) => {
    if (!(await q.contactExists(trx, contactId))) throw new NotFoundError('Contact not found');
    const now = deps.clock.now();
    const id = await q.insertNote(trx, { contact_id: contactId, user_id: author.userId, note, created_at: now, updated_at: now });
    const created = await q.findNote(trx, contactId, id);
    if (!created) throw new Error(`note ${id} vanished inside its own transaction`);
    return created;
  });
}

/**
 * The author may delete their own note with contact_notes:write; anyone else's
 * note needs contact_notes:delete.
 */
export async function deleteNote(deps: AppDeps, actor: Principal, contactId: number, noteId: number): Promise<void> {
  const mayDeleteAny = actor.permissions.has('contact_notes:delete');
  if (!mayDeleteAny && !actor.permissions.has('contact_notes:write')) {
    throw new PermissionError('Permission denied: requires contact_notes:write (own notes) or contact_notes:delete');
  }
  await deps.db.transaction().execute(async (trx) => {
    if (!(await q.contactExists(trx, contactId))) throw new NotFoundError('Contact not found');
    const note = await q.findNote(trx, contactId, noteId);
    if (!note) throw new NotFoundError('Note not found');
    if (note.user_id !== actor.userId && !mayDeleteAny)
      throw new PermissionError("Permission denied: deleting another agent's note requires contact_notes:delete");
    await q.deleteNote(trx, noteId);
  });
}
