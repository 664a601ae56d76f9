// Invitations and password reset (docs/api.md, "Invitations and password reset"): the public
// routes a signed-out agent uses, and the administrator's "send the invitation again".
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { auditActorOf, principalOf, requestOrigin } from '../http/access.ts';
import { DateTime, Envelope, errors, IdParams, ok, TrueEnvelope } from '../http/schemas.ts';
import { assertMayManage } from './agents.service.ts';
import { confirmPasswordReset, inviteAgent, requestPasswordReset } from './password-tokens.service.ts';

const ResetBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254, format: 'trimmed-email', description: 'The address of the account' }) },
  { additionalProperties: false },
);

const ConfirmBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 512, description: 'The `token` of the mailed link (invitation or password reset)' }),
    password: Type.String({ minLength: 10, maxLength: 256, description: 'The new password: at least 10 characters' }),
  },
  { additionalProperties: false },
);

const Invitation = Type.Object(
  {
    agent_id: Type.Integer(),
    expires_at: DateTime,
  },
  { additionalProperties: false },
);

export function passwordTokenRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Like login: a budget per client address, shared by every instance through Redis.
    const limit = { max: deps.config.loginRateLimitPerMinute, timeWindow: 60_000 };
    app.post(
      '/auth/password-reset',
      {
        config: { auth: 'public', rateLimit: limit },
        schema: {
          tags: ['Auth'],
          summary: 'Ask for a password reset link',
          description:
            'Always answers 200 `true`, whatever the address: whether an account exists is never told. An enabled agent with this address is mailed a link to `{BASE_URL}/set-password?token=…`, valid 1 hour (at most 3 such mails per agent and hour). 422 for every address when system mail (SMTP_URL, MAIL_FROM) is not configured. Limited per client address (LOGIN_RATE_LIMIT_PER_MINUTE).',
          body: ResetBody,
          response: { 200: TrueEnvelope, ...errors(400, 422, 429) },
        },
      },
      async (request) => {
        await requestPasswordReset(deps, request.body.email);
        return ok(true as const);
      },
    );
    app.post(
      '/auth/password-reset/confirm',
      {
        config: { auth: 'public', rateLimit: limit },
        schema: {
          tags: ['Auth'],
          summary: 'Set a password with an invitation or reset link',
          description:
            "Takes the `token` of an invitation or password-reset link. Sets the password, ends every session of the agent and burns the link (and the agent's other links). A used, expired or unknown token, or one of a disabled agent or mailed to an address the agent no longer has, answers 400. Then sign in with `POST /auth/login`.",
          body: ConfirmBody,
          response: { 200: TrueEnvelope, ...errors(400, 429) },
        },
      },
      async (request) => {
        await confirmPasswordReset(deps, request.body, requestOrigin(request));
        return ok(true as const);
      },
    );
    app.post(
      '/agents/:id/invite',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags: ['Agents'],
          summary: 'Mail the agent a new invitation',
          description:
            "Mails a link to `{BASE_URL}/set-password?token=…`, valid 7 days; the agent's older invitation links stop working. 422 when system mail (SMTP_URL, MAIL_FROM) is not configured, the agent is disabled or has set a password already (it uses password reset); 403 for an agent holding a permission the caller does not; 404 for a deleted agent or a contact.",
          params: IdParams,
          response: { 200: Envelope(Invitation), ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        // Taking over another agent's account starts with its password: the same rule as setting it.
        await assertMayManage(deps, principalOf(request), request.params.id);
        return ok(await inviteAgent(deps, auditActorOf(request), request.params.id));
      },
    );
  };
}
