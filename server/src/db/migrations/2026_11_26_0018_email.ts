// Frozen: never edit a migration once it has landed; add a new dated one.
// The email channel (docs/email.md). `mail_ids` knows every Message-ID an email inbox saw or
// sent: it threads replies (In-Reply-To/References), and its unique key makes each mail count
// once, committed in the transaction that stores the mail. `email_cursors` is how far each
// inbox's reader got (UIDVALIDITY and last UID), advanced in that same transaction.
// `email_readers` is the lease that lets one instance read an inbox, and what admins see of
// it; `email_skipped` lists the mails that could not be taken in (too large, unreadable).
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table mail_ids (
    id bigserial primary key,
    inbox_id integer not null references inboxes (id) on delete cascade,
    -- the Message-ID header without its angle brackets, exactly as written (local parts are case-sensitive)
    header_id text not null,
    conversation_id integer references conversations (id) on delete set null,
    message_id integer references messages (id) on delete set null,
    direction text not null check (direction in ('incoming', 'outgoing')),
    -- what was made of an incoming mail: stored as a message, a bounce, an auto-reply, a duplicate of a sent one...
    outcome text not null default 'stored',
    created_at timestamptz not null default now()
  )`,
  `create unique index mail_ids_inbox_header_key on mail_ids (inbox_id, header_id)`,
  `create index mail_ids_conversation_idx on mail_ids (conversation_id)`,
  `create index mail_ids_message_idx on mail_ids (message_id) where message_id is not null`,
  `create table email_cursors (
    inbox_id integer primary key references inboxes (id) on delete cascade,
    mailbox text not null,
    uidvalidity bigint not null,
    last_uid bigint not null default 0,
    updated_at timestamptz not null default now()
  )`,
  `create table email_readers (
    inbox_id integer primary key references inboxes (id) on delete cascade,
    holder text,
    lease_until timestamptz,
    state text not null default 'stopped',
    connected_at timestamptz,
    last_checked_at timestamptz,
    last_error text,
    last_error_at timestamptz,
    updated_at timestamptz not null default now()
  )`,
  `create table email_skipped (
    id bigserial primary key,
    inbox_id integer not null references inboxes (id) on delete cascade,
    uidvalidity bigint,
    uid bigint,
    header_id text,
    sender text,
    subject text,
    size integer,
    reason text not null,
    created_at timestamptz not null default now()
  )`,
  `create index email_skipped_inbox_idx on email_skipped (inbox_id, id desc)`,
  `create index email_skipped_created_idx on email_skipped (created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
