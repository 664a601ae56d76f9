import { Type } from 'typebox';
import { AVAILABILITIES, AVAILABILITY_SOURCES, USER_TYPES } from '../db/types.ts';
import { DateTime, EmailAddress, HttpUrl, Nullable, NullableDateTime, StringEnum } from '../http/schemas.ts';

export const AvailabilityStatus = StringEnum(AVAILABILITIES);

export const TeamRef = Type.Object({ id: Type.Integer(), name: Type.String(), emoji: Type.String() });

/** The spec's Agent record; contacts share it. */
export const AgentRecord = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    first_name: Type.String(),
    last_name: Type.String(),
    email: Nullable(Type.String({ description: 'Email address' })),
    type: StringEnum(USER_TYPES, { description: '`agent` for agents; `contact` or `visitor` for contacts' }),
    availability_status: AvailabilityStatus,
    phone_number_country_code: Nullable(Type.String()),
    phone_number: Nullable(Type.String()),
    avatar_url: Nullable(Type.String()),
    enabled: Type.Boolean(),
    last_active_at: NullableDateTime,
    last_login_at: NullableDateTime,
    roles: Type.Array(Type.String()),
    permissions: Type.Array(Type.String()),
    custom_attributes: Type.Record(Type.String(), Type.Unknown()),
    teams: Type.Array(TeamRef),
    api_key: Nullable(Type.String()),
    api_key_last_used_at: NullableDateTime,
    two_factor_enabled: Type.Boolean({ description: 'Two-factor sign-in (TOTP) is on' }),
  },
  { title: 'Agent' },
);

/** The calling agent, as its own session sees it (GET /agents/me, sign-in). */
export const MyAgentRecord = Type.Object(
  {
    ...AgentRecord.properties,
    mfa_setup_required: Type.Boolean({
      description:
        'This password session is held at enrolment: a role requires two-factor sign-in, which the agent has not set up. Until it does, every call but GET/PUT /agents/me, /agents/me/2fa/* and /auth/logout answers 403 (docs/api.md, "Two-factor sign-in").',
    }),
  },
  { title: 'MyAgent' },
);

export const AgentCompact = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Nullable(Type.String()),
  avatar_url: Nullable(Type.String()),
  availability_status: AvailabilityStatus,
  enabled: Type.Boolean(),
});

const Name = Type.String({ minLength: 1, maxLength: 128, pattern: '\\S' });
const OptionalText = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));
const Email = EmailAddress();
const AvatarUrl = Type.Optional(Nullable(HttpUrl({ description: 'Absolute http(s) URL of the picture; null for none' })));
const Password = Type.String({ minLength: 10, maxLength: 256, description: 'At least 10 characters' });

export const CreateAgentBody = Type.Object(
  {
    first_name: Name,
    last_name: Type.Optional(Type.String({ maxLength: 128 })),
    email: Email,
    roles: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 20, description: 'Role names' }),
    teams: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 100, description: 'Team ids' })),
    password: Type.Optional(Password),
    enabled: Type.Optional(Type.Boolean()),
    phone_number: OptionalText(32),
    phone_number_country_code: OptionalText(8),
    avatar_url: AvatarUrl,
  },
  { additionalProperties: false },
);

export const UpdateAgentBody = Type.Object(
  {
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Type.String({ maxLength: 128 })),
    email: Type.Optional(Email),
    roles: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 20 })),
    teams: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 100 })),
    password: Type.Optional(Password),
    enabled: Type.Optional(Type.Boolean()),
    availability_status: Type.Optional(AvailabilityStatus),
    phone_number: OptionalText(32),
    phone_number_country_code: OptionalText(8),
    avatar_url: AvatarUrl,
  },
  { additionalProperties: false },
);

export const UpdateMeBody = Type.Object(
  {
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Type.String({ maxLength: 128 })),
    phone_number: OptionalText(32),
    phone_number_country_code: OptionalText(8),
    avatar_url: AvatarUrl,
    current_password: Type.Optional(Type.String({ maxLength: 256 })),
    new_password: Type.Optional(Password),
  },
  { additionalProperties: false },
);

export const AvailabilityBody = Type.Object(
  {
    status: AvailabilityStatus,
    source: Type.Optional(StringEnum(AVAILABILITY_SOURCES, { default: 'user' })),
  },
  { additionalProperties: false },
);

export const ApiKeyPair = Type.Object({ api_key: Type.String(), api_secret: Type.String() });

export const AgentListQuery = Type.Object({
  page: Type.Optional(Type.Integer()),
  page_size: Type.Optional(Type.Integer()),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Matches name or email' })),
  order_by: Type.Optional(StringEnum(['created_at', 'updated_at', 'first_name', 'email'] as const)),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const)),
});
