// Frozen: never edit a migration once it has landed; add a new dated one.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table roles (
    id serial primary key,
    name text not null check (char_length(name) between 1 and 50),
    description text not null default '' check (char_length(description) <= 300),
    permissions text[] not null default '{}',
    is_builtin boolean not null default false,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index roles_name_key on roles (lower(name))`,

  `create table users (
    id serial primary key,
    type text not null check (type in ('agent', 'contact', 'visitor')),
    email text check (char_length(email) <= 254),
    first_name text not null default '' check (char_length(first_name) <= 128),
    last_name text not null default '' check (char_length(last_name) <= 128),
    password_hash text,
    availability_status text not null default 'offline' check (availability_status in ('available', 'busy', 'away', 'offline')),
    availability_source text not null default 'user' check (availability_source in ('user', 'idle')),
    phone_number_country_code text check (char_length(phone_number_country_code) <= 8),
    phone_number text check (char_length(phone_number) <= 32),
    avatar_url text check (char_length(avatar_url) <= 2048),
    enabled boolean not null default true,
    last_active_at timestamptz,
    last_login_at timestamptz,
    custom_attributes jsonb not null default '{}',
    external_user_id text check (char_length(external_user_id) <= 256),
    api_key text,
    api_secret_hash text,
    api_key_last_used_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index users_agent_email_key on users (lower(email)) where type = 'agent' and deleted_at is null`,
  `create unique index users_contact_email_key on users (lower(email)) where type in ('contact', 'visitor') and deleted_at is null and external_user_id is null and email is not null`,
  `create unique index users_contact_external_id_key on users (external_user_id) where type in ('contact', 'visitor') and deleted_at is null and external_user_id is not null`,
  `create unique index users_api_key_key on users (api_key) where api_key is not null`,
  `create index users_type_live_idx on users (type, id) where deleted_at is null`,

  `create table user_roles (
    user_id integer not null references users (id) on delete cascade,
    role_id integer not null references roles (id) on delete cascade,
    primary key (user_id, role_id)
  )`,
  `create index user_roles_role_idx on user_roles (role_id)`,

  `create table teams (
    id serial primary key,
    name text not null check (char_length(name) between 1 and 140),
    emoji text not null default '' check (char_length(emoji) <= 50),
    conversation_assignment_type text not null default 'manual' check (conversation_assignment_type in ('round_robin', 'manual')),
    timezone text not null default 'UTC',
    business_hours_id integer,
    sla_policy_id integer,
    max_auto_assigned_conversations integer not null default 0 check (max_auto_assigned_conversations >= 0),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index teams_name_key on teams (lower(name))`,

  `create table team_members (
    team_id integer not null references teams (id) on delete cascade,
    user_id integer not null references users (id) on delete cascade,
    last_assigned_at timestamptz,
    created_at timestamptz not null default now(),
    primary key (team_id, user_id)
  )`,
  `create index team_members_user_idx on team_members (user_id)`,

  `create table tags (
    id serial primary key,
    name text not null check (char_length(name) between 1 and 100),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index tags_name_key on tags (lower(name))`,

  `create table conversation_statuses (
    id serial primary key,
    name text not null check (char_length(name) between 1 and 50),
    category text not null check (category in ('open', 'waiting', 'resolved')),
    is_system boolean not null default false,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index conversation_statuses_name_key on conversation_statuses (lower(name))`,

  `create table conversation_priorities (
    id serial primary key,
    name text not null unique,
    rank integer not null,
    created_at timestamptz not null default now()
  )`,

  `create table sessions (
    id text primary key,
    user_id integer not null references users (id) on delete cascade,
    expires_at timestamptz not null,
    user_agent text,
    ip text,
    created_at timestamptz not null default now()
  )`,
  `create index sessions_user_idx on sessions (user_id)`,
  `create index sessions_expires_idx on sessions (expires_at)`,

  // The outbox: every domain change appends here in its own transaction;
  // dispatchers (webhooks, sockets) consume it.
  `create table domain_events (
    id bigserial primary key,
    type text not null,
    payload jsonb not null,
    created_at timestamptz not null default now()
  )`,
  `create index domain_events_type_idx on domain_events (type, id)`,

  // The durable job queue, claimed with FOR UPDATE SKIP LOCKED.
  `create table jobs (
    id bigserial primary key,
    kind text not null,
    payload jsonb not null default '{}',
    run_at timestamptz not null default now(),
    attempts integer not null default 0,
    max_attempts integer not null default 8,
    locked_by text,
    locked_until timestamptz,
    last_error text,
    completed_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index jobs_due_idx on jobs (run_at) where completed_at is null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
