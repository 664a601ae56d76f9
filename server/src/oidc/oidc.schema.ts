// OIDC single sign-on: the provider record (the spec's "OIDC provider"), its bodies, the public
// list for a sign-in page, and the queries of the browser routes (docs/api.md, Single sign-on).
import { Type } from 'typebox';
import { DateTime, HttpUrl, HttpUrlOrEmpty, Nullable } from '../http/schemas.ts';
import { SECRET_MASK } from '../security/encryption.ts';

export const OIDC_NAME_MAX = 100;
export const OIDC_CREDENTIAL_MAX = 500;
export const OIDC_LABEL_MAX = 50;

export const OidcProviderRecord = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    name: Type.String(),
    enabled: Type.Boolean(),
    client_id: Type.String(),
    client_secret: Type.String({ description: `Always "${SECRET_MASK}": the secret is stored encrypted and never answered.` }),
    provider: Type.String({ description: 'A label for the sign-in page: Google, Microsoft, Keycloak, Authentik, Custom…' }),
    provider_url: Type.String({ description: 'The issuer URL; discovery reads `{provider_url}/.well-known/openid-configuration`.' }),
    redirect_uri: Type.String({ description: 'Register this at the provider: `{BASE_URL}/api/v1/oidc/{id}/finish`.' }),
    logo_url: Type.String({ description: 'Absolute http(s) URL of a logo for the sign-in button, or empty.' }),
    auto_provision: Type.Boolean({ description: 'Create an agent on the first sign-in of a verified email no agent has.' }),
    provision_role_id: Nullable(Type.Integer({ description: 'The role such an agent gets.' })),
    configured_by: Nullable(
      Type.Object(
        {
          id: Type.Integer(),
          name: Type.String(),
          enabled: Type.Boolean({ description: 'False when that agent is disabled or deleted: the provider then signs nobody in.' }),
        },
        {
          title: 'OidcConfigurer',
          description:
            'The agent who last set provider_url, client_id or client_secret. The provider signs in only agents whose permissions this agent holds (all of them for an Admin); null or disabled: nobody. Send the client secret again to become it.',
        },
      ),
    ),
  },
  { title: 'OidcProvider' },
);

/** The spec's exception to the envelope: `GET /api/v1/oidc/{id}` answers `success: true` in place of `status`. */
export const OidcProviderSpecEnvelope = Type.Object({ success: Type.Literal(true), data: OidcProviderRecord });

export const OidcProviderBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: OIDC_NAME_MAX,
      pattern: '\\S',
      description: `Trimmed, 1..${OIDC_NAME_MAX} characters; unique case-insensitively`,
    }),
    provider: Type.Optional(Type.String({ minLength: 1, maxLength: OIDC_LABEL_MAX, pattern: '\\S', default: 'Custom' })),
    provider_url: HttpUrl({
      description:
        'The issuer URL, exactly as the provider states it (`issuer` in its discovery document). https, or http for a loopback or private-network host only.',
    }),
    client_id: Type.String({ minLength: 1, maxLength: OIDC_CREDENTIAL_MAX, pattern: '\\S' }),
    client_secret: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: OIDC_CREDENTIAL_MAX,
        description: `Required on creation. On update, leave it out or send "${SECRET_MASK}" to keep the stored secret.`,
      }),
    ),
    logo_url: Type.Optional(HttpUrlOrEmpty({ default: '' })),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    auto_provision: Type.Optional(Type.Boolean({ default: false })),
    provision_role_id: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'An existing role id; required when auto_provision is true' })),
    ),
  },
  { additionalProperties: false, title: 'OidcProviderBody' },
);

export const EnabledOidcProvider = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    provider: Type.String(),
    logo_url: Type.String(),
    login_url: Type.String({ description: 'Send the browser here (add `?next=/path` to come back to a page)' }),
  },
  { title: 'EnabledOidcProvider' },
);

export const OidcDiscoveryReport = Type.Object(
  {
    issuer: Type.String(),
    authorization_endpoint: Type.String(),
    token_endpoint: Type.String(),
    userinfo_endpoint: Nullable(Type.String()),
    jwks_uri: Nullable(Type.String()),
    scopes_supported: Nullable(Type.Array(Type.String())),
    code_challenge_methods_supported: Nullable(Type.Array(Type.String())),
    token_endpoint_auth_method: Type.String({ description: 'How Parley will authenticate to the token endpoint' }),
  },
  { title: 'OidcDiscoveryReport' },
);

export const LoginQuery = Type.Object(
  {
    next: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: 'Where to land after signing in: a path on this site (`/inbox/3`), never another origin. Default `/`.',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * What the provider sends back to the redirect URI (RFC 6749 §4.1.2, RFC 9207). Providers add
 * parameters of their own (Keycloak `session_state`, Google `scope`, `authuser`, `hd`…): those are
 * accepted and ignored, the one exception to the closed query strings of the API.
 */
export const FinishQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    iss: Type.Optional(Type.String({ maxLength: 2048 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
    error_description: Type.Optional(Type.String({ maxLength: 2048 })),
    error_uri: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: true },
);
