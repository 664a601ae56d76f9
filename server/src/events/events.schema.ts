// The domain events: each type's name and payload, declared once. Every writer builds its
// payload through these declarations (recordEvent, and eventColumns for the set-based SQL
// writers), and the consumers (webhooks, sockets) read the same ones. Payloads are stored as
// JSON: times become RFC 3339 strings. Add a type here before writing it anywhere.
import { type Static, type TSchema, Type } from 'typebox';
import {
  NOTIFICATION_ACTOR_TYPES,
  NOTIFICATION_TYPES,
  AVAILABILITIES,
  AVAILABILITY_SOURCES,
  MESSAGE_STATUSES,
  SENDER_TYPES,
  SLA_METRICS,
  STATUS_CATEGORIES,
} from '../db/types.ts';
import { DateTime, Nullable, NullableDateTime, StringEnum } from '../http/schemas.ts';

const Id = Type.Integer({ minimum: 1 });
const Uuid = Type.String({ format: 'uuid' });
const Text = Type.String();
const Names = Type.Array(Type.String());
const exact = { additionalProperties: false } as const;

/** Every conversation event names its conversation and who acted (null: the system). */
const conversation = { conversation_id: Id, conversation_uuid: Uuid, actor_id: Nullable(Id) };
const slaDeadline = { applied_sla_id: Id, metric: StringEnum(SLA_METRICS), deadline_at: DateTime };
const message = { conversation_id: Id, conversation_uuid: Uuid, message_id: Id, message_uuid: Uuid };

/** The contact record (the Agent-shaped record of contacts) and its external id. */
const ContactCreated = Type.Object(
  {
    id: Id,
    created_at: DateTime,
    updated_at: DateTime,
    first_name: Text,
    last_name: Text,
    email: Nullable(Text),
    type: StringEnum(['contact', 'visitor']),
    availability_status: StringEnum(AVAILABILITIES),
    phone_number_country_code: Nullable(Text),
    phone_number: Nullable(Text),
    avatar_url: Nullable(Text),
    enabled: Type.Boolean(),
    last_active_at: NullableDateTime,
    last_login_at: NullableDateTime,
    custom_attributes: Type.Record(Type.String(), Type.Unknown()),
    roles: Names,
    permissions: Names,
    teams: Type.Array(Type.Object({ id: Id, name: Text, emoji: Text }, exact)),
    api_key: Type.Null(),
    api_key_last_used_at: Type.Null(),
    external_user_id: Nullable(Text),
    load_remote_images: Type.Boolean(),
  },
  exact,
);

/** A notification as its agent reads it (GET /notifications, the `notification` frame). */
export const NotificationRecord = Type.Object(
  {
    id: Id,
    type: StringEnum(NOTIFICATION_TYPES),
    created_at: DateTime,
    read_at: NullableDateTime,
    conversation_uuid: Uuid,
    message_uuid: Nullable(Uuid),
    actor: Nullable(Type.Object({ type: StringEnum(NOTIFICATION_ACTOR_TYPES), id: Nullable(Id), name: Text }, exact)),
    title: Text,
    excerpt: Text,
  },
  { ...exact, title: 'Notification' },
);

export const DOMAIN_EVENTS = {
  'conversation.created': Type.Object({ ...conversation, inbox_id: Id, contact_id: Id, initiator: StringEnum(SENDER_TYPES) }, exact),
  /** To an agent (`team_id`: the conversation's team then; `auto`: by round robin) or to a team. */
  'conversation.assigned': Type.Union([
    Type.Object(
      {
        ...conversation,
        assignee_type: Type.Literal('user'),
        assignee_id: Id,
        previous_assignee_id: Nullable(Id),
        team_id: Nullable(Id),
        auto: Type.Boolean(),
      },
      exact,
    ),
    Type.Object({ ...conversation, assignee_type: Type.Literal('team'), team_id: Id, previous_team_id: Nullable(Id) }, exact),
  ]),
  'conversation.unassigned': Type.Union([
    Type.Object({ ...conversation, assignee_type: Type.Literal('user'), previous_assignee_id: Id }, exact),
    Type.Object({ ...conversation, assignee_type: Type.Literal('team'), previous_team_id: Id }, exact),
  ]),
  'conversation.status_changed': Type.Object(
    {
      ...conversation,
      previous_status: Text,
      status: Text,
      status_category: StringEnum(STATUS_CATEGORIES),
      snoozed_until: NullableDateTime,
    },
    exact,
  ),
  'conversation.priority_changed': Type.Object({ ...conversation, previous_priority: Nullable(Text), priority: Text }, exact),
  /** `tags`: every tag of the conversation afterwards. */
  'conversation.tags_changed': Type.Object({ ...conversation, added: Names, removed: Names, tags: Names }, exact),
  /** A deadline of the conversation's applied SLA is `warning_minutes` away (recorded once per deadline). */
  'conversation.sla_warning': Type.Object({ ...conversation, ...slaDeadline }, exact),
  /** A deadline of the conversation's applied SLA passed unmet (recorded once per deadline). */
  'conversation.sla_breached': Type.Object({ ...conversation, ...slaDeadline }, exact),
  'message.created': Type.Object(
    {
      ...message,
      type: StringEnum(['incoming', 'outgoing']),
      private: Type.Boolean(),
      sender_id: Nullable(Id),
      sender_type: StringEnum(SENDER_TYPES),
    },
    exact,
  ),
  'message.updated': Type.Object({ ...message, status: StringEnum(MESSAGE_STATUSES) }, exact),
  'contact.created': ContactCreated,
  /** A visitor of the widget was merged into a verified contact: its conversations now belong to the contact; the visitor is deleted. */
  /** Blocked (`enabled` false: its widget sessions and sockets stop working) or unblocked. */
  'contact.enabled_changed': Type.Object({ contact_id: Id, enabled: Type.Boolean() }, exact),
  'contact.merged': Type.Object({ contact_id: Id, merged_contact_id: Id, conversation_ids: Type.Array(Id) }, exact),
  /** An agent changed the contact's email or gave it its first external id; each of `conversation_ids` got an activity message. */
  'contact.identity_changed': Type.Object(
    {
      contact_id: Id,
      actor_id: Nullable(Id),
      changes: Type.Array(
        Type.Object({ field: StringEnum(['email', 'external_user_id']), from: Nullable(Text), to: Nullable(Text) }, exact),
      ),
      conversation_ids: Type.Array(Id),
    },
    exact,
  ),
  /** The contact read the conversation in the widget (its `contact_last_seen_at`). */
  'conversation.contact_seen': Type.Object(
    { conversation_id: Id, conversation_uuid: Uuid, contact_id: Id, contact_last_seen_at: DateTime },
    exact,
  ),
  /** The contact answered the conversation's CSAT survey, or changed the answer. */
  'conversation.csat_answered': Type.Object(
    {
      conversation_id: Id,
      conversation_uuid: Uuid,
      survey_uuid: Uuid,
      rating: Type.Integer({ minimum: 1, maximum: 5 }),
      feedback: Text,
      submitted_at: DateTime,
    },
    exact,
  ),
  /** An inbox's settings, enabled flag or existence changed: open widget sockets are checked again (address, origin, enabled). */
  'inbox.changed': Type.Object({ inbox_id: Id, inbox_uuid: Uuid, enabled: Type.Boolean(), deleted: Type.Boolean() }, exact),
  'agent.availability_changed': Type.Object(
    {
      agent_id: Id,
      availability_status: StringEnum(AVAILABILITIES),
      source: StringEnum(AVAILABILITY_SOURCES),
    },
    exact,
  ),
  /** The agent was removed (soft delete): their unresolved conversations are released by a job of the conversations domain. */
  'agent.deleted': Type.Object({ agent_id: Id }, exact),
  /** A notification was created for `agent_id`: it reaches that agent's sockets only, as a `notification` frame. */
  'notification.created': Type.Object({ agent_id: Id, notification: NotificationRecord }, exact),
  /** The dispatcher disabled a webhook that had failed every attempt for a day; `reason` says so, with the last error. */
  'webhook.disabled': Type.Object({ webhook_id: Id, reason: Text }, exact),
} satisfies Record<string, TSchema>;

export type DomainEventType = keyof typeof DOMAIN_EVENTS;
export type DomainEventPayload<K extends DomainEventType> = Static<(typeof DOMAIN_EVENTS)[K]>;
/** One event as a writer gives it: its type and the payload declared for that type. */
export type DomainEvent = { [K in DomainEventType]: { type: K; payload: DomainEventPayload<K> } }[DomainEventType];
