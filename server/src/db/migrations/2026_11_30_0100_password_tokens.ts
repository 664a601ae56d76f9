// Single-use links that let an agent set a password: an invitation (7 days) or a password reset
// (1 hour) (agents/password-tokens.service.ts). Only the sha256 of a token is kept; the mailed
// link is the one place the token itself exists. A token names the address it was mailed to:
// once the agent's email changes, it no longer works.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table password_tokens (
    id bigserial primary key,
    token_hash text not null unique,
    user_id integer not null references users (id) on delete cascade,
    kind text not null check (kind in ('invitation', 'password_reset')),
    email text not null,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    used_at timestamptz
  )`,
  `create index password_tokens_user_idx on password_tokens (user_id, kind, created_at desc)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
