// Request and response schemas of the widget API (docs/api.md, "Live chat (widget API)").
import { Type } from 'typebox';
import { LivechatConfig } from '../inboxes/inboxes.schema.ts';
import { BusinessHoursRecord } from '../business-hours/business-hours.schema.ts';
import { Nullable, NullableDateTime } from '../http/schemas.ts';
import { ChatConversation, ChatMessage, WidgetUser } from './widget.shapes.ts';

const strict = { additionalProperties: false } as const;

/**
 * Every widget route accepts the inbox as a query parameter (the header X-Service-Inbox-ID wins).
 * Other query parameters are accepted and ignored (a browser's cache-buster such as `_=1700000000`):
 * the widget routes are public and called by browsers. `additionalProperties: true` keeps the
 * API's closing of querystrings (http/validation.ts) away from them; the other routes still refuse
 * unknown parameters.
 */
export const InboxQuery = Type.Object(
  {
    inbox_id: Type.Optional(
      Type.String({ description: 'The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins)' }),
    ),
  },
  { additionalProperties: true, description: 'Unknown query parameters are ignored' },
);

export const ConversationParams = Type.Object({
  uuid: Type.String({
    pattern: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$',
    description: 'Conversation uuid',
  }),
});

export const ExchangeBody = Type.Object(
  { jwt: Type.String({ minLength: 1, maxLength: 8192, description: 'A JWT signed by your server with the inbox secret (HS256/384/512)' }) },
  strict,
);

const Message = Type.String({ minLength: 1, maxLength: 10000, description: 'Plain text, 1..10000 characters' });

const FormData = Type.Unsafe<Record<string, string | number | boolean>>({
  type: 'object',
  maxProperties: 100,
  propertyNames: { minLength: 1, maxLength: 100 },
  additionalProperties: { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }] },
  description:
    'Pre-chat form values by field key (at most 100; text up to 1000 characters, numbers, booleans). Checked against the enabled fields when the form is enabled; other keys are ignored.',
});

export const InitBody = Type.Object({ message: Message, form_data: Type.Optional(FormData) }, strict);
export const MessageBody = Type.Object({ message: Message }, strict);

export const LauncherSettings = Type.Object(
  {
    launcher: Type.Object({
      spacing: Type.Object({ side: Type.Integer(), bottom: Type.Integer() }),
      logo_url: Type.String(),
      position: Type.String({ enum: ['left', 'right'] }),
      color: Type.String(),
    }),
    colors: Type.Object({ primary: Type.String() }),
  },
  { title: 'WidgetLauncherSettings' },
);

const HoursId = Nullable(
  Type.Integer({
    description:
      "The business hours in effect: the conversation's team's, else the inbox's, else the installation's default; null without any",
  }),
);
const UtcOffset = Nullable(
  Type.Integer({ description: "Minutes east of UTC of the business hours' time zone now (DST-aware); null without business hours" }),
);

const HIDDEN = new Set(['secret', 'trusted_domains', 'blocked_ips', 'session_duration', 'business_hours_id']);
const publicConfig = Object.fromEntries(Object.entries(LivechatConfig.properties).filter(([key]) => !HIDDEN.has(key)));

export const WidgetSettings = Type.Object(
  {
    ...publicConfig,
    // URLs as plain strings in answers (they were checked when the admin saved them).
    website_url: Type.Optional(Type.String()),
    logo_url: Type.Optional(Type.String()),
    launcher: Type.Optional(
      Type.Object({
        position: Type.Optional(Type.String({ enum: ['left', 'right'] })),
        spacing: Type.Optional(Type.Object({ side: Type.Optional(Type.Integer()), bottom: Type.Optional(Type.Integer()) })),
        logo_url: Type.Optional(Type.String()),
        color: Type.Optional(Type.String()),
      }),
    ),
    business_hours: Nullable(
      Type.Array(BusinessHoursRecord, {
        description:
          "The business hours in effect (the inbox's, else the installation's default), only when `show_office_hours_in_chat`; else null",
      }),
    ),
    business_hours_id: HoursId,
    working_hours_utc_offset: UtcOffset,
    is_open: Type.Boolean({ description: 'Whether the business hours in effect are open now (true without business hours)' }),
    next_open_at: { ...NullableDateTime, description: 'When closed: the next opening; null when open or none within ten years' },
  },
  {
    title: 'WidgetSettings',
    description:
      'The inbox configuration without its secret, trusted domains, blocked addresses and session lifetime; the pre-chat form lists only enabled fields when it is enabled.',
  },
);

export const ConversationWithMessages = Type.Object(
  {
    conversation: ChatConversation,
    messages: Type.Array(ChatMessage, { description: 'Newest first, at most 400' }),
    business_hours_id: HoursId,
    working_hours_utc_offset: UtcOffset,
  },
  { title: 'WidgetConversation' },
);

export const InitResult = Type.Object(
  {
    conversation: ChatConversation,
    messages: Type.Array(ChatMessage, { description: 'Newest first' }),
    business_hours_id: HoursId,
    working_hours_utc_offset: UtcOffset,
    session_token: Type.Optional(Type.String({ description: 'Only for a new visitor: keep it and send it as a bearer token' })),
    user: Type.Optional(WidgetUser),
  },
  { title: 'WidgetInitResult' },
);

export const ExchangeResult = Type.Object({ session_token: Type.String(), user: WidgetUser }, { title: 'WidgetSession' });

/** For the OpenAPI document only: the upload route reads its multipart body as a stream. */
export const WidgetUploadBody = Type.Object({
  conversation_uuid: Type.String({ description: 'The conversation the files go to' }),
  files: Type.Array(Type.String({ format: 'binary' }), { description: 'One or more file parts named `files`' }),
});
