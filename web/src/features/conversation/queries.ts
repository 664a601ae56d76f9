// What the conversation screen reads: the conversation, its messages (newest page first, older
// pages on demand), its SLA, the macros that apply to it, its contact's notes and page visits.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import type { MessagePage } from '../../realtime/cache';
import { announceSeen, applySeen } from '../../realtime/seen';
import { useAgent } from '../auth/session';

const MESSAGE_PAGE = 100;

export function useConversation(uuid: string) {
  return useQuery({
    queryKey: keys.conversations.detail(uuid),
    queryFn: () => unwrap(api.GET('/api/v1/conversations/{cuuid}', { params: { path: { cuuid: uuid } } })),
  });
}

export function useMessages(uuid: string) {
  return useInfiniteQuery({
    queryKey: keys.conversations.messages(uuid),
    initialPageParam: 1,
    queryFn: ({ pageParam }): Promise<MessagePage> =>
      unwrap(
        api.GET('/api/v1/conversations/{cuuid}/messages', {
          params: { path: { cuuid: uuid }, query: { page: pageParam, page_size: MESSAGE_PAGE } },
        }),
      ),
    getNextPageParam: (last) => (last.page < last.total_pages ? last.page + 1 : undefined),
  });
}

export function useSla(uuid: string, applied: boolean) {
  return useQuery({
    queryKey: keys.conversations.sla(uuid),
    queryFn: () => unwrap(api.GET('/api/v1/conversations/{cuuid}/sla', { params: { path: { cuuid: uuid } } })),
    enabled: applied,
  });
}

export function useMacros(uuid: string) {
  return useQuery({
    queryKey: keys.macros(uuid),
    queryFn: () => unwrap(api.GET('/api/v1/macros', { params: { query: { conversation_uuid: uuid } } })),
    staleTime: 60_000,
  });
}

/** Whether an AI provider is configured: the composer offers rewriting only then. */
export function useAiStatus() {
  return useQuery({ queryKey: keys.aiStatus, queryFn: () => unwrap(api.GET('/api/v1/ai/status')), staleTime: 5 * 60_000 });
}

export function useAiPrompts() {
  return useQuery({ queryKey: keys.aiPrompts, queryFn: () => unwrap(api.GET('/api/v1/ai/prompts')), staleTime: 5 * 60_000 });
}

export function useContactNotes(id: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.contacts.notes(id),
    queryFn: () => unwrap(api.GET('/api/v1/contacts/{id}/notes', { params: { path: { id } } })),
    enabled,
  });
}

export function usePageVisits(id: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.contacts.pageVisits(id),
    queryFn: () => unwrap(api.GET('/api/v1/contacts/{id}/page-visits', { params: { path: { id } } })),
    enabled,
  });
}

export function useAddNote(contactId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => unwrap(api.POST('/api/v1/contacts/{id}/notes', { params: { path: { id: contactId } }, body: { note } })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.contacts.notes(contactId) }),
  });
}

export function useBlockContact(contactId: number, conversationUuid: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      unwrap(api.PUT('/api/v1/contacts/{id}/block', { params: { path: { id: contactId } }, body: { enabled } })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.conversations.detail(conversationUuid), exact: true }),
  });
}

/**
 * The contact's "always load remote images" choice (kept on the contact, so it holds for every
 * agent and device); every open conversation re-reads its contact.
 */
export function useContactRemoteImages(contactId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (load: boolean) =>
      unwrap(api.PUT('/api/v1/contacts/{id}', { params: { path: { id: contactId } }, body: { load_remote_images: load } })),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: keys.contacts.detail(contactId) }),
        client.invalidateQueries({
          predicate: ({ queryKey }) => queryKey.length === 3 && queryKey[0] === 'conversations' && queryKey[1] === 'detail',
        }),
      ]),
  });
}

/** Marks the conversation read for this agent (its unread count in the lists drops to 0). */
export function useMarkSeen() {
  const client = useQueryClient();
  const agent = useAgent();
  return useMutation({
    mutationFn: (uuid: string) => unwrap(api.PUT('/api/v1/conversations/{cuuid}/last-seen', { params: { path: { cuuid: uuid } } })),
    onSuccess: (_, uuid) => {
      announceSeen(agent.id, uuid);
      return applySeen(client, uuid);
    },
  });
}
