import type { RouteObject } from 'react-router';

// Each administration screen is its own chunk, loaded when opened: agents never download them.
export const adminRoutes: RouteObject[] = [
  {
    path: '/admin',
    lazy: async () => ({ Component: (await import('./AdminLayout')).AdminLayout }),
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./AdminLayout')).AdminHome }) },
      { path: 'tags', lazy: async () => ({ Component: (await import('./tags/TagsPage')).TagsPage }) },
      { path: 'statuses', lazy: async () => ({ Component: (await import('./tags/StatusesPage')).StatusesPage }) },
      { path: 'teams', lazy: async () => ({ Component: (await import('./teams/TeamsPage')).TeamsPage }) },
      { path: 'agents', lazy: async () => ({ Component: (await import('./agents/AgentsPage')).AgentsPage }) },
      { path: 'roles', lazy: async () => ({ Component: (await import('./agents/RolesPage')).RolesPage }) },
      { path: 'inboxes', lazy: async () => ({ Component: (await import('./inboxes/InboxesPage')).InboxesPage }) },
      { path: 'inboxes/:id', lazy: async () => ({ Component: (await import('./inboxes/InboxPage')).InboxPage }) },
      { path: 'macros', lazy: async () => ({ Component: (await import('./macros/MacrosPage')).MacrosPage }) },
      { path: 'business-hours', lazy: async () => ({ Component: (await import('./hours/BusinessHoursPage')).BusinessHoursPage }) },
      { path: 'sla', lazy: async () => ({ Component: (await import('./hours/SlaPage')).SlaPage }) },
      { path: 'general', lazy: async () => ({ Component: (await import('./hours/GeneralSettingsPage')).GeneralSettingsPage }) },
      { path: 'webhooks', lazy: async () => ({ Component: (await import('./webhooks/WebhooksPage')).WebhooksPage }) },
      { path: 'webhooks/:id', lazy: async () => ({ Component: (await import('./webhooks/WebhookPage')).WebhookPage }) },
      { path: 'sso', lazy: async () => ({ Component: (await import('./integrations/OidcPage')).OidcPage }) },
      { path: 'ai', lazy: async () => ({ Component: (await import('./integrations/AiPage')).AiPage }) },
      { path: 'audit-log', lazy: async () => ({ Component: (await import('./audit/AuditLogPage')).AuditLogPage }) },
    ],
  },
];
