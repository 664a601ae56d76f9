import { type Static, type TSchema, Type } from 'typebox';
import { DateTime, HttpUrlOrEmpty, Nullable, PutBody, StringEnum } from '../http/schemas.ts';
import { SECRET_MASK } from '../security/encryption.ts';
import { CHANNEL_NAMES } from './channels.ts';
import { EmailConfig } from './inboxes.email-config.ts';

/**
 * A trusted_domains entry, once trimmed and lower-cased: a host name (`*.` only as a prefix) or
 * an [IPv6] address, with an optional port. The API refuses anything else (400 naming the entry),
 * and the widget writes exactly these into its frame's CSP `frame-ancestors` (widget.assets.ts),
 * so no accepted entry is silently left out there, and nothing else can reach the header.
 */
export const TRUSTED_DOMAIN =
  /^((\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(:[0-9]{1,5})?$/;

export { EmailConfig, ImapConfig, SmtpConfig } from './inboxes.email-config.ts';

/** The channels of inboxes (their traits: channels.ts). */
export const CHANNELS = CHANNEL_NAMES;
export type Channel = (typeof CHANNELS)[number];
export const Channel = StringEnum(CHANNELS, { description: 'email | livechat; cannot change after creation' });

const strict = { additionalProperties: false } as const;

// Config schemas serve both directions: a field with a default may be left out of a request (the
// default is filled in) and is always present in a response. Each `title` names an OpenAPI component.
const Defaulted = Type.Optional;

// ---------------------------------------------------------------- live-chat config

export const DEFAULT_ALLOWED_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'pdf',
  'txt',
  'csv',
  'log',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'zip',
  'mp3',
  'mp4',
  'mov',
];

const ShortText = (fallback: string, maxLength = 1000) => Defaulted(Type.String({ maxLength, default: fallback }));

const ChatPermissions = Type.Object(
  {
    allow_start_conversation: Defaulted(Type.Boolean({ default: true })),
    prevent_multiple_conversations: Defaulted(Type.Boolean({ default: false })),
    prevent_reply_to_closed_conversation: Defaulted(Type.Boolean({ default: false })),
    start_conversation_button_text: ShortText('Start a conversation', 100),
  },
  { ...strict, default: {}, title: 'LivechatPermissions' },
);

const PrechatField = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$' }),
    type: StringEnum(['text', 'email', 'phone', 'number', 'checkbox', 'date', 'link', 'list', 'textarea'] as const),
    label: Type.String({ minLength: 1, maxLength: 200 }),
    placeholder: ShortText('', 200),
    required: Defaulted(Type.Boolean({ default: false })),
    enabled: Defaulted(Type.Boolean({ default: true })),
    order: Defaulted(Type.Integer({ minimum: 0, maximum: 1000, default: 0 })),
    is_default: Defaulted(Type.Boolean({ default: false })),
    custom_attribute_id: Defaulted(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { default: null })),
  },
  { ...strict, title: 'PrechatField' },
);

const DEFAULT_PRECHAT_FIELDS = [
  {
    key: 'name',
    type: 'text',
    label: 'Name',
    placeholder: '',
    required: true,
    enabled: true,
    order: 1,
    is_default: true,
    custom_attribute_id: null,
  },
  {
    key: 'email',
    type: 'email',
    label: 'Email',
    placeholder: '',
    required: true,
    enabled: true,
    order: 2,
    is_default: true,
    custom_attribute_id: null,
  },
  {
    key: 'phone',
    type: 'phone',
    label: 'Phone',
    placeholder: '',
    required: false,
    enabled: false,
    order: 3,
    is_default: true,
    custom_attribute_id: null,
  },
];

const UrlOrEmpty = Defaulted(HttpUrlOrEmpty({ default: '' }));
const Color = Type.String({ pattern: '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$', description: '#RGB or #RRGGBB' });

export const LivechatConfig = Type.Object(
  {
    brand_name: ShortText('Support', 100),
    website_url: UrlOrEmpty,
    logo_url: UrlOrEmpty,
    dark_mode: Defaulted(Type.Boolean({ default: false })),
    show_powered_by: Defaulted(Type.Boolean({ default: true })),
    language: Defaulted(Type.String({ minLength: 2, maxLength: 35, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$', default: 'en' })),
    colors: Defaulted(Type.Object({ primary: Defaulted({ ...Color, default: '#2563eb' }) }, { ...strict, default: {} })),
    launcher: Defaulted(
      Type.Object(
        {
          position: Defaulted(StringEnum(['left', 'right'] as const, { default: 'right' })),
          spacing: Defaulted(
            Type.Object(
              {
                side: Defaulted(Type.Integer({ minimum: 0, maximum: 200, default: 20 })),
                bottom: Defaulted(Type.Integer({ minimum: 0, maximum: 200, default: 20 })),
              },
              { ...strict, default: {} },
            ),
          ),
          logo_url: UrlOrEmpty,
          color: Defaulted(
            Type.String({
              maxLength: 7,
              pattern: '^(#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}))?$',
              default: '',
              description: 'Launcher colour; empty = colors.primary',
            }),
          ),
        },
        { ...strict, default: {} },
      ),
    ),
    greeting_message: ShortText('Hi there! How can we help?'),
    introduction_message: ShortText(''),
    chat_introduction: ShortText(''),
    chat_reply_expectation_message: ShortText(''),
    direct_to_conversation: Defaulted(Type.Boolean({ default: false })),
    notice_banner: Defaulted(
      Type.Object({ enabled: Defaulted(Type.Boolean({ default: false })), text: ShortText('') }, { ...strict, default: {} }),
    ),
    show_office_hours_in_chat: Defaulted(Type.Boolean({ default: false })),
    show_office_hours_after_assignment: Defaulted(Type.Boolean({ default: false })),
    away_message: ShortText("We're away right now. Leave us a message and we'll answer as soon as we're back."),
    users: Defaulted(ChatPermissions),
    visitors: Defaulted(ChatPermissions),
    prechat_form: Defaulted(
      Type.Object(
        {
          enabled: Defaulted(Type.Boolean({ default: false })),
          title: ShortText('', 200),
          fields: Defaulted(Type.Array(PrechatField, { maxItems: 50, default: DEFAULT_PRECHAT_FIELDS })),
        },
        { ...strict, default: {} },
      ),
    ),
    file_upload: Defaulted(
      Type.Object(
        {
          enabled: Defaulted(Type.Boolean({ default: true })),
          max_size_mb: Defaulted(Type.Number({ exclusiveMinimum: 0, maximum: 100, default: 10 })),
          allowed_extensions: Defaulted(
            Type.Array(Type.String({ pattern: '^\\.?[A-Za-z0-9]{1,16}$' }), { maxItems: 200, default: DEFAULT_ALLOWED_EXTENSIONS }),
          ),
        },
        { ...strict, default: {} },
      ),
    ),
    trusted_domains: Defaulted(
      Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
        maxItems: 200,
        default: [],
        description:
          'Host names (or [IPv6]) allowed to embed the widget, with an optional port (no scheme or path; `*.` only as a prefix). Empty = any.',
      }),
    ),
    blocked_ips: Defaulted(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 1000, default: [], description: 'IP addresses or CIDR ranges' }),
    ),
    session_duration: Defaulted(
      Type.String({
        pattern: '^[1-9][0-9]{0,5}[mhd]$',
        default: '30d',
        description: 'Session lifetime of verified contacts, e.g. 30d, 12h, 90m',
      }),
    ),
    business_hours_id: Defaulted(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { default: null })),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone; defaults to the server time zone' })),
    // Answers carry the mask instead of the secret, and the mask sent back keeps the stored one.
    secret: Type.Optional(
      Type.Union([Type.String({ minLength: 32, maxLength: 256 }), Type.Literal(SECRET_MASK)], {
        description: `JWT secret for verified contacts, 32..256 characters; generated when absent. Stored encrypted; answered as "${SECRET_MASK}".`,
      }),
    ),
  },
  { ...strict, title: 'LivechatInboxConfig' },
);

// ---------------------------------------------------------------- records and bodies
//
// The edge checks the top level of a body and leaves `config` to the service, which checks it with
// the schemas above once the channel is known (on update, from the stored row) and masked secrets
// are put back. The OpenAPI document shows those schemas per channel: the `Documented*` schemas.

const ConfigObject = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  description:
    'Channel settings: EmailInboxConfig for email, LivechatInboxConfig for livechat (absent fields take their defaults). Secrets are masked.',
});

/** A union told apart by `channel`; the mapping names the components the members' titles make. */
function byChannel<E extends TSchema, L extends TSchema>(title: string, email: E, livechat: L) {
  const component = (member: TSchema) => `#/components/schemas/${(member as { title?: string }).title}`;
  return Type.Unsafe<Static<E> | Static<L>>({
    title,
    oneOf: [email, livechat],
    discriminator: { propertyName: 'channel', mapping: { email: component(email), livechat: component(livechat) } },
  });
}

const recordFields = {
  id: Type.Integer(),
  uuid: Type.String({ format: 'uuid' }),
  created_at: DateTime,
  updated_at: DateTime,
  name: Type.String(),
  enabled: Type.Boolean(),
  csat_enabled: Type.Boolean(),
  default_team_id: Nullable(Type.Integer({ description: 'The team a new conversation arriving without one enters; null: none' })),
  assign_on_first_reply: Type.Boolean({ description: 'An unassigned conversation goes to the agent who sends its first public reply' }),
  from: Nullable(Type.String()),
};

/** The spec's Inbox record plus `uuid` (the widget's inbox id), as written: config as the service masked it. */
export const InboxRecord = Type.Object({ ...recordFields, channel: Channel, config: Type.Object({}, { additionalProperties: true }) });

export const DocumentedInbox = byChannel(
  'Inbox',
  Type.Object({ ...recordFields, channel: Type.Literal('email'), config: EmailConfig }, { title: 'EmailInbox' }),
  Type.Object({ ...recordFields, channel: Type.Literal('livechat'), config: LivechatConfig }, { title: 'LivechatInbox' }),
);

export const InboxCompact = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String({ format: 'uuid' }),
    name: Type.String(),
    channel: Channel,
    enabled: Type.Boolean(),
  },
  { title: 'InboxCompact' },
);

const Name = Type.String({ minLength: 1, maxLength: 140, pattern: '\\S' });
const FROM_TEXT = 'Sender address, e.g. "support@example.com" or "Support <support@example.com>"';
const From = Nullable(Type.String({ maxLength: 320, description: `${FROM_TEXT}; required for email inboxes` }));

const DefaultTeamId = Nullable(
  Type.Integer({
    minimum: 1,
    description:
      "A team id: a new conversation of the inbox arriving without a team enters it (the team's SLA policy and round robin apply); null: none",
  }),
);
const AssignOnFirstReply = Type.Boolean({
  description: 'An unassigned conversation of the inbox goes to the agent who sends its first public reply',
});

const createFields = {
  name: Name,
  enabled: Type.Optional(Type.Boolean({ default: true })),
  csat_enabled: Type.Optional(Type.Boolean({ default: false })),
  default_team_id: Type.Optional(DefaultTeamId),
  assign_on_first_reply: Type.Optional(AssignOnFirstReply),
};

export const CreateInboxBody = Type.Object({ ...createFields, channel: Channel, from: Type.Optional(From), config: ConfigObject }, strict);

export const DocumentedCreateInboxBody = byChannel(
  'CreateInbox',
  Type.Object(
    {
      ...createFields,
      channel: Type.Literal('email'),
      from: Type.String({ minLength: 1, maxLength: 320, description: FROM_TEXT }),
      config: EmailConfig,
    },
    { ...strict, title: 'CreateEmailInbox' },
  ),
  Type.Object(
    { ...createFields, channel: Type.Literal('livechat'), from: Type.Optional(From), config: LivechatConfig },
    { ...strict, title: 'CreateLivechatInbox' },
  ),
);

function updateBody<C extends TSchema>(config: C, options: Record<string, unknown> = {}) {
  return Type.Object(
    {
      name: Type.Optional(Name),
      enabled: Type.Optional(Type.Boolean()),
      csat_enabled: Type.Optional(Type.Boolean()),
      default_team_id: Type.Optional(DefaultTeamId),
      assign_on_first_reply: Type.Optional(AssignOnFirstReply),
      from: Type.Optional(From),
      config: Type.Optional(config),
      channel: Type.Optional(StringEnum(CHANNELS, { description: 'Read-only: must equal the current channel when sent' })),
    },
    {
      ...strict,
      description:
        'Partial update. `config`, when sent, replaces the whole config (absent fields take their defaults; absent or masked secrets keep their stored value).',
      ...options,
    },
  );
}

// The record's read-only fields (id, uuid, timestamps…) are accepted and ignored (PutBody).
export const UpdateInboxBody = PutBody(updateBody(ConfigObject), InboxRecord);

export const DocumentedUpdateInboxBody = PutBody(
  updateBody(
    Type.Unsafe<Record<string, unknown>>({ oneOf: [EmailConfig, LivechatConfig], description: "The config of the inbox's channel" }),
  ),
  InboxRecord,
  { title: 'UpdateInbox' },
);

export const ToggleInboxBody = Type.Object({ enabled: Type.Boolean() }, strict);
