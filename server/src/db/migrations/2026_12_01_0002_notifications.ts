// Frozen: never edit a migration once it has landed; add a new dated one.
// Notifications and their preferences (docs/api.md, "Working together"). One row per agent,
// cause (the domain event that caused it) and type: the unique key is what makes a
// notification exist exactly once, however many instances or retries fan the cause out.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table notifications (
    id bigserial primary key,
    agent_id integer not null references users (id) on delete cascade,
    type text not null check (type in ('assigned', 'team_assigned', 'mentioned', 'reply', 'sla_warning', 'sla_breached')),
    cause_event_id bigint not null,
    conversation_id integer not null references conversations (id) on delete cascade,
    message_id integer references messages (id) on delete set null,
    actor_type text check (actor_type in ('agent', 'contact', 'automation', 'system')),
    actor_id integer,
    actor_name text not null default '' check (char_length(actor_name) <= 300),
    title text not null check (char_length(title) <= 500),
    excerpt text not null default '' check (char_length(excerpt) <= 500),
    created_at timestamptz not null,
    read_at timestamptz,
    -- shown in the app (the list, the badge, the frame); false: made only for mail or push
    in_app boolean not null default true,
    -- mail of this notification: none (not wanted), pending (in the next digest), sent
    email_status text not null default 'none' check (email_status in ('none', 'pending', 'sent')),
    unique (agent_id, cause_event_id, type)
  )`,
  `create index notifications_agent_idx on notifications (agent_id, created_at desc, id desc) where in_app`,
  `create index notifications_unread_idx on notifications (agent_id, id) where read_at is null and in_app`,
  `create index notifications_digest_idx on notifications (agent_id, created_at) where email_status = 'pending'`,
  `create index notifications_created_idx on notifications (created_at)`,
  // the cascades of a deleted conversation or message (and their erasure) find their rows by index
  `create index notifications_conversation_idx on notifications (conversation_id)`,
  `create index notifications_message_idx on notifications (message_id) where message_id is not null`,
  `create table notification_settings (
    agent_id integer primary key references users (id) on delete cascade,
    types jsonb not null default '{}',
    email_digest boolean not null default false,
    sound boolean not null default true,
    title_count boolean not null default true,
    updated_at timestamptz not null
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
