import { type TSchema, Type } from 'typebox';
import { DateTime, HttpUrlOrEmpty, Nullable, StringEnum } from '../http/schemas.ts';
import { SECRET_MASK } from '../security/encryption.ts';

export const CHANNELS = ['email', 'livechat'] as const;
export type Channel = (typeof CHANNELS)[number];
export const Channel = StringEnum(CHANNELS, { description: 'email | livechat; cannot change after creation' });

const strict = { additionalProperties: false } as const;

// ---------------------------------------------------------------- email config

const TlsMode = StringEnum(['none', 'starttls', 'tls'] as const, { description: 'none | starttls | tls' });
const Host = Type.String({ minLength: 1, maxLength: 253, pattern: '^[^\\s/:@]+$', description: 'Host name or IP address' });
const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const Username = Type.String({ maxLength: 320, default: '' });
const Password = Type.String({ maxLength: 1000, default: '', description: `Stored encrypted; answered as "${SECRET_MASK}". Send the mask back to keep it.` });

export const ImapConfig = Type.Object(
  {
    host: Host,
    port: Port,
    username: Username,
    password: Password,
    tls: TlsMode,
    mailbox: Type.String({ minLength: 1, maxLength: 200, default: 'INBOX' }),
    poll_interval_seconds: Type.Integer({ minimum: 10, maximum: 86400, default: 60 }),
  },
  strict,
);

export const SmtpConfig = Type.Object(
  {
    host: Host,
    port: Port,
    username: Username,
    password: Password,
    tls: TlsMode,
    max_connections: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  strict,
);

export const EmailConfig = Type.Object({ imap: ImapConfig, smtp: SmtpConfig }, { ...strict, title: 'EmailInboxConfig' });

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

const ShortText = (fallback: string, maxLength = 1000) => Type.String({ maxLength, default: fallback });

const ChatPermissions = Type.Object(
  {
    allow_start_conversation: Type.Boolean({ default: true }),
    prevent_multiple_conversations: Type.Boolean({ default: false }),
    prevent_reply_to_closed_conversation: Type.Boolean({ default: false }),
    start_conversation_button_text: ShortText('Start a conversation', 100),
  },
  { ...strict, default: {} },
);

const PrechatField = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$' }),
    type: StringEnum(['text', 'email', 'phone', 'number', 'checkbox', 'date', 'link', 'list', 'textarea'] as const),
    label: Type.String({ minLength: 1, maxLength: 200 }),
    placeholder: ShortText('', 200),
    required: Type.Boolean({ default: false }),
    enabled: Type.Boolean({ default: true }),
    order: Type.Integer({ minimum: 0, maximum: 1000, default: 0 }),
    is_default: Type.Boolean({ default: false }),
    custom_attribute_id: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { default: null }),
  },
  strict,
);

const DEFAULT_PRECHAT_FIELDS = [
  { key: 'name', type: 'text', label: 'Name', placeholder: '', required: true, enabled: true, order: 1, is_default: true, custom_attribute_id: null },
  { key: 'email', type: 'email', label: 'Email', placeholder: '', required: true, enabled: true, order: 2, is_default: true, custom_attribute_id: null },
  { key: 'phone', type: 'phone', label: 'Phone', placeholder: '', required: false, enabled: false, order: 3, is_default: true, custom_attribute_id: null },
];

const Color = Type.String({ pattern: '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$', description: '#RGB or #RRGGBB' });

export const LivechatConfig = Type.Object(
  {
    brand_name: ShortText('Support', 100),
    website_url: HttpUrlOrEmpty({ default: '' }),
    logo_url: HttpUrlOrEmpty({ default: '' }),
    dark_mode: Type.Boolean({ default: false }),
    show_powered_by: Type.Boolean({ default: true }),
    language: Type.String({ minLength: 2, maxLength: 35, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$', default: 'en' }),
    colors: Type.Object({ primary: { ...Color, default: '#2563eb' } }, { ...strict, default: {} }),
    launcher: Type.Object(
      {
        position: StringEnum(['left', 'right'] as const, { default: 'right' }),
        spacing: Type.Object(
          { side: Type.Integer({ minimum: 0, maximum: 200, default: 20 }), bottom: Type.Integer({ minimum: 0, maximum: 200, default: 20 }) },
          { ...strict, default: {} },
        ),
        logo_url: HttpUrlOrEmpty({ default: '' }),
        color: Type.String({ maxLength: 7, pattern: '^(#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}))?$', default: '', description: 'Launcher colour; empty = colors.primary' }),
      },
      { ...strict, default: {} },
    ),
    greeting_message: ShortText('Hi there! How can we help?'),
    introduction_message: ShortText(''),
    chat_introduction: ShortText(''),
    chat_reply_expectation_message: ShortText(''),
    direct_to_conversation: Type.Boolean({ default: false }),
    notice_banner: Type.Object({ enabled: Type.Boolean({ default: false }), text: ShortText('') }, { ...strict, default: {} }),
    show_office_hours_in_chat: Type.Boolean({ default: false }),
    show_office_hours_after_assignment: Type.Boolean({ default: false }),
    users: ChatPermissions,
    visitors: ChatPermissions,
    prechat_form: Type.Object(
      {
        enabled: Type.Boolean({ default: false }),
        title: ShortText('', 200),
        fields: Type.Array(PrechatField, { maxItems: 50, default: DEFAULT_PRECHAT_FIELDS }),
      },
      { ...strict, default: {} },
    ),
    file_upload: Type.Object(
      {
        enabled: Type.Boolean({ default: true }),
        max_size_mb: Type.Number({ exclusiveMinimum: 0, maximum: 100, default: 10 }),
        allowed_extensions: Type.Array(Type.String({ pattern: '^\\.?[A-Za-z0-9]{1,16}$' }), { maxItems: 200, default: DEFAULT_ALLOWED_EXTENSIONS }),
      },
      { ...strict, default: {} },
    ),
    trusted_domains: Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
      maxItems: 200,
      default: [],
      description: 'Host names allowed to embed the widget (no scheme or path; `*.` only as a prefix). Empty = any.',
    }),
    blocked_ips: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 1000, default: [], description: 'IP addresses or CIDR ranges' }),
    session_duration: Type.String({ pattern: '^[1-9][0-9]{0,5}[mhd]$', default: '30d', description: 'Session lifetime of verified contacts, e.g. 30d, 12h, 90m' }),
    business_hours_id: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { default: null }),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone; defaults to the server time zone' })),
    secret: Type.Optional(
      Type.String({
      minLength: 32,
      maxLength: 256,
        description: `JWT secret for verified contacts; generated when absent. Stored encrypted; answered as "${SECRET_MASK}".`,
      }),
    ),
  },
  { ...strict, title: 'LivechatInboxConfig' },
);

// ---------------------------------------------------------------- records and bodies

const ConfigObject = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  description: 'Channel settings: EmailInboxConfig for email, LivechatInboxConfig for livechat (absent live-chat fields take their defaults). Secrets are masked.',
});

/** The spec's Inbox record plus `uuid` (the widget's inbox id). */
export const InboxRecord = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String({ format: 'uuid' }),
    created_at: DateTime,
    updated_at: DateTime,
    name: Type.String(),
    channel: Type.String({ description: 'email | livechat' }),
    enabled: Type.Boolean(),
    csat_enabled: Type.Boolean(),
    from: Nullable(Type.String()),
    config: Type.Object({}, { additionalProperties: true }),
  },
  { title: 'Inbox' },
);

export const InboxCompact = Type.Object({
  id: Type.Integer(),
  uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  channel: Type.String(),
  enabled: Type.Boolean(),
});

const Name = Type.String({ minLength: 1, maxLength: 140, pattern: '\\S' });
const From = Nullable(Type.String({ maxLength: 320, description: 'Sender address, e.g. "support@example.com" or "Support <support@example.com>"; required for email inboxes' }));

export const CreateInboxBody = Type.Object(
  {
    name: Name,
    channel: Channel,
    enabled: Type.Optional(Type.Boolean({ default: true })),
    csat_enabled: Type.Optional(Type.Boolean({ default: false })),
    from: Type.Optional(From),
    config: ConfigObject,
  },
  strict,
);

// Read-only fields a client may echo back from a GET: accepted and ignored.
const Echoed: TSchema = Type.Unknown({ description: 'Read-only; ignored' });

export const UpdateInboxBody = Type.Object(
  {
    name: Type.Optional(Name),
    enabled: Type.Optional(Type.Boolean()),
    csat_enabled: Type.Optional(Type.Boolean()),
    from: Type.Optional(From),
    config: Type.Optional(ConfigObject),
    channel: Type.Optional(StringEnum(CHANNELS, { description: 'Read-only: must equal the current channel when sent' })),
    id: Type.Optional(Echoed),
    uuid: Type.Optional(Echoed),
    created_at: Type.Optional(Echoed),
    updated_at: Type.Optional(Echoed),
  },
  { ...strict, description: 'Partial update. `config`, when sent, replaces the whole config (absent live-chat fields take their defaults; absent or masked secrets keep their stored value).' },
);

export const ToggleInboxBody = Type.Object({ enabled: Type.Boolean() }, strict);
