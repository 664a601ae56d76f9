import { Type } from 'typebox';
import { SLA_METRICS } from '../db/types.ts';
import { DateTime, Nullable, NullableDateTime, StringEnum } from '../http/schemas.ts';

/** Up to a year of minutes: a target beyond it is a mistake, not a service level. */
export const MAX_TARGET_MINUTES = 525_600;

const Minutes = (description: string) =>
  Nullable(Type.Integer({ minimum: 1, maximum: MAX_TARGET_MINUTES, description: `${description}; null: no target` }));

export const SlaPolicyRecord = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    name: Type.String(),
    description: Type.String(),
    first_response_minutes: Nullable(Type.Integer()),
    next_response_minutes: Nullable(Type.Integer()),
    resolution_minutes: Nullable(Type.Integer()),
    warning_minutes: Nullable(Type.Integer()),
    business_hours_only: Type.Boolean(),
  },
  { title: 'SlaPolicy' },
);

const Name = Type.String({ minLength: 1, maxLength: 140, pattern: '\\S', description: 'Unique case-insensitively' });

const fields = {
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  first_response_minutes: Type.Optional(Minutes('Minutes from the application to the first public agent reply')),
  next_response_minutes: Type.Optional(Minutes("Minutes from a contact's message that follows an agent reply to the next public reply")),
  resolution_minutes: Type.Optional(Minutes('Minutes from the application to a resolved status')),
  warning_minutes: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 0,
        maximum: MAX_TARGET_MINUTES,
        description: 'Calendar minutes before a deadline when conversation.sla_warning is recorded; null or 0: no warning',
      }),
    ),
  ),
  business_hours_only: Type.Optional(
    Type.Boolean({
      description:
        "true: count only the business hours of the conversation's team, else the default hours (calendar time when neither is set); false: calendar time",
    }),
  ),
};

export const CreateSlaPolicyBody = Type.Object({ name: Name, ...fields }, { additionalProperties: false });
export const UpdateSlaPolicyBody = Type.Object({ name: Type.Optional(Name), ...fields }, { additionalProperties: false });

const MetricState = Type.Object({
  deadline_at: NullableDateTime,
  met_at: NullableDateTime,
  breached: Type.Boolean(),
});

export const SlaMetric = StringEnum(SLA_METRICS);

/** The applied SLA of a conversation: each metric is null when the policy has no target for it. */
export const AppliedSlaRecord = Type.Object(
  {
    applied_sla_id: Type.Integer(),
    sla_policy_id: Nullable(Type.Integer({ description: 'Null once the policy was deleted' })),
    applied_at: DateTime,
    first_response: Nullable(MetricState),
    next_response: Nullable(MetricState),
    resolution: Nullable(MetricState),
  },
  { title: 'AppliedSla' },
);

export const ApplySlaBody = Type.Object(
  {
    sla_policy_id: Type.Union([Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.Null()], {
      description: 'The policy to apply (replacing any applied one: a new applied_sla_id), or null to remove it',
    }),
  },
  { additionalProperties: false },
);
