// The audit log's read side on the wire (docs/api.md, "Audit log"): an entry, the list's filters,
// the export's query.
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, PageQuery, Paged, StringEnum } from '../http/schemas.ts';
import { AUDIT_ACTIONS } from '../audit/audit.service.ts';

export const AUDIT_ACTOR_TYPES = ['agent', 'api_key', 'system', 'automation'] as const;

/** Resource types are `[a-z][a-z0-9_]*` words (`agent`, `business_hours`…), at most 64 characters. */
const RESOURCE_TYPE = '^[a-z][a-z0-9_]{0,63}$';

export const AuditEntryRecord = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    actor: Type.Object({
      type: StringEnum(AUDIT_ACTOR_TYPES, {
        description: '`agent` (a session), `api_key` (an agent’s API credentials), `system` (Parley itself), `automation` (a rule)',
      }),
      id: Nullable(Type.Integer({ description: 'The agent (for `api_key`, the key’s owner) or the automation rule; null for `system`' })),
      name: Type.String({ description: 'The name the actor had when the entry was written' }),
    }),
    ip: Nullable(Type.String({ description: 'Client address of the request (null outside a request)' })),
    user_agent: Nullable(Type.String()),
    request_id: Nullable(Type.String({ description: 'The `X-Request-Id` of the request, to find it in the logs' })),
    action: Type.String({ description: 'One of `GET /audit-log/actions`, e.g. `role.updated`' }),
    resource: Type.Object({
      type: Type.String({ description: 'e.g. `role`, `agent`, `settings`' }),
      id: Nullable(Type.String({ description: 'The resource’s id, as text; null for singletons such as the settings' })),
      name: Type.String({ description: 'The name the resource had when the entry was written (may be empty)' }),
    }),
    changes: Type.Record(Type.String(), Type.Array(Type.Unknown(), { minItems: 2, maxItems: 2 }), {
      description:
        '`{"<field>": [before, after]}`; before is null on creation, after null on deletion. Every secret is masked as `[redacted]`.',
    }),
  },
  { title: 'AuditEntry' },
);
export type AuditEntryRecord = Static<typeof AuditEntryRecord>;

/** The filters the list and the export share. Each is served by an index of migration 2026_11_30_0001. */
export const AuditFilterQuery = {
  actor_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: 'Entries of this actor: an agent, or with `actor_type=automation` a rule',
    }),
  ),
  actor_type: Type.Optional(
    StringEnum(AUDIT_ACTOR_TYPES, {
      description:
        'Entries of this kind of actor. Without it, `actor_id` names an agent (entries of its sessions and of its API key); with `automation`, a rule.',
    }),
  ),
  action: Type.Optional(StringEnum(AUDIT_ACTIONS, { description: 'Entries of this action' })),
  resource_type: Type.Optional(
    Type.String({ pattern: RESOURCE_TYPE, maxLength: 64, description: 'Entries about this kind of resource, e.g. `role`' }),
  ),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Entries at or after this instant (RFC 3339, with its offset)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Entries before this instant (excluded)' })),
};

export const AuditListQuery = Type.Object({ ...PageQuery, ...AuditFilterQuery });
export type AuditListQuery = Static<typeof AuditListQuery>;

export const AUDIT_EXPORT_FORMATS = ['csv'] as const;
export const AuditExportQuery = Type.Object({
  format: StringEnum(AUDIT_EXPORT_FORMATS, { description: 'Only `csv` for now' }),
  ...AuditFilterQuery,
});
export type AuditExportQuery = Static<typeof AuditExportQuery>;
export type AuditFilterInput = Omit<AuditListQuery, 'page' | 'page_size'>;

export const AuditPage = Paged(AuditEntryRecord);

export const AuditCatalogue = Type.Object(
  {
    actions: Type.Array(Type.String(), { description: 'Every action an entry can have (the `action` filter’s values)' }),
    resource_types: Type.Array(Type.String(), { description: 'The resource types the log holds entries about, sorted' }),
  },
  { title: 'AuditCatalogue' },
);
