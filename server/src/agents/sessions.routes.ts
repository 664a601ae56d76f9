// Password login (with its two-factor step) and logout, and the agent's own sessions. They live
// with the agents (login answers the agent record) so that auth, which agents, roles and teams use
// to invalidate credentials, imports no domain.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { login, type NewSession } from '../auth/auth.service.ts';
import { loginLimits } from '../auth/login-limits.ts';
import { clearSessionCookies, setSessionCookies } from '../auth/session-cookies.ts';
import { endMyOtherSessions, endMySession, listMySessions, logout, SESSION_LIST_LIMIT } from '../auth/sessions.service.ts';
import { completeMfaSignIn, mfaSetupRequired } from '../auth/two-factor.ts';
import type { AppDeps } from '../deps.ts';
import { auditActorOf, principalOf } from '../http/access.ts';
import { Envelope, errors, ok, TrueEnvelope } from '../http/schemas.ts';
import { MyAgentRecord } from './agents.schema.ts';
import { getAgent } from './agents.service.ts';
import { EndedSessions, SessionParams, SessionRecord } from './sessions.schema.ts';
import { MfaBody, MfaChallenge } from './two-factor.schema.ts';

const LoginBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);

function signInMeta(request: FastifyRequest) {
  return { userAgent: request.headers['user-agent'] ?? null, ip: request.ip, requestId: String(request.id) };
}

export function sessionRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Auth'];
    const limits = loginLimits(deps);
    // Every attempt of an address, on any account; failures are limited per account (auth/login-limits.ts).
    const rateLimit = { max: deps.config.loginRateLimitPerMinute * 10, timeWindow: 60_000 };
    /** The signed-in agent, as its new password session sees it. */
    const signedIn = async (session: NewSession) => ({
      ...(await getAgent(deps, session.userId)),
      mfa_setup_required: await mfaSetupRequired(deps, session.userId),
    });
    app.post(
      '/auth/login',
      {
        config: { auth: 'public', rateLimit },
        schema: {
          tags,
          summary: 'Log in with email and password',
          description:
            'Sets an HttpOnly session cookie `parley_session` and a readable `csrf_token` cookie, and answers the agent. Cookie-authenticated POST/PUT/PATCH/DELETE requests must send `X-CSRF-Token` equal to that cookie. Failed logins are limited per account and client address, and per account (docs/api.md, "Authentication").\n\n' +
            'With two-factor sign-in on, no session yet: the answer is `{"mfa_required": true, "challenge"}`, and POST /api/v1/auth/mfa with the challenge and a code signs in. `mfa_setup_required: true` in the agent: a role requires two-factor sign-in, not set up yet, and the session may only set it up (docs/api.md, "Two-factor sign-in").',
          body: LoginBody,
          response: { 200: Envelope(Type.Union([MyAgentRecord, MfaChallenge])), ...errors(400, 401, 429) },
        },
      },
      async (request, reply) => {
        const outcome = await login(deps, limits, { email: request.body.email, password: request.body.password, ...signInMeta(request) });
        if (outcome.session === undefined) return ok({ mfa_required: true as const, challenge: outcome.challenge });
        setSessionCookies(reply, deps, outcome.session);
        return ok(await signedIn(outcome.session));
      },
    );
    app.post(
      '/auth/mfa',
      {
        config: { auth: 'public', rateLimit },
        schema: {
          tags,
          summary: 'Second step of a password sign-in: a two-factor code',
          description:
            'Answers like POST /auth/login when it opens the session. `code`: the current code of the authenticator app (each is accepted once) or an unused recovery code (each works once). A challenge lives 5 minutes and dies at the fifth wrong code (401: sign in again); wrong codes count on the login limits of the account, like wrong passwords.',
          body: MfaBody,
          response: { 200: Envelope(MyAgentRecord), ...errors(400, 401, 429) },
        },
      },
      async (request, reply) => {
        const session = await completeMfaSignIn(deps, limits, { ...request.body, ...signInMeta(request) });
        setSessionCookies(reply, deps, session);
        return ok(await signedIn(session));
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
