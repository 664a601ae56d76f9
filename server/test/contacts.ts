// Shared by the contacts tests (server/src/contacts/contacts.*.test.ts): the contact and note
// records, their fields, and the requests of a `contacts` suite.
import assert from 'node:assert/strict';
import { createContact, createConversation } from './factories.ts';
import { AGENT_RECORD_FIELDS, type Caller, type fakeClock, type TestApp } from './helpers.ts';

export type Contact = {
  id: number;
  created_at: string;
  updated_at: string;
  first_name: string;
  last_name: string;
  email: string | null;
  type: string;
  enabled: boolean;
  phone_number: string | null;
  phone_number_country_code: string | null;
  roles: string[];
  permissions: string[];
  teams: unknown[];
  api_key: string | null;
  api_key_last_used_at: string | null;
  custom_attributes: Record<string, unknown>;
  [key: string]: unknown;
};
export type Note = {
  id: number;
  created_at: string;
  updated_at: string;
  contact_id: number;
  note: string;
  user_id: number | null;
  first_name: string;
  last_name: string;
  avatar_url: string | null;
};
export type Paged<T> = { results: T[]; total: number; per_page: number; total_pages: number; page: number };

/** The Agent record fields, plus the contact-only `load_remote_images`. */
export const RECORD_FIELDS = [...AGENT_RECORD_FIELDS.filter((field) => field !== 'two_factor_enabled'), 'load_remote_images'].sort();
export const NOTE_FIELDS = ['avatar_url', 'contact_id', 'created_at', 'first_name', 'id', 'last_name', 'note', 'updated_at', 'user_id'];
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

export function assertContactShape(c: Contact): void {
  assert.deepEqual(Object.keys(c).sort(), RECORD_FIELDS);
  assert.ok(Number.isInteger(c.id));
  assert.match(c.created_at, ISO);
  assert.match(c.updated_at, ISO);
  assert.ok(['contact', 'visitor'].includes(c.type));
  assert.equal(typeof c.enabled, 'boolean');
  assert.equal(typeof c.load_remote_images, 'boolean');
  assert.deepEqual(c.roles, []);
  assert.deepEqual(c.permissions, []);
  assert.deepEqual(c.teams, []);
  assert.equal(c.api_key, null);
  assert.equal(c.api_key_last_used_at, null);
  assert.equal(typeof c.custom_attributes, 'object');
  assert.ok(c.custom_attributes !== null && !Array.isArray(c.custom_attributes));
}

/** The requests of a `contacts` suite, against the app `app()` answers; writes advance `clock` a second first. */
export function contactCalls(app: () => TestApp, clock: ReturnType<typeof fakeClock>) {
  const as = (caller: Caller | null | undefined) => (caller !== undefined ? { as: caller } : {});
  const create = (payload: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return app().call({ method: 'POST', url: '/api/v1/contacts', payload: payload as Record<string, unknown>, ...as(caller) });
  };
  const get = (id: number | string, caller?: Caller | null) => app().call({ method: 'GET', url: `/api/v1/contacts/${id}`, ...as(caller) });
  const update = (id: number | string, payload: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return app().call({ method: 'PUT', url: `/api/v1/contacts/${id}`, payload: payload as Record<string, unknown>, ...as(caller) });
  };
  const block = (id: number | string, payload: unknown, caller?: Caller | null) =>
    app().call({ method: 'PUT', url: `/api/v1/contacts/${id}/block`, payload: payload as Record<string, unknown>, ...as(caller) });
  const list = (query: string, caller?: Caller | null) => app().call({ method: 'GET', url: `/api/v1/contacts${query}`, ...as(caller) });
  const notes = (id: number | string, caller?: Caller | null) =>
    app().call({ method: 'GET', url: `/api/v1/contacts/${id}/notes`, ...as(caller) });
  const addNote = (id: number | string, payload: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return app().call({ method: 'POST', url: `/api/v1/contacts/${id}/notes`, payload: payload as Record<string, unknown>, ...as(caller) });
  };
  const deleteNote = (id: number | string, noteId: number | string, caller?: Caller | null) =>
    app().call({ method: 'DELETE', url: `/api/v1/contacts/${id}/notes/${noteId}`, ...as(caller) });
  const newContact = async (extra: Parameters<typeof createContact>[1] = {}) => {
    clock.advance(1000);
    return (await createContact(app(), { first_name: 'New', ...extra })) as Contact;
  };
  /** A contact with an unassigned conversation: the Agent role may read it (`conversations:read_unassigned`). */
  const newReadableContact = async (extra: Parameters<typeof createContact>[1] = {}) => {
    const contact = await newContact(extra);
    await createConversation(app(), { contact_id: contact.id });
    return contact;
  };
  return { create, get, update, block, list, notes, addNote, deleteNote, newContact, newReadableContact };
}
