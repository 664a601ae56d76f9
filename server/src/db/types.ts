// Kysely table types: the database as the code sees it. Columns are snake_case.
import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';
import type { Weekday } from '../business-hours/business-hours.calendar.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T | undefined, string | T>;

// Every set of values a column holds, declared once: the column types, the migrations' checks and
// the request and response schemas (docs/api.md, Enums) all mean these lists.
export const USER_TYPES = ['agent', 'contact', 'visitor'] as const;
export type UserType = (typeof USER_TYPES)[number];
export const AVAILABILITIES = ['available', 'busy', 'away', 'offline'] as const;
export type Availability = (typeof AVAILABILITIES)[number];
export const AVAILABILITY_SOURCES = ['user', 'idle'] as const;
export type AvailabilitySource = (typeof AVAILABILITY_SOURCES)[number];
export const STATUS_CATEGORIES = ['open', 'waiting', 'resolved'] as const;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];
export const ASSIGNMENT_TYPES = ['round_robin', 'manual'] as const;
export type AssignmentType = (typeof ASSIGNMENT_TYPES)[number];

export interface UsersTable {
  id: Generated<number>;
  type: UserType;
  email: string | null;
  first_name: Generated<string>;
  last_name: Generated<string>;
  password_hash: string | null;
  availability_status: Generated<Availability>;
  availability_source: Generated<AvailabilitySource>;
  /** What the agent was before the absence rule put it offline (restored when its socket opens). */
  absent_from_status: Exclude<Availability, 'offline'> | null;
  absent_from_source: AvailabilitySource | null;
  phone_number_country_code: string | null;
  phone_number: string | null;
  avatar_url: string | null;
  enabled: Generated<boolean>;
  last_active_at: NullableTimestamp;
  last_login_at: NullableTimestamp;
  custom_attributes: Json<Record<string, unknown>>;
  external_user_id: string | null;
  /** A contact's choice: remote images in its messages load in the web app without a click. */
  load_remote_images: Generated<boolean>;
  api_key: string | null;
  api_secret_hash: string | null;
  api_key_last_used_at: NullableTimestamp;
  /** Two-factor sign-in (TOTP): on once a code confirmed the secret. */
  two_factor_enabled: Generated<boolean>;
  /** The TOTP secret, encrypted (security/encryption.ts); the pending one awaits its first code. */
  two_factor_secret: string | null;
  two_factor_pending_secret: string | null;
  /** The last TOTP time step a code was accepted for: a code is accepted once. */
  two_factor_last_step: number | null;
  deleted_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
  permissions: ColumnType<string[], string[] | undefined, string[]>;
  is_builtin: Generated<boolean>;
  /** Its agents must sign in with two factors (a password session is held at enrolment until then). */
  require_2fa: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 of the normalised code. */
  code_hash: string;
  used_at: NullableTimestamp;
}

/** A password sign-in waiting for its second factor; `id` is the sha256 of the challenge. */
export interface MfaChallengesTable {
  id: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  failures: Generated<number>;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface TeamsTable {
  id: Generated<number>;
  name: string;
  emoji: Generated<string>;
  conversation_assignment_type: Generated<AssignmentType>;
  timezone: Generated<string>;
  business_hours_id: number | null;
  sla_policy_id: number | null;
  max_auto_assigned_conversations: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  last_assigned_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface TagsTable {
  id: Generated<number>;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ConversationStatusesTable {
  id: Generated<number>;
  name: string;
  category: StatusCategory;
  is_system: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ConversationPrioritiesTable {
  id: Generated<number>;
  name: string;
  rank: number;
  created_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  expires_at: Timestamp;
  created_at: Timestamp;
  user_agent: string | null;
  ip: string | null;
  /** The single sign-on provider that opened the session; null for a password sign-in. */
  oidc_provider_id: number | null;
  /** Names the session in the API (the id, a hash of the cookie, never leaves the server). */
  public_id: Generated<string>;
  /** Last use, written at most once a minute; null until first used. */
  last_seen_at: NullableTimestamp;
}

export interface ConversationFollowersTable {
  conversation_id: number;
  agent_id: number;
  created_at: Timestamp;
}

/** An agent socket viewing a conversation now (viewers/viewers.live.ts): refreshed every 20 s by its instance, swept after 60 s. */
export interface ConversationViewersTable {
  conversation_id: number;
  /** The socket: `<instance>:<n>`; one agent with two tabs has two rows and is one viewer. */
  socket_key: string;
  agent_id: number;
  instance: string;
  /** The socket's typing frames say a public reply is being written. */
  replying: boolean;
  since: Timestamp;
  seen_at: Timestamp;
}

/** What an agent is writing in a conversation (one per agent and conversation; sending deletes it, a trigger). */
export interface ConversationDraftsTable {
  conversation_id: number;
  agent_id: number;
  content: string;
  private: Generated<boolean>;
  attachments: Generated<string[]>;
  updated_at: Timestamp;
}

/** A mention of an agent in a private note, written once the agent's access is checked (a team's mention: one row per member who may read). */
export interface ConversationMentionsTable {
  id: Generated<number>;
  conversation_id: number;
  message_id: number;
  agent_id: number;
  created_at: Timestamp;
}

export const NOTIFICATION_TYPES = ['assigned', 'team_assigned', 'mentioned', 'reply', 'sla_warning', 'sla_breached'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_ACTOR_TYPES = ['agent', 'contact', 'automation', 'system'] as const;
export const NOTIFICATION_EMAIL_STATUSES = ['none', 'pending', 'sent'] as const;

/** One notification of one agent, unique per cause (the domain event) and type. */
export interface NotificationsTable {
  id: Generated<number>;
  agent_id: number;
  type: NotificationType;
  cause_event_id: number;
  conversation_id: number;
  message_id: number | null;
  actor_type: (typeof NOTIFICATION_ACTOR_TYPES)[number] | null;
  actor_id: number | null;
  actor_name: Generated<string>;
  title: string;
  excerpt: Generated<string>;
  created_at: Timestamp;
  read_at: NullableTimestamp;
  /** Shown in the app; false: made only for mail or push. */
  in_app: Generated<boolean>;
  email_status: Generated<(typeof NOTIFICATION_EMAIL_STATUSES)[number]>;
}

/** An agent's notification preferences; `types` holds only what differs from the defaults (notifications/notification-settings.ts). */
export interface NotificationSettingsTable {
  agent_id: number;
  types: Json<Record<string, Partial<Record<'in_app' | 'email' | 'push', boolean>>>>;
  email_digest: Generated<boolean>;
  sound: Generated<boolean>;
  title_count: Generated<boolean>;
  updated_at: Timestamp;
}

/** The installation's VAPID key pair (one row, id 1); `private_key` is encrypted with SECRET_KEY (push/push.vapid.ts). */
export interface PushVapidKeysTable {
  id: Generated<number>;
  public_key: string;
  private_key: string;
  created_at: Timestamp;
}

/** A browser's push subscription (RFC 8030), owned by one agent; the endpoint is a bearer capability. */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  agent_id: number;
  /** The sign-in that subscribed (null: API credentials): its end deletes the subscription (on delete cascade). */
  session_id: string | null;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_success_at: NullableTimestamp;
}

/** Append-only (audit/audit.service.ts): the database refuses updates and deletes but the retention purge's. */
export interface AuditLogTable {
  id: Generated<string>;
  created_at: Timestamp;
  actor_type: 'agent' | 'api_key' | 'system' | 'automation';
  /** The agent (for `agent` and `api_key`) or the automation rule; null for the system. */
  actor_id: number | null;
  actor_name: string;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  resource_name: string;
  /** `{"<field>": [before, after]}`, secrets masked. */
  changes: Json<Record<string, [unknown, unknown]>>;
}

/** Invitation and password-reset links (agents/password-tokens.service.ts); only the token's sha256 is kept. */
export interface PasswordTokensTable {
  id: Generated<string>;
  token_hash: string;
  user_id: number;
  kind: 'invitation' | 'password_reset';
  /** The address the link was mailed to: the token works only while the agent's email is still this. */
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface WidgetSessionsTable {
  token_hash: string;
  inbox_id: number;
  user_id: number;
  is_visitor: boolean;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface DomainEventsTable {
  id: Generated<string>;
  type: string;
  payload: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface JobsTable {
  /** bigserial, read as a number (the int8 parser). */
  id: Generated<number>;
  kind: string;
  payload: Json<Record<string, unknown>>;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_by: string | null;
  locked_until: NullableTimestamp;
  last_error: string | null;
  completed_at: NullableTimestamp;
  /** Set when the last attempt failed: the job is dead (kept, never retried). */
  failed_at: NullableTimestamp;
  /** At most one pending job per key (unique among jobs neither completed nor dead). */
  dedupe_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InboxesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  name: string;
  channel: 'email' | 'livechat';
  enabled: Generated<boolean>;
  csat_enabled: Generated<boolean>;
  /** The team a new conversation without one enters (migration 0501); null when none. */
  default_team_id: Generated<number | null>;
  /** An unassigned conversation goes to the agent who sends its first public reply (migration 0501). */
  assign_on_first_reply: Generated<boolean>;
  from: string | null;
  config: Json<Record<string, unknown>>;
  deleted_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactNotesTable {
  id: Generated<number>;
  contact_id: number;
  user_id: number | null;
  note: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RealtimeCursorTable {
  name: string;
  last_id: number;
  updated_at: Timestamp;
}

export interface ContactPageVisitsTable {
  id: Generated<number>;
  contact_id: number;
  url: string;
  title: string;
  visited_at: Timestamp;
}

export interface AgentPresenceTable {
  agent_id: number;
  last_seen_at: Timestamp;
}

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'dead', 'refused'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
export const WEBHOOK_ATTEMPT_OUTCOMES = ['succeeded', 'failed', 'refused'] as const;
export type WebhookAttemptOutcome = (typeof WEBHOOK_ATTEMPT_OUTCOMES)[number];

export interface WebhooksTable {
  id: Generated<number>;
  name: string;
  url: string;
  enabled: Generated<boolean>;
  events: ColumnType<string[], string[] | undefined, string[]>;
  headers: Json<Record<string, string>>;
  /** whsec_…, encrypted at rest. */
  secret: string;
  failing_since: NullableTimestamp;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  /** bigserial, read as a number (the int8 parser). */
  id: Generated<number>;
  /** The webhook-id header. */
  uuid: Generated<string>;
  webhook_id: number;
  event_id: number | null;
  event_type: string;
  event_payload: Json<Record<string, unknown>>;
  /** The exact request body, frozen at the first attempt. */
  body: string | null;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  locked_by: string | null;
  locked_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  manual: Generated<boolean>;
  outcome: WebhookAttemptOutcome;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_snippet: string | null;
  started_at: Timestamp;
}

/** What became of a mail seen in an email inbox (docs/email.md). */
export type MailOutcome = 'stored' | 'sent' | 'bounce' | 'auto_reply' | 'ignored';

/** Every Message-ID an email inbox saw or sent: threading, and each mail counted once. */
export interface MailIdsTable {
  id: Generated<number>;
  inbox_id: number;
  /** The Message-ID without angle brackets, as written. */
  header_id: string;
  conversation_id: number | null;
  message_id: number | null;
  direction: 'incoming' | 'outgoing';
  outcome: Generated<MailOutcome>;
  created_at: Generated<Date>;
}

/** How far an inbox's reader got in its mailbox. */
export interface EmailCursorsTable {
  inbox_id: number;
  mailbox: string;
  uidvalidity: number;
  last_uid: Generated<number>;
  updated_at: Generated<Date>;
}

export type EmailReaderState = 'stopped' | 'connecting' | 'idle' | 'polling' | 'reading' | 'failing';

/** The lease of an inbox's reader (one instance at a time) and what admins see of it. */
export interface EmailReadersTable {
  inbox_id: number;
  holder: string | null;
  lease_until: Date | null;
  state: Generated<EmailReaderState>;
  connected_at: Date | null;
  last_checked_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  updated_at: Generated<Date>;
}

/** A mail the reader could not take in (too large, unreadable): listed for admins, then passed. */
export interface EmailSkippedTable {
  id: Generated<number>;
  inbox_id: number;
  uidvalidity: number | null;
  uid: number | null;
  header_id: string | null;
  sender: string | null;
  subject: string | null;
  size: number | null;
  reason: string;
  created_at: Generated<Date>;
}

export interface OidcProvidersTable {
  id: Generated<number>;
  name: string;
  provider: Generated<string>;
  provider_url: string;
  client_id: string;
  /** Encrypted at rest. */
  client_secret: string;
  logo_url: Generated<string>;
  enabled: Generated<boolean>;
  auto_provision: Generated<boolean>;
  provision_role_id: number | null;
  /** The agent who last set its issuer, client id or client secret (oidc.trust.ts); null: nobody vouches for it. */
  configured_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The provider account (`sub`) each agent signs in with, per provider (oidc.trust.ts). */
export interface OidcIdentitiesTable {
  provider_id: number;
  user_id: number;
  subject: string;
  created_at: Generated<Date>;
}

export interface AiProvidersTable {
  id: Generated<number>;
  kind: Generated<'completion'>;
  provider: 'openai';
  /** Encrypted at rest. */
  api_key: string;
  base_url: string | null;
  model: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AiPromptsTable {
  id: Generated<number>;
  key: string;
  title: string;
  content: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BusinessHoursTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
  timezone: string;
  always_open: Generated<boolean>;
  /** Every weekday → its open intervals (business-hours.calendar.ts: Schedule). */
  hours: Json<Record<Weekday, Array<{ open: string; close: string }>>>;
  holidays: Json<Array<{ date: string; name: string; yearly: boolean }>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Each move of a conversation into a resolved status (the service report). */
export interface ConversationResolutionsTable {
  id: Generated<number>;
  conversation_id: number;
  resolved_at: Date;
  conversation_created_at: Date;
  inbox_id: number;
  /** The assignee and team at that moment. */
  assignee_id: number | null;
  team_id: number | null;
  /** resolved_at − conversation_created_at, generated by the database (migration 0025). */
  seconds: GeneratedAlways<number>;
}

/** The fate of one SLA deadline (the service report): met, or breached. */
export interface SlaOutcomesTable {
  id: Generated<number>;
  applied_sla_id: number;
  conversation_id: number;
  metric: 'first_response' | 'next_response' | 'resolution';
  /** The cycle this outcome decides (applied_sla_metrics.started_at): one row per cycle. */
  started_at: Date;
  /** The cycle's deadline when it was decided. */
  deadline_at: Date;
  outcome: 'met' | 'breached';
  at: Date;
}

/** The one row of the installation's general settings. */
export interface GeneralSettingsTable {
  id: Generated<boolean>;
  business_hours_id: number | null;
  /** Null: the TIMEZONE environment variable. */
  timezone: string | null;
  updated_at: Timestamp;
}

export interface SlaPoliciesTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
  first_response_minutes: number | null;
  next_response_minutes: number | null;
  resolution_minutes: number | null;
  warning_minutes: number | null;
  business_hours_only: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export const SLA_METRICS = ['first_response', 'next_response', 'resolution'] as const;
export type SlaMetric = (typeof SLA_METRICS)[number];

/** One application of a policy to a conversation, with a copy of what it counts by. */
export interface AppliedSlasTable {
  id: Generated<number>;
  conversation_id: number;
  /** Null once the policy is deleted. */
  sla_policy_id: number | null;
  applied_at: Timestamp;
  warning_minutes: number | null;
  business_hours_only: boolean;
}

/** One metric of an applied SLA: a deadline and its fate. */
export interface AppliedSlaMetricsTable {
  applied_sla_id: number;
  metric: SlaMetric;
  target_minutes: number;
  /**
   * When this deadline's cycle started: the SLA's application for first response and resolution,
   * the contact's message that owes it for a next response. A wait never moves it.
   */
  started_at: Date;
  /** Null while frozen (the conversation waits) or, for next response, while no reply is owed. */
  deadline_at: NullableTimestamp;
  warn_at: NullableTimestamp;
  met_at: NullableTimestamp;
  warned_at: NullableTimestamp;
  breached_at: NullableTimestamp;
  /** The working (or calendar) minutes left, frozen while the conversation waits. */
  remaining_minutes: number | null;
}

export const CSAT_CHANNELS = ['livechat', 'email'] as const;
export type CsatChannel = (typeof CSAT_CHANNELS)[number];

/** A CSAT survey: at most one per conversation; rating and submitted_at are null until answered. */
export interface CsatSurveysTable {
  id: Generated<number>;
  uuid: Generated<string>;
  conversation_id: number;
  sent_via: CsatChannel;
  /** The conversation's inbox, assignee and team when the survey was sent (migration 0025). */
  inbox_id: number;
  assignee_id: number | null;
  team_id: number | null;
  rating: number | null;
  feedback: Generated<string>;
  submitted_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface Database extends ConversationDatabase {
  inboxes: InboxesTable;
  contact_notes: ContactNotesTable;
  users: UsersTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  mfa_challenges: MfaChallengesTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  tags: TagsTable;
  conversation_statuses: ConversationStatusesTable;
  conversation_priorities: ConversationPrioritiesTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
  conversation_followers: ConversationFollowersTable;
  conversation_drafts: ConversationDraftsTable;
  conversation_mentions: ConversationMentionsTable;
  conversation_viewers: ConversationViewersTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  push_vapid_keys: PushVapidKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  password_tokens: PasswordTokensTable;
  widget_sessions: WidgetSessionsTable;
  domain_events: DomainEventsTable;
  realtime_cursor: RealtimeCursorTable;
  contact_page_visits: ContactPageVisitsTable;
  agent_presence: AgentPresenceTable;
  jobs: JobsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  oidc_providers: OidcProvidersTable;
  oidc_identities: OidcIdentitiesTable;
  ai_providers: AiProvidersTable;
  ai_prompts: AiPromptsTable;
  mail_ids: MailIdsTable;
  email_cursors: EmailCursorsTable;
  email_readers: EmailReadersTable;
  email_skipped: EmailSkippedTable;
  business_hours: BusinessHoursTable;
  general_settings: GeneralSettingsTable;
  conversation_resolutions: ConversationResolutionsTable;
  sla_outcomes: SlaOutcomesTable;
  sla_policies: SlaPoliciesTable;
  applied_slas: AppliedSlasTable;
  applied_sla_metrics: AppliedSlaMetricsTable;
  csat_surveys: CsatSurveysTable;
  setup_tokens: SetupTokensTable;
}

export interface SetupTokensTable {
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type RoleRow = Selectable<RolesTable>;
export type TeamRow = Selectable<TeamsTable>;
export type TagRow = Selectable<TagsTable>;
export type StatusRow = Selectable<ConversationStatusesTable>;

export const MESSAGE_TYPES = ['incoming', 'outgoing', 'activity'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const MESSAGE_STATUSES = ['received', 'pending', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const CONTENT_TYPES = ['text', 'html'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];
export const SENDER_TYPES = ['agent', 'contact'] as const;
export type SenderType = (typeof SENDER_TYPES)[number];
export const DISPOSITIONS = ['attachment', 'inline'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export interface MessageMeta {
  to?: string[];
  cc?: string[];
  bcc?: string[];
  from?: string[];
  subject?: string;
  [key: string]: unknown;
}

export interface ConversationsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  reference_number: Generated<string>;
  inbox_id: number;
  contact_id: number;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
  status_id: number;
  priority_id: number | null;
  subject: Generated<string>;
  snoozed_until: NullableTimestamp;
  waiting_since: NullableTimestamp;
  assignee_last_seen_at: NullableTimestamp;
  /** When the contact last read the conversation in the widget. */
  contact_last_seen_at: NullableTimestamp;
  first_reply_at: NullableTimestamp;
  /** first_reply_at − created_at, generated by the database (migration 0025). */
  first_response_seconds: GeneratedAlways<number | null>;
  last_reply_at: NullableTimestamp;
  resolved_at: NullableTimestamp;
  last_message: string | null;
  /** The first public message, shortened as last_message (migration 0502): the title of a conversation without subject. */
  first_message: string | null;
  last_message_at: NullableTimestamp;
  last_message_sender: SenderType | null;
  last_incoming_at: NullableTimestamp;
  /** The applied SLA and its deadlines (sla.deadlines.ts keeps them right). */
  sla_policy_id: Generated<number | null>;
  applied_sla_id: Generated<number | null>;
  first_response_deadline_at: Generated<Date | null>;
  resolution_deadline_at: Generated<Date | null>;
  next_response_deadline_at: Generated<Date | null>;
  next_response_met_at: Generated<Date | null>;
  next_sla_deadline_at: Generated<Date | null>;
  custom_attributes: Json<Record<string, unknown>>;
  meta: Json<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ConversationTagsTable {
  conversation_id: number;
  tag_id: number;
  created_at: Timestamp;
  /** The conversation's created_at, set by a trigger on insert (the tag report's window). */
  conversation_created_at: Generated<Date>;
}

export interface ConversationLastSeenTable {
  conversation_id: number;
  user_id: number;
  last_seen_at: Timestamp;
}

export interface MessagesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  conversation_id: number;
  type: MessageType;
  status: MessageStatus;
  content: Generated<string>;
  text_content: Generated<string>;
  content_type: ContentType;
  private: Generated<boolean>;
  sender_id: number | null;
  sender_type: SenderType;
  meta: Json<MessageMeta>;
  source_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MediaTable {
  id: Generated<number>;
  uuid: Generated<string>;
  filename: string;
  content_type: string;
  size: number;
  storage_key: string;
  disposition: Generated<Disposition>;
  /** The Content-ID of an inline part of an incoming mail (its HTML's `cid:` links), without brackets. */
  content_id: Generated<string | null>;
  message_id: number | null;
  uploaded_by: number | null;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  request_hash: string;
  message_id: number;
  created_at: Timestamp;
}

export const MACRO_VISIBILITIES = ['global', 'team', 'user'] as const;
export type MacroVisibility = (typeof MACRO_VISIBILITIES)[number];

export interface MacrosTable {
  id: Generated<number>;
  name: string;
  actions: Json<Record<string, unknown>>;
  visibility: Generated<MacroVisibility>;
  visible_when: ColumnType<string[], string[] | undefined, string[]>;
  message_content: Generated<string>;
  user_id: number | null;
  team_id: number | null;
  usage_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ConversationDatabase {
  conversations: ConversationsTable;
  conversation_tags: ConversationTagsTable;
  conversation_last_seen: ConversationLastSeenTable;
  messages: MessagesTable;
  media: MediaTable;
  idempotency_keys: IdempotencyKeysTable;
  macros: MacrosTable;
}
