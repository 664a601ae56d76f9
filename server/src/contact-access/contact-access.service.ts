// Contacts as an agent may reach them: every read and change of one contact first passes the
// contact access rule (conversations/contacts.access.ts: unknown → 404, not readable → 403), and an identity
// change is recorded on each of the contact's conversations. The records themselves are the
// contacts domain's (contacts/contacts.service.ts).
import type { Static } from 'typebox';
import type { Principal } from '../auth/credential-cache.ts';
import { requirePermission } from '../auth/permissions.ts';
import * as contacts from '../contacts/contacts.service.ts';
import { actorOf, logActivity } from '../conversations/conversations.activity.ts';
import type { AppDeps } from '../deps.ts';
import { recordEvent } from '../events/events.service.ts';
import type { PageRequest } from '../http/schemas.ts';
import type { ContactListQuery, NoteBody } from '../contacts/contacts.schema.ts';
import { lockContactConversations } from './contact-access.queries.ts';
import { assertContactReadable, contactFilter } from '../conversations/contacts.access.ts';

export async function getContact(deps: AppDeps, principal: Principal, id: number) {
  await assertContactReadable(deps.db, principal, id);
  return contacts.getContact(deps, id);
}

/** A new contact; giving it an `external_user_id` claims a widget identity, and needs `contacts:write_identity` like a change does. */
export async function createContact(deps: AppDeps, principal: Principal, input: contacts.CreateContactInput) {
  if (input.external_user_id != null) requirePermission(principal, 'contacts:write_identity', "setting a contact's external_user_id");
  return contacts.createContact(deps, input);
}

export async function listContacts(deps: AppDeps, principal: Principal, page: PageRequest, query: Static<typeof ContactListQuery>) {
  const readable = contactFilter(principal);
  return readable ? contacts.listContacts(deps, readable, page, query) : { rows: [], total: 0 };
}

function describe(change: contacts.IdentityChange): string {
  const name = change.field === 'email' ? 'email' : 'external user id';
  if (change.to === null) return `removed the contact's ${name} ${change.from ?? ''}`.trim();
  if (change.from === null) return `set the contact's ${name} to ${change.to}`;
  return `changed the contact's ${name} from ${change.from} to ${change.to}`;
}

/**
 * A partial update (contacts/contacts.service.ts, updateContactIn: the identity rules). An
 * identity change writes an activity message on each of the contact's conversations and the
 * event `contact.identity_changed`, in the update's transaction.
 */
export async function updateContact(
  deps: AppDeps,
  principal: Principal,
  id: number,
  input: contacts.UpdateContactInput,
): Promise<contacts.ContactRecord> {
  await deps.db.transaction().execute(async (trx) => {
    await assertContactReadable(trx, principal, id);
    const now = deps.clock.now();
    // The contact's conversations are locked before the contact's row, in the order every writer
    // takes them (email ingest locks a conversation, then writes its contact's row): taken the
    // other way round, the two would deadlock.
    const conversations = await lockContactConversations(trx, id);
    const changes = await contacts.updateContactIn(trx, principal, id, input, now);
    if (changes.length === 0) return;
    const actor = actorOf(principal);
    const text = `${actor.name} ${changes.map(describe).join(' and ')}`;
    for (const conversation of conversations) {
      await logActivity(trx, conversation, actor, text, { type: 'contact_identity', contact_id: id, changes }, now);
    }
    await recordEvent(
      trx,
      'contact.identity_changed',
      { contact_id: id, actor_id: actor.userId, changes, conversation_ids: conversations.map((c) => c.id) },
      now,
    );
  });
  return contacts.getContact(deps, id);
}

export async function setContactEnabled(deps: AppDeps, principal: Principal, id: number, enabled: boolean) {
  await assertContactReadable(deps.db, principal, id);
  return contacts.setContactEnabled(deps, id, enabled);
}

export async function listNotes(deps: AppDeps, principal: Principal, id: number) {
  await assertContactReadable(deps.db, principal, id);
  return contacts.listNotes(deps, id);
}

export async function addNote(deps: AppDeps, principal: Principal, id: number, body: Static<typeof NoteBody>) {
  await assertContactReadable(deps.db, principal, id);
  return contacts.addNote(deps, principal, id, body);
}

export async function deleteNote(deps: AppDeps, principal: Principal, id: number, noteId: number) {
  await assertContactReadable(deps.db, principal, id);
  return contacts.deleteNote(deps, principal, id, noteId);
}
