// The socket frames (docs/api.md, "Realtime"), declared once: every frame of the agent socket
// `/ws` and the widget socket `/widget/ws`, both directions. Frames of domain events take their
// fields from the event payloads (events/events.schema.ts), so a payload change shows here.
// The server parses client frames with these schemas (frames.parse.ts); the tests check every
// frame the server sends against them (server/test/sockets.ts); the web app and the widget get
// their types generated from them (server/scripts/frame-types.ts, `npm run openapi`).
import { type Static, type TSchema, Type } from 'typebox';
import { DOMAIN_EVENTS, NotificationRecord } from '../events/events.schema.ts';
import { DateTime, Nullable, StringEnum } from '../http/schemas.ts';
import { Message } from '../messages/messages.schema.ts';
import { ChatConversation, ChatMessage } from '../widget/widget.shapes.ts';

const exact = { additionalProperties: false } as const;
const ConversationUuid = Type.String({ format: 'uuid', description: 'a conversation uuid' });
const IsTyping = Type.Boolean({ description: 'a boolean' });

/** The domain event a frame comes from (outbox id and time): clients order merges by it. */
const EventRef = Type.Object({ id: Type.Integer({ minimum: 1 }), created_at: DateTime }, exact);

/** A frame `{type, data}` of the server: `event` on the frames of domain events. */
function eventFrame<const K extends string, D extends TSchema>(type: K, data: D) {
  return Type.Object({ type: Type.Literal(type), data, event: EventRef }, exact);
}
function plainFrame<const K extends string, D extends TSchema>(type: K, data: D) {
  return Type.Object({ type: Type.Literal(type), data }, exact);
}
/** A client frame: `data` as declared (`{}` when the frame has none to give). */
function clientFrame<const K extends string, D extends TSchema>(type: K, data: D) {
  return Type.Object({ type: Type.Literal(type), data }, exact);
}

const Pong = Type.Object({ type: Type.Literal('pong') }, exact);
export const FRAME_ERROR_CODES = ['not_found', 'join_failed', 'not_joined', 'rate_limited'] as const;
const ErrorFrame = plainFrame('error', Type.Object({ message: Type.String(), code: Type.Optional(StringEnum(FRAME_ERROR_CODES)) }, exact));

// ------------------------------------------------------------------ fields of domain events
const E = DOMAIN_EVENTS;
const created = E['conversation.created'].properties;
const status = E['conversation.status_changed'].properties;
const priority = E['conversation.priority_changed'].properties;
const tags = E['conversation.tags_changed'].properties;
const [assignedUser, assignedTeam] = E['conversation.assigned'].anyOf;
const [unassignedUser, unassignedTeam] = E['conversation.unassigned'].anyOf;
const sla = E['conversation.sla_warning'].properties;
const seen = E['conversation.contact_seen'].properties;
const csat = E['conversation.csat_answered'].properties;
const updated = E['message.updated'].properties;
const availability = E['agent.availability_changed'].properties;
const uuid = ConversationUuid;

/** `conversation_update` of the agent socket: the conversation's uuid and what its event changed. */
const AgentConversationUpdate = Type.Union([
  Type.Object(
    {
      uuid,
      status: status.status,
      status_category: status.status_category,
      previous_status: status.previous_status,
      snoozed_until: status.snoozed_until,
    },
    exact,
  ),
  Type.Object({ uuid, priority: priority.priority, previous_priority: priority.previous_priority }, exact),
  Type.Object({ uuid, tags: tags.tags, added: tags.added, removed: tags.removed }, exact),
  Type.Object(
    {
      uuid,
      assigned_user_id: assignedUser.properties.assignee_id,
      previous_assignee_id: assignedUser.properties.previous_assignee_id,
      auto: assignedUser.properties.auto,
    },
    exact,
  ),
  Type.Object({ uuid, assigned_user_id: Type.Null(), previous_assignee_id: unassignedUser.properties.previous_assignee_id }, exact),
  Type.Object(
    { uuid, assigned_team_id: assignedTeam.properties.team_id, previous_team_id: assignedTeam.properties.previous_team_id },
    exact,
  ),
  Type.Object({ uuid, assigned_team_id: Type.Null(), previous_team_id: unassignedTeam.properties.previous_team_id }, exact),
  Type.Object(
    {
      uuid,
      sla: Type.Object(
        {
          event: StringEnum(['warning', 'breached']),
          applied_sla_id: sla.applied_sla_id,
          metric: sla.metric,
          deadline_at: sla.deadline_at,
        },
        exact,
      ),
    },
    exact,
  ),
  Type.Object({ uuid, contact_last_seen_at: seen.contact_last_seen_at }, exact),
  Type.Object(
    {
      uuid,
      csat: Type.Object({ uuid: csat.survey_uuid, rating: csat.rating, feedback: csat.feedback, submitted_at: csat.submitted_at }, exact),
    },
    exact,
  ),
]);

export const PageVisit = Type.Object({ url: Type.String(), title: Type.String(), visited_at: DateTime }, { title: 'PageVisit' });

/** `contact_update`: a contact's widget presence (per instance) or its last page visits, newest first. */
const ContactUpdate = Type.Union([
  Type.Object({ contact_id: Type.Integer({ minimum: 1 }), presence: StringEnum(['online', 'offline']) }, exact),
  Type.Object({ contact_id: Type.Integer({ minimum: 1 }), page_visits: Type.Array(PageVisit) }, exact),
]);
export type ContactUpdate = Static<typeof ContactUpdate>;

/** One agent viewing a conversation (docs/api.md, "Presence"): several tabs are one viewer, replying if any tab is. */
export const Viewer = Type.Object(
  {
    agent_id: Type.Integer({ minimum: 1 }),
    name: Type.String(),
    avatar_url: Nullable(Type.String()),
    replying: Type.Boolean({ description: 'writing a public reply (its typing frames say so, for at most 8 s after the last)' }),
  },
  { ...exact, title: 'Viewer' },
);
export const ConversationViewers = Type.Object({ conversation_uuid: uuid, viewers: Type.Array(Viewer) }, exact);

/** Every frame the agent socket sends. */
export const AgentServerFrame = Type.Union([
  Pong,
  ErrorFrame,
  plainFrame('subscribed', Type.Object({ conversation_uuid: uuid }, exact)),
  plainFrame('unsubscribed', Type.Object({ conversation_uuid: uuid }, exact)),
  eventFrame(
    'new_conversation',
    Type.Object(
      {
        uuid,
        id: created.conversation_id,
        inbox_id: created.inbox_id,
        contact_id: created.contact_id,
        initiator: created.initiator,
        assigned_user_id: Nullable(Type.Integer()),
        assigned_team_id: Nullable(Type.Integer()),
        created_at: DateTime,
      },
      exact,
    ),
  ),
  eventFrame('new_message', Message),
  eventFrame(
    'message_update',
    Type.Object({ uuid: updated.message_uuid, id: updated.message_id, conversation_uuid: uuid, status: updated.status }, exact),
  ),
  eventFrame('conversation_update', AgentConversationUpdate),
  eventFrame(
    'agent_availability_update',
    Type.Object({ agent_id: availability.agent_id, availability_status: availability.availability_status }, exact),
  ),
  plainFrame('contact_update', ContactUpdate),
  eventFrame('notification', NotificationRecord),
  plainFrame('conversation_viewers', ConversationViewers),
  plainFrame(
    'typing',
    Type.Union([
      Type.Object({ conversation_uuid: uuid, is_typing: Type.Boolean(), is_private: Type.Boolean(), agent_id: Type.Integer() }, exact),
      Type.Object({ conversation_uuid: uuid, is_typing: Type.Boolean(), contact_id: Type.Integer() }, exact),
    ]),
  ),
]);

/** Every frame an agent's client may send. */
export const AGENT_CLIENT_FRAMES = {
  ping: Type.Object({ type: Type.Literal('ping'), data: Type.Optional(Type.Object({}, exact)) }, exact),
  subscribe: clientFrame('subscribe', Type.Object({ conversation_uuid: ConversationUuid }, exact)),
  unsubscribe: clientFrame('unsubscribe', Type.Object({ conversation_uuid: ConversationUuid }, exact)),
  viewing: clientFrame('viewing', Type.Object({ conversation_uuid: ConversationUuid }, exact)),
  viewing_stopped: clientFrame('viewing_stopped', Type.Object({ conversation_uuid: ConversationUuid }, exact)),
  typing: clientFrame(
    'typing',
    Type.Object(
      { conversation_uuid: ConversationUuid, is_typing: IsTyping, is_private: Type.Optional(Type.Boolean({ description: 'a boolean' })) },
      exact,
    ),
  ),
};
const A = AGENT_CLIENT_FRAMES;
export const AgentClientFrame = Type.Union([A.ping, A.subscribe, A.unsubscribe, A.typing, A.viewing, A.viewing_stopped]);

/** `conversation_update` of the widget socket: only what the widget shows. */
const WidgetConversationUpdate = Type.Union([
  Type.Object({ uuid, status: status.status, status_category: status.status_category }, exact),
  Type.Object({ uuid, assignee: ChatConversation.properties.assignee }, exact),
  Type.Object({ uuid, contact_last_seen_at: seen.contact_last_seen_at }, exact),
]);

/** Every frame the widget socket sends. */
export const WidgetServerFrame = Type.Union([
  Pong,
  ErrorFrame,
  plainFrame('joined', Type.Object({ message: Type.String() }, exact)),
  eventFrame('new_message', ChatMessage),
  eventFrame('conversation_update', WidgetConversationUpdate),
  plainFrame('typing', Type.Object({ conversation_uuid: uuid, is_typing: Type.Boolean() }, exact)),
]);

/** Every frame the widget may send (`join` carries the session token beside `data`). */
export const WIDGET_CLIENT_FRAMES = {
  ping: AGENT_CLIENT_FRAMES.ping,
  join: Type.Object(
    {
      type: Type.Literal('join'),
      token: Type.String({ minLength: 1, maxLength: 200, description: 'the widget session token' }),
      data: Type.Object({ inbox_id: Type.String({ format: 'uuid', description: 'the inbox uuid' }) }, exact),
    },
    exact,
  ),
  typing: clientFrame('typing', Type.Object({ conversation_uuid: ConversationUuid, is_typing: IsTyping }, exact)),
  page_visit: clientFrame(
    'page_visit',
    Type.Object(
      {
        url: Type.String({ maxLength: 2048, description: 'an http or https URL of at most 2048 characters' }),
        title: Type.Optional(Type.String({ maxLength: 256, description: 'text of at most 256 characters' })),
      },
      exact,
    ),
  ),
};
const W = WIDGET_CLIENT_FRAMES;
export const WidgetClientFrame = Type.Union([W.ping, W.join, W.typing, W.page_visit]);

export type AgentServerFrame = Static<typeof AgentServerFrame>;
export type AgentClientFrame = Static<typeof AgentClientFrame>;
export type WidgetServerFrame = Static<typeof WidgetServerFrame>;
export type WidgetClientFrame = Static<typeof WidgetClientFrame>;
