// Frozen: never edit a migration once it has landed; add a new dated one.
// Who a single sign-on provider may sign in (docs/api.md, "Single sign-on (OIDC)", oidc.trust.ts):
// - `configured_by`: the agent who last set what makes the provider trustworthy (its issuer,
//   client id or client secret). A sign-in through it opens a session only for an agent whose
//   permissions that agent holds. Existing providers get none: nobody vouched for them under
//   this rule, so they sign in nobody until an agent enters their client secret again.
// - `oidc_identities`: the provider account (`sub`) an agent first signed in with, per provider.
//   A later sign-in of that agent with another account, or of that account as another agent, is
//   refused. Cleared when the provider's issuer or client id changes (another account namespace).
import { type Kysely, sql } from 'kysely';

const statements = [
  `alter table oidc_providers add column configured_by integer references users (id) on delete set null`,
  `create table oidc_identities (
    provider_id integer not null references oidc_providers (id) on delete cascade,
    user_id integer not null references users (id) on delete cascade,
    -- the provider's subject identifier (the ID token's sub)
    subject text not null,
    created_at timestamptz not null default now(),
    primary key (provider_id, user_id),
    unique (provider_id, subject)
  )`,
  `create index oidc_identities_user_idx on oidc_identities (user_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
