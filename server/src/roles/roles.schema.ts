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
  },
  { title: 'Role' },
);

const Permissions = Type.Array(Type.String({ pattern: '^[a-z_]+:[a-z_]+$' }), { minItems: 1, maxItems: 200, description: 'Permission identifiers, resource:action' });

export const CreateRoleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 50, pattern: '\\S' }),
    description: Type.Optional(Type.String({ maxLength: 300 })),
    permissions: Permissions,
  },
  { additionalProperties: false },
);

export const UpdateRoleBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 50, pattern: '\\S' })),
    description: Type.Optional(Type.String({ maxLength: 300 })),
    permissions: Type.Optional(Permissions),
  },
  { additionalProperties: false },
);
