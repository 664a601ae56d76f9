// The permission catalogue (docs/api.md: Permissions and access). Extend it as features arrive; never rename.
import { PermissionError } from '../errors.ts';

export const PERMISSIONS = [
  'conversations:read_all',
  'conversations:read_assigned',
  'conversations:read_unassigned',
  'conversations:read_team_inbox',
  'conversations:read',
  'conversations:write',
  'conversations:update_user_assignee',
  'conversations:update_team_assignee',
  'conversations:update_status',
  'conversations:update_priority',
  'conversations:update_tags',
  'messages:read',
  'messages:write',
  'contacts:read_all',
  'contacts:read',
  'contacts:write',
  'contacts:block',
  // Changing a contact's email, or giving it its first external id: not held by the Agent role.
  'contacts:write_identity',
  'contact_notes:read',
  'contact_notes:write',
  'contact_notes:delete',
  'tags:manage',
  'status:manage',
  'macros:manage',
  'users:manage',
  'teams:manage',
  'inboxes:manage',
  'roles:manage',
  'webhooks:manage',
  'reports:manage',
  'oidc:manage',
  'ai:manage',
  'business_hours:manage',
  'sla:manage',
  'general_settings:manage',
  // Reading the audit log (GET /audit-log and its export); nobody may change it.
  'audit:read',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

const known = new Set<string>(PERMISSIONS);
export function isPermission(value: string): value is Permission {
  return known.has(value);
}

/** The one check of a permission inside a service: 403 naming what is missing. */
export function requirePermission(principal: { permissions: ReadonlySet<string> }, permission: Permission, what?: string): void {
  if (!principal.permissions.has(permission)) {
    throw new PermissionError(`Permission denied: ${what ? `${what} requires` : 'requires'} ${permission}`);
  }
}

/** The caller needs one of `permissions` (the first is named in the 403). */
export function requireAnyPermission(
  principal: { permissions: ReadonlySet<string> },
  permissions: readonly Permission[],
  what?: string,
): void {
  if (permissions.some((permission) => principal.permissions.has(permission))) return;
  const names = permissions.join(' or ');
  throw new PermissionError(`Permission denied: ${what ? `${what} requires` : 'requires'} ${names}`);
}

export const ADMIN_ROLE = 'Admin';
export const AGENT_ROLE = 'Agent';

export const AGENT_ROLE_PERMISSIONS: readonly Permission[] = [
  'conversations:read_assigned',
  'conversations:read_unassigned',
  'conversations:read_team_inbox',
  'conversations:read',
  // Starts conversations (POST /conversations); installations from before it got it from migration 0009.
  'conversations:write',
  'conversations:update_user_assignee',
  'conversations:update_team_assignee',
  'conversations:update_status',
  'conversations:update_priority',
  'conversations:update_tags',
  'messages:read',
  'messages:write',
  'contacts:read',
  'contacts:write',
  'contact_notes:read',
  'contact_notes:write',
];
