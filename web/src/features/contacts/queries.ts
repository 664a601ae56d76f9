// Contacts: the paged list, one contact, its notes and its conversations, and the changes an
// agent makes to them. Every change writes the answered record into the cache and refreshes the
// lists it may appear in.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ConversationListItem, type Schemas, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { can, useAgent } from '../auth/session';

export type Contact = Schemas['Contact'];
export type ContactNote = Schemas['ContactNote'];
export const CONTACT_ORDER = ['created_at', 'updated_at', 'first_name', 'email'] as const;
export type ContactOrder = (typeof CONTACT_ORDER)[number];
export interface ContactListParams {
  q: string;
  page: number;
  order_by: ContactOrder;
  order: 'asc' | 'desc';
}

export function useContactList(params: ContactListParams) {
  return useQuery({
    queryKey: keys.contactList(params),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/contacts', {
          params: {
            query: {
              page: params.page,
              page_size: 25,
              order_by: params.order_by,
              order: params.order,
              ...(params.q ? { q: params.q } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useContact(id: number) {
  return useQuery({
    queryKey: keys.contacts.detail(id),
    queryFn: () => unwrap(api.GET('/api/v1/contacts/{id}', { params: { path: { id } } })),
  });
}

export function useContactNotes(id: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.contacts.notes(id),
    queryFn: () => unwrap(api.GET('/api/v1/contacts/{id}/notes', { params: { path: { id } } })),
    enabled,
  });
}

/**
 * The contact's conversations the agent may read, newest activity first. With `read_all` one
 * list; otherwise the agent's own and the unassigned ones (the lists an agent may read by filter).
 */
export function useContactConversations(id: number) {
  const agent = useAgent();
  const readAll = can(agent, 'conversations:read_all');
  return useQuery({
    queryKey: keys.contactConversations(id),
    queryFn: async (): Promise<ConversationListItem[]> => {
      const query = { contact_id: [id], page_size: 50, order_by: 'last_message_at' as const, order: 'desc' as const };
      if (readAll) return (await unwrap(api.GET('/api/v1/conversations/all', { params: { query } }))).results;
      const lists = await Promise.all([
        can(agent, 'conversations:read_assigned') ? unwrap(api.GET('/api/v1/conversations/assigned', { params: { query } })) : null,
        can(agent, 'conversations:read_unassigned') ? unwrap(api.GET('/api/v1/conversations/unassigned', { params: { query } })) : null,
      ]);
      const seen = new Map<string, ConversationListItem>();
      for (const list of lists) for (const row of list?.results ?? []) seen.set(row.uuid, row);
      return [...seen.values()].sort((a, b) => (b.last_message_at ?? b.created_at).localeCompare(a.last_message_at ?? a.created_at));
    },
  });
}

export type ContactInput = {
  first_name: string;
  last_name: string;
  /** Left out to keep the email (changing it needs `contacts:write_identity`). */
  email?: string | null;
  phone_number: string | null;
  phone_number_country_code: string | null;
};

export function useSaveContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ContactInput }) =>
      id === null
        ? unwrap(api.POST('/api/v1/contacts', { body }))
        : unwrap(api.PUT('/api/v1/contacts/{id}', { params: { path: { id } }, body })),
    onSuccess: (contact) => {
      client.setQueryData(keys.contacts.detail(contact.id), contact);
      void client.invalidateQueries({ queryKey: ['contacts', 'list'] });
    },
  });
}

export function useBlockContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      unwrap(api.PUT('/api/v1/contacts/{id}/block', { params: { path: { id } }, body: { enabled } })),
    onSuccess: (contact) => {
      client.setQueryData(keys.contacts.detail(contact.id), contact);
      void client.invalidateQueries({ queryKey: ['contacts', 'list'] });
    },
  });
}

/** Plain text as the HTML a note is stored as: escaped, paragraphs kept, line breaks as <br>. */
export function noteHtml(text: string): string {
  const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .trim()
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export function useAddNote(contactId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      unwrap(api.POST('/api/v1/contacts/{id}/notes', { params: { path: { id: contactId } }, body: { note: noteHtml(text) } })),
    onSuccess: (note) => {
      client.setQueryData<ContactNote[]>(keys.contacts.notes(contactId), (notes) => [
        note,
        ...(notes ?? []).filter((n) => n.id !== note.id),
      ]);
    },
  });
}

export function useDeleteNote(contactId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (noteId: number) =>
      unwrap(api.DELETE('/api/v1/contacts/{id}/notes/{note_id}', { params: { path: { id: contactId, note_id: noteId } } })),
    onSuccess: (_done, noteId) => {
      client.setQueryData<ContactNote[]>(keys.contacts.notes(contactId), (notes) => (notes ?? []).filter((n) => n.id !== noteId));
    },
  });
}
