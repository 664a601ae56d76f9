// The administration areas, each behind the permission its API needs: the sidebar, the admin
// menu and the admin home list the ones the signed-in agent may open.
import type { Agent } from '../../api/client';
import type { MessageKey } from '../../i18n/t';
import { can } from '../auth/session';

export interface AdminArea {
  path: string;
  label: MessageKey;
  hint: MessageKey;
  permission: string;
  group: 'people' | 'channels' | 'conversations' | 'service' | 'integrations' | 'security';
}

export const ADMIN_AREAS: readonly AdminArea[] = [
  { path: 'agents', label: 'admin.agents.title', hint: 'admin.agents.hint', permission: 'users:manage', group: 'people' },
  { path: 'roles', label: 'admin.roles.title', hint: 'admin.roles.hint', permission: 'roles:manage', group: 'people' },
  { path: 'teams', label: 'admin.teams.title', hint: 'admin.teams.hint', permission: 'teams:manage', group: 'people' },
  { path: 'inboxes', label: 'admin.inboxes.title', hint: 'admin.inboxes.hint', permission: 'inboxes:manage', group: 'channels' },
  { path: 'tags', label: 'admin.tags.title', hint: 'admin.tags.hint', permission: 'tags:manage', group: 'conversations' },
  { path: 'statuses', label: 'admin.statuses.title', hint: 'admin.statuses.hint', permission: 'status:manage', group: 'conversations' },
  { path: 'macros', label: 'admin.macros.title', hint: 'admin.macros.hint', permission: 'macros:manage', group: 'conversations' },
  {
    path: 'business-hours',
    label: 'admin.hours.title',
    hint: 'admin.hours.hint',
    permission: 'business_hours:manage',
    group: 'service',
  },
  { path: 'sla', label: 'admin.sla.title', hint: 'admin.sla.hint', permission: 'sla:manage', group: 'service' },
  { path: 'general', label: 'admin.general.title', hint: 'admin.general.hint', permission: 'general_settings:manage', group: 'service' },
  { path: 'webhooks', label: 'admin.webhooks.title', hint: 'admin.webhooks.hint', permission: 'webhooks:manage', group: 'integrations' },
  { path: 'sso', label: 'admin.sso.title', hint: 'admin.sso.hint', permission: 'oidc:manage', group: 'integrations' },
  { path: 'ai', label: 'admin.ai.title', hint: 'admin.ai.hint', permission: 'ai:manage', group: 'integrations' },
  { path: 'audit-log', label: 'audit.title', hint: 'audit.hint', permission: 'audit:read', group: 'security' },
];

export const ADMIN_GROUPS = ['people', 'channels', 'conversations', 'service', 'integrations', 'security'] as const;

export function adminAreasFor(agent: Agent | null | undefined): AdminArea[] {
  return ADMIN_AREAS.filter((area) => can(agent, area.permission));
}
