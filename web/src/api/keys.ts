// Query keys: one tree per API resource, so an invalidation by prefix reaches everything below
// it (`keys.conversations.all` refreshes every list and every open conversation). Socket events
// (realtime/cache.ts) update these same entries; there is no second store.
import type { ConversationFilters, ListView } from '../features/inbox/views';

export const keys = {
  me: ['me'] as const,
  setup: ['setup'] as const,
  sso: ['oidc', 'enabled'] as const,
  statuses: ['statuses'] as const,
  priorities: ['priorities'] as const,
  tags: ['tags'] as const,
  teams: ['teams', 'compact'] as const,
  agents: ['agents', 'compact'] as const,
  inboxes: ['inboxes', 'compact'] as const,
  aiPrompts: ['ai', 'prompts'] as const,
  conversations: {
    all: ['conversations'] as const,
    lists: ['conversations', 'list'] as const,
    list: (view: ListView, filters: ConversationFilters) => ['conversations', 'list', view, filters] as const,
    detail: (uuid: string) => ['conversations', 'detail', uuid] as const,
    messages: (uuid: string) => ['conversations', 'detail', uuid, 'messages'] as const,
    sla: (uuid: string) => ['conversations', 'detail', uuid, 'sla'] as const,
  },
  macros: (conversationUuid: string) => ['macros', conversationUuid] as const,
  contacts: {
    detail: (id: number) => ['contacts', id] as const,
    notes: (id: number) => ['contacts', id, 'notes'] as const,
    pageVisits: (id: number) => ['contacts', id, 'page-visits'] as const,
  },
};
