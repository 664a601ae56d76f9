import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok, Paged, pagedResult, pageRequest, TrueEnvelope, PutBody } from '../http/schemas.ts';
import {
  BlockBody,
  ContactListQuery,
  ContactNote,
  ContactRecord,
  CreateContactBody,
  NoteBody,
  NoteParams,
  UpdateContactBody,
} from '../contacts/contacts.schema.ts';
import * as contacts from './contact-access.service.ts';

export function contactsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Contacts'];
    app.get(
      '/contacts',
      {
        config: { permission: 'contacts:read_all' },
        schema: {
          tags,
          summary: 'List contacts and visitors (paged)',
          description:
            '`q` matches the name, email or phone number (case-insensitive substring). Ordered by `order_by` (created_at default, updated_at, first_name (case-insensitive), email) and `order` (desc default), id as tiebreaker.',
          querystring: ContactListQuery,
          response: { 200: Envelope(Paged(ContactRecord)), ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        const page = pageRequest(request.query);
        const { rows, total } = await contacts.listContacts(deps, principalOf(request), page, request.query);
        return ok(pagedResult(rows, total, page));
      },
    );
    app.post(
      '/contacts',
      {
        config: { permission: 'contacts:write' },
        schema: {
          tags,
          summary: 'Create a contact',
          description: 'Records a `contact.created` event. Giving it an `external_user_id` needs `contacts:write_identity` too (403).',
          body: CreateContactBody,
          response: { 200: Envelope(ContactRecord), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => ok(await contacts.createContact(deps, principalOf(request), request.body)),
    );
    app.get(
      '/contacts/:id',
      {
        config: { permission: 'contacts:read', serviceRule: 'contact' },
        schema: { tags, summary: 'Get a contact', params: IdParams, response: { 200: Envelope(ContactRecord), ...errors(401, 403, 404) } },
      },
      async (request) => ok(await contacts.getContact(deps, principalOf(request), request.params.id)),
    );
    app.put(
      '/contacts/:id',
      {
        config: { permission: 'contacts:write', serviceRule: 'contact_update' },
        schema: {
          tags,
          summary: 'Update a contact (partial: omitted fields keep their value)',
          params: IdParams,
          body: PutBody(UpdateContactBody, ContactRecord),
          response: { 200: Envelope(ContactRecord), ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => ok(await contacts.updateContact(deps, principalOf(request), request.params.id, request.body)),
    );
    app.put(
      '/contacts/:id/block',
      {
        config: { permission: 'contacts:block', serviceRule: 'contact' },
        schema: {
          tags,
          summary: 'Block or unblock a contact',
          description: '`enabled` false blocks the contact, true unblocks it. Returns the contact.',
          params: IdParams,
          body: BlockBody,
          response: { 200: Envelope(ContactRecord), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await contacts.setContactEnabled(deps, principalOf(request), request.params.id, request.body.enabled)),
    );
    app.get(
      '/contacts/:id/notes',
      {
        config: { permission: 'contact_notes:read', serviceRule: 'contact' },
        schema: {
          tags,
          summary: "A contact's notes, newest first",
          description: 'At most the newest 1000 notes.',
          params: IdParams,
          response: { 200: Envelope(Type.Array(ContactNote)), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await contacts.listNotes(deps, principalOf(request), request.params.id)),
    );
    app.post(
      '/contacts/:id/notes',
      {
        config: { permission: 'contact_notes:write', serviceRule: 'contact' },
        schema: {
          tags,
          summary: 'Add a note to a contact',
          params: IdParams,
          body: NoteBody,
          response: { 200: Envelope(ContactNote), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await contacts.addNote(deps, principalOf(request), request.params.id, request.body)),
    );
    app.delete(
      '/contacts/:id/notes/:note_id',
      {
        config: { serviceRule: 'contact_note_author' },
        schema: {
          tags,
          summary: 'Delete a note',
          description:
            "The author may delete their own note with `contact_notes:write`; deleting another agent's note requires `contact_notes:delete`.",
          params: NoteParams,
          response: { 200: TrueEnvelope, ...errors(401, 403, 404) },
        },
      },
      async (request) => {
        await contacts.deleteNote(deps, principalOf(request), request.params.id, request.params.note_id);
        return ok(true as const);
      },
    );
  };
}
