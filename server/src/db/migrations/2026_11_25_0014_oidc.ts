// Frozen: never edit a migration once it has landed; add a new dated one.
// OIDC single sign-on (docs/api.md, "Single sign-on"): the identity providers agents may log
// in with. The client secret is encrypted at rest; the redirect URI is derived from BASE_URL.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table oidc_providers (
    id serial primary key,
    name text not null,
    -- a label for the sign-in page (Google, Microsoft, Keycloak, Custom…)
    provider text not null default 'Custom',
    -- the issuer URL, where discovery starts (/.well-known/openid-configuration)
    provider_url text not null,
    client_id text not null,
    -- encrypted at rest (security/encryption.ts)
    client_secret text not null,
    logo_url text not null default '',
    enabled boolean not null default true,
    -- create an agent on first sign-in of an unknown verified email, with this role
    auto_provision boolean not null default false,
    provision_role_id integer references roles (id) on delete set null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index oidc_providers_name_key on oidc_providers (lower(name))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
