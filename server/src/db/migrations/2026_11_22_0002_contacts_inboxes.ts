// Frozen: never edit a migration once it has landed; add a new dated one.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table inboxes (
    id serial primary key,
    uuid uuid not null default gen_random_uuid(),
    name text not null check (char_length(name) between 1 and 140),
    channel text not null check (channel in ('email', 'livechat')),
    enabled boolean not null default true,
    csat_enabled boolean not null default false,
    "from" text check (char_length("from") <= 320),
    config jsonb not null default '{}',
    deleted_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index inboxes_uuid_key on inboxes (uuid)`,
  `create index inboxes_live_idx on inboxes (id) where deleted_at is null`,

  `create table contact_notes (
    id serial primary key,
    contact_id integer not null references users (id) on delete cascade,
    user_id integer references users (id) on delete set null,
    note text not null check (char_length(note) between 1 and 10000),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index contact_notes_contact_idx on contact_notes (contact_id, created_at desc, id desc)`,
  `create index users_contacts_created_idx on users (created_at desc, id desc) where type in ('contact', 'visitor') and deleted_at is null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
