// Two-factor sign-in (TOTP, RFC 6238; docs/api.md, "Two-factor sign-in"). On the agent: the
// secret, encrypted under SECRET_KEY (security/encryption.ts), a pending one between setup and
// enable, and the last time step a code was accepted for (a code works once). Recovery codes and
// sign-in challenges are stored as sha256 hashes. Roles may require two-factor sign-in.
import { type Kysely, sql } from 'kysely';

const statements = [
  `alter table users
    add column two_factor_enabled boolean not null default false,
    add column two_factor_secret text,
    add column two_factor_pending_secret text,
    add column two_factor_last_step integer`,
  `create table two_factor_recovery_codes (
    id serial primary key,
    user_id integer not null references users (id) on delete cascade,
    code_hash text not null,
    used_at timestamptz
  )`,
  `create index two_factor_recovery_codes_user_idx on two_factor_recovery_codes (user_id)`,
  `create table mfa_challenges (
    id text primary key,
    user_id integer not null references users (id) on delete cascade,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    failures integer not null default 0
  )`,
  `create index mfa_challenges_user_idx on mfa_challenges (user_id)`,
  `create index mfa_challenges_expires_idx on mfa_challenges (expires_at)`,
  `alter table roles add column require_2fa boolean not null default false`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
