// Password login and logout, and the agent's own sessions. They live with the agents (login
// answers the agent record) so that auth, which agents, roles and teams use to invalidate
// credentials, imports no domain.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { login } from '../auth/auth.service.ts';
import { loginLimits } from '../auth/login-limits.ts';
import { clearSessionCookies, setSessionCookies } from '../auth/session-cookies.ts';
import { endMyOtherSessions, endMySession, listMySessions, logout, SESSION_LIST_LIMIT } from '../auth/sessions.service.ts';
import type { AppDeps } from '../deps.ts';
import { auditActorOf, principalOf } from '../http/access.ts';
import { Envelope, errors, ok, TrueEnvelope } from '../http/schemas.ts';
import { AgentRecord } from './agents.schema.ts';
import { getAgent } from './agents.service.ts';
import { EndedSessions, SessionParams, SessionRecord } from './sessions.schema.ts';

const LoginBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);

export function sessionRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Auth'];
    const limits = loginLimits(deps);
    app.post(
      '/auth/login',
      {
        config: {
          auth: 'public',
          // Every attempt of an address, on any account; failures are limited per account (auth/login-limits.ts).
          rateLimit: { max: deps.config.loginRateLimitPerMinute * 10, timeWindow: 60_000 },
        },
        schema: {
          tags,
          summary: 'Log in with email and password',
          description:
            'Sets an HttpOnly session cookie `parley_session` and a readable `csrf_token` cookie. Cookie-authenticated POST/PUT/PATCH/DELETE requests must send `X-CSRF-Token` equal to that cookie. Failed logins are limited per account and client address, and per account (docs/api.md, "Authentication").',
          body: LoginBody,
          response: { 200: Envelope(AgentRecord), ...errors(400, 401, 429) },
        },
      },
      async (request, reply) => {
        const session = await login(deps, limits, {
          email: request.body.email,
          password: request.body.password,
          userAgent: request.headers['user-agent'] ?? null,
          ip: request.ip,
        });
        setSessionCookies(reply, deps, session);
        return ok(await getAgent(deps, session.userId));
      },
    );
    app.post(
      '/auth/logout',
      { schema: { tags, summary: 'End the current session', response: { 200: TrueEnvelope, ...errors(401, 403) } } },
      async (request, reply) => {
        await logout(deps, auditActorOf(request), principalOf(request));
        clearSessionCookies(reply);
        return ok(true as const);
      },
    );

    app.get(
      '/agents/me/sessions',
      {
        schema: {
          tags: ['Agents'],
          summary: 'List my sessions',
          description: `The caller's live sessions (where they are signed in), most recently seen first, at most ${SESSION_LIST_LIMIT}. \`current\` marks the session of this request; with API credentials none is current.`,
          response: { 200: Envelope(Type.Array(SessionRecord)), ...errors(401) },
        },
      },
      async (request) => ok(await listMySessions(deps, principalOf(request))),
    );
    app.delete(
      '/agents/me/sessions/:id',
      {
        schema: {
          tags: ['Agents'],
          summary: 'End one of my sessions',
          description:
            'Its next request, and its open agent sockets, are refused at once on every server instance. Ending the current session signs out (its cookies are cleared). An unknown id, or another agent’s session, is a 404.',
          params: SessionParams,
          response: { 200: TrueEnvelope, ...errors(401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { current } = await endMySession(deps, auditActorOf(request), principalOf(request), request.params.id);
        if (current) clearSessionCookies(reply);
        return ok(true as const);
      },
    );
    app.delete(
      '/agents/me/sessions',
      {
        schema: {
          tags: ['Agents'],
          summary: 'End my other sessions',
          description:
            'Ends every session of the caller but the current one, at once on every server instance. Called with API credentials (no current session), it ends all of them; the credentials themselves keep working.',
          response: { 200: Envelope(EndedSessions), ...errors(401, 403) },
        },
      },
      async (request) => ok({ ended: await endMyOtherSessions(deps, auditActorOf(request), principalOf(request)) }),
    );
  };
}
