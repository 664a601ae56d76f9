// Frozen: never edit a migration once it has landed; add a new dated one.
// Conversations, messages, attachments, macros, idempotency keys and the search indexes.
import { type Kysely, sql } from 'kysely';

const statements = [
  // pg_trgm is database-wide: it lives in `public` so that dropping a test schema never drops it,
  // and the advisory lock keeps two processes migrating at once from racing on its creation.
  `select pg_advisory_xact_lock(727274)`,
  `create extension if not exists pg_trgm with schema public`,

  `create sequence conversation_reference_seq start with 100`,

  `create table conversations (
    id serial primary key,
    uuid uuid not null default gen_random_uuid(),
    reference_number text not null default nextval('conversation_reference_seq')::text,
    inbox_id integer not null references inboxes (id),
    contact_id integer not null references users (id),
    assigned_user_id integer references users (id) on delete set null,
    assigned_team_id integer references teams (id) on delete set null,
    status_id integer not null references conversation_statuses (id),
    priority_id integer references conversation_priorities (id),
    subject text not null default '' check (char_length(subject) <= 1000),
    snoozed_until timestamptz,
    waiting_since timestamptz,
    assignee_last_seen_at timestamptz,
    first_reply_at timestamptz,
    last_reply_at timestamptz,
    resolved_at timestamptz,
    last_message text,
    last_message_at timestamptz,
    last_message_sender text check (last_message_sender in ('agent', 'contact')),
    last_incoming_at timestamptz,
    custom_attributes jsonb not null default '{}',
    meta jsonb not null default '{}',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index conversations_uuid_key on conversations (uuid)`,
  `create unique index conversations_reference_key on conversations (reference_number)`,
  // One index per list: the default order is last_message_at desc with id as tiebreaker.
  `create index conversations_all_idx on conversations (last_message_at desc nulls last, id desc)`,
  `create index conversations_assigned_idx on conversations (assigned_user_id, last_message_at desc nulls last, id desc) where assigned_user_id is not null`,
  `create index conversations_unassigned_idx on conversations (last_message_at desc nulls last, id desc) where assigned_user_id is null`,
  `create index conversations_team_idx on conversations (assigned_team_id, last_message_at desc nulls last, id desc) where assigned_team_id is not null`,
  `create index conversations_contact_idx on conversations (contact_id, created_at desc)`,
  `create index conversations_inbox_idx on conversations (inbox_id)`,
  `create index conversations_status_idx on conversations (status_id)`,
  `create index conversations_created_idx on conversations (created_at)`,
  `create index conversations_snoozed_idx on conversations (snoozed_until) where snoozed_until is not null`,
  `create index conversations_subject_trgm_idx on conversations using gin (lower(subject) public.gin_trgm_ops)`,

  `create table conversation_tags (
    conversation_id integer not null references conversations (id) on delete cascade,
    tag_id integer not null references tags (id) on delete cascade,
    created_at timestamptz not null default now(),
    primary key (conversation_id, tag_id)
  )`,
  `create index conversation_tags_tag_idx on conversation_tags (tag_id, conversation_id)`,

  // Per agent: when they last looked at a conversation (unread counts, mark-unread).
  `create table conversation_last_seen (
    conversation_id integer not null references conversations (id) on delete cascade,
    user_id integer not null references users (id) on delete cascade,
    last_seen_at timestamptz not null,
    primary key (conversation_id, user_id)
  )`,

  `create table messages (
    id serial primary key,
    uuid uuid not null default gen_random_uuid(),
    conversation_id integer not null references conversations (id) on delete cascade,
    type text not null check (type in ('incoming', 'outgoing', 'activity')),
    status text not null check (status in ('received', 'pending', 'sent', 'failed')),
    content text not null default '',
    text_content text not null default '',
    content_type text not null check (content_type in ('text', 'html')),
    private boolean not null default false,
    sender_id integer references users (id) on delete set null,
    sender_type text not null check (sender_type in ('agent', 'contact')),
    meta jsonb not null default '{}',
    source_id text,
    search_vector tsvector generated always as (to_tsvector('simple', left(text_content, 100000))) stored,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index messages_uuid_key on messages (uuid)`,
  `create index messages_conversation_idx on messages (conversation_id, created_at desc, id desc)`,
  `create index messages_search_idx on messages using gin (search_vector)`,
  `create index messages_source_idx on messages (source_id) where source_id is not null`,

  `create table media (
    id serial primary key,
    uuid uuid not null default gen_random_uuid(),
    filename text not null check (char_length(filename) between 1 and 255),
    content_type text not null,
    size integer not null check (size >= 0),
    storage_key text not null,
    disposition text not null default 'attachment' check (disposition in ('attachment', 'inline')),
    message_id integer references messages (id) on delete set null,
    uploaded_by integer references users (id) on delete set null,
    created_at timestamptz not null default now()
  )`,
  `create unique index media_uuid_key on media (uuid)`,
  `create index media_message_idx on media (message_id) where message_id is not null`,

  // A retried POST with the same Idempotency-Key returns the message the first one created.
  `create table idempotency_keys (
    user_id integer not null references users (id) on delete cascade,
    key text not null check (char_length(key) between 1 and 255),
    request_hash text not null,
    message_id integer not null references messages (id) on delete cascade,
    created_at timestamptz not null default now(),
    primary key (user_id, key)
  )`,
  `create index idempotency_keys_created_idx on idempotency_keys (created_at)`,

  `create table macros (
    id serial primary key,
    name text not null check (char_length(name) between 1 and 255),
    actions jsonb not null default '{}',
    visibility text not null default 'global' check (visibility in ('global', 'team', 'user')),
    visible_when text[] not null default '{conversation_open,conversation_waiting,conversation_resolved}',
    message_content text not null default '',
    user_id integer references users (id) on delete cascade,
    team_id integer references teams (id) on delete cascade,
    usage_count integer not null default 0,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index macros_user_idx on macros (user_id) where user_id is not null`,
  `create index macros_team_idx on macros (team_id) where team_id is not null`,

  // Contact search (name, email, phone) without leading-wildcard scans.
  `create index users_contact_search_trgm_idx on users using gin ((lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(phone_number, ''))) public.gin_trgm_ops) where type in ('contact', 'visitor') and deleted_at is null`,
  // Round robin: a team member's open conversation count.
  `create index conversations_open_load_idx on conversations (assigned_user_id, status_id) where assigned_user_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
