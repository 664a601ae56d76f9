// Request and response schemas of conversations (spec: Conversation list item; docs/api.md, Pagination and lists).
import { Type } from 'typebox';
import { ContactRecord } from '../contacts/contacts.schema.ts';
import { CsatSurvey } from '../csat/csat.schema.ts';
import { SENDER_TYPES } from '../db/types.ts';
import { DateTime, EmailAddress, Nullable, NullableDateTime, PageQuery, StringEnum } from '../http/schemas.ts';
import { Channel } from '../inboxes/inboxes.schema.ts';
import { StatusCategory } from '../statuses/statuses.schema.ts';

export const ConversationContact = Type.Object({
  id: Type.Integer(),
  created_at: DateTime,
  updated_at: DateTime,
  first_name: Type.String(),
  last_name: Type.String(),
  avatar_url: Nullable(Type.String()),
  email: Nullable(Type.String()),
});

const listItemFields = {
  id: Type.Integer(),
  created_at: DateTime,
  updated_at: DateTime,
  uuid: Type.String({ format: 'uuid' }),
  reference_number: Type.String(),
  waiting_since: NullableDateTime,
  assignee_last_seen_at: NullableDateTime,
  inbox_id: Type.Integer(),
  inbox_channel: Channel,
  inbox_name: Type.String(),
  sla_policy_id: Nullable(Type.Integer()),
  first_reply_at: NullableDateTime,
  last_reply_at: NullableDateTime,
  resolved_at: NullableDateTime,
  subject: Type.String(),
  last_message: Nullable(Type.String()),
  first_message: Nullable(
    Type.String({
      description: "The first public message's text, shortened as last_message: what a conversation without subject is titled by",
    }),
  ),
  last_message_at: NullableDateTime,
  last_message_sender: Nullable(StringEnum(SENDER_TYPES)),
  next_sla_deadline_at: NullableDateTime,
  priority_id: Nullable(Type.Integer()),
  unread_message_count: Type.Integer({ description: "Public messages from the contact newer than the caller's last-seen mark" }),
  status: Type.String(),
  priority: Nullable(Type.String()),
  first_response_deadline_at: NullableDateTime,
  resolution_deadline_at: NullableDateTime,
  applied_sla_id: Nullable(Type.Integer()),
  next_response_deadline_at: NullableDateTime,
  next_response_met_at: NullableDateTime,
  assigned_user_id: Nullable(Type.Integer()),
  assigned_team_id: Nullable(Type.Integer()),
  tags: Type.Array(Type.String()),
};

export const ConversationListItem = Type.Object(
  { ...listItemFields, contact: ConversationContact },
  { title: 'ConversationListItem', description: 'The SLA fields stay null until SLA policies exist.' },
);

export const Conversation = Type.Object(
  {
    ...listItemFields,
    contact: ContactRecord,
    status_category: StatusCategory,
    snoozed_until: NullableDateTime,
    custom_attributes: Type.Record(Type.String(), Type.Unknown()),
    meta: Type.Record(Type.String(), Type.Unknown()),
    csat: Type.Union([CsatSurvey, Type.Null()], {
      description: 'The CSAT survey sent when the conversation was first resolved; null when none was',
    }),
  },
  { title: 'Conversation' },
);

export const UuidParams = Type.Object({ cuuid: Type.String({ format: 'uuid', description: 'Conversation uuid' }) });
export const TeamIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Team id' }) });

const NameList = (description: string) =>
  Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 20,
      description: `${description}; repeat the parameter for several`,
    }),
  );
const IdList = (description: string) =>
  Type.Optional(
    Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), {
      maxItems: 50,
      description: `${description}; repeat the parameter for several`,
    }),
  );

export const ConversationListQuery = Type.Object({
  ...PageQuery,
  status: NameList('Status name (case-insensitive)'),
  priority: NameList('Priority name (case-insensitive)'),
  tag: NameList('Tag name: conversations having any of them'),
  inbox_id: IdList('Inbox id'),
  team_id: IdList('Assigned team id'),
  assignee_id: IdList('Assigned agent id'),
  contact_id: IdList("Contact id: that contact's conversations"),
  order_by: Type.Optional(
    StringEnum(['last_message_at', 'created_at', 'updated_at', 'waiting_since', 'next_sla_deadline_at'] as const, {
      default: 'last_message_at',
    }),
  ),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
});

export const CreateConversationBody = Type.Object(
  {
    inbox_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
    contact_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
    contact_email: Type.Optional(EmailAddress({ format: 'trimmed-email', description: 'Trimmed and lowercased' })),
    first_name: Type.Optional(Type.String({ maxLength: 128 })),
    last_name: Type.Optional(Type.String({ maxLength: 128 })),
    subject: Type.Optional(Type.String({ maxLength: 1000 })),
    content: Type.String({
      minLength: 1,
      maxLength: 100_000,
      description: 'First message; HTML, sanitised (nested at most 100 levels deep)',
    }),
    initiator: Type.Optional(StringEnum(SENDER_TYPES, { default: 'agent' })),
    assignee_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
    team_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  },
  {
    additionalProperties: false,
    description:
      'Exactly one of `contact_id` or `contact_email` (a contact is created for an unknown email). `initiator` agent (default): the first message is a reply from the caller; contact: it is an incoming message from the contact. `assignee_id` needs `conversations:update_user_assignee` (unless it is the caller), `team_id` needs `conversations:update_team_assignee`.',
  },
);

export const StatusBody = Type.Object(
  {
    status: Type.String({ minLength: 1, maxLength: 50, description: 'Status name, e.g. Open, Snoozed, Resolved, Closed' }),
    snoozed_until: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'For a waiting status: an RFC 3339 time or a duration such as `30m`, `2h`, `1d`, `1w`, `1h30m`',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PriorityBody = Type.Object(
  { priority: Type.String({ minLength: 1, maxLength: 50, description: 'Low, Medium, High or Urgent' }) },
  { additionalProperties: false },
);

export const AssigneeBody = Type.Object(
  { assignee_id: Type.Integer({ minimum: 1, maximum: 2147483647 }) },
  { additionalProperties: false },
);

export const TagsBody = Type.Object(
  {
    tags: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 100,
      description: 'Tag names (case-insensitive); unknown names → 400',
    }),
    action: Type.Optional(StringEnum(['add_tags', 'remove_tags', 'set_tags'] as const, { default: 'add_tags' })),
  },
  { additionalProperties: false },
);

/** One view's counts: open conversations, and those among them with unread messages from the contact; both stop at `cap + 1`. */
const ViewCount = Type.Object({
  open: Type.Integer({ minimum: 0, description: 'Open conversations of the view (status category open), at most cap + 1' }),
  unread: Type.Integer({
    minimum: 0,
    description: "Of those, the ones with a public message from the contact newer than the caller's last-seen mark, at most cap + 1",
  }),
});
const IdViewCount = Type.Object({ id: Type.Integer(), ...ViewCount.properties });

export const ViewCounts = Type.Object({
  cap: Type.Integer({ description: 'Counts stop at cap + 1: show "cap+" above cap' }),
  mine: Type.Union([ViewCount, Type.Null()], { description: 'Assigned to the caller; null without conversations:read_assigned' }),
  unassigned: Type.Union([ViewCount, Type.Null()], { description: 'No agent assigned; null without conversations:read_unassigned' }),
  all: Type.Union([ViewCount, Type.Null()], { description: 'Every conversation; null without conversations:read_all' }),
  teams: Type.Array(IdViewCount, {
    description:
      "Per team: every conversation of the team with conversations:read_all (every team), else the unassigned queue of each of the caller's teams with conversations:read_team_inbox",
  }),
  inboxes: Type.Array(IdViewCount, { description: 'Per live inbox, with conversations:read_all; empty otherwise' }),
});
