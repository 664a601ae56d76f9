// First run: whether Parley still needs its first admin, and creating it with the setup token.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AgentRecord } from '../agents/agents.schema.ts';
import { setSessionCookies } from '../auth/session-cookies.ts';
import type { AppDeps } from '../deps.ts';
import { EmailAddress, Envelope, errors, ok } from '../http/schemas.ts';
import { completeSetup, setupNeeded } from './first-run.service.ts';

const SetupState = Type.Object(
  {
    needed: Type.Boolean({ description: 'True while no agent exists: the web app then shows the setup form' }),
    base_url: Type.String({
      description:
        "The address Parley is served at (BASE_URL). Live updates accept a browser's session only from its origin: the web app opened at another address says so and links here.",
    }),
  },
  { title: 'SetupState' },
);

const SetupBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'The one-time setup token printed in the server log' }),
    email: EmailAddress(),
    password: Type.String({ minLength: 10, maxLength: 256, description: 'At least 10 characters' }),
    first_name: Type.String({ minLength: 1, maxLength: 128, pattern: '\\S' }),
    last_name: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: false },
);

export function firstRunRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Auth'];
    app.get(
      '/setup',
      {
        config: { auth: 'public' },
        schema: {
          tags,
          summary: 'Whether the first admin is still to be created',
          response: { 200: Envelope(SetupState), ...errors(400) },
        },
      },
      async () => ok({ needed: await setupNeeded(deps), base_url: deps.config.baseUrl }),
    );
    app.post(
      '/setup',
      {
        config: { auth: 'public', rateLimit: { max: deps.config.loginRateLimitPerMinute, timeWindow: 60_000 } },
        schema: {
          tags,
          summary: 'Create the first admin with the setup token',
          description:
            'Only while no agent exists (else 409). `token` is the one-time setup token the server printed in its log when it started without an agent (valid 24 hours; a wrong or expired one is a 403). Creates an agent with the Admin role, signs it in like `POST /auth/login` (session and CSRF cookies) and burns every setup token. Rate limited per client address like the login.',
          body: SetupBody,
          response: { 200: Envelope(AgentRecord), ...errors(400, 403, 409, 429) },
        },
      },
      async (request, reply) => {
        const { token, email, password, first_name, last_name } = request.body;
        const { admin, session } = await completeSetup(
          deps,
          { token, email, password, first_name, ...(last_name === undefined ? {} : { last_name }) },
          { userAgent: request.headers['user-agent'] ?? null, ip: request.ip },
        );
        setSessionCookies(reply, deps, session);
        return ok(admin);
      },
    );
  };
}
