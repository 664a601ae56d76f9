import { Type } from 'typebox';
import { DateTime } from '../http/schemas.ts';

export const RoleRecord = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    name: Type.String(),
    description: Type.String(),
    permissions: Type.Array(Type.String()),
    is_builtin: Type.Boolean({ description: 'Admin and Agent are built in: they cannot be deleted or renamed' }),
    require_2fa: Type.Boolean({ description: 'Its agents must sign in with two factors (docs/api.md, "Two-factor sign-in")' }),
  },
  { title: 'Role' },
);

// Membership of the catalogue is checked by the service, whose 400 names each unknown value.
const Permissions = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 200,
  description: 'Permission identifiers, resource:action, from GET /api/v1/permissions',
});

const Require2fa = Type.Boolean({
  description:
    'Agents holding the role must use two-factor sign-in: one without it who signs in with a password may only set it up (default false)',
});

export const CreateRoleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 50, pattern: '\\S' }),
    description: Type.Optional(Type.String({ maxLength: 300 })),
    permissions: Permissions,
    require_2fa: Type.Optional(Require2fa),
  },
  { additionalProperties: false },
);

export const UpdateRoleBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 50, pattern: '\\S' })),
    description: Type.Optional(Type.String({ maxLength: 300 })),
    permissions: Type.Optional(Permissions),
    require_2fa: Type.Optional(Require2fa),
  },
  { additionalProperties: false },
);
