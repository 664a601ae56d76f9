// Query keys: one tree per API resource, so an invalidation by prefix reaches everything below
// it (`keys.conversations.all` refreshes every list and every open conversation). Socket events
// (realtime/cache.ts) update these same entries; there is no second store.
import type { ConversationFilters, ListView } from '../features/inbox/views';

export const keys = {
  me: ['me'] as const,
  /** The signed-in agent's sessions (account settings). */
  mySessions: ['sessions', 'mine'] as const,
  setup: ['setup'] as const,
  sso: ['oidc', 'enabled'] as const,
  statuses: ['statuses'] as const,
  priorities: ['priorities'] as const,
  tags: ['tags'] as const,
  teams: ['teams', 'compact'] as const,
  agents: ['agents', 'compact'] as const,
  inboxes: ['inboxes', 'compact'] as const,
  aiPrompts: ['ai', 'prompts'] as const,
  aiStatus: ['ai', 'status'] as const,
  conversations: {
    all: ['conversations'] as const,
    lists: ['conversations', 'list'] as const,
    list: (view: ListView, filters: ConversationFilters) => ['conversations', 'list', view, filters] as const,
    /** The navigation's view counts: under the lists, so what re-reads the lists re-reads them. */
    counts: ['conversations', 'list', 'counts'] as const,
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

  // Contacts, search, reports and administration (features/contacts, search, reports, admin).
  contactList: (params: { q: string; page: number; order_by: string; order: string }) => ['contacts', 'list', params] as const,
  /** A contact's conversations: under the conversation lists, so list invalidations reach it. */
  contactConversations: (id: number) => ['conversations', 'list', 'contact', id] as const,
  search: (q: string) => ['search', q] as const,
  reports: {
    all: ['reports'] as const,
    counts: ['reports', 'counts'] as const,
    tags: (days: number) => ['reports', 'tags', days] as const,
    service: (params: Record<string, string | number>) => ['reports', 'service', params] as const,
  },
  admin: {
    agents: (params: { q: string; page: number }) => ['agents', 'list', params] as const,
    agent: (id: number) => ['agents', 'detail', id] as const,
    roles: ['roles'] as const,
    permissions: ['permissions'] as const,
    teams: ['teams', 'full'] as const,
    teamMembers: (id: number) => ['teams', 'members', id] as const,
    inboxes: ['inboxes', 'full'] as const,
    inbox: (id: number) => ['inboxes', 'detail', id] as const,
    widgetPreview: (id: number, draft: unknown) => ['inboxes', 'detail', id, 'widget-preview', draft] as const,
    emailStatus: (id: number) => ['inboxes', 'detail', id, 'email-status'] as const,
    emailSkipped: (id: number, page: number) => ['inboxes', 'detail', id, 'email-skipped', page] as const,
    businessHours: ['business-hours'] as const,
    sla: ['sla'] as const,
    settings: ['settings', 'general'] as const,
    macros: ['macros', 'all'] as const,
    webhooks: ['webhooks'] as const,
    deliveries: (id: number, params: { page: number; status: string }) => ['webhooks', id, 'deliveries', params] as const,
    delivery: (id: number, deliveryId: number) => ['webhooks', id, 'delivery', deliveryId] as const,
    oidc: ['oidc', 'providers'] as const,
    aiProvider: ['ai', 'provider'] as const,
    auditLog: (params: Record<string, string | number>) => ['audit-log', 'list', params] as const,
    auditCatalogue: ['audit-log', 'catalogue'] as const,
  },
};
