// Frozen: never edit a migration once it has landed; add a new dated one.
// The single sign-on provider that opened a session (null: a password sign-in). Such a session
// lasts only while the provider's configurer holds every permission of the session's agent
// (oidc.trust.ts, auth.service.ts): it is checked whenever the session is verified again. Deleting
// the provider ends the sessions it opened.
import { type Kysely, sql } from 'kysely';

const statements = [
  `alter table sessions add column oidc_provider_id integer references oidc_providers (id) on delete cascade`,
  `create index sessions_oidc_provider_idx on sessions (oidc_provider_id) where oidc_provider_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
