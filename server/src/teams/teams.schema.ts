import { Type } from 'typebox';
import { ASSIGNMENT_TYPES, AVAILABILITIES } from '../db/types.ts';
import { DateTime, Nullable, StringEnum } from '../http/schemas.ts';

export const AssignmentType = StringEnum(ASSIGNMENT_TYPES);

/** Exactly the spec's Team record. */
export const TeamRecord = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    emoji: Type.String(),
    name: Type.String(),
    conversation_assignment_type: AssignmentType,
    timezone: Type.String(),
    business_hours_id: Nullable(Type.Integer()),
    sla_policy_id: Nullable(Type.Integer()),
    max_auto_assigned_conversations: Type.Integer(),
  },
  { title: 'Team' },
);

export const TeamCompact = Type.Object({ id: Type.Integer(), name: Type.String(), emoji: Type.String() });

export const TeamMember = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Nullable(Type.String()),
  avatar_url: Nullable(Type.String()),
  availability_status: StringEnum(AVAILABILITIES),
  enabled: Type.Boolean(),
});

const fields = {
  emoji: Type.Optional(Type.String({ maxLength: 50 })),
  conversation_assignment_type: Type.Optional(AssignmentType),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Paris' })),
  business_hours_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  sla_policy_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  max_auto_assigned_conversations: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000, description: '0 = no cap' })),
};

export const CreateTeamBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 140, pattern: '\\S' }),
    ...fields,
    members: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000, description: 'Agent ids' })),
  },
  { additionalProperties: false },
);

export const UpdateTeamBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 140, pattern: '\\S' })),
    ...fields,
  },
  { additionalProperties: false },
);

export const SetMembersBody = Type.Object(
  { user_ids: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000, description: 'Agent ids; replaces the member list' }) },
  { additionalProperties: false },
);

export const AddMemberBody = Type.Object({ user_id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
