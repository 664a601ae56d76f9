// Two-factor sign-in of the calling agent (setup, enable, disable) and an admin's reset of
// another's (docs/api.md, "Two-factor sign-in"). The rules: auth/two-factor.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { loginLimits } from '../auth/login-limits.ts';
import { disableTwoFactor, enableTwoFactor, resetTwoFactor, setupTwoFactor } from '../auth/two-factor.ts';
import type { AppDeps } from '../deps.ts';
import { DataError } from '../errors.ts';
import { auditActorOf, principalOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope } from '../http/schemas.ts';
import { assertMayManage, getAgent } from './agents.service.ts';
import { AgentRecord } from './agents.schema.ts';
import { DisableBody, EnableBody, RecoveryCodes, TwoFactorSetup } from './two-factor.schema.ts';

export function twoFactorRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Agents'];
    const limits = loginLimits(deps);
    // Codes are guessable one by one: their checks are limited like password logins.
    const rateLimit = { max: deps.config.loginRateLimitPerMinute * 10, timeWindow: 60_000 };
    app.post(
      '/agents/me/2fa/setup',
      {
        schema: {
          tags,
          summary: 'Start setting up two-factor sign-in',
          description:
            'A new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s), pending until POST /agents/me/2fa/enable confirms it with a code; calling again replaces the pending secret. The secret is stored encrypted and shown only here. 422 when two-factor sign-in is already on.',
          response: { 200: Envelope(TwoFactorSetup), ...errors(401, 403, 422) },
        },
      },
      async (request) => ok(await setupTwoFactor(deps, principalOf(request).userId)),
    );
    app.post(
      '/agents/me/2fa/enable',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary: 'Turn two-factor sign-in on',
          description:
            'Confirms the pending secret with its current code (400 when wrong). Answers 10 recovery codes, each good for one sign-in without the app, shown only here. 422 without a pending secret or when already on.',
          body: EnableBody,
          response: { 200: Envelope(RecoveryCodes), ...errors(400, 401, 403, 422) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        return ok({ recovery_codes: await enableTwoFactor(deps, auditActorOf(request), principal.userId, request.body.code) });
      },
    );
    app.post(
      '/agents/me/2fa/disable',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary: 'Turn two-factor sign-in off',
          description:
            '`password`: the current password (not needed by an agent that has none, signing in only by single sign-on); `code`: a code of the app or an unused recovery code. 400 when either is wrong, 422 when two-factor sign-in is off. Wrong attempts count on the login limits of the account (429).',
          body: DisableBody,
          response: { 200: TrueEnvelope, ...errors(400, 401, 403, 422, 429) },
        },
      },
      async (request) => {
        await disableTwoFactor(deps, auditActorOf(request), principalOf(request).userId, request.body, {
          loginLimits: limits,
          ip: request.ip,
        });
        return ok(true as const);
      },
    );
    app.delete(
      '/agents/:id/2fa',
      {
        config: { permission: 'users:manage' },
        schema: {
          tags,
          summary: "Reset an agent's two-factor sign-in",
          description:
            'Turns it off (its secret and recovery codes are forgotten): the agent signs in with its password alone and may set it up again. Needs every permission the agent holds (403 otherwise), like setting its password; 422 for the caller itself (it uses POST /agents/me/2fa/disable). Answers the agent.',
          params: IdParams,
          response: { 200: Envelope(AgentRecord), ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        if (request.params.id === principal.userId)
          throw new DataError('Turn your own two-factor sign-in off with POST /api/v1/agents/me/2fa/disable (password and code)');
        await assertMayManage(deps, principal, request.params.id);
        await resetTwoFactor(deps, auditActorOf(request), request.params.id);
        return ok(await getAgent(deps, request.params.id));
      },
    );
  };
}
